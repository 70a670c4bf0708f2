"""Placement rules and their errors, hands, scoring, ties, the tally, snapshots, notation."""

from __future__ import annotations

import dataclasses
import random

import pytest

from companion.errors import IllegalMoveError
from companion.indigo import (
    ROUTE_CELLS,
    BoardSnapshot,
    Gem,
    NotationError,
    Placement,
    PlacementError,
    Rule,
    SetupError,
    Tally,
    Tile,
    all_legal_placements,
    apply,
    board_snapshot,
    format_placement,
    format_state,
    legal_placements,
    new_game,
    parse_cell,
    parse_placement,
    parse_point,
    parse_state,
    parse_tile,
    predict,
    scores,
    winners,
)
from companion.indigo.state import rank_winners


def _refused(state: object, text: str, rule: Rule, *, player: int | None = None) -> str:
    with pytest.raises(PlacementError) as info:
        apply(state, parse_placement(text), player=player)  # type: ignore[arg-type]
    assert info.value.rule is rule
    assert isinstance(info.value, IllegalMoveError) and isinstance(info.value, ValueError)
    assert rule.value in str(info.value)
    return str(info.value)


def test_placement_errors_name_the_rule() -> None:
    state = new_game(2)
    assert "(9, 9)" in _refused(state, "T1r0@9,9", Rule.OFF_BOARD)
    assert "treasure" in _refused(state, "T1r0@0,0", Rule.TREASURE_CELL)
    _refused(state, "T1r0@0,-4", Rule.TREASURE_CELL)
    _refused(state, "T0r0@1,-3", Rule.NOT_YOUR_TURN, player=1)
    _refused(state, "T0r0@1,-3", Rule.UNKNOWN_PLAYER, player=2)
    after = apply(state, parse_placement("T0r0@1,-3"), player=0)
    assert "T0r0" in _refused(after, "T2r0@1,-3", Rule.OCCUPIED)
    # T4r1 joins 0-1, the two exits of the g0 cell (1,-4)
    assert "gateway cell (1, -4)" in _refused(state, "T4r1@1,-4", Rule.BLOCKING)
    _refused(state, "T2r1@1,-4", Rule.BLOCKING)
    _refused(state, "T3r1@1,-4", Rule.BLOCKING)


def test_a_chain_of_tiles_joining_two_exits_is_allowed() -> None:
    # g0 cells (1,-4) and (2,-4): T0r0 joins exit 0 of (1,-4) to its edge 2; T0r2 joins the
    # facing edge 5 of (2,-4) to its exit 1. Exit to exit over two tiles: legal.
    state = apply(new_game(2), parse_placement("T0r0@1,-4"))
    state = apply(state, parse_placement("T0r2@2,-4"))
    assert state.tiles[(1, -4)].other_end(0) == 2
    assert state.tiles[(2, -4)].other_end(5) == 1


def test_type_exhausted_after_the_box_count() -> None:
    state = new_game(2)
    far = ["-2,0", "2,-2", "-2,2", "2,0", "0,2", "0,-2"]  # ring 2: no gem nearby
    for cell in far:
        state = apply(state, parse_placement(f"T1r0@{cell}"))
    assert state.remaining(1) == 0
    assert legal_placements(state, 1) == []
    assert "all 6 tiles of type 1" in _refused(state, "T1r0@-1,2", Rule.TYPE_EXHAUSTED)


def test_game_over_refuses_further_placements() -> None:
    state = parse_state(
        "2p P1 | tiles T1r0@1,-3 | gems E@1,-3:0 | centre 0 | hauls 0/0/0 0/0/0 | "
        "reserve 6/5/1 | removed 0/0/0"
    )
    state = apply(state, parse_placement("T1r0@1,-4"))
    assert state.is_over and legal_placements(state, 0) == []
    _refused(state, "T0r0@2,-2", Rule.GAME_OVER)


def test_legal_placements_cover_every_empty_cell_without_blocking() -> None:
    state = new_game(2)
    for kind in range(5):
        placements = legal_placements(state, kind)
        assert {p.cell for p in placements} == set(ROUTE_CELLS)
        for p in placements:
            assert not p.tile.is_blocking(p.cell)
            apply(state, p)  # each is accepted
        every = legal_placements(state, kind, all_rotations=True)
        assert len(every) >= len(placements)
    # 54 cells; g-cells lose the blocked orientations (type 4 at a gateway cell: 1 of 2 left)
    assert len(legal_placements(state, 4)) == 54 * 2 - 18
    assert len(legal_placements(state, 3)) == 54 * 6 - 18
    assert len(legal_placements(state, 1)) == 54


def test_predict_does_not_commit() -> None:
    state = new_game(2)
    report = predict(state, parse_placement("T1r0@0,-1"))
    assert report.moves[0].gem is Gem.EMERALD
    assert state.centre_left == 6 and not state.tiles


# ----------------------------------------------------------------------------- hands

@pytest.mark.parametrize("hand_size", [1, 2])
def test_dealt_hands_are_played_and_refilled(hand_size: int) -> None:
    state = new_game(3, rng=random.Random(4), hand_size=hand_size)
    assert all(len(h) == hand_size for h in state.hands or ())
    assert len(state.pile) == 54 - 3 * hand_size
    hand = state.hand(0)
    assert hand is not None
    missing = next(k for k in range(5) if k not in hand)
    with pytest.raises(PlacementError) as info:
        apply(state, Placement((2, -2), Tile(missing, 0)))
    assert info.value.rule is Rule.NOT_IN_HAND
    assert legal_placements(state, missing) == []
    after = apply(state, Placement((2, -2), Tile(hand[0], 0)))
    assert len(after.hand(0) or ()) == hand_size and after.pile == state.pile[1:]
    assert (after.hand(0) or ())[-1] == state.pile[0]


def test_hands_run_dry_exactly_when_the_cells_do() -> None:
    rng = random.Random(11)
    state = new_game(4, rng=rng, hand_size=2)
    while not state.is_over:
        state = apply(state, rng.choice(all_legal_placements(state)))
    held = sum(len(h) for h in state.hands or ())
    assert held == 54 - len(state.tiles) - len(state.pile)


def test_setup_errors() -> None:
    with pytest.raises(SetupError, match="2-4 players"):
        new_game(5)
    with pytest.raises(SetupError, match="is for 3 players"):
        new_game(2, layout="3p-alt")
    with pytest.raises(SetupError, match="unknown layout"):
        new_game(2, layout="2x")
    with pytest.raises(SetupError, match="not 3"):
        new_game(2, hand_size=3)
    assert new_game(3, layout="3p-alt").layout == "3p-alt"


# ----------------------------------------------------------------------------- scoring

def _final(hauls: str) -> object:
    players = len(hauls.split())
    return parse_state(
        f"{players}p P0 | tiles | gems | centre 0 | hauls {hauls} | reserve 6/5/1 | removed 0/0/0"
    )


@pytest.mark.parametrize(
    ("hauls", "points", "won"),
    [
        ("1/1/1 3/0/0", (6, 3), (0,)),  # most points
        ("0/0/2 2/2/0", (6, 6), (1,)),  # tie on points: most gems (4 > 2)
        ("2/2/0 0/1/1", (6, 5), (0,)),
        ("1/1/0 1/1/0 3/0/0", (3, 3, 3), (2,)),
        ("3/0/0 1/1/0 0/0/1 3/0/0", (3, 3, 3, 3), (0, 3)),  # still tied: shared win
    ],
)
def test_scores_and_ties(hauls: str, points: tuple[int, ...], won: tuple[int, ...]) -> None:
    state = _final(hauls)
    assert scores(state) == points  # type: ignore[arg-type]
    assert winners(state) == won  # type: ignore[arg-type]


def test_no_winner_before_the_end() -> None:
    assert winners(new_game(2)) == ()
    assert rank_winners((1, 1), (2, 2)) == (0, 1)


def test_multi_round_tally() -> None:
    tally = Tally(players=3, planned=2)
    assert tally.leaders() == (0, 1, 2) and tally.winners() == ()
    tally = tally.add(_final("1/1/1 3/0/0 0/0/0"))  # type: ignore[arg-type]
    assert tally.totals == (6, 3, 0) and not tally.is_complete and tally.winners() == ()
    tally = tally.add_scores((0, 3, 1), (0, 3, 1))
    assert tally.totals == (6, 6, 1) and tally.gem_totals == (3, 6, 1)
    assert tally.winners() == (1,)  # tied on points, more gems
    with pytest.raises(ValueError, match="all 2 rounds"):
        tally.add_scores((1, 1, 1), (1, 1, 1))
    with pytest.raises(ValueError, match="finished game"):
        Tally(players=2).add(new_game(2))
    assert Tally(players=2).add_scores((1, 2), (1, 1)).winners() == ()  # open-ended


# ----------------------------------------------------------------------------- snapshot

def test_snapshot_shows_the_public_board() -> None:
    state = new_game(2)
    state = apply(state, parse_placement("T1r0@3,0"))  # amber of (4,0) moves to (3,0):5
    state = apply(state, parse_placement("T1r0@0,-1"))  # first emerald to (0,-1):0
    snap = board_snapshot(state)
    assert len(snap.corner_ambers) == 5 and (4, 0) not in snap.corner_ambers
    assert dict(snap.edge_gems) == {((3, 0), 5): Gem.AMBER, ((0, -1), 0): Gem.EMERALD}
    assert snap.centre == (Gem.EMERALD,) * 4 + (Gem.SAPPHIRE,)
    assert snap.gem_count == state.gems_on_board == 12
    kinds = [s.kind.value for s in snap.spots()]
    assert kinds.count("corner") == 5 and kinds.count("edge") == 2 and kinds.count("centre") == 5


def test_snapshot_differences_compare_tiles_by_path_set() -> None:
    state = apply(new_game(2), parse_placement("T1r0@2,-2"))
    snap = board_snapshot(state)
    same = dataclasses.replace(snap, tiles={(2, -2): Tile(1, 3)})
    assert snap.differences(same) == []
    seen = BoardSnapshot(
        tiles={(2, -2): Tile(0, 0), (1, 1): Tile(2, 0)},
        edge_gems={((1, 1), 0): Gem.AMBER},
        corner_ambers=snap.corner_ambers - {(0, -4)},
        centre=snap.centre[1:],
    )
    diffs = snap.differences(seen)
    assert len(diffs) == 5
    assert any("cell (1, 1): expected empty" in d for d in diffs)
    assert any("corner (0, -4)" in d for d in diffs)
    assert any(d.startswith("centre: expected EEEEES, seen EEEES") for d in diffs)


# ----------------------------------------------------------------------------- notation

@pytest.mark.parametrize("text", ["T3r2@1,-3", "T0r0@0,-4", "T4r5@-4,3"])
def test_placement_notation_round_trips(text: str) -> None:
    assert format_placement(parse_placement(text)) == text
    assert str(parse_placement(text)) == text


def test_notation_is_lenient_in_spacing_and_strict_in_ranges() -> None:
    assert parse_placement(" t3R2 @ [1, -3] ") == Placement((1, -3), Tile(3, 2))
    assert parse_tile("T2") == Tile(2, 0)
    assert parse_cell("(4,-4)") == (4, -4)
    assert parse_point("0,0:5") == ((0, 0), 5)
    for bad, words in [("T5r0", "type 5"), ("T1r6", "rotation 6"), ("X1", "not a tile"),
                       ("1;2", "not a cell"), ("T1r0", "not a placement")]:
        with pytest.raises(NotationError, match=words):
            parse_placement(bad) if "@" in bad or bad == "T1r0" else (
                parse_tile(bad) if bad.startswith(("T", "X")) else parse_cell(bad))
    with pytest.raises(NotationError, match="edge 6"):
        parse_point("0,0:6")


def test_state_notation_round_trips_through_a_game() -> None:
    rng = random.Random(3)
    state = new_game(4)
    for _ in range(30):
        if state.is_over:
            break
        state = apply(state, rng.choice(all_legal_placements(state)))
        text = format_state(state)
        again = parse_state(text)
        assert format_state(again) == text
        assert (again.tiles, again.gems, again.hauls, again.turn) == (
            state.tiles, state.gems, state.hauls, state.turn)
    with pytest.raises(NotationError, match="sections"):
        parse_state("2p P0 | tiles")
