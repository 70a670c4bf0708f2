"""The puzzle data file: piece sets, cards and their known solutions, for the four kinds.

``companion/data/enigma/puzzles.json`` (DEMO values, see :mod:`companion.enigma.demo_puzzles`)
has one section per kind; the catalogue's ``puzzle`` field names a card id from here::

    {"format": "tabletop-companion/enigma-puzzles/1", "status": "demo", "note": "...",
     "weight":   {"weights_in_box": 6, "allow_empty_cups": true,
                  "cards": [{"id", "left", "right", "count", "solutions": [...]}]},
     "conduit":  {"pieces": [{"id", "openings"}], "cards": [{"id", "cells", "stubs",
                  "excluded", "solution": {piece: {"cell", "rotation"}}}]},
     "fragment": {"tolerance": 0.005, "pieces": [{"id", "polygon", "mirror"}],
                  "cards": [{"id", "silhouette", "solution": [{"piece", "rotation",
                  "mirror", "at"}]}]},
     "angular":  {"allow_mirror": false, "pieces": [{"id", "colour", "cubes"}],
                  "cards": [{"id", "top", "solution": {piece: [[x, y, z], ...]}}]}}

Solutions are optional: a transcribed card need not carry one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.enigma import puzzle_angular as angular
from companion.enigma import puzzle_conduit as conduit
from companion.enigma import puzzle_fragment as fragment
from companion.enigma import puzzle_weight as weight
from companion.enigma.catalogue import read_data_text
from companion.enigma.errors import PuzzleError

PUZZLES_FORMAT = "tabletop-companion/enigma-puzzles/1"
DEFAULT_PUZZLES = "puzzles.json"


@dataclass(frozen=True)
class WeightSet:
    weights_in_box: int
    allow_empty_cups: bool
    cards: Mapping[str, weight.WeightCard]
    solutions: Mapping[str, tuple[weight.WeightSolution, ...]]


@dataclass(frozen=True)
class ConduitSet:
    pieces: tuple[conduit.ConduitPiece, ...]
    cards: Mapping[str, conduit.ConduitCard]
    solutions: Mapping[str, conduit.ConduitSolution]


@dataclass(frozen=True)
class FragmentSet:
    tolerance: float
    pieces: tuple[fragment.FragmentPiece, ...]
    cards: Mapping[str, fragment.FragmentCard]
    solutions: Mapping[str, tuple[fragment.FragmentPlacement, ...]]


@dataclass(frozen=True)
class AngularSet:
    allow_mirror: bool
    pieces: tuple[angular.AngularPiece, ...]
    cards: Mapping[str, angular.AngularCard]
    solutions: Mapping[str, dict[str, tuple[angular.Cube, ...]]]


@dataclass(frozen=True)
class PuzzleBox:
    """Everything in the four puzzle chambers, as data."""

    status: str
    note: str
    weight: WeightSet
    conduit: ConduitSet
    fragment: FragmentSet
    angular: AngularSet

    def kind_of(self, card_id: str) -> str:
        """The category whose cards include ``card_id``; unknown ids raise KeyError."""
        for kind in ("weight", "conduit", "fragment", "angular"):
            if card_id in getattr(self, kind).cards:
                return kind
        raise KeyError(f"no puzzle card {card_id!r}")


def _section(data: Mapping[str, Any], kind: str) -> Mapping[str, Any]:
    section = data.get(kind)
    if not isinstance(section, Mapping) or not isinstance(section.get("cards"), list):
        raise PuzzleError(f"puzzles: section {kind!r} must be an object with 'cards'")
    return section


def parse_puzzles(data: object) -> PuzzleBox:
    """Validate a decoded puzzles document."""
    if not isinstance(data, Mapping) or data.get("format") != PUZZLES_FORMAT:
        raise PuzzleError(f"puzzles: expected an object with format {PUZZLES_FORMAT!r}")
    w = _section(data, "weight")
    w_cards = {c.id: c for c in map(weight.parse_weight_card, w["cards"])}
    w_solutions = {
        str(item["id"]): tuple(weight.parse_weight_solution(s) for s in item.get("solutions", []))
        for item in w["cards"]
    }
    c = _section(data, "conduit")
    c_pieces = conduit.parse_conduit_pieces(c.get("pieces"))
    c_cards = {card.id: card for card in map(conduit.parse_conduit_card, c["cards"])}
    c_solutions = {
        str(item["id"]): conduit.parse_conduit_solution(item["solution"])
        for item in c["cards"] if item.get("solution") is not None
    }
    for card in c_cards.values():
        unknown = card.excluded - {p.id for p in c_pieces}
        if unknown:
            raise PuzzleError(f"conduit card {card.id}: excludes unknown pieces {sorted(unknown)}")
    f = _section(data, "fragment")
    f_pieces = fragment.parse_fragment_pieces(f.get("pieces"))
    f_cards = {card.id: card for card in map(fragment.parse_fragment_card, f["cards"])}
    f_solutions = {
        str(item["id"]): fragment.parse_fragment_solution(item["solution"])
        for item in f["cards"] if item.get("solution") is not None
    }
    a = _section(data, "angular")
    a_pieces = angular.parse_angular_pieces(a.get("pieces"))
    a_cards = {card.id: card for card in map(angular.parse_angular_card, a["cards"])}
    a_solutions = {
        str(item["id"]): angular.parse_angular_solution(item["solution"])
        for item in a["cards"] if item.get("solution") is not None
    }
    weights_in_box = w.get("weights_in_box", 6)
    tolerance = f.get("tolerance", fragment.DEFAULT_TOLERANCE)
    if not isinstance(weights_in_box, int) or not isinstance(tolerance, int | float):
        raise PuzzleError("puzzles: 'weights_in_box' must be an integer, 'tolerance' a number")
    for card_w in w_cards.values():
        if card_w.count > weights_in_box:
            raise PuzzleError(
                f"weight card {card_w.id}: needs {card_w.count} weights, the box has "
                f"{weights_in_box}"
            )
    return PuzzleBox(
        status=str(data.get("status", "demo")),
        note=str(data.get("note", "")),
        weight=WeightSet(weights_in_box, bool(w.get("allow_empty_cups", True)), w_cards,
                         w_solutions),
        conduit=ConduitSet(c_pieces, c_cards, c_solutions),
        fragment=FragmentSet(float(tolerance), f_pieces, f_cards, f_solutions),
        angular=AngularSet(bool(a.get("allow_mirror", False)), a_pieces, a_cards, a_solutions),
    )


def load_puzzles(path: str | Path | None = None) -> PuzzleBox:
    """Read a puzzles file; ``None`` reads the demo data shipped with the package."""
    try:
        text = read_data_text(DEFAULT_PUZZLES) if path is None else Path(path).read_text(
            encoding="utf-8")
    except OSError as exc:
        raise PuzzleError(f"cannot read puzzles {path}: {exc.strerror}") from exc
    try:
        return parse_puzzles(json.loads(text))
    except json.JSONDecodeError as exc:
        raise PuzzleError(f"puzzles {path or DEFAULT_PUZZLES}: not valid JSON: {exc.msg}") from exc
    except (KeyError, TypeError) as exc:
        raise PuzzleError(f"puzzles {path or DEFAULT_PUZZLES}: malformed entry ({exc})") from exc


__all__ = [
    "AngularSet",
    "ConduitSet",
    "DEFAULT_PUZZLES",
    "FragmentSet",
    "PUZZLES_FORMAT",
    "PuzzleBox",
    "WeightSet",
    "load_puzzles",
    "parse_puzzles",
]
