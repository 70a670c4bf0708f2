"""The fragment check's pale test: a silhouette paler than the thick pieces' grey near it.

Thick pieces shade a gap between them, and the black measured near pieces rose into it: a gap
left by a piece turned a quarter read black, and undoing the sides' sweep took away the excess
area that had kept the wrong build from "solved" (independent scenes, fragment mild and
moderate seed 5). Such a gap stays paler than the pieces around it. The pieces' grey is not
one grey, though: a lamp's hotspot lifts one corner of smooth black pieces, and against the
pieces' ONE median grey that corner read as a gap (thick wood/moderate seed 11, cloth/strong
seeds 3 and 5, wood/strong seeds 10 and 1: right builds "cannot tell"). So each pixel is
compared with a smooth surface fitted to the pieces' grey: wide light is modelled, a gap a
piece wide is not (a quadratic cannot bend into it, and its pixels are left out of the fit).
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from vision.enigma.puzzles.fragment_inner import beyond_blur

#: over the silhouette, a pixel this share of the way from the pieces' grey near it (the
#: fitted surface) to the silhouette's grey is no piece
PALE_SHARE = 0.35
#: the surface's degree in x and y: a quadratic follows a lamp's light across the card and is
#: too stiff to follow a gap a piece leaves (degree 1 left a right build's hotspot pale:
#: thick cloth/strong seed 5, 16% of the silhouette)
SURFACE_DEGREE = 2
#: the fit is made again this many times, without the pixels paler than the last fit allows
#: (a gap read black pulls a least-squares surface up towards it)
REFITS = 2
#: the fit is made on at most about this many of the pieces' pixels (evenly taken)
FIT_PIXELS = 4000


class PaleShares(NamedTuple):
    """How much of the silhouette is pale: in all, and inside it, beyond the outline's blur
    (:func:`vision.enigma.puzzles.fragment_inner.beyond_blur`); shares of its area."""

    share: float
    inner: float


def pale_share(gray: np.ndarray, sil_grey: np.ndarray, pieces: np.ndarray, target: np.ndarray,
               outline_px: int) -> PaleShares:
    """The shares of the silhouette ``target`` much paler than the pieces' grey near it
    (:data:`PALE_SHARE` of the way to ``sil_grey``, the silhouette's grey per pixel), slivers
    thinner than ``outline_px`` along its outline left out (the outline's blur)."""
    if not pieces.any():
        return PaleShares(1.0, 1.0)
    own = np.zeros(gray.shape, np.float32)
    rows, cols = np.nonzero(target)
    own[rows, cols] = pieces_grey(gray, sil_grey, pieces, rows, cols)
    pale = target & (gray > own + PALE_SHARE * (sil_grey - own))
    seen, inside = beyond_blur(pale, target, outline_px,
                               inside_only=narrow_pale(gray, sil_grey, 2 * outline_px))
    area = max(float(target.sum()), 1.0)
    return PaleShares(float(seen.sum()) / area, float(inside.sum()) / area)


def narrow_pale(gray: np.ndarray, sil_grey: np.ndarray, reach_px: int) -> np.ndarray:
    """Where the grey is :data:`PALE_SHARE` of the way from the darkest grey within
    ``reach_px`` to the silhouette's grey ``sil_grey``: a pale patch that black lies near.

    Card showing through between thick pieces lies below them, between their black sides
    and shadows: a wedge a turned piece leaves, a thin gap, is narrow, and the pieces' black
    is a few pixels from any of it. A lamp's light on the pieces' tops is broad and smooth:
    the hotspot's middle is no paler than its own shoulders nearby. Inside the silhouette the
    hotspot's core, past the fitted surface at its noisiest pixels, read as an inner pale
    patch (thick cloth/strong seed 5, a right build "cannot tell", 2.5% of the silhouette;
    within 12 pixels of black none of it is, and all of the wedges' 0.3 to 4.4% of
    independent scenes fragment mild seeds 2, 5, 7 and moderate 5, wrong builds)."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach_px + 1, 2 * reach_px + 1))
    floor = cv2.erode(gray, disc)
    out: np.ndarray = gray > floor + PALE_SHARE * (sil_grey - floor)
    return out


def pieces_grey(gray: np.ndarray, sil_grey: np.ndarray, pieces: np.ndarray,
                at_rows: np.ndarray, at_cols: np.ndarray) -> np.ndarray:
    """The pieces' grey at the pixels (``at_rows``, ``at_cols``): a surface of
    :data:`SURFACE_DEGREE` fitted to the grey of the pixels ``pieces``, refitted
    :data:`REFITS` times without those paler than it allows (a gap among them)."""
    rows, cols = np.nonzero(pieces)
    step = max(1, rows.size // FIT_PIXELS)
    rows, cols = rows[::step], cols[::step]
    # coordinates about the pieces' centre, in half their extent: a well-conditioned fit
    centre = (float(rows.mean()), float(cols.mean()))
    half = max(float(np.ptp(rows)), float(np.ptp(cols)), 1.0) / 2
    terms = _terms(rows, cols, centre, half)
    grey = gray[rows, cols].astype(np.float64)
    sil = sil_grey[rows, cols].astype(np.float64)
    kept = np.ones(grey.size, bool)
    for _ in range(REFITS + 1):
        coef = np.linalg.lstsq(terms[kept], grey[kept], rcond=None)[0]
        fit = terms @ coef
        kept = grey <= fit + PALE_SHARE * (sil - fit)
        if not kept.any():
            break
    out: np.ndarray = _terms(at_rows, at_cols, centre, half) @ coef
    return out


def _terms(rows: np.ndarray, cols: np.ndarray, centre: tuple[float, float], half: float
           ) -> np.ndarray:
    """The surface's terms x^i y^j (i + j at most :data:`SURFACE_DEGREE`) at the pixels."""
    y = (rows - centre[0]) / half
    x = (cols - centre[1]) / half
    return np.stack([x ** i * y ** j for i in range(SURFACE_DEGREE + 1)
                     for j in range(SURFACE_DEGREE + 1 - i)], axis=1)


__all__ = ["PALE_SHARE", "PaleShares", "narrow_pale", "pale_share", "pieces_grey"]
