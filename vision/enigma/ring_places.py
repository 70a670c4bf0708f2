"""Enigma reader, the places a cell under a pawn seen from the side may lie, as the arc of its
ring allows (:func:`ring_places`). See :mod:`vision.enigma.networkers` and
:func:`vision.enigma.tile.finish_tile`.

A pawn drawn with height leans away from the camera's axis: its top, where its colour is
seen, lies off its foot, which stands in its cell's middle, and its body hides its cell on
the side it leans to. The ring round the pawn may then name the cell's colour clearly
(:func:`~vision.enigma.ring_blend.ring_shows_cell`) while the arc it leaves is too short to
place the cell (:func:`~vision.enigma.ring_fit.side_ring_cell`). The cell's links follow its
place: the channels end at its rim. Every place is kept where a printed cell holds the whole
arc, shows its colour where the pawn does not hide it, and the pawn's top stands over it;
the tile's links are read at the places that bound them
(:func:`vision.enigma.tile.finish_tile`), and only when they agree is the read settled.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.enigma.cells import disc
from vision.enigma.colours import ColourModel
from vision.enigma.ring_blend import cells_shown, leading_ring_cell
from vision.enigma.ring_fit import ARC_REACH

#: the pawn's top is seen at most this many cell radii off its foot (the tuning of
#: :data:`~vision.enigma.ring_fit.ARC_REACH`: tops up to about a cell radius off their cell's
#: middle), with room for the judged place's error
LEAN_REACH = 1.3
#: a printed cell holds its whole ring: no more of the arc's pixels than this lie farther
#: than its radius and this much (pixels: the blur and the labels' error) from the place
ARC_SLACK = 1.5
ARC_OUTSIDE_PX = 2
#: a printed cell shows its colour wherever the pawn does not hide it: of its disc (less
#: this inset, pixels: its blurred edge), outside the pawn's top and body (this many pawn
#: radii wide: the pawn's blurred rim), no more than this share shows another colour (a
#: ring a few pixels wide, blurred: set loose, the places it fits are widened below)
EDGE_INSET = 0.5
PAWN_BODY = 1.15
UNLIKE_SHARE = 0.4
#: ... and the places within this many pixels of one that fits so (the labels' and the
#: blur's error on a ring a few pixels wide), holding the arc, are possible too
PLACE_SLACK = 2.0
#: the arc must hold at least this many pixels to bound the places at all
ARC_MIN_PX = 6
#: the directions (evenly round) in which the farthest place is read, besides the places'
#: middle: the links change only where the cell's rim crosses a channel's end, so the
#: places' bounds and middle show whether they change
BOUND_DIRECTIONS = 6


def _largest_piece(mask: np.ndarray) -> np.ndarray:
    n, pieces = cv2.connectedComponents(mask.astype(np.uint8), connectivity=8)
    if n <= 1:
        return np.zeros(mask.shape, bool)
    return np.asarray(pieces == 1 + int(np.argmax(np.bincount(pieces.ravel())[1:])))


def _unlike_inside(centres: np.ndarray, unlike: np.ndarray, at: tuple[float, float],
                   radii: tuple[float, float]) -> np.ndarray:
    """Per place of ``centres`` (n, 2), the share of its printed cell's disc
    (:data:`EDGE_INSET`) whose pixels are ``unlike`` the cell (a mask) outside the pawn: its
    top's disc at ``at`` and its body down to the place, :data:`PAWN_BODY` pawn radii
    wide."""
    rc, rn = radii
    ys, xs = np.nonzero(disc(unlike.shape, at, (LEAN_REACH + 1.0) * rc))
    px, py = xs[None, :].astype(np.float64), ys[None, :].astype(np.float64)
    cx, cy = centres[:, :1], centres[:, 1:]
    inside = (px - cx) ** 2 + (py - cy) ** 2 <= (rc - EDGE_INSET) ** 2
    # distance of each pixel to the segment from the place (the pawn's foot) to its top
    vx, vy = at[0] - cx, at[1] - cy
    t = np.clip(((px - cx) * vx + (py - cy) * vy) / np.maximum(vx * vx + vy * vy, 1e-9), 0, 1)
    body = (px - cx - t * vx) ** 2 + (py - cy - t * vy) ** 2 <= (PAWN_BODY * rn) ** 2
    zone = inside & ~body
    unlike_px = (zone & unlike[ys, xs][None, :]).sum(axis=1)
    return np.asarray(unlike_px / np.maximum(zone.sum(axis=1), 1))


def _possible(arc: np.ndarray, unlike: np.ndarray, at: tuple[float, float],
              radii: tuple[float, float]) -> np.ndarray:
    """The candidate centres (a pixel's step apart within the lean of ``at``), as (n, 2),
    whose printed cell holds the ``arc`` (a mask of pixels) and shows few pixels ``unlike``
    the cell outside the pawn (:data:`UNLIKE_SHARE`), or lies beside one that does
    (:data:`PLACE_SLACK`)."""
    rc = radii[0]
    reach = LEAN_REACH * rc
    steps = np.arange(-math.floor(reach), math.floor(reach) + 1, dtype=np.float64)
    gx, gy = np.meshgrid(steps + at[0], steps + at[1])
    near = (gx - at[0]) ** 2 + (gy - at[1]) ** 2 <= reach * reach
    centres = np.column_stack([gx[near], gy[near]])
    ys, xs = np.nonzero(arc)
    d2 = (xs[None, :] - centres[:, :1]) ** 2 + (ys[None, :] - centres[:, 1:]) ** 2
    centres = centres[(d2 > (rc + ARC_SLACK) ** 2).sum(axis=1) <= ARC_OUTSIDE_PX]
    if not len(centres):
        return np.asarray(centres)
    fits = centres[_unlike_inside(centres, unlike, at, radii) <= UNLIKE_SHARE]
    if not len(fits):
        return np.asarray(fits)
    # the fits' own error: the places beside them that hold the arc are kept as well
    apart = ((centres[:, None, :] - fits[None, :, :]) ** 2).sum(axis=2).min(axis=1)
    return np.asarray(centres[apart <= PLACE_SLACK**2])


def _bounds(centres: np.ndarray) -> list[tuple[float, float]]:
    """The middle of ``centres`` (n, 2; the one nearest their mean) and the farthest of them
    in each of :data:`BOUND_DIRECTIONS`, each once."""
    mean = centres.mean(axis=0)
    picked = [int(np.argmin(((centres - mean) ** 2).sum(axis=1)))]
    for k in range(BOUND_DIRECTIONS):
        a = 2 * math.pi * k / BOUND_DIRECTIONS
        picked.append(int(np.argmax(centres @ np.array([math.cos(a), math.sin(a)]))))
    return [(float(centres[i, 0]), float(centres[i, 1])) for i in dict.fromkeys(picked)]


def ring_places(feats: np.ndarray, model: ColourModel, at: tuple[float, float],
                radii: tuple[float, float], pawn: int, others: list[tuple[float, float]],
                colour: int) -> tuple[tuple[float, float], ...]:
    """The places (their middle first, then their bounds) where the cell of class ``colour``
    under a pawn of colour ``pawn`` whose top is seen at ``at`` may lie: within
    :data:`LEAN_REACH` of it, holding the largest piece of the arc of that colour the pawn
    leaves (:func:`~vision.enigma.ring_blend.leading_ring_cell` out to
    :data:`~vision.enigma.ring_fit.ARC_REACH`, the ``others`` cells' rings left out) and
    showing that colour (:func:`~vision.enigma.ring_blend.cells_shown`) where the pawn does
    not hide it. Empty when the arc names another colour, is too small to bound them, or no
    place fits. ``radii``: the cell's and the pawn's, pixels."""
    lead = leading_ring_cell(feats, model, at, radii, pawn, others, ARC_REACH)
    if lead is None or lead[0] != colour:
        return ()
    arc = _largest_piece(lead[1])
    if int(arc.sum()) < ARC_MIN_PX:
        return ()
    shape = (feats.shape[0], feats.shape[1])
    near = disc(shape, at, (LEAN_REACH + 1.0) * radii[0])
    unlike = near & ~cells_shown(feats, model, near, pawn)[colour]
    centres = _possible(arc, unlike, at, radii)
    if not len(centres):
        return ()
    return tuple(_bounds(centres))
