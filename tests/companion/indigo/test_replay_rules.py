"""The GameRules implementation, record export, and the modules' docstring examples."""

from __future__ import annotations

import doctest
import importlib
import random

import pytest

from companion.engine import load_rules
from companion.errors import RecordError
from companion.indigo import (
    RULES,
    all_legal_placements,
    apply,
    new_game,
    parse_placement,
    to_record,
)
from companion.indigo.rules import place_event

MODULES = ["geometry", "pieces", "tiles", "gems", "state", "notation", "snapshot", "tally",
           "rules", "errors"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"companion.indigo.{name}")
    failures, _ = doctest.testmod(module)
    assert failures == 0
    assert doctest.testmod(importlib.import_module("companion.indigo")).failed == 0


def test_registry_finds_the_rules() -> None:
    rules = load_rules("indigo")
    assert rules is RULES
    assert (rules.game, rules.min_players, rules.max_players) == ("indigo", 2, 4)


def test_layout_option() -> None:
    assert RULES.new_game(["A", "B", "C"], {}).state.layout == "3p"
    assert RULES.new_game(["A", "B", "C"], {"layout": "3p-alt"}).state.layout == "3p-alt"
    assert RULES.new_game(["A", "B"], {"other": 1}).state.layout == "2p"  # unknown keys ignored
    with pytest.raises(RecordError, match="is for 3 players"):
        RULES.new_game(["A", "B"], {"layout": "3p"})


def test_result_fields_while_playing() -> None:
    game = RULES.new_game(["Ana", "Ben"], {})
    game = RULES.apply_event(game, place_event("Ana", parse_placement("T1r0@0,-1")), index=1)
    assert game.last_report is not None and len(game.last_report.moves) == 1
    result = RULES.result(game, complete=True)
    assert result == {
        "game": "indigo", "over": False, "winners": [], "scores": {"Ana": 0, "Ben": 0},
        "gems": {"Ana": {"amber": 0, "emerald": 0, "sapphire": 0},
                 "Ben": {"amber": 0, "emerald": 0, "sapphire": 0}},
        "gems_on_board": 12, "gems_removed": 0,
    }


def test_export_names_seats_in_turn_order_and_keeps_the_layout() -> None:
    rng = random.Random(2)
    state = new_game(3, layout="3p-alt")
    for _ in range(5):
        state = apply(state, rng.choice(all_legal_placements(state)))
    record = to_record(["A", "B", "C"], state)
    assert record["options"] == {"layout": "3p-alt"}
    assert [e["player"] for e in record["events"]] == ["A", "B", "C", "A", "B"]
    with pytest.raises(ValueError, match="2 names for a 3-player game"):
        to_record(["A", "B"], state)
