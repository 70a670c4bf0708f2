"""Hand-checked scenarios for every rule, through the replay contract and the Python API."""

from __future__ import annotations

from typing import Any

import pytest

from companion.enigma import RULES, EnigmaIllegalMoveError, new_game, place
from companion.enigma.game import EnigmaOptions, PlaceMove, RoundMove, apply
from companion.enigma.tiles import Tile
from companion.record import parse_record
from companion.replay import EXIT_ILLEGAL, EXIT_NOT_A_RECORD, EXIT_OK, replay
from tests.companion.enigma import scenarios as sc


def run(doc: dict[str, Any]) -> tuple[int, dict[str, Any] | None, str | None]:
    outcome = replay(parse_record(doc))
    return outcome.exit_code, outcome.result, outcome.error


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        (sc.SEED_EXAMPLE, sc.SEED_EXAMPLE_RESULT),
        (sc.TWO_AT_ONCE, sc.TWO_AT_ONCE_RESULT),
        (sc.MERGE, sc.MERGE_RESULT),
    ],
    ids=["seed-example", "two-at-once", "merge"],
)
def test_scenarios_replay_to_the_hand_checked_result(
    doc: dict[str, Any], expected: dict[str, Any]
) -> None:
    code, result, error = run(doc)
    assert (code, error) == (EXIT_OK, None)
    assert result == expected


def _state_after(doc: dict[str, Any], events: int) -> Any:
    state = RULES.new_game(doc["players"], doc["options"])
    for i, event in enumerate(doc["events"][:events], start=1):
        state = RULES.apply_event(state, event, index=i)
    return state


def test_seed_example_breakdown_lists_each_networker() -> None:
    doc = sc.SEED_EXAMPLE
    state = _state_after(doc, 5)
    move = RULES_parse(doc["events"][5], 6)
    state, scored = place(state, move)
    assert len(scored) == 1
    (system,) = scored
    assert dict(system.colour_counts) == {"red": 2, "blue": 1, "yellow": 1}
    assert sorted((a.player, a.colour, a.points) for a in system.awards) == [
        ("Black", "red", 2), ("White", "blue", 1)]
    assert state.last_scored == scored
    assert system.to_json()["colours"] == {"blue": 1, "red": 2, "yellow": 1}


def RULES_parse(event: dict[str, Any], index: int) -> PlaceMove:
    from companion.enigma.rules import parse_event

    move = parse_event(event, index=index)
    assert isinstance(move, PlaceMove)
    return move


def test_two_systems_closed_at_once_are_both_in_the_breakdown() -> None:
    state = _state_after(sc.TWO_AT_ONCE, 1)
    state, scored = place(state, RULES_parse(sc.TWO_AT_ONCE["events"][1], 2))
    assert len(scored) == 2
    by_points = sorted(s.points_by_player().get("Ana", 0) for s in scored)
    assert by_points == [0, 2]


def test_merge_puts_two_red_networkers_in_one_open_system_and_refuses_a_third() -> None:
    doc = sc.MERGE
    state = _state_after(doc, 7)  # before Ben's merging tile
    # A variant of the last tile that merges but leaves a port open (S) and has a red cell.
    merging = Tile.make({"e": "red"}, [("N", "e"), ("e", "E"), ("e", "S")])
    merged, scored = place(state, PlaceMove("Ben", merging, (-1, 1), 0, None))
    assert scored == ()
    system = merged.board.system_of_cell((-1, 1), "e")
    assert not system.is_closed
    assert sorted((n.player, n.colour) for n in system.networkers) == [
        ("Ana", "red"), ("Ben", "red")]
    with pytest.raises(EnigmaIllegalMoveError, match="rule 'networker'.*red cell"):
        place(state, PlaceMove("Ben", merging, (-1, 1), 0, "e"))


def test_networker_refused_names_the_rule_and_exits_3() -> None:
    doc = sc.record(
        ["Ana", "Ben"],
        [
            sc.rnd({"Ana": "weight", "Ben": "conduit"}, ["Ana", "Ben"]),
            sc.put("Ana", {"a": "red"}, [["W", "a"]], [1, 0], networker="a"),
            sc.put("Ben", {"a": "red"}, [["E", "a"]], [-1, 0], networker="a"),
        ],
    )
    code, result, error = run(doc)
    assert code == EXIT_ILLEGAL
    assert error is not None and error.startswith("event 3 (place): rule 'networker'")
    assert "Ana's networker already sits on a red cell" in error
    assert result is not None and result["networkers"] == {"Ana": 1, "Ben": 0}


def test_networker_rule_others_lets_a_player_double_her_own_colour() -> None:
    opts = EnigmaOptions(networker_rule="others")
    state = apply(new_game(["Ana", "Ben"], opts),
                  RoundMove.make({"Ana": "weight", "Ben": "angular"}, ["Ana"]))
    state = apply(state, PlaceMove("Ana", Tile.make({"a": "red"}, [("W", "a")]), (1, 0), 0, "a"))
    state = apply(state, RoundMove.make({"Ana": "weight", "Ben": "angular"}, ["Ana", "Ben"]))
    # Round 2 starts with Ben; he did not place, Ana may (he is skipped).
    red_w = Tile.make({"a": "red", "b": "blue"}, [("E", "a"), ("a", "N")])
    assert state.board.networker_problem((1, 0), "a", "Ana", rule="others") is not None  # taken
    state = apply(state, PlaceMove("Ana", red_w, (-1, 0), 0, "a"))
    assert state.board.networkers_of("Ana") == 2


def _caps_game(**options: Any) -> Any:
    state = new_game(["Ana", "Ben"], EnigmaOptions(require_edge_match=False, **options))
    return state


def test_full_supply_refuses_a_fourth_networker() -> None:
    state = _caps_game()
    cap = Tile.make({"a": "red"}, [("N", "a")])
    for k in range(1, 4):
        state = apply(state, RoundMove.make({"Ana": "weight", "Ben": "conduit"}, ["Ana"]))
        state = apply(state, PlaceMove("Ana", cap, (k, 0), 0, "a"))
        assert state.networkers_in_supply("Ana") == 3 - k
        assert state.networkers_on_board("Ana") == k
    state = apply(state, RoundMove.make({"Ana": "weight", "Ben": "conduit"}, ["Ana"]))
    assert state.networker_choices("Ana", cap, (4, 0), 0) == ()
    with pytest.raises(EnigmaIllegalMoveError, match="rule 'networker supply': Ana has no"):
        apply(state, PlaceMove("Ana", cap, (4, 0), 0, "a"))
    # Without a networker the tile still goes down (seed 001, note 2).
    state = apply(state, PlaceMove("Ana", cap, (4, 0), 0, None))
    assert state.networkers_on_board("Ana") == 3


def test_without_edge_matching_a_port_facing_a_blank_side_stays_open() -> None:
    state = _caps_game()
    state = apply(state, RoundMove.make({"Ana": "weight", "Ben": "conduit"}, ["Ana"]))
    state = apply(state, PlaceMove("Ana", Tile.make({"a": "red"}, [("N", "a")]), (1, 0), 0, "a"))
    # The crossroads' E port faces a blank W side: crossroads stays open, as does the cap.
    assert state.board.system_counts() == (2, 0)


@pytest.mark.parametrize(
    ("ben_keeps", "winners", "networkers"),
    [(False, ["Ana", "Ben"], {"Ana": 0, "Ben": 0}), (True, ["Ben"], {"Ana": 0, "Ben": 1})],
    ids=["shared", "networkers-break-the-tie"],
)
def test_end_of_round_at_15_with_ties(
    ben_keeps: bool, winners: list[str], networkers: dict[str, int]
) -> None:
    doc = sc.tie(ben_keeps)
    code, result, _ = run(doc)
    assert code == EXIT_OK
    assert result is not None
    assert result["scores"] == {"Ana": 15, "Ben": 15}
    assert result["over"] is True
    assert result["winners"] == winners
    assert result["networkers"] == networkers
    # A further round is refused, and the result before it shows the finished game.
    doc["events"].append(sc.rnd({"Ana": "weight", "Ben": "conduit"}, ["Ana"]))
    code, result, error = run(doc)
    assert code == EXIT_ILLEGAL
    assert error is not None and "rule 'game over'" in error
    assert result is not None and result["over"] is True and result["winners"] == winners


def test_mid_round_target_lets_the_round_finish() -> None:
    state = RULES.new_game(["Ana", "Ben"], {"target": 3})
    events = [
        sc.rnd({"Ana": "weight", "Ben": "conduit"}, ["Ana", "Ben"]),
        sc.put("Ana", {"a": "red"}, [["W", "a"]], [1, 0], networker="a"),
        sc.put("Ben", {"a": "blue"}, [["E", "a"]], [-1, 0]),
        sc.rnd({"Ana": "weight", "Ben": "conduit"}, ["Ana", "Ben"]),
        # Ben starts round 2 and caps N with two reds; Ana does not place (skipped).
        sc.put("Ben", {"a": "red", "b": "red"}, [["S", "a"], ["a", "b"]], [0, -1]),
    ]
    for i, event in enumerate(events, start=1):
        state = RULES.apply_event(state, event, index=i)
    # Now round 3: Ana (start) closes with one more red: 1 + 2 + 1 = 4 reds for Ana's networker,
    # Ben still has to place in this round, so the game is not over yet.
    state = RULES.apply_event(state, sc.rnd({"Ana": "weight", "Ben": "conduit"},
                                            ["Ana", "Ben"]), index=6)
    state = RULES.apply_event(state, sc.put("Ana", {"a": "red"}, [["N", "a"]], [0, 1]), index=7)
    assert state.scores == (4, 0)
    assert RULES.result(state, complete=False)["over"] is False
    assert RULES.result(state, complete=True)["over"] is True
    state = RULES.apply_event(state, sc.put("Ben", {"a": "red"}, [["E", "a"]], [2, 0]), index=8)
    assert RULES.result(state, complete=False)["over"] is True
    assert RULES.result(state, complete=False)["winners"] == ["Ana"]


@pytest.mark.parametrize(
    ("event", "rule"),
    [
        (sc.rnd({"Ana": "weight", "Ben": "weight"}, []), "rule 'choices'"),
        (sc.rnd({"Ana": "weight"}, []), "Ben did not"),
        (sc.rnd({"Ana": "weight", "Ben": "poker"}, []), "'poker'"),
        (sc.rnd({"Ana": "weight", "Ben": "conduit", "Zed": "angular"}, []), "unknown player"),
        (sc.rnd({"Ana": "weight", "Ben": "conduit"}, ["Ana", "Ana"]), "rule 'solve'"),
        (sc.put("Ana", {"a": "red"}, [["W", "a"]], [1, 0]), "rule 'round'"),
    ],
)
def test_first_event_rules(event: dict[str, Any], rule: str) -> None:
    code, _, error = run(sc.record(["Ana", "Ben"], [event]))
    assert code == EXIT_ILLEGAL
    assert error is not None and rule in error


R1 = sc.rnd({"Ana": "weight", "Ben": "conduit"}, ["Ana", "Ben"])


@pytest.mark.parametrize(
    ("events", "rule"),
    [
        ([sc.put("Ana", {"a": "red"}, [["W", "a"]], [2, 0])], "rule 'adjacency'"),
        ([sc.put("Ana", {"a": "red"}, [["W", "a"]], [0, 0])], "rule 'empty square'"),
        ([sc.put("Ana", {"a": "red"}, [["N", "a"]], [1, 0])], "rule 'edge matching'"),
        ([sc.put("Ana", {"a": "red"}, [["W0", "a"]], [1, 0])], "rule 'edge matching'"),
        ([sc.put("Ana", {"a": "red"}, [["W", "a"]], [1, 0], rotation=4)], "rule 'rotation'"),
        ([sc.put("Ana", {"a": "red"}, [["W", "x"]], [1, 0])], "rule 'tile schema'"),
        ([sc.put("Ana", {"a": "red"}, [["W", "a"]], [1, 0], networker="b")], "no cell 'b'"),
        ([sc.put("Ben", {"a": "red"}, [["W", "a"]], [1, 0]),
          sc.put("Ana", {"a": "red"}, [["E", "a"]], [-1, 0])], "rule 'turn order'"),
        ([sc.put("Ana", {"a": "red"}, [["W", "a"]], [1, 0]),
          sc.put("Ana", {"a": "red"}, [["E", "a"]], [-1, 0])], "already placed"),
        ([sc.put("Cleo", {"a": "red"}, [["W", "a"]], [1, 0])], "unknown player 'Cleo'"),
    ],
)
def test_placement_rules(events: list[dict[str, Any]], rule: str) -> None:
    code, _, error = run(sc.record(["Ana", "Ben"], [R1, *events]))
    assert code == EXIT_ILLEGAL, error
    assert error is not None and rule in error


def test_non_solver_may_not_place() -> None:
    r1 = sc.rnd({"Ana": "weight", "Ben": "conduit"}, ["Ana"])
    code, _, error = run(sc.record(["Ana", "Ben"], [r1, sc.put("Ben", {}, [["W", "E"]], [1, 0])]))
    assert code == EXIT_ILLEGAL
    assert error is not None and "did not solve" in error


@pytest.mark.parametrize(
    ("doc", "words"),
    [
        (sc.record(["Ana", "Ben"], [{"type": "pass"}]), "unknown event type 'pass'"),
        (sc.record(["Ana", "Ben"], [{"type": "round", "choices": {}}]), "missing field 'solved'"),
        (sc.record(["Ana", "Ben"], [R1, {**sc.put("Ana", {}, [], [1, 0]), "at": [1]}]),
         "two integers"),
        (sc.record(["Ana", "Ben"], [R1, {**sc.put("Ana", {}, [], [1, 0]), "rotation": "1"}]),
         "'rotation' must be an integer"),
        (sc.record(["Ana", "Ben"], [], target="15"), "'target' must be an integer"),
        (sc.record(["Ana", "Ben"], [], target=0), "at least 1"),
        (sc.record(["Ana", "Ben"], [], require_edge_match=1), "true or false"),
        (sc.record(["Ana", "Ben"], [], start={"cells": {}, "links": [["Q", "N"]]}), "start"),
        (sc.record(["Ana"], []), "2-4 players"),
    ],
)
def test_malformed_records_exit_2(doc: dict[str, Any], words: str) -> None:
    code, result, error = run(doc)
    assert code == EXIT_NOT_A_RECORD
    assert result is None
    assert error is not None and words in error


def test_empty_record_and_unknown_options() -> None:
    code, result, _ = run(sc.record(["Ana", "Ben", "Cleo"], [], colour="blue"))
    assert code == EXIT_OK
    assert result == {
        "game": "enigma", "over": False, "winners": [], "scores": {"Ana": 0, "Ben": 0, "Cleo": 0},
        "networkers": {"Ana": 0, "Ben": 0, "Cleo": 0}, "systems": {"open": 1, "closed": 0},
    }


def test_start_player_passes_clockwise_and_solvers_place_in_seat_order() -> None:
    state = new_game(["Ana", "Ben", "Cleo"])
    choices = {"Ana": "weight", "Ben": "conduit", "Cleo": "angular"}
    starts = []
    for _ in range(4):
        state = apply(state, RoundMove.make(choices, ["Ana", "Ben", "Cleo"]))
        starts.append(state.start_player)
        assert state.pending == state.seat_order()
    assert starts == ["Ana", "Ben", "Cleo", "Ana"]
    state = apply(new_game(["Ana", "Ben", "Cleo"]), RoundMove.make(choices, ["Ana", "Ben"]))
    state = apply(state, RoundMove.make(choices, ["Cleo", "Ana"]))
    assert state.pending == ("Cleo", "Ana")  # round 2 starts with Ben, then Cleo, then Ana


def test_legal_placements_list_squares_and_rotations() -> None:
    state = new_game(["Ana", "Ben"])
    cap = Tile.make({"a": "red"}, [("N", "a")])
    found = {(p.at, p.rotation) for p in state.legal_placements(cap)}
    # A cap fits each side of the crossroads only with its port towards the start tile.
    assert found == {((0, -1), 2), ((1, 0), 3), ((0, 1), 0), ((-1, 0), 1)}
    straight = Tile.make({}, [("N", "S")])
    # A straight fits each side pointing at the start tile, in 2 equivalent rotations.
    assert len(state.legal_placements(straight)) == 8
    assert len(state.legal_placements(straight, distinct=True)) == 4
    assert len(state.board.legal_placements(straight, require_edge_match=False)) == 16
