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
    black = open_mask(black, 1)
    labels, names = nearest_colour(view.image, {"card": pack.colour("card"),
                                                "silhouette": pack.colour("silhouette"),
                                                "black": pack.colour("fragment"),
                                                "table": pack.colour("table")})
    black_beside = open_mask(labels == names.index("black"), 2)
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
    gap = open_mask(target & ~black, sliver).sum() / sil_area
    over = open_mask(black & ~target, sliver).sum() / sil_area
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


__all__ = ["check_fragment"]
