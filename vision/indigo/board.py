"""Where the Indigo board lies: board units, the marker frame, and the calibration between them.

*Board units*: the engine's pointy-top pixel formula with cell radius 1 (centre of the board at
the origin, gateway g0 at the top, y down). :data:`RIM_RADIUS` is the corner of the board's
outline (the orange gateway rim) in those units.

*Marker frame*: millimetres in the plane of the four table markers (ids 0..3), with the origin
in the middle of the rectangle that their centres form; :func:`vision.markers.table_layout`
builds it (from config's ``marker_frame_mm`` and ``marker_size_mm``:
:mod:`vision.indigo.settings`).

*Calibration* (``[vision.indigo]`` of config): the board centre in the marker frame
(``board_center_mm``), the board's outline radius (``board_radius_mm``, centre to a corner of
the rim) and its turn (``rotation_deg``). :func:`board_to_frame` turns them into a 3x3 map;
:func:`calibrate` measures them from a photo.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

import numpy as np

from companion.indigo import (
    CELLS,
    CENTRE,
    CORNERS,
    GATEWAYS,
    ROUTE_CELLS,
    Cell,
    EdgePoint,
    cell_centre,
    edge_midpoint,
    hex_corners,
    is_on_board,
    neighbour,
)
from vision.markers import MarkerLayout

SQRT3 = math.sqrt(3)
#: the board outline (a hexagon with a gateway side at the top) circumradius, in cell radii
RIM_RADIUS = 10.2
#: the outline's apothem: the rim reaches 2.2 cell radii beyond the gateway cells' tops (7)
RIM_APOTHEM = RIM_RADIUS * math.sqrt(3) / 2
#: chip spaces sit this far beyond the gateway cells' outer edge middles, in cell radii
CHIP_OFFSET = 1.1


@dataclass(frozen=True)
class BoardGeometry:
    """The calibrated board: marker layout + board pose in the marker frame."""

    layout: MarkerLayout
    centre_mm: tuple[float, float]
    radius_mm: float  # centre to a corner of the rim outline
    rotation_deg: float

    @property
    def cell_radius_mm(self) -> float:
        return self.radius_mm / RIM_RADIUS

    def board_to_frame(self) -> np.ndarray:
        """3x3 map from board units to marker-frame millimetres."""
        s = self.cell_radius_mm
        a = math.radians(self.rotation_deg)
        c, d = math.cos(a) * s, math.sin(a) * s
        return np.array(
            [[c, -d, self.centre_mm[0]], [d, c, self.centre_mm[1]], [0.0, 0.0, 1.0]], np.float64
        )


# ---------------------------------------------------------------- points in board units


def cell_xy(cell: Cell) -> tuple[float, float]:
    return cell_centre(cell, 1.0)


def point_xy(point: EdgePoint) -> tuple[float, float]:
    """Where a gem on edge point ``point`` sits (the middle of that side)."""
    return edge_midpoint(point[0], point[1], 1.0)


# ---------------------------------------------------------------- a tile's paths


def edge_middle(edge: int) -> tuple[float, float]:
    """The middle of side ``edge`` of a cell of radius 1 centred on 0 (edge 0 upper-left)."""
    a = math.radians(240 + 60 * edge)
    return (SQRT3 / 2 * math.cos(a), SQRT3 / 2 * math.sin(a))


def _arc(
    centre: tuple[float, float], p: tuple[float, float], q: tuple[float, float]
) -> list[tuple[float, float]]:
    a0 = math.atan2(p[1] - centre[1], p[0] - centre[0])
    a1 = math.atan2(q[1] - centre[1], q[0] - centre[0])
    d = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi  # the short way round
    r = math.hypot(p[0] - centre[0], p[1] - centre[1])
    return [
        (centre[0] + r * math.cos(a0 + d * t), centre[1] + r * math.sin(a0 + d * t))
        for t in np.linspace(0, 1, 24)
    ]


def path_polyline(a: int, b: int) -> list[tuple[float, float]]:
    """Points (cell radii, cell centre at 0) along the path joining edges ``a`` and ``b``."""
    pa, pb = edge_middle(a), edge_middle(b)
    gap = (b - a) % 6
    if gap == 3:
        return [pa, pb]
    if gap in (1, 5):
        # the corner shared by the two edges: between their normals, at distance 1
        lo = a if gap == 1 else b
        ang = math.radians(240 + 60 * lo + 30)
        return _arc((math.cos(ang), math.sin(ang)), pa, pb)
    mid_edge = (a + 1) % 6 if gap == 2 else (b + 1) % 6
    ang = math.radians(240 + 60 * mid_edge)
    return _arc((SQRT3 * math.cos(ang), SQRT3 * math.sin(ang)), pa, pb)


def rim_polygon() -> np.ndarray:
    """The board outline: a hexagon with horizontal top and bottom sides (board units)."""
    return np.array(
        [
            [RIM_RADIUS * math.cos(math.radians(a)), RIM_RADIUS * math.sin(math.radians(a))]
            for a in range(0, 360, 60)
        ],
        np.float64,
    )


def chip_spaces() -> list[tuple[int, int, tuple[float, float]]]:
    """(gateway, slot, (x, y)) of the 12 chip spaces: on the rim outside each gateway."""
    out = []
    for gw in GATEWAYS:
        normal = math.radians(240.0 + 60.0 * gw.index + 30.0)
        nx, ny = math.cos(normal), math.sin(normal)
        for slot, (a, b) in enumerate(((gw.cells[0], gw.cells[1]), (gw.cells[1], gw.cells[2]))):
            ax, ay = cell_xy(a)
            bx, by = cell_xy(b)
            mx, my = (ax + bx) / 2, (ay + by) / 2
            reach = math.sqrt(3) / 2 + CHIP_OFFSET  # outer edge middle, then beyond
            out.append((gw.index, slot, (mx + nx * reach, my + ny * reach)))
    return out


@cache
def gem_spots() -> tuple[tuple[EdgePoint, tuple[float, float]], ...]:
    """Every physical spot a resting gem can take, each named once (worked out once: the
    board does not change).

    A spot between two cells is named from the route/corner cell side, preferring the side
    whose cell comes first in ``CELLS`` order; the reader re-names it by who holds a tile.
    """
    seen: set[tuple[Cell, Cell]] = set()
    out: list[tuple[EdgePoint, tuple[float, float]]] = []
    holders = set(ROUTE_CELLS) | {c.cell for c in CORNERS}
    for cell in CELLS:
        if cell not in holders:
            continue
        for edge in range(6):
            other = neighbour(cell, edge)
            key = (min(cell, other), max(cell, other))
            if key in seen:
                continue
            seen.add(key)
            if other == CENTRE:
                continue  # the centre side is where a centre gem starts, read as stock
            if not is_on_board(other):
                continue  # exits and off-board sides: a gem leaves there, it never rests
            out.append(((cell, edge), point_xy((cell, edge))))
    return tuple(out)


def centre_stock_spots(count: int = 6) -> list[tuple[float, float]]:
    """Where the renderer lays the centre's gems (the reader looks anywhere on the centre)."""
    return [
        (0.56 * math.cos(math.radians(90 + 60 * i)), 0.56 * math.sin(math.radians(90 + 60 * i)))
        for i in range(count)
    ]


def hex_polygon(cell: Cell, scale: float = 1.0) -> np.ndarray:
    cx, cy = cell_xy(cell)
    pts = np.array(hex_corners(cell, 1.0), np.float64)
    return (pts - [cx, cy]) * scale + [cx, cy]


def all_cells() -> Iterable[Cell]:
    return CELLS
