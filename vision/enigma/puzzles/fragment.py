"""The fragment puzzle seen by the camera: dark pieces over the printed silhouette."""

from __future__ import annotations

import cv2
import numpy as np

from companion.enigma import puzzle_fragment as fragment
from companion.enigma.geometry import area
from companion.enigma.puzzles import PuzzleBox
from vision.enigma.mat import (
    CARD_PX_PER_MM,
    MARK,
)
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.cards import (
    fragment_transform,
)
from vision.enigma.puzzles.view import (
    CANNOT_TELL,
    NOT_SOLVED,
    SOLVED,
    CardView,
    nearest_colour,
    open_mask,
    verdict,
)
from vision.enigma.settings import PuzzleSettings

#: a dark blob beside the card larger than this share of the smallest piece is a piece
PIECE_BESIDE = 0.3
#: how far (mm) the printed silhouette may sit off where the card data puts it
ALIGN_REACH_MM = 2.0
#: slivers thinner than this share of a fragment unit along the outline are blur, not gaps
SLIVER_UNITS = 0.12
#: pieces covering less than this share of the silhouette's area: a piece missing or two
#: pieces overlapping
MIN_AREA_RATIO = 0.92
#: the pieces' area, as a share of the silhouette's, of a solved puzzle
SOLVED_AREA = (0.95, 1.06)


def _dark_pieces(view: CardView, pack: EnigmaPack) -> tuple[np.ndarray, np.ndarray]:
    """The dark pieces on the card and the dark blobs anywhere (to find a piece beside it)."""
    # dark pieces on the light silhouette: split at the middle of the two greys, so that a
    # blurred outline is shared fairly between them
    gray = cv2.cvtColor(view.image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    g_black = float(np.mean(pack.colour("fragment")))
    g_sil = float(np.mean(pack.colour("silhouette")))
    black = gray < (g_black + g_sil) / 2
    black = open_mask(black, 1)
    labels, names = nearest_colour(view.image, {"card": pack.colour("card"),
                                                "silhouette": pack.colour("silhouette"),
                                                "black": pack.colour("fragment"),
                                                "table": pack.colour("table")})
    return black, open_mask(labels == names.index("black"), 2)


def _orientation_mark(view: CardView, shape: tuple[int, int]) -> np.ndarray:
    """The printed orientation triangle's corner (nothing can be told under it)."""
    mark = np.zeros(shape, bool)
    a = int(view.margin_px)
    t = int(view.side_px * MARK * 1.15)
    mark[max(0, a - 3):a + t, max(0, a - 3):a + t] = True
    return mark


def _silhouette(view: CardView, card: fragment.FragmentCard, pack: EnigmaPack,
                shape: tuple[int, int]) -> np.ndarray:
    """Where the card data puts the silhouette in the card view."""
    unit = float(pack.sizes["fragment_unit_mm"])
    scale, dx, dy = fragment_transform(card, pack.tile_mm, unit)
    sil = np.zeros(shape, np.uint8)
    for part in card.silhouette:
        pts = [view.mm_to_px(dx + x * scale, dy + y * scale) for x, y in part]
        cv2.fillPoly(sil, [np.round(np.array(pts) * 16).astype(np.int32)], 1, cv2.LINE_AA, 4)
    return sil.astype(bool)


def _aligned(black: np.ndarray, sil_b: np.ndarray) -> tuple[float, np.ndarray]:
    """The silhouette shifted (within :data:`ALIGN_REACH_MM`) to its largest overlap with
    the pieces, and the coverage (IoU) there. The areas do not change with a shift, so the
    best shift is a correlation's peak."""
    reach = int(ALIGN_REACH_MM * CARD_PX_PER_MM)
    ys, xs = np.nonzero(sil_b)
    ya, yb, xa, xb = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    padded = np.zeros((yb - ya + 2 * reach, xb - xa + 2 * reach), np.float32)
    src = black[max(0, ya - reach):yb + reach, max(0, xa - reach):xb + reach]
    oy, ox = max(0, ya - reach) - (ya - reach), max(0, xa - reach) - (xa - reach)
    padded[oy:oy + src.shape[0], ox:ox + src.shape[1]] = src
    corr = cv2.matchTemplate(padded, sil_b[ya:yb, xa:xb].astype(np.float32), cv2.TM_CCORR)
    _, top, _, (lx, ly) = cv2.minMaxLoc(corr)
    sx, sy = lx - reach, ly - reach
    inter = float(top)
    iou = inter / max(float(black.sum() + sil_b.sum()) - inter, 1.0)
    return iou, np.roll(np.roll(sil_b, sy, axis=0), sx, axis=1)


def _judge_cover(black: np.ndarray, target: np.ndarray, iou: float, unit: float,
                 box: PuzzleBox, st: PuzzleSettings) -> dict[str, str]:
    """The verdict from coverage, gaps, overhangs and the pieces' area."""
    sil_area = float(target.sum())
    # thin slivers along the outline are the camera's blur, not gaps
    sliver = max(1, int(round(SLIVER_UNITS * unit * CARD_PX_PER_MM)))
    gap = open_mask(target & ~black, sliver).sum() / sil_area
    over = open_mask(black & ~target, sliver).sum() / sil_area
    area_ratio = float(black.sum()) / sil_area
    measures = (f"coverage {iou:.1%}, uncovered {gap:.1%}, overhang {over:.1%}, "
                f"pieces' area {area_ratio:.0%} of the silhouette")
    if gap > st.fragment_clear_gap:
        return verdict(NOT_SOLVED, f"part of the silhouette is not covered ({measures})")
    if over > st.fragment_clear_gap:
        return verdict(NOT_SOLVED, f"the pieces reach outside the silhouette ({measures})")
    if area_ratio < MIN_AREA_RATIO:
        return verdict(NOT_SOLVED, f"the pieces cover too little: a piece is missing or two "
                       f"pieces overlap ({measures})")
    low, high = SOLVED_AREA
    if (iou >= st.fragment_min_iou and gap <= st.fragment_max_gap
            and over <= st.fragment_max_gap and low <= area_ratio <= high):
        return verdict(SOLVED, f"all the silhouette is covered ({measures}); the players "
                       f"confirm that all {len(box.fragment.pieces)} pieces are used")
    return verdict(CANNOT_TELL, f"too close to call ({measures})")


def check_fragment(view: CardView, pack: EnigmaPack, card: fragment.FragmentCard | None,
                   box: PuzzleBox, st: PuzzleSettings) -> dict[str, str]:
    """The fragment verdict: the dark pieces against the printed silhouette (the card data
    gives it; it lies under the pieces and is not read)."""
    if card is None:
        return verdict(CANNOT_TELL, "the silhouette lies under the pieces and is not read: "
                       "enter the card")
    black, black_beside = _dark_pieces(view, pack)
    inside = view.inside_card()
    mark = _orientation_mark(view, black.shape)
    black &= ~mark
    unit = float(pack.sizes["fragment_unit_mm"])
    sil_b = _silhouette(view, card, pack, black.shape) & ~mark
    piece_px = min(area(p.polygon) for p in box.fragment.pieces) * (
        unit * CARD_PX_PER_MM) ** 2
    beside = black_beside & ~inside
    n_b, _, stats, _ = cv2.connectedComponentsWithStats(beside.astype(np.uint8), connectivity=8)
    if any(stats[k, cv2.CC_STAT_AREA] > PIECE_BESIDE * piece_px for k in range(1, n_b)):
        return verdict(NOT_SOLVED, "a piece lies beside the card: all the pieces must cover "
                       "the silhouette")
    black &= inside
    iou, target = _aligned(black, sil_b)
    return _judge_cover(black, target, iou, unit, box, st)


__all__ = ["check_fragment"]
