"""The Indigo board: cells, edges, treasure tiles, gateways, exits and ownership.

Everything here is the canonical frame of ``shared/rules/indigo.md`` §2 and §4:

* a cell is an axial pair ``(q, r)``; it is on the board iff ``max(|q|, |r|, |q + r|) <= 4``
  (61 cells, of which 7 hold treasure tiles and 54 take route tiles);
* edge ``k`` (0..5) of a cell faces the neighbour ``cell + EDGE_OFFSETS[k]``, numbered
  clockwise on screen; the opposite edge is ``(k + 3) % 6``;
* an *edge point* ``(cell, edge)`` is where a gem can rest: the middle of one side of a cell.

Pixel helpers for the two drawing orientations are pure math (no drawing library), so the
renderer, the camera reader and the UI agree on where a cell and a gem are.

>>> neighbour((0, 0), 2)
(1, 0)
>>> len(CELLS), len(ROUTE_CELLS)
(61, 54)
>>> gateway_of_exit((1, -4), 0)
0
>>> owners("4p", 0)
(0, 1)
>>> rotate_cell((0, -4), 1)   # corner 0 -> corner 1
(4, -4)
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Literal

#: An axial cell ``(q, r)``.
Cell = tuple[int, int]
#: A point in the middle of a cell's side: ``(cell, edge)``.
EdgePoint = tuple[Cell, int]
#: ``"pointy"`` (a gateway side horizontal at the top) or ``"flat"`` (a corner at the top).
Orientation = Literal["pointy", "flat"]

RADIUS = 4
EDGE_OFFSETS: tuple[Cell, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))

CENTRE: Cell = (0, 0)


def is_on_board(cell: Cell) -> bool:
    """True for the 61 cells of the board."""
    q, r = cell
    return max(abs(q), abs(r), abs(q + r)) <= RADIUS


def neighbour(cell: Cell, edge: int) -> Cell:
    """The cell across ``edge`` of ``cell`` (possibly off the board)."""
    dq, dr = EDGE_OFFSETS[edge % 6]
    return (cell[0] + dq, cell[1] + dr)


def opposite(edge: int) -> int:
    """The edge of the neighbour that touches ``edge``."""
    return (edge + 3) % 6


def facing(point: EdgePoint) -> Cell:
    """The cell an edge point faces (the neighbour across its edge)."""
    return neighbour(point[0], point[1])


def across(point: EdgePoint) -> EdgePoint:
    """The same spot seen from the other side of the edge."""
    cell, edge = point
    return (neighbour(cell, edge), opposite(edge))


def edge_towards(cell: Cell, other: Cell) -> int:
    """The edge of ``cell`` that touches the adjacent ``other``; ValueError if not adjacent."""
    offset = (other[0] - cell[0], other[1] - cell[1])
    try:
        return EDGE_OFFSETS.index(offset)
    except ValueError:
        raise ValueError(f"cells {cell} and {other} are not neighbours") from None


def ring(cell: Cell) -> int:
    """Distance from the centre: 0 for the centre, 4 for the rim."""
    q, r = cell
    return max(abs(q), abs(r), abs(q + r))


def rotate_cell(cell: Cell, steps: int) -> Cell:
    """``cell`` turned ``steps`` × 60° clockwise about the centre (edge k becomes k + steps).

    The board looks the same after any such turn, so a camera frame read in a turned frame maps
    back with ``rotate_cell(cell, -steps)``.
    """
    q, r = cell
    for _ in range(steps % 6):
        q, r = -r, q + r
    return (q, r)


def rotate_point(point: EdgePoint, steps: int) -> EdgePoint:
    """An edge point turned ``steps`` × 60° clockwise about the centre."""
    return (rotate_cell(point[0], steps), (point[1] + steps) % 6)


# Rows top to bottom, left to right: the order of rules/indigo.md Appendix A.
CELLS: tuple[Cell, ...] = tuple(
    (q, r)
    for r in range(-RADIUS, RADIUS + 1)
    for q in range(-RADIUS, RADIUS + 1)
    if is_on_board((q, r))
)


@dataclass(frozen=True)
class Corner:
    """A light-blue corner treasure tile (§4.3).

    The amber starts on ``arrow_edge`` (facing the centre) and leaves when a tile is placed on
    ``arrow_neighbour``. ``uturn`` joins the two rim neighbours, so a gem can pass through the
    corner; ``offboard_edges`` face off the board and are not exits.
    """

    cell: Cell
    arrow_edge: int
    uturn: tuple[int, int]
    offboard_edges: tuple[int, int, int]

    @property
    def arrow_neighbour(self) -> Cell:
        return neighbour(self.cell, self.arrow_edge)

    @property
    def amber_point(self) -> EdgePoint:
        """Where the amber waits before it moves."""
        return (self.cell, self.arrow_edge)

    def uturn_other(self, edge: int) -> int | None:
        """The other end of the U-turn from ``edge``, or None when ``edge`` is not on it."""
        a, b = self.uturn
        if edge == a:
            return b
        if edge == b:
            return a
        return None


def _corner(cell: Cell, arrow: int) -> Corner:
    return Corner(
        cell=cell,
        arrow_edge=arrow,
        uturn=((arrow - 1) % 6, (arrow + 1) % 6),
        offboard_edges=((arrow + 2) % 6, (arrow + 3) % 6, (arrow + 4) % 6),
    )


#: Corners in clockwise order; corner g and corner g+1 bound gateway g.
CORNERS: tuple[Corner, ...] = (
    _corner((0, -4), 3),
    _corner((4, -4), 4),
    _corner((4, 0), 5),
    _corner((0, 4), 0),
    _corner((-4, 4), 1),
    _corner((-4, 0), 2),
)
CORNER_BY_CELL: dict[Cell, Corner] = {c.cell: c for c in CORNERS}
TREASURE_CELLS: frozenset[Cell] = frozenset({CENTRE, *CORNER_BY_CELL})
ROUTE_CELLS: tuple[Cell, ...] = tuple(c for c in CELLS if c not in TREASURE_CELLS)
ROUTE_CELL_SET: frozenset[Cell] = frozenset(ROUTE_CELLS)


def is_route_cell(cell: Cell) -> bool:
    """True for the 54 cells that take route tiles."""
    return cell in ROUTE_CELL_SET


def is_treasure_cell(cell: Cell) -> bool:
    """True for the centre and the six corners."""
    return cell in TREASURE_CELLS


@dataclass(frozen=True)
class Gateway:
    """Gateway ``index`` (0..5; "rules no." is index + 1): three rim cells, six exits (§4.4)."""

    index: int
    cells: tuple[Cell, Cell, Cell]
    exit_edges: tuple[int, int]

    @property
    def exits(self) -> tuple[EdgePoint, ...]:
        """The six exits as edge points, cell by cell clockwise."""
        return tuple((cell, edge) for cell in self.cells for edge in self.exit_edges)


def _gateway(index: int) -> Gateway:
    # The rim cells strictly between corner g and corner g+1, walking clockwise.
    start = CORNERS[index].cell
    end = CORNERS[(index + 1) % 6].cell
    step = EDGE_OFFSETS[(index + 2) % 6]
    cells: list[Cell] = []
    cell = (start[0] + step[0], start[1] + step[1])
    while cell != end:
        cells.append(cell)
        cell = (cell[0] + step[0], cell[1] + step[1])
    assert len(cells) == 3, (index, cells)
    return Gateway(index=index, cells=(cells[0], cells[1], cells[2]),
                   exit_edges=(index, (index + 1) % 6))


GATEWAYS: tuple[Gateway, ...] = tuple(_gateway(g) for g in range(6))
GATEWAY_BY_CELL: dict[Cell, int] = {cell: gw.index for gw in GATEWAYS for cell in gw.cells}
#: edge point -> gateway index, for the 36 exits.
EXITS: dict[EdgePoint, int] = {point: gw.index for gw in GATEWAYS for point in gw.exits}


def gateway_of_cell(cell: Cell) -> int | None:
    """The gateway a rim route cell belongs to, or None for any other cell."""
    return GATEWAY_BY_CELL.get(cell)


def gateway_of_exit(cell: Cell, edge: int) -> int | None:
    """The gateway whose exit is ``(cell, edge)``, or None when that point is not an exit."""
    return EXITS.get((cell, edge % 6))


def blocked_path(cell: Cell) -> tuple[int, int] | None:
    """The path (g, g+1) that the blocking rule forbids on a gateway cell, else None."""
    gate = GATEWAY_BY_CELL.get(cell)
    if gate is None:
        return None
    return GATEWAYS[gate].exit_edges


# ----------------------------------------------------------------------------- ownership

LAYOUTS: tuple[str, ...] = ("2p", "3p", "3p-alt", "4p")

#: layout -> the two chip spaces of gateways g0..g5, as player indices (§4.5).
CHIPS: dict[str, tuple[tuple[int, int], ...]] = {
    "2p": ((0, 0), (1, 1), (0, 0), (1, 1), (0, 0), (1, 1)),
    "3p": ((0, 0), (0, 1), (2, 2), (2, 0), (1, 1), (1, 2)),
    "3p-alt": ((0, 0), (1, 1), (2, 2), (0, 0), (1, 1), (2, 2)),
    "4p": ((0, 1), (1, 2), (0, 3), (3, 1), (2, 0), (2, 3)),
}
#: layout -> number of players it is made for.
LAYOUT_PLAYERS: dict[str, int] = {"2p": 2, "3p": 3, "3p-alt": 3, "4p": 4}


def default_layout(players: int) -> str:
    """The layout for a player count: 2, 3, 4 give ``2p``, ``3p``, ``4p``."""
    if players not in (2, 3, 4):
        raise ValueError(f"Indigo takes 2-4 players, not {players}")
    return f"{players}p"


def owners(layout: str, gate: int) -> tuple[int, ...]:
    """The distinct owners of a gateway, in chip order.

    The first takes the gem from the board; a second owner takes a twin from the reserve. Two
    chips of one player pay that player once.
    """
    try:
        a, b = CHIPS[layout][gate]
    except KeyError:
        raise ValueError(f"unknown layout {layout!r}; known: {', '.join(LAYOUTS)}") from None
    return (a,) if a == b else (a, b)


def is_shared(layout: str, gate: int) -> bool:
    """True when two different players own the gateway."""
    return len(owners(layout, gate)) == 2


# ----------------------------------------------------------------------------- pixels

SQRT3 = math.sqrt(3.0)


def cell_centre(cell: Cell, radius: float, *, orientation: Orientation = "pointy") -> tuple[
    float, float
]:
    """Pixel centre of a cell relative to the board centre; ``radius`` = hex corner radius.

    y grows downward. Pointy-top: gateway g0 is the top side; flat-top: corner (0,-4) on top.
    """
    q, r = cell
    if orientation == "pointy":
        return (radius * SQRT3 * (q + r / 2.0), 1.5 * radius * r)
    return (1.5 * radius * q, radius * SQRT3 * (r + q / 2.0))


def edge_normal_degrees(edge: int, *, orientation: Orientation = "pointy") -> float:
    """Direction (degrees, 0 = +x, clockwise on screen) from a cell centre to edge ``edge``."""
    base = 240.0 if orientation == "pointy" else 270.0
    return (base + 60.0 * edge) % 360.0


def edge_midpoint(
    cell: Cell, edge: int, radius: float, *, orientation: Orientation = "pointy",
    fraction: float = 1.0,
) -> tuple[float, float]:
    """Pixel of an edge point: ``fraction`` of the way from the cell centre to the edge middle.

    The edge middle is (√3/2)·radius from the centre; gems rest about there.
    """
    cx, cy = cell_centre(cell, radius, orientation=orientation)
    angle = math.radians(edge_normal_degrees(edge, orientation=orientation))
    reach = fraction * radius * SQRT3 / 2.0
    return (cx + reach * math.cos(angle), cy + reach * math.sin(angle))


def hex_corners(
    cell: Cell, radius: float, *, orientation: Orientation = "pointy"
) -> tuple[tuple[float, float], ...]:
    """The six corner pixels of a cell, clockwise; corner i lies between edges i-1 and i."""
    cx, cy = cell_centre(cell, radius, orientation=orientation)
    base = edge_normal_degrees(0, orientation=orientation) - 30.0
    out: list[tuple[float, float]] = []
    for i in range(6):
        angle = math.radians(base + 60.0 * i)
        out.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return tuple(out)


@functools.cache  # the board widget asks for it at every point it draws (368 a redraw)
def board_extent(radius: float, *, orientation: Orientation = "pointy") -> tuple[float, float]:
    """Half-width and half-height in pixels of the 61 cells drawn with ``radius``."""
    xs: list[float] = []
    ys: list[float] = []
    for cell in CELLS:
        for x, y in hex_corners(cell, radius, orientation=orientation):
            xs.append(abs(x))
            ys.append(abs(y))
    return (max(xs), max(ys))
