"""The puzzle mat: where a solved puzzle is checked under the camera.

Four small markers (ids 16..19, DICT_4X4_50, printed with
``companion print markers --ids 16,17,18,19 --size-mm 30``) lie on the table at the corners of
a rectangle (default 240 x 150 mm between their centres, origin in the middle). The solver
lays the puzzle card in the left half (around ``CARD_AT``) with the pieces on it, and builds
an angular structure in the right half (around ``BUILD_AT``). The card is found as a square
of the card colour; a dark triangle printed in its top-left corner tells its orientation.

:func:`locate_mat` straightens the mat at ``px_per_mm``; :func:`find_card` returns the card's
square in that image (:func:`vision.enigma.puzzles.check.view_card` cuts it out upright).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.enigma.colours import colour_features
from vision.enigma.pack import EnigmaPack
from vision.enigma.settings import DEFAULT_MAT, MatSettings
from vision.errors import FrameRefusedError
from vision.gains import times_gains
from vision.markers import RESERVED_IDS, MarkerChecks, MarkerLayout, PlaneFit, locate
from vision.warp import warp_perspective

MAT_IDS = RESERVED_IDS["enigma-mat"]
#: smallest share of the frame the mat's marker quadrilateral may cover (a small mat beside
#: the table)
MAT_MIN_AREA = 0.02
CARD_AT = (-55.0, 0.0)
BUILD_AT = (55.0, 0.0)
#: resolution of the straightened mat and of the cut-out card
MAT_PX_PER_MM = 4.0
CARD_PX_PER_MM = 8.0
#: size of the orientation triangle, as a share of the card side
MARK = 0.12


def mat_layout(mat: MatSettings = DEFAULT_MAT) -> MarkerLayout:
    """The mat's four markers at the corners of its frame, centred on 0."""
    w, h = mat.frame_mm[0] / 2, mat.frame_mm[1] / 2
    return MarkerLayout(ids=MAT_IDS, centres_mm=((-w, -h), (w, -h), (w, h), (-w, h)),
                        size_mm=mat.marker_mm, dictionary=mat.marker_dictionary)


@dataclass(frozen=True)
class Mat:
    image: np.ndarray  # straightened, MAT_PX_PER_MM
    plane_to_image: np.ndarray  # mat mm -> image px
    layout: MarkerLayout
    fit: PlaneFit | None = None

    def to_px(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        p = self.plane_to_image @ np.array([x_mm, y_mm, 1.0])
        return (float(p[0]), float(p[1]))


def locate_mat(frame: np.ndarray, mat: MatSettings = DEFAULT_MAT) -> Mat:
    """Find the mat's four markers and straighten it (refuses a frame without them)."""
    layout = mat_layout(mat)
    fit = locate(frame, layout, checks=MarkerChecks(min_area_fraction=MAT_MIN_AREA))
    xs = [c[0] for c in layout.centres_mm]
    ys = [c[1] for c in layout.centres_mm]
    s = MAT_PX_PER_MM
    x0, y0 = min(xs), min(ys)
    to_img = np.array([[s, 0, -x0 * s], [0, s, -y0 * s], [0, 0, 1]], np.float64)
    size = (int(round((max(xs) - x0) * s)), int(round((max(ys) - y0) * s)))
    image = warp_perspective(frame, to_img @ fit.image_to_plane, size)
    return Mat(image, to_img, layout, fit)


@dataclass(frozen=True)
class CardRect:
    """The card in the mat image: centre (px), side (px), turn (degrees, clockwise)."""

    centre: tuple[float, float]
    side: float
    angle: float

    def corners(self) -> np.ndarray:
        """Image corners of the upright card: top-left, top-right, bottom-right, bottom-left."""
        a = math.radians(self.angle)
        ux, uy = math.cos(a), math.sin(a)
        vx, vy = -math.sin(a), math.cos(a)
        h = self.side / 2
        cx, cy = self.centre
        return np.array([[cx - h * ux - h * vx, cy - h * uy - h * vy],
                         [cx + h * ux - h * vx, cy + h * uy - h * vy],
                         [cx + h * ux + h * vx, cy + h * uy + h * vy],
                         [cx - h * ux + h * vx, cy - h * uy + h * vy]], np.float32)


def _balanced(image: np.ndarray, pack: EnigmaPack, table_mask: np.ndarray) -> np.ndarray:
    pixels = image[table_mask]
    if len(pixels) < 50:
        return image
    gains = np.array(pack.colour("table"), np.float32) / np.maximum(
        np.median(pixels, axis=0).astype(np.float32), 1.0)
    return times_gains(image, np.clip(gains, 0.5, 2.0))


def balance_mat(mat: Mat, pack: EnigmaPack) -> np.ndarray:
    """The mat image with its colour cast removed, using the table around the markers."""
    h, w = mat.image.shape[:2]
    ring = np.zeros((h, w), bool)
    m = int(0.12 * min(h, w))
    ring[:m, :] = ring[-m:, :] = True
    ring[:, :m] = ring[:, -m:] = True
    for cx, cy in mat.layout.centres_mm:
        x, y = mat.to_px(cx, cy)
        r = mat.layout.size_mm * MAT_PX_PER_MM
        ring[max(0, int(y - r)):int(y + r), max(0, int(x - r)):int(x + r)] = False
    return _balanced(mat.image, pack, ring)


def find_card(image: np.ndarray, pack: EnigmaPack, card_mm: float, *,
              exclude: tuple[tuple[float, float, float], ...] = ()) -> CardRect:
    """The card: the largest square patch of card colour in the left half of the mat.
    ``exclude``: squares (x, y, half side, pixels) to leave out, the markers' white paper."""
    feats = colour_features(image)
    card_f = colour_features(np.array(pack.colour("card"), np.float32))
    table_f = colour_features(np.array(pack.colour("table"), np.float32))
    d_card = ((feats - card_f) ** 2).sum(axis=-1)
    d_table = ((feats - table_f) ** 2).sum(axis=-1)
    mask = (d_card < d_table).astype(np.uint8)
    h, w = mask.shape
    mask[:, int(w * 0.55):] = 0  # the card lies in the left half; the right is for building
    for x, y, half in exclude:
        mask[max(0, int(y - half)):int(y + half), max(0, int(x - half)):int(x + half)] = 0
    side = card_mm * MAT_PX_PER_MM
    k = max(3, int(side * 0.15)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        raise FrameRefusedError("no puzzle card on the mat", reason="no-card")
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    ys, xs = np.nonzero(lab == best)
    hull = cv2.convexHull(np.column_stack([xs, ys]).astype(np.float32))
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(hull)
    found = math.sqrt(max(rw * rh, 1.0))
    if not 0.85 * side <= found <= 1.2 * side or max(rw, rh) > 1.25 * min(rw, rh):
        raise FrameRefusedError(
            f"no puzzle card of {card_mm:g} mm on the mat (found a patch of "
            f"{rw / MAT_PX_PER_MM:.0f} x {rh / MAT_PX_PER_MM:.0f} mm)", reason="no-card")
    angle = ((angle + 45) % 90) - 45
    return CardRect((float(cx), float(cy)), float(side), float(angle))


__all__ = ["BUILD_AT", "CARD_AT", "CARD_PX_PER_MM", "CardRect", "MARK", "MAT_IDS",
           "MAT_PX_PER_MM", "Mat", "balance_mat", "find_card", "locate_mat",
           "mat_layout"]
