"""The fragment check's shaded overhang: black beyond the silhouette that is black only because
the pieces' black was taken as lifted by a glare.

A lamp's glare adds light to the black pieces, so the fragment check lifts the black it
compares with to the darkest grey nearby (``fragment._grey_levels``). Beside thick pieces the
paper in their shadow is that darkest grey wherever the pieces themselves are farther than the
search reaches: the shadow was taken for black lifted by a glare and read as a piece. A right
build read "the pieces reach outside the silhouette (overhang 8.7%)": independent puzzle
scenes, fragment mild seed 0 (a blue gingham), its pieces' shadow 10 mm wide at 0.6 to 0.7 of
the paper's grey (the light flattened), the pieces 0.14. A piece that reaches outside the
silhouette is black without any lift, at least as wide as the overhang's opening: black
beyond the silhouette that holds no such core is the pieces' shade, and is read as paper.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.enigma.puzzles.view import open_mask


def unlifted_black(gray: np.ndarray, g_black: float, g_sil: float) -> np.ndarray:
    """Where the light-flattened ``gray`` is black with no glare's lift: darker than the middle
    of the pieces' grey ``g_black`` and the silhouette's ``g_sil`` (the pack's)."""
    out: np.ndarray = gray < (g_black + g_sil) / 2
    return out


def shade_beside(black: np.ndarray, target: np.ndarray, unlifted: np.ndarray, outline_px: int
                 ) -> np.ndarray:
    """The parts of ``black`` outside the silhouette ``target`` that are no piece: what an
    opening of ``outline_px`` (the overhang's, slivers of blur taken out) keeps of them,
    part by part, where a part holds no core of ``unlifted`` black as wide as that opening.
    A piece reaching outside holds one (its blurred rim may be grey and counts with it); the
    pieces' shadow holds none."""
    outside = black & ~target
    parts = open_mask(outside, outline_px)
    cores = open_mask(outside & unlifted, outline_px)
    _, labels = cv2.connectedComponents(parts.astype(np.uint8), connectivity=8)
    held = np.unique(labels[cores & parts])
    out: np.ndarray = parts & ~np.isin(labels, held)
    return out


__all__ = ["shade_beside", "unlifted_black"]
