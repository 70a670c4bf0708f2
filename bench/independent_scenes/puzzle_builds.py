"""What a player built on a demo card: a right solution, or a realistic mistake.

The cards, pieces and solutions are the rules layer's puzzle data (``companion.enigma.puzzles``,
``load_puzzles``); whether a build is right is decided by the engine's own checks
(``weight_problem``, ``fragment_problem``, ``conduit_problem``, ``picture_matches``), so a
"wrong" build is never secretly right. Positions are card mm (origin at the card's top-left,
y down) for the pieces laid on the card, cube steps for the angular structure built beside it.

Mistakes:
- weight: one weight moved to another cup, or one weight left on the table beside the card;
- fragment: one piece left beside the card, or one piece turned a quarter in its place;
- conduit: one piece turned so its channel no longer meets, or two pieces swapped;
- angular: the structure built mirror-wise (every piece turned over), or one piece set apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import numpy as np

from companion.enigma import puzzle_angular, puzzle_conduit, puzzle_fragment, puzzle_weight
from companion.enigma.puzzles import PuzzleBox, load_puzzles

from .puzzle_card import CARD_MM, conduit_cell_box, cup_centres, fragment_to_card

KINDS = ("weight", "fragment", "angular", "conduit")
WEIGHT_RADIUS_MM = 2.5
# how carefully a hand lays the pieces, by strength: mm off, degrees off
HAND = {"mild": (0.3, 1.0), "moderate": (0.5, 1.8), "harsh": (0.8, 3.0)}


@cache
def puzzle_box() -> PuzzleBox:
    return load_puzzles()


def demo_cards(kind: str) -> list[str]:
    return sorted(getattr(puzzle_box(), kind).cards)


@dataclass
class Build:
    """A build on one card: what lies where, whether the engine calls it solved, and how."""

    kind: str
    card_id: str
    right: bool
    mistake: str = ""
    weights: list[np.ndarray] = field(default_factory=list)            # card mm
    fragments: list[np.ndarray] = field(default_factory=list)          # polygons, card mm
    conduits: list[tuple[np.ndarray, frozenset[str], float]] = field(default_factory=list)
    cubes: dict[str, list[tuple[int, int, int]]] = field(default_factory=dict)
    apart: str = ""                # the angular piece set apart from the structure


# ---------------------------------------------------------------------------- weight
def _spots_in_cup(cup: tuple[float, float, float], count: int, rng) -> list[np.ndarray]:
    """Where ``count`` weights lie in a cup: inside its ring, not on each other."""
    x, y, ring = cup
    reach = ring - WEIGHT_RADIUS_MM - 0.35
    for slack in (0.0, 0.6, 1.2, 2.0):
        spots: list[np.ndarray] = []
        for _ in range(400):
            if len(spots) == count:
                return spots
            angle, r = rng.uniform(0, 2 * np.pi), (reach + slack) * np.sqrt(rng.uniform())
            spot = np.array([x + r * np.cos(angle), y + r * np.sin(angle)])
            if all(np.linalg.norm(spot - s) >= 2 * WEIGHT_RADIUS_MM + 0.1 for s in spots):
                spots.append(spot)
    raise RuntimeError(f"{count} weights do not fit a cup of ring {ring} mm")


def _weights_mistake(card, counts: dict[str, list[int]], rng) -> tuple[dict, str, bool]:
    """One weight moved to another cup, or one left on the table; True when one is off."""
    cups = [(side, i) for side in ("left", "right") for i in range(len(counts[side]))]
    full = [c for c in cups if counts[c[0]][c[1]] > 0]
    for _ in range(50):
        moved = {side: list(values) for side, values in counts.items()}
        side, i = full[int(rng.integers(len(full)))]
        moved[side][i] -= 1
        off = rng.random() < 0.35
        if not off:
            to_side, j = cups[int(rng.integers(len(cups)))]
            if (to_side, j) == (side, i):
                continue
            moved[to_side][j] += 1
        solution = puzzle_weight.WeightSolution(tuple(moved["left"]), tuple(moved["right"]))
        if puzzle_weight.weight_problem(card, solution) is not None or off:
            what = "one weight left on the table" if off else \
                f"one weight moved from the {side} cup {i + 1} to the {to_side} cup {j + 1}"
            return moved, what, off
    raise RuntimeError(f"no wrong move found for {card.id}")


def weight_build(card_id: str, right: bool, rng) -> Build:
    card = puzzle_box().weight.cards[card_id]
    solution = puzzle_box().weight.solutions[card_id][0]
    counts = {"left": list(solution.left), "right": list(solution.right)}
    build = Build("weight", card_id, right)
    off = False
    if not right:
        counts, build.mistake, off = _weights_mistake(card, counts, rng)
    for side in ("left", "right"):
        for cup, n in zip(cup_centres(len(counts[side]), side), counts[side], strict=True):
            build.weights += _spots_in_cup(cup, n, rng)
    if off:                            # beside the card, on the table
        build.weights.append(np.array([rng.uniform(-9, -5), rng.uniform(15, 45)]))
    return build


# ---------------------------------------------------------------------------- fragment
def _hand_laid(polygon: np.ndarray, rng, strength: str) -> np.ndarray:
    off_mm, off_deg = HAND[strength]
    middle = polygon.mean(axis=0)
    a = np.radians(rng.uniform(-off_deg, off_deg) * 0.6)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    shrink = 1 - rng.uniform(0.0, 0.012)     # a wooden piece is cut a hair small
    return (polygon - middle) @ rot.T * shrink + middle + rng.uniform(-1, 1, 2) * off_mm * 0.6


def fragment_build(card_id: str, right: bool, rng, strength: str) -> Build:
    box = puzzle_box().fragment
    card, pieces = box.cards[card_id], box.pieces
    placements = list(box.solutions[card_id])
    build = Build("fragment", card_id, right)
    apart = None
    if not right:
        k = int(rng.integers(len(placements)))
        chosen = placements[k]
        if rng.random() < 0.5:
            apart = placements.pop(k)
            build.mistake = f"piece {chosen.piece} left beside the card"
        else:
            placements[k] = puzzle_fragment.FragmentPlacement(
                chosen.piece, chosen.rotation + 90, chosen.mirror, chosen.at)
            turned = puzzle_fragment.placed_polygons(pieces, [placements[k]])[0]
            first = puzzle_fragment.placed_polygons(pieces, [chosen])[0]
            shift = np.mean(first, axis=0) - np.mean(turned, axis=0)   # turned where it lay
            placements[k] = puzzle_fragment.FragmentPlacement(
                chosen.piece, chosen.rotation + 90, chosen.mirror,
                (chosen.at[0] + shift[0], chosen.at[1] + shift[1]))
            build.mistake = f"piece {chosen.piece} turned a quarter in its place"
        problem = puzzle_fragment.fragment_problem(card, pieces, placements)
        if problem is None and apart is None:
            return fragment_build(card_id, right, rng, strength)
    for polygon in puzzle_fragment.placed_polygons(pieces, placements):
        laid = fragment_to_card(np.asarray(polygon), card.silhouette)
        build.fragments.append(_hand_laid(laid, rng, strength))
    if apart is not None:
        polygon = np.asarray(puzzle_fragment.placed_polygons(pieces, [apart])[0], float)
        polygon = (polygon - polygon.mean(axis=0)) * 6.5
        build.fragments.append(polygon + np.array([rng.uniform(-16, -12), rng.uniform(15, 45)]))
    return build


# ---------------------------------------------------------------------------- conduit
def _conduit_mistake(card, pieces, solution: dict, rng) -> tuple[dict, str]:
    ids = sorted(solution)
    for _ in range(100):
        changed = dict(solution)
        if rng.random() < 0.5:
            piece = ids[int(rng.integers(len(ids)))]
            cell, rotation = changed[piece]
            turn = int(rng.integers(1, 4))
            changed[piece] = (cell, (rotation + turn) % 4)
            what = f"piece {piece} turned {turn} quarter(s)"
        else:
            a, b = rng.choice(ids, 2, replace=False)
            changed[a], changed[b] = (solution[b][0], solution[a][1]), \
                (solution[a][0], solution[b][1])
            what = f"pieces {a} and {b} swapped"
        if puzzle_conduit.conduit_problem(card, pieces, changed) is not None:
            return changed, what
    raise RuntimeError(f"no wrong conduit build found for {card.id}")


def conduit_build(card_id: str, right: bool, rng, strength: str) -> Build:
    box = puzzle_box().conduit
    card, pieces = box.cards[card_id], box.pieces
    solution = dict(box.solutions[card_id])
    build = Build("conduit", card_id, right)
    if not right:
        solution, build.mistake = _conduit_mistake(card, pieces, solution, rng)
    by_id = {p.id: p for p in pieces}
    off_mm, off_deg = HAND[strength]
    for piece_id, (cell, rotation) in sorted(solution.items()):
        l, t, r, b = conduit_cell_box(cell)
        middle = np.array([(l + r) / 2, (t + b) / 2]) + rng.uniform(-1, 1, 2) * off_mm
        build.conduits.append((middle, by_id[piece_id].turned(rotation),
                               float(rng.uniform(-off_deg, off_deg))))
    return build


# ---------------------------------------------------------------------------- angular
def _mirrored(cubes: dict[str, list]) -> dict[str, list]:
    return {piece: [(-x, y, z) for x, y, z in list_] for piece, list_ in cubes.items()}


def angular_build(card_id: str, right: bool, rng) -> Build:
    box = puzzle_box().angular
    card = box.cards[card_id]
    cubes = {piece: [tuple(c) for c in cs] for piece, cs in box.solutions[card_id].items()}
    build = Build("angular", card_id, right, cubes=cubes)
    if right:
        return build
    mirrored = _mirrored(cubes)
    seen = puzzle_angular.top_view(mirrored)
    if rng.random() < 0.5 and not puzzle_angular.picture_matches(seen, card.top):
        build.cubes, build.mistake = mirrored, "the structure built mirror-wise"
        return build
    piece = sorted(cubes)[int(rng.integers(len(cubes)))]
    build.apart, build.mistake = piece, f"piece {piece} set apart from the structure"
    return build


def make_build(kind: str, card_id: str, right: bool, rng, strength: str) -> Build:
    if kind == "weight":
        return weight_build(card_id, right, rng)
    if kind == "fragment":
        return fragment_build(card_id, right, rng, strength)
    if kind == "conduit":
        return conduit_build(card_id, right, rng, strength)
    if kind == "angular":
        return angular_build(card_id, right, rng)
    raise ValueError(f"no puzzle kind {kind!r}")


def on_card(point_mm: np.ndarray) -> bool:
    return bool(np.all(point_mm >= 0) and np.all(point_mm <= CARD_MM))
