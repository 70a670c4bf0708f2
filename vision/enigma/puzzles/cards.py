"""Where a puzzle card's parts are printed (millimetres from the card's top-left corner) and
the engine's card objects from JSON: the card geometry the checkers
(:mod:`vision.enigma.puzzles.check`) read with and the card drawing
(:mod:`vision.enigma.synth.puzzles`) draws with, so a card's regions are defined once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.enigma import puzzle_angular as angular
from companion.enigma import puzzle_conduit as conduit
from companion.enigma import puzzle_fragment as fragment
from companion.enigma import puzzle_weight as weight
from companion.enigma.geometry import bounds

Point = tuple[float, float]



@dataclass(frozen=True)
class Cup:
    side: str  # "left" or "right"
    index: int
    centre: Point  # mm from the card's top-left corner
    radius: float


def weight_cups(card: weight.WeightCard, side_mm: float) -> list[Cup]:
    """Where the cups are printed: left cups in the left half, right cups in the right half."""
    cups = []
    for name, values, x0 in (("left", card.left, 0.06), ("right", card.right, 0.54)):
        n = len(values)
        span = 0.40 * side_mm
        radius = min(0.11 * side_mm, span / n / 2 * 0.95)
        for i in range(n):
            cx = x0 * side_mm + (i + 0.5) * span / n
            cups.append(Cup(name, i, (cx, 0.52 * side_mm), radius))
    return cups


def fragment_transform(card: fragment.FragmentCard, side_mm: float, unit_mm: float
                       ) -> tuple[float, float, float]:
    """(scale, dx, dy): card units -> mm on the card; the silhouette's box is centred."""
    x0, y0, x1, y1 = bounds(card.silhouette)
    return unit_mm, side_mm / 2 - unit_mm * (x0 + x1) / 2, side_mm / 2 - unit_mm * (y0 + y1) / 2


def picture_cell_mm(top: Sequence[str], side_mm: float) -> float:
    rows, cols = len(top), max(len(r) for r in top)
    return min(0.7 * side_mm / max(rows, cols), 0.2 * side_mm)


def conduit_grid(card: conduit.ConduitCard, side_mm: float) -> tuple[float, float, float]:
    """(cell mm, x0, y0): the card grid's cell size and top-left corner on the card."""
    xs = [c[0] for c in card.cells]
    ys = [c[1] for c in card.cells]
    cols, rows = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    cell = 0.74 * side_mm / max(cols, rows)
    return cell, (side_mm - cell * cols) / 2 - min(xs) * cell, \
        (side_mm - cell * rows) / 2 - min(ys) * cell


def parse_card(kind: str, data: Any) -> Any:
    """The engine's card object of ``kind`` from its JSON."""
    return {"weight": weight.parse_weight_card, "fragment": fragment.parse_fragment_card,
            "angular": angular.parse_angular_card,
            "conduit": conduit.parse_conduit_card}[kind](data)


def parse_solution(kind: str, data: Any) -> Any:
    return {"weight": weight.parse_weight_solution,
            "fragment": fragment.parse_fragment_solution,
            "angular": angular.parse_angular_solution,
            "conduit": conduit.parse_conduit_solution}[kind](data)


__all__ = ["Cup", "Point", "conduit_grid", "fragment_transform", "parse_card", "parse_solution",
           "picture_cell_mm", "weight_cups"]
