"""The fragment check's shaded overhang: black beyond the silhouette that is black only because
the pieces' black was taken as lifted by a glare.

A lamp's glare adds light to the black pieces, so the fragment check lifts the black it
compares with to the darkest grey nearby (``fragment._grey_levels``). Beside thick pieces the
paper in their shadow is that darkest grey wherever the pieces themselves are farther than the
search reaches: the shadow was taken for black lifted by a glare and read as a piece. A right
build read "the pieces reach outside the silhouette (overhang 8.7%)": independent puzzle
scenes, fragment mild seed 0 (a blue gingham), its pieces' shadow 5 mm wide at 0.6 to 0.7 of
the paper's grey (the light flattened), the pieces 0.14. A piece that reaches outside the
silhouette is black without any lift through most of it: a part of the black beyond the
silhouette that is mostly paler than that is the pieces' shade, and is read as paper.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.enigma.puzzles.view import open_mask


def unlifted_middle(g_black: float, g_sil: float) -> float:
    """Darker than this (the light-flattened grey), a pixel is black with no glare's lift: the
    middle of the pieces' grey ``g_black`` and the silhouette's ``g_sil`` (the pack's)."""
    return (g_black + g_sil) / 2


def shade_beside(black: np.ndarray, target: np.ndarray, gray: np.ndarray, middle: float,
                 outline_px: int) -> np.ndarray:
    """The parts of ``black`` outside the silhouette ``target`` that are no piece: what an
    opening of ``outline_px`` (the overhang's, slivers of blur taken out) keeps of them,
    part by part, where the part's median grey (``gray``, the light flattened) is paler than
    ``middle`` (:func:`unlifted_middle`). A piece reaching outside, or a thick piece's side,
    is black through most of it, its blurred rim grey (a side's median 56, a thick piece's
    side on a checked cloth, moderate seed 1006); the pieces' shadow is grey all through
    (median 155 on mild seed 0)."""
    parts = open_mask(black & ~target, outline_px)
    count, labels = cv2.connectedComponents(parts.astype(np.uint8), connectivity=8)
    out = np.zeros(black.shape, bool)
    for k in range(1, count):
        part = labels == k
        if float(np.median(gray[part])) > middle:
            out |= part
    return out


__all__ = ["shade_beside", "unlifted_middle"]
