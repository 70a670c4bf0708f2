"""The weight puzzle seen by the camera: the card's cups and numbers, the weights in each cup."""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.enigma import puzzle_weight as weight
from companion.enigma.errors import PuzzleError
from companion.enigma.puzzles import PuzzleBox
from vision.enigma_mat import (
    CARD_PX_PER_MM,
)
from vision.enigma_pack import EnigmaPack
from vision.enigma_puzzle_view import (
    CANNOT_TELL,
    NOT_SOLVED,
    SOLVED,
    CardView,
    PuzzleSettings,
    nearest_colour,
    verdict,
)
from vision.enigma_puzzles_render import (
    weight_cups,
)


def _digit_templates(height: int) -> dict[str, np.ndarray]:
    """The digits as the card prints them (the pack's font), ``height`` pixels tall."""
    out = {}
    for d in "0123456789":
        img = np.zeros((64, 48), np.uint8)
        cv2.putText(img, d, (4, 54), cv2.FONT_HERSHEY_SIMPLEX, 1.8, 255, 4, cv2.LINE_AA)
        ys, xs = np.nonzero(img > 100)
        crop = img[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        out[d] = crop
    return out


def _read_number(ink: np.ndarray, box_px: tuple[int, int, int, int]) -> tuple[int | None, float]:
    """The number printed in a box of the card (ink mask): digits split by gaps, each
    compared with the font's digits. Returns the number and the weakest digit's margin."""
    x0, y0, x1, y1 = box_px
    region = ink[max(0, y0):y1, max(0, x0):x1].astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(region, connectivity=8)
    blobs = [k for k in range(1, n) if stats[k, cv2.CC_STAT_HEIGHT] >= 0.4 * (y1 - y0)
             and stats[k, cv2.CC_STAT_AREA] >= 8]
    if not blobs:
        return None, 0.0
    blobs.sort(key=lambda k: stats[k, cv2.CC_STAT_LEFT])
    digits = ""
    margin = 1.0
    for k in blobs:
        x, y, w, h = (int(stats[k, c]) for c in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP,
                                                  cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT))
        crop = (lab[y:y + h, x:x + w] == k).astype(np.float32)
        scores = {}
        for d, t in _digit_templates(h).items():
            if abs(t.shape[1] / t.shape[0] - w / h) > 0.45:
                scores[d] = -1.0
                continue
            tt = cv2.resize(t.astype(np.float32) / 255, (w, h), interpolation=cv2.INTER_AREA)
            a, b = crop - crop.mean(), tt - tt.mean()
            scores[d] = float((a * b).sum() / max(np.sqrt((a * a).sum() * (b * b).sum()), 1e-6))
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])
        digits += ranked[0][0]
        margin = min(margin, ranked[0][1] - ranked[1][1])
        if ranked[0][1] < 0.5:
            margin = 0.0
    return int(digits), margin


def read_weight_card(view: CardView, pack: EnigmaPack) -> tuple[weight.WeightCard | None, str]:
    """The cups (how many on each side, from the printed rings) and their values and the
    count (printed numbers), read from the card; None and why when any of it is unsure."""
    labels, names = nearest_colour(view.image, {"card": pack.colour("card"),
                                                "ink": pack.colour("ink"),
                                                "weight": pack.colour("weight"),
                                                "table": pack.colour("table")})
    ink = labels == names.index("ink")
    side = pack.tile_mm
    best: tuple[float, int, int] | None = None
    for n_left in range(1, 4):
        for n_right in range(1, 4):
            probe = weight.WeightCard(tuple([1] * n_left), tuple([1] * n_right), 1)
            score = 1.0
            for cup in weight_cups(probe, side):
                cx, cy = view.mm_to_px(*cup.centre)
                r = cup.radius * CARD_PX_PER_MM
                angles = np.linspace(0, 2 * math.pi, 48, endpoint=False)
                xs = np.clip(np.round(cx + r * np.cos(angles)).astype(int), 0,
                             ink.shape[1] - 1)
                ys = np.clip(np.round(cy + r * np.sin(angles)).astype(int), 0,
                             ink.shape[0] - 1)
                near = cv2.dilate(ink.astype(np.uint8), np.ones((5, 5), np.uint8))
                score = min(score, float(near[ys, xs].mean()))
            # more cups than printed find no ring; fewer leave printed rings unexplained
            if score > 0.6 and (best is None or n_left + n_right > best[1] + best[2]):
                best = (score, n_left, n_right)
    if best is None:
        return None, "the cups could not be found on the card"
    _, n_left, n_right = best
    probe = weight.WeightCard(tuple([1] * n_left), tuple([1] * n_right), 1)
    values: dict[str, list[int]] = {"left": [], "right": []}
    height = 0.08 * side * CARD_PX_PER_MM
    for cup in weight_cups(probe, side):
        cx, _ = view.mm_to_px(cup.centre[0], 0)
        _, cy = view.mm_to_px(0, 0.76 * side)
        half_w = max(cup.radius * 1.3, 0.1 * side) * CARD_PX_PER_MM
        number, margin = _read_number(ink, (int(cx - half_w), int(cy - height),
                                            int(cx + half_w), int(cy + height)))
        if number is None or margin < 0.1:
            return None, f"the value under the {cup.side} cup {cup.index + 1} is unclear"
        values[cup.side].append(number)
    cx, cy = view.mm_to_px(0.88 * side, 0.92 * side)
    count, margin = _read_number(ink, (int(cx - 0.1 * side * CARD_PX_PER_MM), int(cy - height),
                                       int(cx + 0.1 * side * CARD_PX_PER_MM), int(cy + height)))
    if count is None or margin < 0.1:
        return None, "the number of weights in the corner is unclear"
    try:
        return weight.WeightCard(tuple(values["left"]), tuple(values["right"]), count,
                                 "read"), ""
    except PuzzleError as exc:
        return None, str(exc)


def check_weight(view: CardView, pack: EnigmaPack, card: weight.WeightCard | None,
                 box: PuzzleBox, st: PuzzleSettings) -> dict[str, str]:
    if card is None:
        card, why = read_weight_card(view, pack)
        if card is None:
            return verdict(CANNOT_TELL, f"{why}: enter the card's numbers")
    dark = tuple(int(v * 0.6) for v in pack.colour("weight"))
    labels, names = nearest_colour(view.image, {"card": pack.colour("card"),
                                                "ink": pack.colour("ink"),
                                                "weight": pack.colour("weight"), "rim": dark,
                                                "table": pack.colour("table")})
    core = (labels == names.index("weight")).astype(np.float32)
    metal = np.isin(labels, [names.index("weight"), names.index("rim")]).astype(np.uint8)
    metal = cv2.morphologyEx(metal, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    wr = float(pack.sizes["weight_mm"]) / 2 * CARD_PX_PER_MM
    h, w = metal.shape
    yy, xx = np.mgrid[0:h, 0:w]
    counted = np.zeros((h, w), bool)
    counts: dict[tuple[str, int], int] = {}
    doubts: list[str] = []
    dist = cv2.distanceTransform(metal, cv2.DIST_L2, 5)
    k = max(3, int(wr * 1.2)) | 1
    peaks = (dist >= cv2.dilate(dist, np.ones((k, k), np.uint8))) & (dist > 0.45 * wr)
    py, px = np.nonzero(peaks)
    centres: list[tuple[float, float, float]] = []
    for x, y in sorted(zip(px.tolist(), py.tolist(), strict=True),
                       key=lambda q: -float(dist[q[1], q[0]])):
        if all(math.hypot(x - a, y - b) > 1.1 * wr for a, b, _ in centres):
            centres.append((float(x), float(y), float(dist[y, x])))
    for cup in weight_cups(card, pack.tile_mm):
        cx, cy = view.mm_to_px(*cup.centre)
        reach = cup.radius * CARD_PX_PER_MM * 1.2
        region = (xx - cx) ** 2 + (yy - cy) ** 2 <= reach ** 2
        counted |= region
        inside_cup = [c for c in centres if math.hypot(c[0] - cx, c[1] - cy) <= reach]
        # a weight is a disc of known size: its centre lies about one radius from any edge
        unsure = [c for c in inside_cup if c[2] < 0.7 * wr]
        if unsure:
            doubts.append(f"the {cup.side} cup {cup.index + 1}: weights overlap or are hidden")
        counts[(cup.side, cup.index)] = len(inside_cup)
    # weights elsewhere: discs of a weight's size outside every cup (a big grey patch, a
    # shadow, is not a weight)
    near_card = view.inside_card()
    near_card = cv2.dilate(near_card.astype(np.uint8),
                           np.ones((int(0.5 * view.margin_px) | 1,) * 2, np.uint8)).astype(bool)
    candidates = [(x, y) for x, y, d in centres
                  if not counted[int(y), int(x)] and near_card[int(y), int(x)]
                  and 0.75 * wr <= d <= 1.25 * wr
                  and core[max(0, int(y) - 2):int(y) + 3, max(0, int(x) - 2):int(x) + 3].mean()
                  > 0.5]
    # a weight beside the cups lies alone: it must look like one weight disc on the card
    gray = cv2.cvtColor(view.image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    size = int(2 * round(1.4 * wr)) + 1
    tmpl = np.full((size, size), float(np.mean(pack.colour("card"))), np.float32)
    cv2.circle(tmpl, (size // 2, size // 2), int(round(wr)),
               float(np.mean(pack.colour("weight"))), -1, cv2.LINE_AA)
    outside = 0
    for x, y in candidates:
        a, b = int(x) - size // 2 - 3, int(y) - size // 2 - 3
        patch = gray[max(0, b):b + size + 6, max(0, a):a + size + 6]
        if patch.shape[0] < size or patch.shape[1] < size:
            continue
        likeness = float(cv2.matchTemplate(patch, tmpl, cv2.TM_CCOEFF_NORMED).max())
        if likeness >= 0.7:
            outside += 1
        elif likeness >= 0.45:
            doubts.append("is there a weight beside the cups?")
    if doubts:
        return verdict(CANNOT_TELL, "; ".join(doubts))
    answer = weight.WeightSolution(
        tuple(counts[("left", i)] for i in range(len(card.left))),
        tuple(counts[("right", i)] for i in range(len(card.right))))
    left, right = weight.side_weights(card, answer)
    pans = f"the left pan weighs {left}, the right {right}"
    if outside:
        return verdict(NOT_SOLVED, f"{outside} weight(s) lie outside the cups; {pans}")
    problem = weight.weight_problem(card, answer, allow_empty_cups=box.weight.allow_empty_cups)
    if problem is not None:
        return verdict(NOT_SOLVED, f"{problem}; {pans}" if "balance" not in problem else pans)
    return verdict(SOLVED, f"{pans}, with all {card.count} weights")


__all__ = ["check_weight", "read_weight_card"]
