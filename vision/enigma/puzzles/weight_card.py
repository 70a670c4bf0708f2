"""The weight puzzle's card seen by the camera: its printed cups and the numbers beside them."""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.enigma import puzzle_weight as weight
from companion.enigma.errors import PuzzleError
from vision.enigma.digits import read_number
from vision.enigma.mat import CARD_PX_PER_MM
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.cards import weight_cups
from vision.enigma.puzzles.view import CardView, flatten_light


def card_ink(view: CardView, pack: EnigmaPack) -> np.ndarray:
    """The printed ink: pixels darker than halfway from the card to the ink, once the light
    is evened out (ink and the table can share a hue, not a brightness on the card)."""
    flat = flatten_light(view, pack, others={"weight": pack.colour("weight")}, greys=True)
    gray = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY).astype(np.float32)
    g_card = float(np.mean(pack.colour("card")))
    g_ink = float(np.mean(pack.colour("ink")))
    g_weight = float(np.mean(pack.colour("weight")))
    # the weights are not ink; the card's blurred border is not either
    inside = cv2.erode(view.inside_card().astype(np.uint8), np.ones((9, 9), np.uint8))
    ink: np.ndarray = (gray < (g_ink + min(g_card, g_weight)) / 2) & inside.astype(bool)
    return ink


#: the most cups printed on one side of a weight card
MAX_CUPS = 3
#: how far (pixels of the card view) the printed rings may sit off the card found by colour
RING_SHIFT_PX = 8
#: a side's best cup count must show its rings this fully, and lead the next count by this
RING_SCORE, RING_LEAD = 0.7, 0.25


def _cups_on_side(ink: np.ndarray, view: CardView, name: str, side: float
                  ) -> tuple[int | None, str]:
    """How many cups are printed on side ``name``: the count whose rings lie on the ink,
    clearly ahead of every other count; None and why when unclear."""
    near = cv2.dilate(ink.astype(np.uint8), np.ones((5, 5), np.uint8))
    angles = np.linspace(0, 2 * math.pi, 48, endpoint=False)
    scores = {}
    for n in range(1, MAX_CUPS + 1):
        probe = weight.WeightCard(tuple([1] * n), tuple([1] * n), 1)
        cups = [c for c in weight_cups(probe, side) if c.side == name]
        best_ring = 0.0
        # the card's outline, found by its colour, may sit a few pixels off the print
        for dx in range(-RING_SHIFT_PX, RING_SHIFT_PX + 1, 2):
            for dy in range(-RING_SHIFT_PX, RING_SHIFT_PX + 1, 2):
                ring = 1.0
                for cup in cups:
                    cx, cy = view.mm_to_px(*cup.centre)
                    r = cup.radius * CARD_PX_PER_MM
                    xs = np.clip(np.round(cx + dx + r * np.cos(angles)).astype(int), 0,
                                 ink.shape[1] - 1)
                    ys = np.clip(np.round(cy + dy + r * np.sin(angles)).astype(int), 0,
                                 ink.shape[0] - 1)
                    ring = min(ring, float(near[ys, xs].mean()))
                best_ring = max(best_ring, ring)
        scores[n] = best_ring
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    if ranked[0][1] < RING_SCORE or ranked[1][1] > ranked[0][1] - RING_LEAD:
        return None, f"the cups on the {name} could not be made out"
    return ranked[0][0], ""


def _printed_numbers(ink: np.ndarray, view: CardView, probe: weight.WeightCard, side: float
                     ) -> tuple[dict[str, list[int]] | None, int | None, str]:
    """The values printed under the cups of ``probe`` and the count in the corner; None and
    why for the first number that is unclear."""
    values: dict[str, list[int]] = {"left": [], "right": []}
    band = digit_h = 0.08 * side * CARD_PX_PER_MM  # the printed digits' height
    for cup in weight_cups(probe, side):
        cx, _ = view.mm_to_px(cup.centre[0], 0)
        _, cy = view.mm_to_px(0, 0.76 * side)
        # the number is centred under its cup: halfway to the next cup's centre at most
        half_w = min(0.5 * (0.40 * side / len(probe.left if cup.side == "left"
                                               else probe.right)), 0.12 * side)
        half_w *= CARD_PX_PER_MM
        number, why = read_number(ink, (int(cx - half_w), int(cy - band), int(cx + half_w),
                                        int(cy + band)), digit_h)
        if number is None:
            return None, None, (f"the value under the {cup.side} cup {cup.index + 1} is "
                                f"unclear ({why})")
        values[cup.side].append(number)
    cx, cy = view.mm_to_px(0.88 * side, 0.92 * side)
    half_w = 0.1 * side * CARD_PX_PER_MM
    count, why = read_number(ink, (int(cx - half_w), int(cy - band), int(cx + half_w),
                                   int(cy + band)), digit_h)
    if count is None:
        return None, None, f"the number of weights in the corner is unclear ({why})"
    return values, count, ""


def read_weight_card(view: CardView, pack: EnigmaPack) -> tuple[weight.WeightCard | None, str]:
    """The cups (how many on each side, from the printed rings) and their values and the
    count (printed numbers), read from the card; None and why when any of it is unsure."""
    ink = card_ink(view, pack)
    side = pack.tile_mm
    found: dict[str, int] = {}
    for name in ("left", "right"):
        n, why = _cups_on_side(ink, view, name, side)
        if n is None:
            return None, why
        found[name] = n
    probe = weight.WeightCard(tuple([1] * found["left"]), tuple([1] * found["right"]), 1)
    values, count, why = _printed_numbers(ink, view, probe, side)
    if values is None or count is None:
        return None, why
    try:
        card = weight.WeightCard(tuple(values["left"]), tuple(values["right"]), count, "read")
    except PuzzleError as exc:
        return None, f"the numbers read make no card ({exc})"
    # a misread digit could make a card without an answer: every real card has one
    if not weight.solve(card):
        return None, (f"the numbers read ({list(card.left)} | {list(card.right)}, "
                      f"{card.count} weights) have no answer, so one is misread")
    return card, ""


__all__ = ["MAX_CUPS", "card_ink", "read_weight_card"]
