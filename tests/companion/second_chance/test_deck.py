"""The deck data file: the shipped DEMO deck and the checks on any deck."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from companion.second_chance import DeckError, load_deck, parse_deck


def _demo() -> dict[str, Any]:
    return load_deck().to_json()


def test_the_shipped_deck_is_a_labelled_demo_with_the_right_counts() -> None:
    deck = load_deck()
    assert deck.is_demo and "DEMO" in deck.name
    assert len(deck.start_tiles) == 13 and deck.size == 40
    assert {t.shape.size for t in deck.start_tiles} == {8}
    assert all(1 <= s.size <= 7 and s.is_connected() for s in deck.puzzle_cards())
    assert deck.copies_of("#/#/#") == deck.copies_of("###") > 0
    assert deck.start_tile_for(deck.start_tiles[3].shape.orientations()[-1]) == deck.start_tiles[3]


def _broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(_demo())
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["start_tiles"].pop(), "12 start tiles, the game has 13"),
        (lambda d: d["puzzle_tiles"][0].update(copies=3), "total 41"),
        (lambda d: d["puzzle_tiles"][0].update(copies=0), "at least 1"),
        (lambda d: d["start_tiles"][0].update(shape="#######"), "has 7 cells, a tile has 8"),
        (lambda d: d["start_tiles"][1].update(shape=d["start_tiles"][0]["shape"]), "all differ"),
        (lambda d: d["puzzle_tiles"].append({"shape": "#.#", "copies": 1}), "not connected"),
        (lambda d: d["puzzle_tiles"].append({"shape": "########", "copies": 1}), "8 cells"),
        (lambda d: d["puzzle_tiles"][4].update(shape="#/#/#/#"), "not written canonically"),
        (lambda d: d["puzzle_tiles"][1].update(shape="#"), "listed twice"),
        (lambda d: d.update(status="real"), "'status'"),
        (lambda d: d.update(name="my cards"), "must say DEMO"),
        (lambda d: d.update(format="x"), "'format'"),
    ],
)
def test_bad_decks_are_refused_with_the_reason(change: Any, words: str) -> None:
    with pytest.raises(DeckError, match=words.replace("(", r"\(")):
        parse_deck(_broken(change))


def test_a_transcribed_deck_loads_from_a_file(tmp_path: Path) -> None:
    data = _demo()
    data.update(status="transcribed", name="my cards")
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    deck = load_deck(path)
    assert not deck.is_demo and deck.size == 40
    with pytest.raises(DeckError, match="cannot read deck file"):
        load_deck(tmp_path / "missing.json")
    path.write_text("{", encoding="utf-8")
    with pytest.raises(DeckError, match="not valid JSON"):
        load_deck(path)
