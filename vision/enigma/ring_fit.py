"""Enigma reader, the cell under a pawn seen from the side placed by the arc of it the pawn
leaves (:func:`side_ring_cell`). See :mod:`vision.enigma.networkers`.

A pawn drawn with height leans away from the camera's axis: its top, where its colour is
seen, lies off its foot, and its body covers its cell on that side, so the cell's ring shows
only on the other (:func:`~vision.enigma.ring_blend.clear_ring_cell` then names no colour:
the cell's middle, and so where its channels end, is not the pawn's place). The printed cell
is a disc of the pack's cell radius: the circle of that radius through the outer edge of the
arc places it, when the arc spans enough of the circle to fix both of its axes.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.enigma.cells import disc
from vision.enigma.colours import ColourModel
from vision.enigma.ring_blend import (
    RING_CLEAR_SHARE,
    RING_INNER,
    RING_OUTER,
    leading_ring_cell,
)

#: the arc is looked for round the pawn's place out to this many cell radii (a pawn's top
#: seen up to about a cell radius off its cell's middle: 0.3-7.5 px at a cell radius of 7,
#: tuning independent clean and harsh 0-19 and 6000-6019)
ARC_REACH = 2.0
#: the arc's outer edge: its farthest pixel from the pawn's place in each of this many
#: sectors round it
EDGE_SECTORS = 24
#: the edge pixels' centres lie this far inside the printed circle (half a pixel)
EDGE_INSET = 0.5
#: the fit is clear when the edge lies this near the circle (root mean square, pixels:
#: the same tuning, arcs of cells under pawns 0.1-1.0 where taken) ...
FIT_RMS = 1.0
#: ... and spans at least this much of it (degrees): less than a half circle leaves the
#: middle free along the arc's chord
FIT_SPAN = 180.0
#: consistent when no more of the arc's pixels than this lie outside the fitted circle (by
#: more than a pixel): the printed cell holds its whole ring
OUTSIDE_PX = 1


def _arc_edge(arc: np.ndarray, at: tuple[float, float]) -> np.ndarray:
    """The outer edge of ``arc`` (a mask) seen from ``at``: per sector round it
    (:data:`EDGE_SECTORS`), the farthest pixel, as (n, 2) x, y."""
    ys, xs = np.nonzero(arc)
    dx, dy = xs - at[0], ys - at[1]
    sector = (np.floor((np.arctan2(dy, dx) + math.pi) / (2 * math.pi) * EDGE_SECTORS)
              .astype(int) % EDGE_SECTORS)
    far = np.hypot(dx, dy)
    edge = []
    for k in np.unique(sector):
        pick = np.nonzero(sector == k)[0]
        j = pick[int(np.argmax(far[pick]))]
        edge.append((float(xs[j]), float(ys[j])))
    return np.asarray(edge, np.float64)


def fit_circle(points: np.ndarray, radius: float, start: tuple[float, float]
               ) -> tuple[tuple[float, float], float, float]:
    """The centre of the circle of ``radius`` nearest ``points`` (n, 2), by Gauss-Newton
    from ``start``; the root mean square of the points' distances off it, and the span of
    the circle the points cover, degrees (360 less the widest gap between them)."""
    centre = np.asarray(start, np.float64)
    for _ in range(20):
        rel = points - centre
        dist = np.maximum(np.hypot(rel[:, 0], rel[:, 1]), 1e-6)
        step = np.linalg.lstsq(-rel / dist[:, None], radius - dist, rcond=None)[0]
        centre = centre + step
        if float(np.hypot(step[0], step[1])) < 1e-3:
            break
    rel = points - centre
    dist = np.hypot(rel[:, 0], rel[:, 1])
    rms = float(np.sqrt(((dist - radius) ** 2).mean()))
    angles = np.sort(np.arctan2(rel[:, 1], rel[:, 0]))
    gaps = np.diff(np.concatenate([angles, angles[:1] + 2 * math.pi]))
    return (float(centre[0]), float(centre[1])), rms, 360.0 - math.degrees(float(gaps.max()))


def side_ring_cell(feats: np.ndarray, model: ColourModel, at: tuple[float, float],
                   radii: tuple[float, float], pawn: int, others: list[tuple[float, float]]
                   ) -> tuple[int, tuple[float, float]] | None:
    """The cell class under a pawn of colour ``pawn`` seen at ``at`` and the cell's middle,
    placed by the circle of the cell's radius fitted to the arc of its colour the pawn
    leaves (:func:`~vision.enigma.ring_blend.leading_ring_cell` out to :data:`ARC_REACH`,
    the ``others`` cells' rings left out); None unless one colour leads,
    the fit is clear (:data:`FIT_RMS`, :data:`FIT_SPAN`) and consistent: the pawn's place
    within the circle, the arc's pixels (:data:`OUTSIDE_PX`) and enough of them
    (:data:`~vision.enigma.ring_blend.RING_CLEAR_SHARE` of its ring) within it.
    ``radii``: the cell's and the pawn's, pixels."""
    rc, rn = radii
    lead = leading_ring_cell(feats, model, at, radii, pawn, others, ARC_REACH)
    if lead is None:
        return None
    best, shown, _ = lead
    shape = (feats.shape[0], feats.shape[1])
    _, pieces = cv2.connectedComponents(shown.astype(np.uint8), connectivity=8)
    arc = pieces == 1 + int(np.argmax(np.bincount(pieces.ravel())[1:]))
    ring_area = math.pi * ((rc * RING_OUTER) ** 2 - (rn * RING_INNER) ** 2)
    if int(arc.sum()) < RING_CLEAR_SHARE * ring_area:
        return None
    centre, rms, span = fit_circle(_arc_edge(arc, at), rc - EDGE_INSET, at)
    if rms > FIT_RMS or span < FIT_SPAN or math.dist(centre, at) > rc:
        return None
    if int((arc & ~disc(shape, centre, rc + 1.0)).sum()) > OUTSIDE_PX:
        return None
    return best, centre
