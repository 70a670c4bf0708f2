"""The weight puzzle seen by the camera: the card's cups and numbers, the weights in each cup."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.enigma import puzzle_weight as weight
from companion.enigma.errors import PuzzleError
from companion.enigma.puzzles import PuzzleBox
from vision.enigma.digits import read_number
from vision.enigma.mat import (
    CARD_PX_PER_MM,
)
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.cards import (
    Cup,
    Point,
    weight_cups,
)
from vision.enigma.puzzles.marks import cup_doubt_marks, weight_marks
from vision.enigma.puzzles.verdicts import Reason
from vision.enigma.puzzles.view import (
    CANNOT_TELL,
    NOT_SOLVED,
    SOLVED,
    CardView,
    flatten_light,
    open_mask,
    verdict,
)
from vision.enigma.settings import PuzzleSettings


def card_ink(view: CardView, pack: EnigmaPack) -> np.ndarray:
    """The printed ink: pixels darker than halfway from the card to the ink, once the light
    is evened out (ink and the table can share a hue, not a brightness on the card)."""
    flat = flatten_light(view, pack, others={"weight": pack.colour("weight")})
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


@dataclass(frozen=True)
class MetalBlob:
    """One patch of weight-coloured metal: ``count`` discs fitted at ``centres``; ``doubt``
    says why the count is not sure ('' when it is)."""

    centres: tuple[tuple[float, float], ...]
    count: int
    doubt: str


#: a weight's face under any light: this share of the bare card's brightness and more (the ink
#: and the weight's darker rim, which parts weights side by side, are darker), up to this (the
#: bare card is lighter)
METAL_LEVELS = (0.47, 0.9)
#: the weight's own highlight fits in a hole of this radius (share of the weight's radius)
HIGHLIGHT_HOLE = 0.45
#: a crescent of a weight partly under another (its centre at least 0.8 radii from the top
#: one's) is at least this thick (share of the radius) and this large (share of a weight's
#: face); the print's lines, blurred or washed by glare to a weight's grey, are thinner
CRESCENT_THICK, CRESCENT_AREA = 0.2, 0.15
#: a crescent is a weight's face, no lighter than this: a narrow gap of card between a weight's
#: rim and the printed ring, blurred, is lighter in its middle
CRESCENT_HIGH = 0.78


@dataclass(frozen=True)
class MetalMasks:
    metal: np.ndarray  # weights' faces, without the print's blurred edges
    loose: np.ndarray  # any pixel of a weight's face level thicker than the print's edges


def metal_mask(view: CardView, pack: EnigmaPack) -> MetalMasks:
    """The weights' faces: pixels between the ink and the bare card in brightness once the
    light is taken out (a shadow, the lamp's hotspot, a colour cast), shaped like a face
    (the print's lines and their blurred edges are thinner; the weight's own highlight is a
    small hole, filled)."""
    flat = flatten_light(view, pack)
    level = flat.astype(np.float32).mean(axis=2) / float(np.mean(pack.colour("card")))
    low, high = METAL_LEVELS
    inside = cv2.erode(view.inside_card().astype(np.uint8), np.ones((9, 9), np.uint8))
    core = (level >= low) & (level <= high) & inside.astype(bool)
    wr = weight_radius_px(pack)
    core = _fill_small_holes(core, math.pi * (HIGHLIGHT_HOLE * wr) ** 2)
    loose = open_mask(core & (level <= CRESCENT_HIGH), max(1, int(round(CRESCENT_THICK * wr))))
    # a printed ring or digit is thinner than this; a weight's face is much wider
    return MetalMasks(open_mask(core, max(1, int(round(0.3 * wr)))), loose)


def weight_radius_px(pack: EnigmaPack) -> float:
    return float(pack.sizes["weight_mm"]) / 2 * CARD_PX_PER_MM


def _fill_small_holes(mask: np.ndarray, max_area: float) -> np.ndarray:
    """Holes (a highlight, a misread pixel) inside a patch are filled; a real gap between
    weights laid in a ring is larger and stays."""
    n, lab, stats, _ = cv2.connectedComponentsWithStats((~mask).astype(np.uint8), connectivity=4)
    h, w = mask.shape
    out = mask.copy()
    for k in range(1, n):
        x, y, bw, bh, a = (int(v) for v in stats[k])
        touches_edge = x == 0 or y == 0 or x + bw == w or y + bh == h
        if not touches_edge and a <= max_area:
            out[lab == k] = True
    return out


def fit_discs(blob: np.ndarray, wr: float) -> MetalBlob:
    """How many weight discs make up one patch of metal. Each disc's centre is a peak of the
    distance to the patch's edge, about one radius high; weights side by side touch at a
    narrow neck, so their peaks stay apart. The discs found must then cover the patch: a
    weight partly on another, or a patch of another shape, is left in doubt."""
    ys, xs = np.nonzero(blob)
    x0, y0 = int(xs.min()) - 2, int(ys.min()) - 2
    patch = np.zeros((int(ys.max()) - y0 + 3, int(xs.max()) - x0 + 3), np.uint8)
    patch[ys - y0, xs - x0] = 1
    dist = cv2.distanceTransform(patch, cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
    radius = float(dist.max())
    centre = (float(xs.mean()), float(ys.mean()))
    if not 0.6 * wr <= radius <= 1.3 * wr:
        return MetalBlob((centre,), 0, "a grey patch that is not the size of a weight")
    k = 2 * int(round(0.6 * radius)) + 1
    is_peak = (dist >= cv2.dilate(dist, np.ones((k, k), np.uint8))) & (dist >= 0.6 * radius)
    py, px = np.nonzero(is_peak)
    peaks: list[tuple[float, float, float]] = []
    for x, y in sorted(zip(px.tolist(), py.tolist(), strict=True),
                       key=lambda q: -float(dist[q[1], q[0]])):
        if all(math.hypot(x - a, y - b) >= 1.3 * radius for a, b, _ in peaks):
            peaks.append((float(x), float(y), float(dist[y, x])))
    # blur and the light soften a disc's edge by a pixel or two: the discs found, a little
    # enlarged, must leave almost none of the metal uncovered
    drawn = np.zeros_like(patch)
    for disc_x, disc_y, disc_r in peaks:
        cv2.circle(drawn, (int(round(disc_x * 8)), int(round(disc_y * 8))),
                   int(round((disc_r + 2) * 8)), 1, -1, cv2.LINE_8, 3)
    rest = patch & (1 - drawn)
    left_over = float(rest.sum()) / float(patch.sum())
    # what is left is a thin fringe, or a lump where another weight may hide
    lump = float(open_mask(rest, max(1, int(0.25 * radius))).sum()) / (math.pi * radius ** 2)
    found = tuple((x + x0, y + y0) for x, y, _ in peaks)
    if left_over > 0.2 or lump > 0.1:
        return MetalBlob(found, len(peaks), "weights overlap or are hidden (the discs found "
                         f"leave {left_over:.0%} of the metal uncovered)")
    if any(r < 0.75 * radius for _, _, r in peaks):
        return MetalBlob(found, len(peaks), "a weight is partly hidden")
    return MetalBlob(found, len(peaks), "")


def find_weights(view: CardView, pack: EnigmaPack) -> tuple[list[MetalBlob], list[Point]]:
    """Every patch of metal on the card or close beside it, with its fitted discs; and where
    metal is seen that no whole weight explains (a weight partly under another shows only a
    crescent)."""
    masks = metal_mask(view, pack)
    wr = weight_radius_px(pack)
    near = view.inside_card()
    near = cv2.dilate(near.astype(np.uint8),
                      np.ones((int(view.margin_px) | 1,) * 2, np.uint8)).astype(bool)
    n, lab, stats, cents = cv2.connectedComponentsWithStats(masks.metal.astype(np.uint8),
                                                            connectivity=8)
    blobs = []
    explained = np.zeros(lab.shape, np.uint8)
    small: list[np.ndarray] = []
    for k in range(1, n):
        cx, cy = cents[k]
        if not near[int(cy), int(cx)]:
            continue
        if stats[k, cv2.CC_STAT_AREA] < 0.4 * math.pi * wr * wr:
            if stats[k, cv2.CC_STAT_AREA] >= CRESCENT_AREA * math.pi * wr * wr:
                small.append(lab == k)
            continue
        blob = fit_discs(lab == k, wr)
        blobs.append(blob)
        if not blob.doubt:
            for x, y in blob.centres:
                cv2.circle(explained, (int(round(x)), int(round(y))), int(round(1.15 * wr)), 1,
                           -1)
    rest = open_mask(masks.loose & ~explained.astype(bool) & near,
                     max(1, int(round(CRESCENT_THICK * wr))))
    n, _, stats, cents = cv2.connectedComponentsWithStats(rest.astype(np.uint8), connectivity=8)
    stray = [(float(cents[k][0]), float(cents[k][1])) for k in range(1, n)
             if stats[k, cv2.CC_STAT_AREA] >= CRESCENT_AREA * math.pi * wr * wr]
    whole = [c for blob in blobs if not blob.doubt for c in blob.centres]
    return blobs, stray + [c for patch in small if (c := _crescent(patch, whole, wr))]


#: a hidden weight's crescent: its far edge is a circle of about a weight's radius (shares
#: of it), centred this far from the top weight's centre (the near-miss overlaps a player makes)
CRESCENT_RIM_RADIUS, CRESCENT_OFFSET = (0.7, 1.35), (0.5, 1.6)


def _crescent(patch: np.ndarray, whole: list[Point], wr: float) -> Point | None:
    """Where a weight lies under a whole one, when this patch of metal, too small for a weight
    and parted from the top one by its dark rim, is that weight's crescent: the patch's edge
    away from the top weight is a weight's rim round a centre a little off the top one's. A
    strip of shadowed card between a weight and the printed ring follows the ring instead."""
    contours, _ = cv2.findContours(patch.astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)
    edge = np.vstack([c.reshape(-1, 2) for c in contours]).astype(np.float64)
    for top in whole:
        far = edge[np.hypot(edge[:, 0] - top[0], edge[:, 1] - top[1]) > 1.3 * wr]
        if len(far) < 8:
            continue
        # the circle through the far edge (least squares on x² + y² = 2ax + 2by + c)
        a_mat = np.column_stack([2 * far[:, 0], 2 * far[:, 1], np.ones(len(far))])
        (cx, cy, c0), *_ = np.linalg.lstsq(a_mat, (far ** 2).sum(axis=1), rcond=None)
        radius = math.sqrt(max(0.0, c0 + cx * cx + cy * cy)) / wr
        offset = math.dist((cx, cy), top) / wr
        if (CRESCENT_RIM_RADIUS[0] <= radius <= CRESCENT_RIM_RADIUS[1]
                and CRESCENT_OFFSET[0] <= offset <= CRESCENT_OFFSET[1]):
            return float(cx), float(cy)
    return None


#: metal this close to a cup's centre (share of the cup's radius) lies in that cup
IN_CUP = 1.2
#: a doubt about metal this close to a cup (share of its radius) changes that cup's count
NEAR_CUP = 1.5


def _cup_at(view: CardView, cups: list[Cup], x: float, y: float, reach: float) -> Cup | None:
    """The cup whose centre is nearest (x, y), within ``reach`` of its radius."""
    best: tuple[float, Cup] | None = None
    for cup in cups:
        d = math.dist((x, y), view.mm_to_px(*cup.centre)) / (cup.radius * CARD_PX_PER_MM)
        if d <= reach and (best is None or d < best[0]):
            best = (d, cup)
    return best[1] if best else None


def _cup_name(cup: Cup) -> str:
    return f"the {cup.side} cup {cup.index + 1}"


def count_weights(view: CardView, pack: EnigmaPack, cups: list[Cup],
                  seen: list[Point] | None = None
                  ) -> tuple[dict[tuple[str, int], int], int, list[str]]:
    """Whole weights per cup, whole weights on the card outside the cups, and the doubts (a
    cup where a weight lies partly under another, or where the metal is no whole weights).
    Grey that is no weight away from the cups (print blurred to grey, a shadow's edge)
    changes no cup's count, so it raises no doubt. ``seen`` gets each whole weight's
    centre."""
    counts = {(cup.side, cup.index): 0 for cup in cups}
    doubts: list[str] = []
    outside = 0
    blobs, stray = find_weights(view, pack)
    for x, y in stray:
        cup = _cup_at(view, cups, x, y, NEAR_CUP)
        if cup is not None:
            doubts.append(_cup_name(cup))
    for blob in blobs:
        places = [_cup_at(view, cups, x, y, IN_CUP) for x, y in blob.centres]
        if blob.doubt:
            near = {_cup_name(c) for x, y in blob.centres
                    if (c := _cup_at(view, cups, x, y, NEAR_CUP)) is not None}
            doubts.extend(sorted(near))
            continue
        for at, centre in zip(places, blob.centres, strict=True):
            if seen is not None:
                seen.append(centre)
            if at is None:
                outside += 1
            else:
                counts[(at.side, at.index)] += 1
    return counts, outside, list(dict.fromkeys(doubts))


def check_weight(view: CardView, pack: EnigmaPack, card: weight.WeightCard | None,
                 box: PuzzleBox, st: PuzzleSettings) -> dict[str, str]:
    """The weight verdict: whole weights counted per cup, the pans' sums judged by the
    engine; a cup whose weights do not each show whole is "cannot tell"."""
    if card is None:
        card, why = read_weight_card(view, pack)
        if card is None:
            return verdict(CANNOT_TELL, f"{why}: enter the card's numbers",
                           code=Reason.CARD_UNREAD)
    cups = weight_cups(card, pack.tile_mm)
    discs: list[Point] = []
    counts, outside, doubts = count_weights(view, pack, cups, discs)
    if doubts:
        return verdict(CANNOT_TELL, f"in {' and '.join(doubts)} a weight does not show whole "
                       "(one partly under another?): move the weights apart so each one "
                       "shows whole", code=Reason.WEIGHT_HIDDEN, facts={"cups": len(doubts)},
                       marks=cup_doubt_marks(view, cups, doubts))
    answer = weight.WeightSolution(
        tuple(counts[("left", i)] for i in range(len(card.left))),
        tuple(counts[("right", i)] for i in range(len(card.right))))
    left, right = weight.side_weights(card, answer)
    pans = f"the left pan weighs {left}, the right {right}"
    used = sum(answer.left) + sum(answer.right)
    facts = {"left": left, "right": right, "count": card.count, "used": used,
             "outside": outside}
    marks = weight_marks(view, cups, counts, discs, {"left": left, "right": right},
                         weight_radius_px(pack))
    if outside:
        return verdict(NOT_SOLVED, f"{outside} weight(s) lie outside the cups; {pans}",
                       code=Reason.WEIGHTS_OUTSIDE, facts=facts, marks=marks)
    problem = weight.weight_problem(card, answer, allow_empty_cups=box.weight.allow_empty_cups)
    if problem is not None:
        code = (Reason.UNBALANCED if "balance" in problem else
                Reason.WEIGHTS_UNUSED if used != card.count else Reason.CUP_EMPTY)
        return verdict(NOT_SOLVED, f"{problem}; {pans}" if "balance" not in problem else pans,
                       code=code, facts=facts, marks=marks)
    return verdict(SOLVED, f"{pans}, with all {card.count} weights", code=Reason.BALANCED,
                   facts=facts, marks=marks)


__all__ = ["MetalBlob", "MetalMasks", "check_weight", "count_weights", "find_weights", "fit_discs",
           "metal_mask", "read_weight_card", "weight_radius_px"]
