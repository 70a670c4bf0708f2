"""The puzzle mat's card, cut out upright, and what every puzzle check shares: the verdicts,
the doubt margins, light flattening and nearest-colour labels.

A wrong "solved" hands a player points, so every measurement carries a doubt margin and any
doubt gives "cannot tell": the players decide.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.enigma.colours import colour_features
from vision.enigma.mat import (
    CARD_PX_PER_MM,
    MARK,
    MAT_PX_PER_MM,
    balance_mat,
    find_card,
    locate_mat,
)
from vision.enigma.pack import EnigmaPack
from vision.enigma.settings import DEFAULT_MAT, MatSettings
from vision.warp import warp_perspective

SOLVED, NOT_SOLVED, CANNOT_TELL = "solved", "not solved", "cannot tell"


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


def view_card(frame: np.ndarray, pack: EnigmaPack, mat_settings: MatSettings = DEFAULT_MAT, *,
              margin: float = 0.35) -> CardView:
    """The card found on the mat, cut out upright with ``margin`` (share of its side) of mat
    around it."""
    mat = locate_mat(frame, mat_settings)
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
    gains: np.ndarray = a / np.maximum(b, 1.0)
    return gains


def flatten_light(view: CardView, pack: EnigmaPack, *, others: Mapping[str, Any] | None = None
                  ) -> np.ndarray:
    """The card view with uneven light and colour cast taken out: a linear light field per
    channel, fitted to the card's bare pixels, scaled so the card reads as the pack's card
    colour everywhere."""
    image = view.image.astype(np.float32)
    labels, names = nearest_colour(view.image, {"card": pack.colour("card"),
                                                "ink": pack.colour("ink"),
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


def nearest_colour(image: np.ndarray, colours: Mapping[str, Any], *,
                   chroma_weight: float = 1.0) -> tuple[np.ndarray, list[str]]:
    """Per pixel the index of the nearest named colour (chromaticity and brightness).
    ``chroma_weight`` < 1 trusts brightness more: greys differ from a white card mostly in
    brightness, and a camera's colour cast moves their chromaticity."""
    names = list(colours)
    scale = np.array([chroma_weight, chroma_weight, 1.0], np.float32)
    feats = colour_features(image) * scale
    best = np.zeros(image.shape[:2], np.int32)
    best_d = np.full(image.shape[:2], np.inf, np.float32)
    for i, name in enumerate(names):
        c = colour_features(np.array(colours[name], np.float32)) * scale
        d = ((feats - c) ** 2).sum(axis=-1)
        closer = d < best_d
        best[closer] = i
        best_d[closer] = d[closer]
    return best, names



def open_mask(mask: np.ndarray, radius: int) -> np.ndarray:
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    return cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, k).astype(bool)



__all__ = ["CANNOT_TELL", "NOT_SOLVED", "SOLVED", "CardView", "flatten_light", "nearest_colour",
           "open_mask", "verdict", "view_card"]
