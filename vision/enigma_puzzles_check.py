"""Camera-verified puzzle solutions: solved, not solved (with the reason), or cannot tell.

``check_puzzle_frame(kind, frame, pack, card=None, cfg=None) -> {"verdict", "reason"}``.
The frame shows the puzzle mat (:mod:`vision.enigma_mat`): the card with its pieces and, for
the angular puzzle, the structure built beside it. The card's data comes from ``card`` (the
touchscreen, or ``--card``); where it is not given it is read from the card where that can be
done (the angular picture, the conduit grid and stubs, the weight cups' places).

A wrong "solved" hands a player points, so every measurement carries a doubt margin and any
doubt gives "cannot tell": the players decide.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.enigma import puzzle_angular as angular
from companion.enigma import puzzle_conduit as conduit
from companion.enigma import puzzle_fragment as fragment
from companion.enigma import puzzle_weight as weight
from companion.enigma.errors import PuzzleError
from companion.enigma.geometry import area
from companion.enigma.puzzles import PuzzleBox, load_puzzles
from vision.enigma_mat import (
    CARD_PX_PER_MM,
    MARK,
    MAT_PX_PER_MM,
    _get,
    balance_mat,
    find_card,
    locate_mat,
)
from vision.enigma_pack import EnigmaPack
from vision.enigma_puzzles_render import (
    conduit_grid,
    fragment_transform,
    parse_card,
    picture_cell_mm,
    weight_cups,
)
from vision.enigma_reader import colour_features
from vision.enigma_warp import warp_affine, warp_perspective
from vision.errors import FrameRefusedError

SOLVED, NOT_SOLVED, CANNOT_TELL = "solved", "not solved", "cannot tell"


@dataclass(frozen=True)
class PuzzleSettings:
    """Doubt margins of the checks; ``[vision.enigma]`` of config may change them."""

    fragment_min_iou: float = 0.96
    fragment_max_gap: float = 0.005  # share of the silhouette after thin slivers; the engine's
    fragment_clear_gap: float = 0.03  # above this a gap or overhang is certain
    count_doubt: float = 0.3  # weights: an area this far from a whole count is doubtful


def settings_from_config(cfg: Any = None) -> PuzzleSettings:
    d = PuzzleSettings()
    return PuzzleSettings(
        fragment_min_iou=float(_get(cfg, "vision.enigma.fragment_min_iou", d.fragment_min_iou)),
        fragment_max_gap=float(_get(cfg, "vision.enigma.fragment_max_gap", d.fragment_max_gap)),
        fragment_clear_gap=d.fragment_clear_gap,
        count_doubt=d.count_doubt,
    )


def verdict(kind: str, reason: str) -> dict[str, str]:
    return {"verdict": kind, "reason": reason}


# ---------------------------------------------------------------------------- the card


@dataclass(frozen=True)
class CardView:
    """The card cut out upright at CARD_PX_PER_MM, with ``margin_px`` of mat around it."""

    image: np.ndarray
    side_px: float
    margin_px: float
    mat: np.ndarray  # the balanced mat image (MAT_PX_PER_MM)
    card_centre_mat: tuple[float, float]
    marker_centres: tuple[tuple[float, float], ...] = ()
    marker_px: float = 0.0

    def mm_to_px(self, x: float, y: float) -> tuple[float, float]:
        return (self.margin_px + x * CARD_PX_PER_MM, self.margin_px + y * CARD_PX_PER_MM)

    def inside_card(self) -> np.ndarray:
        h, w = self.image.shape[:2]
        m = np.zeros((h, w), bool)
        a, b = int(round(self.margin_px)), int(round(self.margin_px + self.side_px))
        m[a:b, a:b] = True
        return m


def view_card(frame: np.ndarray, pack: EnigmaPack, cfg: Any, *, margin: float = 0.35
              ) -> CardView:
    mat = locate_mat(frame, cfg)
    balanced = balance_mat(mat, pack)
    half = mat.layout.size_mm * MAT_PX_PER_MM * 1.05  # marker and its white margin
    rect = find_card(balanced, pack, pack.tile_mm,
                     exclude=tuple((*mat.to_px(x, y), half) for x, y in mat.layout.centres_mm))
    side_mm = pack.tile_mm
    c = side_mm * CARD_PX_PER_MM
    off = c * margin
    size = int(round(c + 2 * off))
    dst = np.array([[off, off], [off + c, off], [off + c, off + c], [off, off + c]], np.float32)
    corners = rect.corners()
    ink = np.array(pack.colour("ink"), np.float32)
    assert mat.fit is not None
    frame_to_mat = mat.plane_to_image @ mat.fit.image_to_plane
    gains = _gains(balanced, mat.image)
    best: tuple[float, np.ndarray] | None = None
    for turn in range(4):
        src = np.roll(corners, -turn, axis=0)
        m = cv2.getPerspectiveTransform(src, dst)
        probe = warp_perspective(balanced, m, (size, size))
        t = int(c * MARK * 0.45)
        patch = probe[int(off) + 3:int(off) + t, int(off) + 3:int(off) + t].reshape(-1, 3)
        d = float(np.linalg.norm(np.median(patch, axis=0) - ink))
        if best is None or d < best[0]:
            best = (d, m)
    assert best is not None
    image = warp_perspective(frame, best[1] @ frame_to_mat, (size, size))
    image = np.clip(image.astype(np.float32) * gains, 0, 255).astype(np.uint8)
    markers = tuple(mat.to_px(x, y) for x, y in mat.layout.centres_mm)
    return CardView(image, c, off, balanced, rect.centre, markers,
                    mat.layout.size_mm * MAT_PX_PER_MM * 1.1)


def _gains(balanced: np.ndarray, raw: np.ndarray) -> np.ndarray:
    a = np.median(balanced.reshape(-1, 3), axis=0).astype(np.float32)
    b = np.median(raw.reshape(-1, 3), axis=0).astype(np.float32)
    return a / np.maximum(b, 1.0)  # type: ignore[no-any-return]


def flatten_light(view: CardView, pack: EnigmaPack, *, others: Mapping[str, Any] | None = None
                  ) -> np.ndarray:
    """The card view with uneven light and colour cast taken out: a linear light field per
    channel, fitted to the card's bare pixels, scaled so the card reads as the pack's card
    colour everywhere."""
    image = view.image.astype(np.float32)
    labels, names = _nearest(view.image, {"card": pack.colour("card"), "ink": pack.colour("ink"),
                                          "table": pack.colour("table"),
                                          "dark": (40, 40, 40), **(others or {})})
    bare = (labels == names.index("card")) & view.inside_card()
    ys, xs = np.nonzero(bare)
    if len(xs) < 100:
        return view.image
    pick = slice(None, None, max(1, len(xs) // 4000))
    a = np.column_stack([xs[pick], ys[pick], np.ones(len(xs[pick]))]).astype(np.float64)
    h, w = image.shape[:2]
    gy, gx = np.mgrid[0:h, 0:w].astype(np.float32)
    out = np.empty_like(image)
    target = np.array(pack.colour("card"), np.float32)
    for c in range(3):
        coef, *_ = np.linalg.lstsq(a, image[ys[pick], xs[pick], c].astype(np.float64),
                                   rcond=None)
        field = (coef[0] * gx + coef[1] * gy + coef[2]).astype(np.float32)
        out[..., c] = image[..., c] * target[c] / np.maximum(field, 1.0)
    return np.clip(out, 0, 255).astype(np.uint8)


def _nearest(image: np.ndarray, colours: Mapping[str, Any]) -> tuple[np.ndarray, list[str]]:
    """Per pixel the index of the nearest named colour (chromaticity and brightness)."""
    names = list(colours)
    feats = colour_features(image)
    best = np.zeros(image.shape[:2], np.int32)
    best_d = np.full(image.shape[:2], np.inf, np.float32)
    for i, name in enumerate(names):
        c = colour_features(np.array(colours[name], np.float32))
        d = ((feats - c) ** 2).sum(axis=-1)
        closer = d < best_d
        best[closer] = i
        best_d[closer] = d[closer]
    return best, names


# ---------------------------------------------------------------------------- weight


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
    labels, names = _nearest(view.image, {"card": pack.colour("card"), "ink": pack.colour("ink"),
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
    labels, names = _nearest(view.image, {"card": pack.colour("card"), "ink": pack.colour("ink"),
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


# ---------------------------------------------------------------------------- fragment


def _open(mask: np.ndarray, radius: int) -> np.ndarray:
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    return cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, k).astype(bool)


def check_fragment(view: CardView, pack: EnigmaPack, card: fragment.FragmentCard | None,
                   box: PuzzleBox, st: PuzzleSettings) -> dict[str, str]:
    if card is None:
        return verdict(CANNOT_TELL, "the silhouette lies under the pieces and is not read: "
                       "enter the card")
    # dark pieces on the light silhouette: split at the middle of the two greys, so that a
    # blurred outline is shared fairly between them
    gray = cv2.cvtColor(view.image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    g_black = float(np.mean(pack.colour("fragment")))
    g_sil = float(np.mean(pack.colour("silhouette")))
    black = gray < (g_black + g_sil) / 2
    black = _open(black, 1)
    labels, names = _nearest(view.image, {"card": pack.colour("card"),
                                          "silhouette": pack.colour("silhouette"),
                                          "black": pack.colour("fragment"),
                                          "table": pack.colour("table")})
    black_beside = _open(labels == names.index("black"), 2)
    h, w = black.shape
    inside = view.inside_card()
    mark = np.zeros((h, w), bool)
    a = int(view.margin_px)
    t = int(view.side_px * MARK * 1.15)
    mark[max(0, a - 3):a + t, max(0, a - 3):a + t] = True  # the orientation triangle
    black &= ~mark
    unit = float(pack.sizes["fragment_unit_mm"])
    scale, dx, dy = fragment_transform(card, pack.tile_mm, unit)
    sil = np.zeros((h, w), np.uint8)
    for part in card.silhouette:
        pts = [view.mm_to_px(dx + x * scale, dy + y * scale) for x, y in part]
        cv2.fillPoly(sil, [np.round(np.array(pts) * 16).astype(np.int32)], 1, cv2.LINE_AA, 4)
    sil_b = sil.astype(bool) & ~mark  # under the printed triangle nothing can be told
    sil_area = float(sil_b.sum())
    piece_px = min(area(p.polygon) for p in box.fragment.pieces) * (
        unit * CARD_PX_PER_MM) ** 2
    beside = black_beside & ~inside
    n_b, _, stats, _ = cv2.connectedComponentsWithStats(beside.astype(np.uint8), connectivity=8)
    if any(stats[k, cv2.CC_STAT_AREA] > 0.3 * piece_px for k in range(1, n_b)):
        return verdict(NOT_SOLVED, "a piece lies beside the card: all the pieces must cover "
                       "the silhouette")
    black &= inside
    # the printed silhouette may sit a little off where the card data puts it: align it
    reach = int(2.0 * CARD_PX_PER_MM)
    ys, xs = np.nonzero(sil_b)
    ya, yb, xa, xb = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    # the shift with the largest overlap (the areas do not change with a shift): a correlation
    padded = np.zeros((yb - ya + 2 * reach, xb - xa + 2 * reach), np.float32)
    src = black[max(0, ya - reach):yb + reach, max(0, xa - reach):xb + reach]
    oy, ox = max(0, ya - reach) - (ya - reach), max(0, xa - reach) - (xa - reach)
    padded[oy:oy + src.shape[0], ox:ox + src.shape[1]] = src
    corr = cv2.matchTemplate(padded, sil_b[ya:yb, xa:xb].astype(np.float32), cv2.TM_CCORR)
    _, top, _, (lx, ly) = cv2.minMaxLoc(corr)
    sx, sy = lx - reach, ly - reach
    inter = float(top)
    best = (inter / max(float(black.sum() + sil_b.sum()) - inter, 1.0), sx, sy)
    iou, sx, sy = best
    target = np.roll(np.roll(sil_b, sy, axis=0), sx, axis=1)
    # thin slivers along the outline are the camera's blur, not gaps
    sliver = max(1, int(round(0.12 * unit * CARD_PX_PER_MM)))
    gap = _open(target & ~black, sliver).sum() / sil_area
    over = _open(black & ~target, sliver).sum() / sil_area
    area_ratio = float(black.sum()) / sil_area
    measures = (f"coverage {iou:.1%}, uncovered {gap:.1%}, overhang {over:.1%}, "
                f"pieces' area {area_ratio:.0%} of the silhouette")
    if gap > st.fragment_clear_gap:
        return verdict(NOT_SOLVED, f"part of the silhouette is not covered ({measures})")
    if over > st.fragment_clear_gap:
        return verdict(NOT_SOLVED, f"the pieces reach outside the silhouette ({measures})")
    if area_ratio < 0.92:
        return verdict(NOT_SOLVED, f"the pieces cover too little: a piece is missing or two "
                       f"pieces overlap ({measures})")
    if (iou >= st.fragment_min_iou and gap <= st.fragment_max_gap
            and over <= st.fragment_max_gap and 0.95 <= area_ratio <= 1.06):
        return verdict(SOLVED, f"all the silhouette is covered ({measures}); the players "
                       f"confirm that all {len(box.fragment.pieces)} pieces are used")
    return verdict(CANNOT_TELL, f"too close to call ({measures})")


# ---------------------------------------------------------------------------- angular


def _grid_colours(image: np.ndarray, mask: np.ndarray, cell: float, pack: EnigmaPack,
                  background: Mapping[str, Any]) -> tuple[tuple[str, ...] | None, str]:
    """Read a top view: straighten the coloured region, divide it into cells, name each."""
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return None, "nothing built"
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
    angle = ((angle + 45) % 90) - 45
    m = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    h, w = mask.shape
    straight = warp_affine(image, m, (w, h))
    smask = warp_affine(mask.astype(np.uint8), m, (w, h), nearest=True) > 0
    ys, xs = np.nonzero(smask)
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    cols_f, rows_f = (x1 - x0) / cell, (y1 - y0) / cell
    cols, rows = int(round(cols_f)), int(round(rows_f))
    if cols < 1 or rows < 1 or abs(cols_f - cols) > 0.3 or abs(rows_f - rows) > 0.3:
        return None, f"the structure does not fit a grid of cubes ({cols_f:.1f} x {rows_f:.1f})"
    colours = {**{k: v for k, v in pack.angular.items()}, **background}
    labels, names = _nearest(straight, colours)
    rows_out = []
    for r in range(rows):
        row = ""
        for c in range(cols):
            ya, yb = int(y0 + (r + 0.25) * cell), int(y0 + (r + 0.75) * cell)
            xa, xb = int(x0 + (c + 0.25) * cell), int(x0 + (c + 0.75) * cell)
            votes = Counter(names[i] for i in labels[ya:yb, xa:xb].ravel())
            top, n = votes.most_common(1)[0]
            if n < 0.6 * max(1, sum(votes.values())):
                return None, f"the colour of column {c + 1}, row {r + 1} is unclear"
            row += top if top in pack.angular else angular.EMPTY
        rows_out.append(row)
    return tuple(rows_out), ""


def check_angular(view: CardView, pack: EnigmaPack, card: angular.AngularCard | None,
                  box: PuzzleBox, st: PuzzleSettings) -> dict[str, str]:
    piece_ids = [p.id for p in box.angular.pieces]
    if card is None:
        # read the card's picture: coloured squares on the card
        inside = view.inside_card()
        labels, names = _nearest(view.image, {**pack.angular, "card": pack.colour("card"),
                                              "ink": pack.colour("ink")})
        coloured = np.isin(labels, [names.index(k) for k in pack.angular]) & inside
        coloured = _open(coloured, 2)
        best_top: tuple[str, ...] | None = None
        for n in range(1, 9):
            cell_mm = picture_cell_mm(["." * n] * n, pack.tile_mm)
            top, _ = _grid_colours(view.image, coloured, cell_mm * CARD_PX_PER_MM, pack,
                                   {"card": pack.colour("card"), "ink": pack.colour("ink")})
            if top is not None and max(len(top), len(top[0])) == n:
                best_top = top
                break
        if best_top is None:
            return verdict(CANNOT_TELL, "the card's picture could not be read: enter the card")
        card = angular.AngularCard("read", best_top)
    mat = view.mat
    mh, mw = mat.shape[:2]
    labels, names = _nearest(mat, {**pack.angular, "table": pack.colour("table"),
                                   "card": pack.colour("card"), "white": (250, 250, 250),
                                   "black": (20, 20, 20)})
    coloured = np.isin(labels, [names.index(k) for k in pack.angular])
    # leave out the card and the markers: the building area is the rest of the mat
    cx, cy = view.card_centre_mat
    r = pack.tile_mm * MAT_PX_PER_MM * 0.8
    coloured[max(0, int(cy - r)):int(cy + r), max(0, int(cx - r)):int(cx + r)] = False
    for mx, my in view.marker_centres:
        half = view.marker_px
        coloured[max(0, int(my - half)):int(my + half), max(0, int(mx - half)):int(mx + half)] = \
            False
    cube = float(pack.sizes["cube_mm"]) * MAT_PX_PER_MM
    k = max(3, int(0.15 * cube)) | 1
    closed = cv2.morphologyEx(coloured.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((k, k),
                                                                                   np.uint8))
    closed = _open(closed.astype(bool), max(1, int(0.2 * cube))).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    blobs = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] > 0.5 * cube * cube]
    if not blobs:
        return verdict(NOT_SOLVED, "no structure is built beside the card")
    main = max(blobs, key=lambda i: stats[i, cv2.CC_STAT_AREA])
    if len(blobs) > 1:
        return verdict(NOT_SOLVED, "a piece lies apart from the structure: all four pieces "
                       "must be used, none left on the table")
    seen, why = _grid_colours(mat, lab == main, cube, pack, {"table": pack.colour("table")})
    if seen is None:
        return verdict(CANNOT_TELL, why)
    shown = "/".join(angular.crop(seen))
    if not angular.picture_matches(seen, card.top, allow_mirror=box.angular.allow_mirror):
        return verdict(NOT_SOLVED, f"seen from above it shows {shown}, the card shows "
                       f"{'/'.join(angular.crop(card.top))}")
    hidden = [p for p in piece_ids if not any(p in row for row in seen)]
    if hidden:
        return verdict(CANNOT_TELL, f"the top view matches, but piece(s) {', '.join(hidden)} "
                       "cannot be seen from above: the players confirm they are used")
    return verdict(SOLVED, f"seen from above it shows {shown}, as the card; the players "
                   "confirm that every piece stands on the table or on another piece")


# ---------------------------------------------------------------------------- conduit


def check_conduit(view: CardView, pack: EnigmaPack, card: conduit.ConduitCard | None,
                  box: PuzzleBox, st: PuzzleSettings) -> dict[str, str]:
    given = card is not None
    if card is None:
        card = conduit.ConduitCard("read", tuple((x, y) for y in range(3) for x in range(3)),
                                   frozenset(), frozenset())
    flat = flatten_light(view, pack, others={"piece": pack.colour("piece"),
                                             "channel": pack.colour("channel")})
    labels, names = _nearest(flat, {"card": pack.colour("card"), "ink": pack.colour("ink"),
                                          "piece": pack.colour("piece"),
                                          "channel": pack.colour("channel"),
                                          "table": pack.colour("table")})
    piece_m = labels == names.index("piece")
    chan_m = labels == names.index("channel")
    # on a piece nothing is printed: a dark pixel there is channel even if nearer the ink
    open_m = chan_m | (labels == names.index("ink"))
    cell_mm, gx, gy = conduit_grid(card, pack.tile_mm)
    cell = cell_mm * CARD_PX_PER_MM
    seen: dict[tuple[int, int], frozenset[str]] = {}
    doubts: list[str] = []
    offsets = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    stubs_seen: set[tuple[tuple[int, int], str]] = set()
    cells = set(card.cells)
    for at in card.cells:
        x0, y0 = view.mm_to_px(gx + at[0] * cell_mm, gy + at[1] * cell_mm)
        cx, cy = x0 + cell / 2, y0 + cell / 2
        inner = (slice(int(cy - 0.3 * cell), int(cy + 0.3 * cell)),
                 slice(int(cx - 0.3 * cell), int(cx + 0.3 * cell)))
        cover = float((piece_m[inner] | open_m[inner]).mean())
        if 0.25 < cover < 0.6:
            doubts.append(f"is there a piece on {list(at)}?")
            continue
        present = cover >= 0.6
        for sd, (ux, uy) in offsets.items():
            if present:
                wx, wy = cx + ux * 0.38 * cell, cy + uy * 0.38 * cell
            else:
                continue
            win = open_m[int(wy - 0.08 * cell):int(wy + 0.08 * cell) + 1,
                         int(wx - 0.08 * cell):int(wx + 0.08 * cell) + 1]
            f = float(win.mean()) if win.size else 0.0
            if 0.2 < f < 0.5:
                doubts.append(f"is the side {sd} of the piece on {list(at)} open?")
            if f >= 0.5:
                seen.setdefault(at, frozenset())
                seen[at] = seen[at] | {sd}
        if present:
            seen.setdefault(at, frozenset())
        for sd, (ux, uy) in offsets.items():
            if (at[0] + ux, at[1] + uy) in cells:
                continue
            wx, wy = cx + ux * 0.6 * cell, cy + uy * 0.6 * cell
            win = open_m[int(wy - 0.06 * cell):int(wy + 0.06 * cell) + 1,
                         int(wx - 0.06 * cell):int(wx + 0.06 * cell) + 1]
            if win.size and float(win.mean()) >= 0.5:
                stubs_seen.add((at, sd))
    if doubts:
        return verdict(CANNOT_TELL, "; ".join(doubts[:3]))
    if given and stubs_seen != set(card.stubs):
        return verdict(CANNOT_TELL, "the card in the frame does not show the stubs of the card "
                       "entered: is it the right card?")
    if not given:
        # which pieces are marked X is not read: judge the layout as if every piece not
        # laid were marked, and never call it solved
        laid_shapes = Counter(
            min((conduit.turn_openings(o, r) for r in range(4)), key=conduit.format_openings)
            for o in seen.values())
        unused: list[str] = []
        for piece in box.conduit.pieces:
            shape = min((piece.turned(r) for r in range(4)), key=conduit.format_openings)
            if laid_shapes[shape] > 0:
                laid_shapes[shape] -= 1
            else:
                unused.append(piece.id)
        card = conduit.ConduitCard("read", card.cells, frozenset(stubs_seen), frozenset(unused))
    # give each laid piece an id of the box's pieces with those openings
    free: dict[frozenset[str], list[str]] = {}
    for piece in box.conduit.pieces:
        if piece.id in card.excluded:
            continue
        shape = min((piece.turned(r) for r in range(4)), key=lambda o: conduit.format_openings(o))
        free.setdefault(shape, []).append(piece.id)
    by_id = {p.id: p for p in box.conduit.pieces}
    every_shape = {min((p.turned(r) for r in range(4)), key=conduit.format_openings)
                   for p in box.conduit.pieces}
    solution: conduit.ConduitSolution = {}
    for at, openings in sorted(seen.items()):
        shape = min((conduit.turn_openings(openings, r) for r in range(4)),
                    key=lambda o: conduit.format_openings(o)) if openings else frozenset()
        if shape not in every_shape:
            # no piece of the box looks like this: the camera misread it
            return verdict(CANNOT_TELL, f"the openings of the piece on {list(at)} are not seen "
                           "clearly")
        if not free.get(shape):
            return verdict(NOT_SOLVED, f"the piece on {list(at)} (openings "
                           f"{conduit.format_openings(openings)}) is not one of the pieces to "
                           "use (or one too many of its kind)")
        pid = free[shape].pop(0)
        rotation = next(r for r in range(4) if by_id[pid].turned(r) == openings)
        solution[pid] = (at, rotation)
    problem = conduit.conduit_problem(card, box.conduit.pieces, solution)
    if problem is not None:
        return verdict(NOT_SOLVED, problem)
    if not given:
        return verdict(CANNOT_TELL, "every channel is closed, but the pieces marked X are not "
                       "read from the card: enter the card")
    return verdict(SOLVED, f"every channel is connected or closed, {len(solution)} pieces used"
                   + (f", {', '.join(sorted(card.excluded))} set aside" if card.excluded else ""))


# ---------------------------------------------------------------------------- entry point


CHECKS = {"weight": check_weight, "fragment": check_fragment, "angular": check_angular,
          "conduit": check_conduit}


def check_puzzle_frame(kind: str, frame: np.ndarray, pack: EnigmaPack, *, card: Any = None,
                       cfg: Any = None, box: PuzzleBox | None = None) -> dict[str, str]:
    """The verdict on one frame: ``{"verdict": "solved" | "not solved" | "cannot tell",
    "reason": "..."}``. A frame without the mat or the card is "cannot tell"."""
    if kind not in CHECKS:
        raise ValueError(f"unknown puzzle kind {kind!r}; kinds: {', '.join(CHECKS)}")
    box = box or load_puzzles()
    parsed = None
    if card is not None:
        try:
            parsed = parse_card(kind, card) if isinstance(card, Mapping) else card
        except PuzzleError as exc:
            return verdict(CANNOT_TELL, f"the card entered is not a {kind} card: {exc}")
    try:
        view = view_card(frame, pack, cfg)
    except FrameRefusedError as exc:
        return verdict(CANNOT_TELL, f"the frame cannot be read: {getattr(exc, 'message', exc)}")
    return CHECKS[kind](view, pack, parsed, box, settings_from_config(cfg))


__all__ = ["CANNOT_TELL", "CHECKS", "NOT_SOLVED", "PuzzleSettings", "SOLVED",
           "check_puzzle_frame", "settings_from_config", "verdict", "view_card"]
