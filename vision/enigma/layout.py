"""Where a tile's parts lie on the unit tile: the geometry the reader and the renderer share.

A tile of the records.md schema has ports at the pack's three positions on each side
(:func:`port_point`), power cells near the ports they serve (:func:`layout_tile`) and channels
as straight strokes from each port to what it links to. A placed tile is that layout turned by
its rotation (:func:`turn_point`); :func:`seen_tile` gives the turned tile with its cells named
by position (a, b, c in :func:`reading_order`), the names the reader reports. All coordinates
are tile units 0..1, x right, y down. The drawing itself is in :mod:`vision.enigma.synth.art`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.enigma.tiles import Port, Tile
from vision.enigma.pack import EnigmaPack

Point = tuple[float, float]

#: inward depth (tile units) of the point where a port's channel turns towards its cell
PORT_DEPTH = 0.3
#: a channel leaves its side straight for this depth (tile units) before it bends
STRAIGHT = 0.15
#: the smallest distance (tile units) between two cells' centres, whatever the pack's cells
MIN_SPACING = 0.36
#: relaxation rounds that pull each cell towards what it links to
RELAX_ROUNDS = 40
#: while relaxing, cells closer than this (tile units) push each other apart
RELAX_SPACING = 0.34
#: while relaxing, a cell's centre stays inside this range (tile units) on both axes
RELAX_RANGE = (0.22, 0.78)
#: rounds of the final pass that keeps cells ``spacing`` apart
APART_ROUNDS = 60
#: in the final pass, a cell's centre stays inside this range (tile units) on both axes
APART_RANGE = (0.2, 0.8)
#: points less than this (tile units) apart in y share a row of the reading order
ROW_GAP = 0.12


def port_point(port: Port, fractions: tuple[float, float, float]) -> Point:
    """Where ``port`` opens on the unit tile (y down); positions run clockwise."""
    f = fractions[port.position]
    return {"N": (f, 0.0), "E": (1.0, f), "S": (1.0 - f, 1.0), "W": (0.0, 1.0 - f)}[port.side]


def inward_point(port: Port, fractions: tuple[float, float, float], depth: float) -> Point:
    """The point ``depth`` tile units in from where ``port`` opens, square to its side."""
    x, y = port_point(port, fractions)
    dx, dy = {"N": (0, 1), "E": (-1, 0), "S": (0, -1), "W": (1, 0)}[port.side]
    return (x + dx * depth, y + dy * depth)


def turn_point(p: Point, quarter_turns: int) -> Point:
    """A unit-tile point after turning the tile clockwise (y down)."""
    x, y = p
    for _ in range(quarter_turns % 4):
        x, y = 1.0 - y, x
    return (x, y)


def reading_order(points: list[tuple[float, float]], *, row_gap: float = ROW_GAP) -> list[int]:
    """Indices of unit-tile points in reading order: rows top to bottom (points less than
    ``row_gap`` apart in y share a row), then left to right. Cells are named a, b, c so."""
    by_y = sorted(range(len(points)), key=lambda i: points[i][1])
    rows: list[list[int]] = []
    for i in by_y:
        if rows and points[i][1] - points[rows[-1][-1]][1] < row_gap:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [i for row in rows for i in sorted(row, key=lambda k: points[k][0])]


@dataclass(frozen=True)
class TileLayout:
    """Where a tile's parts are drawn, in unit-tile coordinates (unrotated)."""

    cells: dict[str, Point]
    strokes: tuple[tuple[Point, ...], ...]  # polylines of channel


def _neighbours(tile: Tile) -> dict[str, list[object]]:
    """Each cell's link partners (cell ids and ports)."""
    neighbours: dict[str, list[object]] = {c: [] for c in tile.cell_ids}
    for a, b in tile.links:
        if isinstance(a, str):
            neighbours[a].append(b)
        if isinstance(b, str):
            neighbours[b].append(a)
    return neighbours


def _first_positions(tile: Tile, neighbours: dict[str, list[object]],
                     fractions: tuple[float, float, float]) -> dict[str, Point]:
    """Each cell at the mean of the inward points of its ports; in the middle without ports."""
    pos: dict[str, Point] = {}
    for cell in tile.cell_ids:
        anchors = [
            inward_point(n, fractions, PORT_DEPTH) for n in neighbours[cell] if isinstance(n, Port)
        ]
        if anchors:
            pos[cell] = (
                sum(p[0] for p in anchors) / len(anchors),
                sum(p[1] for p in anchors) / len(anchors),
            )
        else:
            pos[cell] = (0.5, 0.5)
    return pos


def _relax(tile: Tile, neighbours: dict[str, list[object]], fractions: tuple[float, float, float],
           pos: dict[str, Point]) -> dict[str, Point]:
    """Each cell towards the mean of what it links to, away from other cells."""
    for _ in range(RELAX_ROUNDS):
        new: dict[str, Point] = {}
        for cell in tile.cell_ids:
            targets = [
                inward_point(n, fractions, PORT_DEPTH) if isinstance(n, Port) else pos[str(n)]
                for n in neighbours[cell]
            ]
            x, y = pos[cell]
            if targets:
                tx = sum(p[0] for p in targets) / len(targets)
                ty = sum(p[1] for p in targets) / len(targets)
                x, y = x + 0.5 * (tx - x), y + 0.5 * (ty - y)
            for other in tile.cell_ids:
                if other == cell:
                    continue
                ox, oy = pos[other]
                d = math.hypot(x - ox, y - oy)
                if d < RELAX_SPACING:
                    if d < 1e-6:
                        ox, oy, d = ox - 0.01, oy - 0.013, 0.0164
                    push = (RELAX_SPACING - d) * 0.5
                    x, y = x + (x - ox) / d * push, y + (y - oy) / d * push
            lo, hi = RELAX_RANGE
            new[cell] = (min(hi, max(lo, x)), min(hi, max(lo, y)))
        pos = new
    return pos


def _keep_apart(tile: Tile, pos: dict[str, Point], spacing: float) -> dict[str, Point]:
    """Push cells apart until each pair is ``spacing`` apart (a short channel between two
    cells must stay visible)."""
    lo, hi = APART_RANGE
    for _ in range(APART_ROUNDS):
        moved = False
        for cell in tile.cell_ids:
            for other in tile.cell_ids:
                if other <= cell:
                    continue
                (x, y), (ox, oy) = pos[cell], pos[other]
                d = math.hypot(x - ox, y - oy)
                if d < spacing:
                    if d < 1e-6:
                        ox, oy, d = ox - 0.01, oy - 0.013, 0.0164
                    push = (spacing - d) / 2 + 0.002
                    ux, uy = (x - ox) / d, (y - oy) / d
                    pos[cell] = (
                        min(hi, max(lo, x + ux * push)),
                        min(hi, max(lo, y + uy * push)),
                    )
                    pos[other] = (
                        min(hi, max(lo, ox - ux * push)),
                        min(hi, max(lo, oy - uy * push)),
                    )
                    moved = True
        if not moved:
            break
    return pos


def _strokes(tile: Tile, fractions: tuple[float, float, float], pos: dict[str, Point]
             ) -> tuple[tuple[Point, ...], ...]:
    """The channel polylines: a star from its hub for a network without cells, else one
    stroke per link."""
    comps = tile.components()
    strokes: list[tuple[Point, ...]] = []
    for comp in comps:
        if comp.cells or not comp.ports:
            continue
        inner = [inward_point(p, fractions, PORT_DEPTH) for p in comp.ports]
        hub = (sum(p[0] for p in inner) / len(inner), sum(p[1] for p in inner) / len(inner))
        if len(comp.ports) == 2 and comp.ports[0].side == comp.ports[1].side:
            hub = (0.5 * (inner[0][0] + inner[1][0]), 0.5 * (inner[0][1] + inner[1][1]))
        for port in comp.ports:
            strokes.append((port_point(port, fractions), inward_point(port, fractions, STRAIGHT),
                            hub))
    with_cells = {e for comp in comps if comp.cells for e in (*comp.cells, *comp.ports)}
    for a, b in tile.links:
        if a not in with_cells:
            continue  # drawn above, as a star
        line: list[Point] = []
        if isinstance(a, Port):
            line += [port_point(a, fractions), inward_point(a, fractions, STRAIGHT)]
        else:
            line.append(pos[a])
        if isinstance(b, Port):
            line += [inward_point(b, fractions, STRAIGHT), port_point(b, fractions)]
        else:
            line.append(pos[b])
        strokes.append(tuple(line))
    return tuple(strokes)


def layout_tile(tile: Tile, fractions: tuple[float, float, float], *,
                spacing: float = MIN_SPACING) -> TileLayout:
    """Place cells and channel strokes: cells near the ports they serve, pushed apart."""
    neighbours = _neighbours(tile)
    pos = _first_positions(tile, neighbours, fractions)
    pos = _relax(tile, neighbours, fractions, pos)
    pos = _keep_apart(tile, pos, spacing)
    return TileLayout(pos, _strokes(tile, fractions, pos))


def spacing_for(pack: EnigmaPack) -> float:
    """Smallest distance between two cells' centres (tile units): a short channel between
    two cells stays visible whatever the cells' size and shape."""
    return max(MIN_SPACING, 3.3 * pack.cell_radius)


def seen_positions(tile: Tile, rotation: int, fractions: tuple[float, float, float], *,
                   spacing: float = MIN_SPACING) -> dict[str, Point]:
    """Seen cell name -> where the cell is drawn on the turned tile (tile units)."""
    layout = layout_tile(tile, fractions, spacing=spacing)
    _, names = seen_tile(tile, rotation, fractions, spacing=spacing)
    return {names[c]: turn_point(p, rotation) for c, p in layout.cells.items()}


def seen_tile(
    tile: Tile, rotation: int, fractions: tuple[float, float, float], *,
    spacing: float = MIN_SPACING
) -> tuple[Tile, dict[str, str]]:
    """The tile as the camera sees it: turned, its cells renamed a, b, c in reading order
    (top to bottom, then left to right, by where they are drawn). Returns the tile and the map
    from the tile's own cell ids to the seen names."""
    layout = layout_tile(tile, fractions, spacing=spacing)
    placed = {c: turn_point(p, rotation) for c, p in layout.cells.items()}
    ids = list(placed)
    order = [ids[i] for i in reading_order([placed[c] for c in ids])]
    names = {old: chr(ord("a") + i) for i, old in enumerate(order)}
    turned = tile.rotated(rotation)
    cells = {names[c]: colour for c, colour in turned.cells}
    links = [
        (names[a] if isinstance(a, str) else a, names[b] if isinstance(b, str) else b)
        for a, b in turned.links
    ]
    return Tile.make(cells, links), names


__all__ = [
    "MIN_SPACING",
    "PORT_DEPTH",
    "STRAIGHT",
    "Point",
    "TileLayout",
    "inward_point",
    "layout_tile",
    "port_point",
    "reading_order",
    "seen_positions",
    "seen_tile",
    "spacing_for",
    "turn_point",
]
