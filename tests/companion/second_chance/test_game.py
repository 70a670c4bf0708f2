"""The Second Chance engine, rule by rule, through records as ``companion replay`` runs them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.errors import RecordError
from companion.record import parse_record
from companion.replay import EXIT_ILLEGAL, EXIT_NOT_A_RECORD, EXIT_OK, ReplayOutcome, replay
from companion.second_chance import RULES, SecondChanceRules, load_deck, score_solo
from companion.second_chance.simulate import simulate_game

from .scenario import START, cells_json, filling_events, record


def run(players: list[str], events: list[dict[str, Any]], **options: Any) -> ReplayOutcome:
    return replay(parse_record(record(players, events, **options)))


def refused(outcome: ReplayOutcome, words: str, *, event: int | None = None) -> None:
    assert outcome.exit_code == EXIT_ILLEGAL, outcome
    assert outcome.error is not None and words in outcome.error, outcome.error
    if event is not None:
        assert outcome.error.startswith(f"event {event} ")


START_EVENTS = [{"type": "start", "player": "Ana", "cells": cells_json(START)},
                {"type": "start", "player": "Ben", "cells": cells_json(START)}]
ISOLATED = {(0, 0), (0, 2), (0, 4)}


# -- start tiles ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cells", "words"),
    [
        ([(4, c) for c in range(0, 4)] + [(3, c) for c in range(0, 4)], "cover the centre"),
        (START[:7], "start tile has 8 cells"),
        (START[:7] + [(0, 0)], "not connected"),
        (START[:7] + [(9, 4)], "off the 9x9 grid"),
        (START[:7] + [(4, 1)], "listed twice"),
    ],
)
def test_start_tile_rules(cells: list[tuple[int, int]], words: str) -> None:
    out = run(["Ana"], [{"type": "start", "player": "Ana", "cells": cells_json(cells)}])
    refused(out, words, event=1)


def test_start_once_and_before_the_first_reveal() -> None:
    refused(run(["Ana"], START_EVENTS[:1] * 2), "already drawn a start tile", event=2)
    refused(run(["Ana", "Ben"], [START_EVENTS[0], {"type": "reveal", "cards": ["#", "##"]}]),
            "still to draw a start tile: Ben", event=2)
    refused(run(["Ana"], [START_EVENTS[0], {"type": "reveal", "cards": ["#", "##"]},
                          START_EVENTS[0]]), "before the first reveal", event=3)


# -- reveals and draws ---------------------------------------------------------------------


def test_a_normal_round() -> None:
    out = run(["Ana", "Ben"], [
        *START_EVENTS,
        {"type": "reveal", "cards": ["#./#./##", "##/##"]},
        {"type": "draw", "player": "Ben", "card": 1, "cells": [[0, 0], [0, 1], [1, 0], [1, 1]]},
        {"type": "draw", "player": "Ana", "card": 0, "cells": [[8, 0], [8, 1], [8, 2], [7, 0]]},
        {"type": "reveal", "cards": ["#", "##"]},
    ])
    assert out.exit_code == EXIT_OK, out.error
    assert out.result is not None
    assert out.result["empty"] == {"Ana": 69, "Ben": 69}
    assert out.result["scores"] == {"Ana": -69, "Ben": -69}
    assert out.result["over"] is False and out.result["winners"] == []
    assert out.result["cards_left"] == 36


@pytest.mark.parametrize(
    ("draw", "words"),
    [
        ({"card": 0, "cells": [[0, 0], [0, 1], [0, 2]]}, "not card 0 '###/#..'"),
        ({"card": 1, "cells": [[4, 3], [4, 4], [5, 3], [5, 4]]}, "already filled"),
        ({"card": 1, "cells": [[8, 8], [8, 9], [9, 8], [9, 9]]}, "off the 9x9 grid"),
        ({"card": 2, "cells": [[0, 0]]}, "'card' is 0 or 1"),
        ({"card": 1, "cells": [[0, 0], [0, 1], [1, 0], [1, 0]]}, "listed twice"),
    ],
)
def test_draw_rules(draw: dict[str, Any], words: str) -> None:
    out = run(["Ana"], [START_EVENTS[0], {"type": "reveal", "cards": ["#./#./##", "##/##"]},
                        {"type": "draw", "player": "Ana", **draw}])
    refused(out, words, event=3)


def test_one_draw_per_round_and_rounds_complete_before_the_next_reveal() -> None:
    head = [*START_EVENTS, {"type": "reveal", "cards": ["#", "##"]},
            {"type": "draw", "player": "Ana", "card": 0, "cells": [[0, 0]]}]
    refused(run(["Ana", "Ben"], [*head, {"type": "draw", "player": "Ana", "card": 0,
                                         "cells": [[0, 1]]}]), "already drawn this round")
    refused(run(["Ana", "Ben"], [*head, {"type": "reveal", "cards": ["#", "#"]}]),
            "Ben must still draw")
    refused(run(["Ana", "Ben"], [*head, {"type": "draw", "player": "Cleo", "card": 0,
                                         "cells": [[0, 1]]}]), "unknown player 'Cleo'")


@pytest.mark.parametrize(
    ("cards", "words"),
    [
        (["#", "#.#"], "not connected"),
        (["#", "########"], "has 8 cells"),
        (["#", "#x"], "only '#' and '.'"),
        (["#", "##", "###"], "exactly 2 cards"),
    ],
)
def test_revealed_cards_must_be_tiles(cards: list[str], words: str) -> None:
    refused(run(["Ana"], [START_EVENTS[0], {"type": "reveal", "cards": cards}]), words, event=2)


# -- second chance and drop-out ------------------------------------------------------------


def test_second_chance_claimed_while_a_card_still_fits_is_refused() -> None:
    out = run(["Ana"], [START_EVENTS[0], {"type": "reveal", "cards": ["#######", "##"]},
                        {"type": "second-chance", "player": "Ana", "card": "#", "cells": [[0, 0]]}])
    refused(out, "revealed card 0 '#######' still fits Ana's grid", event=3)


def test_dropping_out_is_refused_when_the_second_chance_card_fits() -> None:
    events = [*filling_events({"Ana": ISOLATED}),
              {"type": "reveal", "cards": ["##", "###"]},
              {"type": "second-chance", "player": "Ana", "card": "#", "cells": None}]
    refused(run(["Ana"], events), "cannot drop out: the second-chance card '#' fits")


def test_a_second_chance_that_fits_is_drawn_and_play_goes_on() -> None:
    events = [*filling_events({"Ana": ISOLATED}),
              {"type": "reveal", "cards": ["##", "###"]},
              {"type": "second-chance", "player": "Ana", "card": "#", "cells": [[0, 2]]},
              {"type": "reveal", "cards": ["##", "#"]},
              {"type": "draw", "player": "Ana", "card": 1, "cells": [[0, 4]]}]
    out = run(["Ana"], events, deck_size=60)
    assert out.exit_code == EXIT_OK, out.error
    assert out.result is not None and out.result["empty"] == {"Ana": 1}
    assert out.result["out"] == []


def test_several_players_drop_out_in_the_same_round_and_both_write_a_1() -> None:
    events = [*filling_events({"Ana": ISOLATED, "Ben": ISOLATED}),
              {"type": "reveal", "cards": ["##", "##/##"]},
              {"type": "second-chance", "player": "Ben", "card": "##", "cells": None},
              {"type": "second-chance", "player": "Ana", "card": "###", "cells": None}]
    out = run(["Ana", "Ben"], events)
    assert out.exit_code == EXIT_OK, out.error
    assert out.result is not None
    assert out.result["over"] is True and out.result["end"] == "all-out"
    assert out.result["out"] == ["Ben", "Ana"]
    # the last players out together write their 1 after the game has ended
    events += [{"type": "bonus", "player": "Ana", "cell": [0, 0]},
               {"type": "bonus", "player": "Ben", "cell": [0, 2]}]
    out = run(["Ana", "Ben"], events)
    assert out.exit_code == EXIT_OK, out.error
    assert out.result is not None
    assert out.result["empty"] == {"Ana": 2, "Ben": 2}
    assert out.result["bonus"] == {"Ana": [0, 0], "Ben": [0, 2]}
    assert out.result["winners"] == ["Ana", "Ben"]  # tied, and both have a 1
    refused(run(["Ana", "Ben"], [*events, {"type": "reveal", "cards": ["#", "#"]}]),
            "the game is over")


def _first_out_then_tie() -> list[dict[str, Any]]:
    """Ana drops out first and writes her 1; Ben draws on, drops out later with as many empties."""
    return [
        *filling_events({"Ana": ISOLATED, "Ben": {(0, 0), (0, 2), (0, 6), (0, 7)}}),
        {"type": "reveal", "cards": ["##", "##"]},
        {"type": "draw", "player": "Ben", "card": 0, "cells": [[0, 6], [0, 7]]},
        {"type": "second-chance", "player": "Ana", "card": "##", "cells": None},
        {"type": "bonus", "player": "Ana", "cell": [0, 4]},
        {"type": "reveal", "cards": ["##", "###"]},
        {"type": "second-chance", "player": "Ben", "card": "##/#.", "cells": None},
    ]


def test_a_tie_goes_to_the_player_with_the_1() -> None:
    out = run(["Ana", "Ben"], _first_out_then_tie(), deck_size=60)
    assert out.exit_code == EXIT_OK, out.error
    assert out.result is not None
    assert out.result["empty"] == {"Ana": 2, "Ben": 2}
    assert out.result["out"] == ["Ana", "Ben"]
    assert out.result["over"] is True and out.result["winners"] == ["Ana"]


def test_only_the_first_players_out_write_a_1() -> None:
    events = _first_out_then_tie()
    refused(run(["Ana", "Ben"], [*events, {"type": "bonus", "player": "Ben", "cell": [0, 0]}],
                deck_size=60), "only those out first (round")
    refused(run(["Ana", "Ben"], [*events, {"type": "bonus", "player": "Ana", "cell": [0, 0]}],
                deck_size=60), "already written the 1")
    before_out = events[:-5]  # the round is revealed, Ana has not yet dropped out
    refused(run(["Ana", "Ben"], [*before_out, {"type": "bonus", "player": "Ana", "cell": [0, 4]}],
                deck_size=60), "Ana is still in")
    just_out = events[:-3]
    refused(run(["Ana", "Ben"], [*just_out, {"type": "bonus", "player": "Ana", "cell": [4, 4]}],
                deck_size=60), "[4, 4] is filled")


def test_a_tie_without_a_1_is_shared() -> None:
    two_empty = {(0, 0), (8, 8)}
    events = filling_events({"Ana": two_empty, "Ben": two_empty})
    rounds = sum(1 for e in events if e["type"] == "reveal")
    out = run(["Ana", "Ben"], [*events, {"type": "end"}], deck_size=2 * rounds + 1)
    assert out.exit_code == EXIT_OK, out.error
    assert out.result is not None
    assert out.result["winners"] == ["Ana", "Ben"] and out.result["end"] == "deck-empty"


# -- the end of the game -------------------------------------------------------------------


def test_the_deck_runs_out() -> None:
    round_ = [{"type": "reveal", "cards": ["#", "#"]}]
    first = [START_EVENTS[0], *round_, {"type": "draw", "player": "Ana", "card": 0,
                                        "cells": [[0, 0]]}]
    refused(run(["Ana"], [*first, {"type": "end"}], deck_size=5), "3 cards are left")
    refused(run(["Ana"], [*first[:2], {"type": "end"}], deck_size=5), "still being played")
    two = [*first, *round_, {"type": "draw", "player": "Ana", "card": 1, "cells": [[0, 1]]}]
    refused(run(["Ana"], [*two, *round_], deck_size=5), "only 1 card(s) left")
    out = run(["Ana"], [*two, {"type": "end"}], deck_size=5)
    assert out.exit_code == EXIT_OK, out.error
    assert out.result is not None
    assert out.result["over"] is True and out.result["winners"] == ["Ana"]
    assert out.result["cards_left"] == 1
    no_end = run(["Ana"], two, deck_size=5)
    assert no_end.result is not None and no_end.result["over"] is False


def test_too_few_cards_for_the_second_chances_due_ends_the_game_and_nobody_drops_out() -> None:
    events = filling_events({"Ana": ISOLATED, "Ben": {(0, 0), (0, 2), (0, 6), (0, 7)}})
    rounds = sum(1 for e in events if e["type"] == "reveal")
    events += [{"type": "reveal", "cards": ["##", "###"]}]
    size = 2 * rounds + 2  # nothing left for Ana's second chance
    refused(run(["Ana", "Ben"], [*events, {"type": "second-chance", "player": "Ana",
                                           "card": "#", "cells": [[0, 0]]}], deck_size=size),
            "nobody gets one")
    refused(run(["Ana", "Ben"], [*events, {"type": "end"}], deck_size=size), "Ben must still draw")
    events += [{"type": "draw", "player": "Ben", "card": 0, "cells": [[0, 6], [0, 7]]},
               {"type": "end"}]
    out = run(["Ana", "Ben"], events, deck_size=size)
    assert out.exit_code == EXIT_OK, out.error
    assert out.result is not None
    assert out.result["out"] == [] and out.result["over"] is True
    assert out.result["empty"] == {"Ana": 3, "Ben": 2} and out.result["winners"] == ["Ben"]


def test_a_full_grid_ends_the_game_and_wins_outright() -> None:
    events = filling_events({"Ana": set(), "Ben": {(0, 0)}})
    out = run(["Ana", "Ben"], events)
    assert out.exit_code == EXIT_OK, out.error
    assert out.result is not None
    assert out.result["over"] is True and out.result["end"] == "grid-full"
    assert out.result["winners"] == ["Ana"] and out.result["empty"] == {"Ana": 0, "Ben": 1}
    both = run(["Ana", "Ben"], filling_events({"Ana": set(), "Ben": set()}))
    assert both.result is not None and both.result["winners"] == ["Ana", "Ben"]


# -- solo ----------------------------------------------------------------------------------


def test_solo_has_no_bonus() -> None:
    events = [*filling_events({"Ana": ISOLATED}), {"type": "reveal", "cards": ["##", "###"]},
              {"type": "second-chance", "player": "Ana", "card": "##", "cells": None}]
    out = run(["Ana"], events)
    assert out.result is not None and out.result["over"] is True
    assert out.result["empty"] == {"Ana": 3} and out.result["winners"] == ["Ana"]
    refused(run(["Ana"], [*events, {"type": "bonus", "player": "Ana", "cell": [0, 0]}]),
            "no bonus 1 in solo play")


def test_solo_series_scoring() -> None:
    assert score_solo([3, 3, 3]).achieved and score_solo([3, 3, 3]).total == 9
    assert not score_solo([3, 3, 4]).achieved
    assert not score_solo([1, 1]).achieved  # the series is not finished
    assert score_solo([0, 0, 0]).to_json()["achieved"] is True
    with pytest.raises(ValueError, match="3 games"):
        score_solo([1, 1, 1, 1])


# -- malformed records: exit 2 -------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "words"),
    [
        ({"type": "shuffle"}, "unknown event type 'shuffle'"),
        ({"type": "start", "player": "Ana"}, "missing field 'cells'"),
        ({"type": "start", "player": "Ana", "cells": [[4, "4"]]}, "[row, col]"),
        ({"type": "reveal", "cards": "##"}, "'cards' must be a list"),
        ({"type": "reveal", "cards": [1, 2]}, "list of shape texts"),
        ({"type": "second-chance", "player": "Ana", "card": "#"}, "missing field 'cells'"),
        ({"type": "bonus", "player": "Ana", "cell": [1]}, "'cell' must be [row, col]"),
    ],
)
def test_malformed_events_exit_2(event: dict[str, Any], words: str) -> None:
    out = run(["Ana"], [event])
    assert out.exit_code == EXIT_NOT_A_RECORD
    assert out.error is not None and words in out.error


def test_bad_options_and_player_counts_exit_2() -> None:
    assert run(["Ana"], [], deck_size="forty").exit_code == EXIT_NOT_A_RECORD
    assert run(["Ana"], [], deck_size=-1).exit_code == EXIT_NOT_A_RECORD
    assert run([f"P{i}" for i in range(7)], []).exit_code == EXIT_NOT_A_RECORD
    assert run([f"P{i}" for i in range(6)], []).exit_code == EXIT_OK
    with pytest.raises(RecordError):
        RULES.new_game(["Ana"], {"deck_size": True})


# -- a deck catalogue ----------------------------------------------------------------------


def test_with_a_catalogue_cards_come_from_the_deck() -> None:
    deck = load_deck()
    rules = SecondChanceRules(deck=deck)
    state = rules.new_game(["Ana"], {})
    with pytest.raises(ValueError, match="not a start card of the deck"):
        rules.apply_event(state, START_EVENTS[0], index=1)
    rng = random.Random(4)
    rec = simulate_game(["Ana", "Ben"], rng=rng, deck=deck)
    state = rules.new_game(["Ana", "Ben"], {})
    for i, event in enumerate(rec["events"], start=1):
        state = rules.apply_event(state, event, index=i)
    assert state.over
    singles = [s.text for s, n in deck.puzzle if n == 2 and s.size == 3]
    state = rules.new_game(["Ana"], {})
    state = rules.apply_event(state, rec["events"][0] | {"player": "Ana"}, index=1)
    state = rules.apply_event(state, {"type": "reveal", "cards": [singles[0], singles[0]]},
                              index=2)
    state = rules.apply_event(state, {"type": "draw", "player": "Ana", "card": 0,
                                      "cells": [[0, 0], [0, 1], [0, 2]] if singles[0] == "###"
                                      else [[0, 0], [0, 1], [1, 0]]}, index=3)
    with pytest.raises(ValueError, match="no longer"):
        rules.apply_event(state, {"type": "reveal", "cards": [singles[0], "#"]}, index=4)


@pytest.mark.parametrize("seed", range(12))
def test_simulated_games_replay_cleanly(seed: int) -> None:
    players = ["Ana", "Ben", "Cleo", "Dan", "Eve", "Fay"][: 1 + seed % 6]
    rec = simulate_game(players, rng=random.Random(seed))
    out = replay(parse_record(rec))
    assert out.exit_code == EXIT_OK, out.error
    assert out.result is not None and out.result["over"] is True
    assert set(out.result["winners"]) <= set(players) and out.result["winners"]
