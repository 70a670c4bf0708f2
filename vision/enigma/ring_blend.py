"""Enigma reader, the cell under a pawn told by the ring the pawn leaves round it
(:func:`clear_ring_cell`). See :mod:`vision.enigma.networkers`.

A pawn standing on a cell hides its middle; the camera's blur mixes the thin ring left round
the pawn with the pawn's own colour and with the bare tile (and channel ink) round the cell.
A blend's chromaticity is a mean of its parts' chromaticities, weighted by their brightness,
so every blend lies within the hull of its parts in the chromaticity plane whatever the
light level. A ring pixel shows a cell colour when it lies on that colour's blends with what
else is there, and clearly off every blend of bare tile, channel ink and the pawn alone: the
pawn's blurred rim and the tile beside the cell show no cell colour, however their labels
name them (a blue pawn's rim is labelled blue cell; a pink blur of red ring and white pawn
is labelled table).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.enigma.cells import disc
from vision.enigma.colours import ColourModel

#: what lies round a cell besides it: blends of these never show a cell colour
AROUND_A_CELL = ("tile", "edge", "table", "icon", "channel")
#: a pixel lies on a hull's blends within this chromaticity distance (feature units; set
#: by hand, a few units of pixel noise) ...
BLEND_NOISE = 3.0
#: ... and shows a cell colour only this far off every blend without that colour (the
#: demo pack's yellow lies 10 off the blend of channel ink and bare tile: a pixel of a
#: yellow ring little blurred shows it, one half tile does not; tuning independent clean
#: and harsh 0-19: the rings of cells under pawns show their colour in 5-70 pixels of 172,
#: any other cell colour in 0-5)
SHOWN_BEYOND = 6.0
#: the ring judged: round the pawn (this many pawn radii) out to this many cell radii
RING_INNER = 1.15
RING_OUTER = 1.3
#: a cell colour is clear when at least this share of the ring's pixels show it ...
RING_CLEAR_SHARE = 0.08
#: ... and this many times more than show any other cell colour, and all round the pawn:
#: in at least this many of the eight eighths round the pawn's place, an eighth counting
#: when this many of its pixels show the colour. A pawn seen from the side leaves a
#: crescent of its cell to one side and the cell's middle lies off the pawn's place as
#: seen: there the cell's links are not sure either (independent harsh 60003 [1, 1]: a
#: channel read joined to a red cell under a white pawn, sure, without the rule)
RING_CLEAR_LEAD = 4.0
RING_ALL_ROUND = 7
EIGHTH_MIN_PX = 2


def _hull_distance(points: np.ndarray, corners: list[np.ndarray]) -> np.ndarray:
    """Per point of ``points`` (n, 2), its distance to the convex hull of ``corners``
    (0 inside)."""
    hull = cv2.convexHull(np.asarray(corners, np.float32).reshape(-1, 1, 2)).reshape(-1, 2)
    hull = hull.astype(np.float64)
    pts = points.astype(np.float64)
    if len(hull) < 3:
        hull = np.vstack([hull, hull[:1]])
    starts, ends = hull, np.roll(hull, -1, axis=0)
    edge = ends - starts
    rel = pts[:, None, :] - starts[None, :, :]
    length2 = np.maximum((edge**2).sum(axis=1), 1e-9)
    t = np.clip((rel * edge[None]).sum(axis=2) / length2[None], 0.0, 1.0)
    nearest = starts[None] + t[..., None] * edge[None]
    dist: np.ndarray = np.sqrt(((pts[:, None, :] - nearest) ** 2).sum(axis=2)).min(axis=1)
    cross = edge[None, :, 0] * rel[..., 1] - edge[None, :, 1] * rel[..., 0]
    inside = (cross >= 0).all(axis=1) | (cross <= 0).all(axis=1)
    dist[inside] = 0.0
    return dist


def cells_shown(feats: np.ndarray, model: ColourModel, zone: np.ndarray, pawn: int
                ) -> dict[int, np.ndarray]:
    """Per cell class, the pixels of ``zone`` (a mask of them) that show its colour: on the
    blends of it with bare tile, channel ink and player colour ``pawn``
    (:data:`BLEND_NOISE`), and off every blend of those alone (:data:`SHOWN_BEYOND`)."""
    points = feats[zone][:, :2]
    around = [model.centres[i][:2] for i, kind in enumerate(model.kinds)
              if kind in AROUND_A_CELL]
    around.append(model.centres[pawn][:2])
    off_around = _hull_distance(points, around) > SHOWN_BEYOND
    shown = {}
    for i, kind in enumerate(model.kinds):
        if kind == "cell":
            mask = np.zeros(zone.shape, bool)
            mask[zone] = off_around & (_hull_distance(points, [*around, model.centres[i][:2]])
                                       < BLEND_NOISE)
            shown[i] = mask
    return shown


def leading_ring_cell(feats: np.ndarray, model: ColourModel, centre: tuple[float, float],
                      radii: tuple[float, float], pawn: int, others: list[tuple[float, float]],
                      reach: float) -> tuple[int, np.ndarray, int] | None:
    """The cell class that the ring round a pawn of colour ``pawn`` at ``centre``, out to
    ``reach`` cell radii, shows most (:func:`cells_shown`), the mask of its pixels and the
    ring's size, pixels; None when none shows, or another cell colour shows nearly as much
    (:data:`RING_CLEAR_LEAD`). ``radii``: the cell's and the pawn's radius, pixels; the
    discs of the ``others`` cells' rings are left out."""
    rc, rn = radii
    shape = (feats.shape[0], feats.shape[1])
    zone = disc(shape, centre, rc * reach) & ~disc(shape, centre, rn * RING_INNER)
    for other in others:
        zone &= ~disc(shape, other, rc * RING_OUTER)
    if not zone.any():
        return None
    masks = cells_shown(feats, model, zone, pawn)
    shown = sorted(((int(m.sum()), i) for i, m in masks.items()), reverse=True)
    (most, best), second = shown[0], (shown[1][0] if len(shown) > 1 else 0)
    if most == 0 or most < RING_CLEAR_LEAD * second:
        return None
    return best, masks[best], int(zone.sum())


def ring_shows_cell(feats: np.ndarray, model: ColourModel, centre: tuple[float, float],
                    radii: tuple[float, float], pawn: int, others: list[tuple[float, float]]
                    ) -> tuple[int, np.ndarray] | None:
    """The cell class that the ring round a pawn of colour ``pawn`` at ``centre`` shows
    clearly (:func:`leading_ring_cell`) and the mask of its pixels, on whatever side of the
    pawn they lie; None when too few of the ring's pixels show one
    (:data:`RING_CLEAR_SHARE`; a pawn may hide its cell wholly), or another cell colour
    shows nearly as much (:data:`RING_CLEAR_LEAD`). ``radii``: the cell's and the pawn's
    radius, pixels; the discs of the ``others`` cells' rings are left out."""
    lead = leading_ring_cell(feats, model, centre, radii, pawn, others, RING_OUTER)
    if lead is None:
        return None
    best, shown, ring_size = lead
    if int(shown.sum()) < RING_CLEAR_SHARE * ring_size:
        return None
    return best, shown


def clear_ring_cell(feats: np.ndarray, model: ColourModel, centre: tuple[float, float],
                    radii: tuple[float, float], pawn: int,
                    others: list[tuple[float, float]]) -> int | None:
    """The cell class that the ring round a pawn of colour ``pawn`` at ``centre`` shows
    clearly (:func:`ring_shows_cell`) all round the pawn (:data:`RING_ALL_ROUND`), or None:
    shown only to one side, the cell's middle lies off the pawn's place. ``radii``: the
    cell's and the pawn's radius, pixels; the discs of the ``others`` cells' rings are left
    out."""
    shown_cell = ring_shows_cell(feats, model, centre, radii, pawn, others)
    if shown_cell is None:
        return None
    best, shown = shown_cell
    ys, xs = np.nonzero(shown)
    eighths = np.floor(np.arctan2(ys - centre[1], xs - centre[0]) / (np.pi / 4)).astype(int)
    if int((np.bincount(eighths % 8, minlength=8) >= EIGHTH_MIN_PX).sum()) < RING_ALL_ROUND:
        return None  # a crescent beside the pawn: the cell's middle lies off the pawn's
    return best
