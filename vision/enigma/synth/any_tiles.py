"""Seeded random Enigma conduit tiles of every kind the records.md schema allows, outside the
project's demo catalogue: openings at each of the three positions of a side, one to three
power cells of the three colours, cells linked to openings and to each other, lone cells,
channels passing through a tile (port to port), branching (three or four openings joined)
and crossing one another (two through-channels of their own).

:func:`random_tile` draws one tile; :func:`random_catalogue` a catalogue of them, so that
:func:`vision.enigma.synth.scenes.random_record` plays legal games with them
(``require_edge_match`` on: a tile only goes where its openings meet its neighbours').
"""

from __future__ import annotations

import math
import random

from companion.enigma.catalogue import CATEGORIES, Catalogue, CatalogueEntry, load_catalogue
from companion.enigma.tiles import POSITIONS, SIDES, Endpoint, Port, Tile
from vision.enigma.layout import Point, layout_tile, port_point, spacing_for
from vision.enigma.pack import EnigmaPack

COLOURS = ("red", "blue", "yellow")
ALL_PORTS = tuple(Port(side, pos) for side in SIDES for pos in range(POSITIONS))
#: how many cells a tile holds, and how often (a tile of bare channels has none)
CELL_COUNTS = ((0, 2), (1, 4), (2, 4), (3, 3))
#: how many openings a tile has, and how often
PORT_COUNTS = ((1, 2), (2, 4), (3, 4), (4, 3), (5, 1), (6, 1))
#: the chance that a cell is left without any link (a lone cell)
LONE_CELL = 0.08
#: the chance that two cells are joined by a channel of their own
CELL_TO_CELL = 0.35
#: the chance that a free opening joins another free opening (a channel through the tile)
#: rather than a cell
PORT_TO_PORT = 0.3
#: the chance that a tile of bare channels branches (its openings all joined at one hub)
BRANCH = 0.35
#: two channels of different networks cross only at this angle (degrees) or more: a
#: shallower meeting would look like one channel merging into the other
MIN_CROSSING_DEG = 35.0
#: a crossing lies at least this far (tile units) from every cell and side, where it is seen
CROSSING_CLEARANCE = 0.12
#: channels of different networks that do not cross stay this many channel widths apart
APART_WIDTHS = 2.0
#: a channel passes a cell of another network with this many channel widths of bare tile
#: between its edge and the cell's (the art draws its strokes clear of what they do not join)
CELL_CLEARANCE_WIDTHS = 1.5
#: tiles per random catalogue: enough that a legal one is found for most squares
CATALOGUE_SIZE = 600


def _weighted(rng: random.Random, table: tuple[tuple[int, int], ...]) -> int:
    return rng.choices([v for v, _ in table], weights=[w for _, w in table])[0]


def _bare_channels(rng: random.Random, ports: list[Port]) -> list[tuple[Endpoint, Endpoint]]:
    """A tile without cells: its openings joined at one hub (a branch), or in pairs (two
    pairs cross when their channels' straight lines do)."""
    if len(ports) < 2:
        ports = ports + [rng.choice([q for q in ALL_PORTS if q not in ports])]
    if len(ports) >= 3 and rng.random() < BRANCH:
        return [(ports[0], q) for q in ports[1:]]
    links: list[tuple[Endpoint, Endpoint]] = []
    for k in range(0, len(ports) - 1, 2):
        links.append((ports[k], ports[k + 1]))
    if len(ports) % 2:
        links.append((ports[-2], ports[-1]))  # the odd one out branches off the last pair
    return links


def random_tile(rng: random.Random) -> Tile:
    """One random conduit side (unturned), every end of every channel a cell or an opening."""
    n_cells = _weighted(rng, CELL_COUNTS)
    ports = rng.sample(ALL_PORTS, _weighted(rng, PORT_COUNTS))
    cells = {chr(ord("a") + i): rng.choice(COLOURS) for i in range(n_cells)}
    if not cells:
        return Tile.make({}, _bare_channels(rng, ports))
    ids = list(cells)
    lone = {c for c in ids if rng.random() < LONE_CELL and len(ids) > 1}
    linked = [c for c in ids if c not in lone] or ids[:1]
    links: list[tuple[Endpoint, Endpoint]] = []
    for i, a in enumerate(linked):
        for b in linked[i + 1:]:
            if rng.random() < CELL_TO_CELL:
                links.append((a, b))
    free = list(ports)
    while free:
        q = free.pop()
        if free and rng.random() < PORT_TO_PORT:
            links.append((q, free.pop()))
        else:
            links.append((q, rng.choice(linked)))
    return Tile.make(cells, links)


Segment = tuple[Point, Point]


def _seg_distance(a: Segment, b: Segment) -> float:
    """Shortest distance between two segments that do not cross."""
    return min(_point_segment(a[0], b), _point_segment(a[1], b), _point_segment(b[0], a),
               _point_segment(b[1], a))


def _point_segment(p: Point, s: Segment) -> float:
    (x0, y0), (x1, y1) = s
    dx, dy = x1 - x0, y1 - y0
    t = ((p[0] - x0) * dx + (p[1] - y0) * dy) / max(dx * dx + dy * dy, 1e-12)
    t = min(1.0, max(0.0, t))
    return math.hypot(p[0] - x0 - t * dx, p[1] - y0 - t * dy)


def _crossing(a: Segment, b: Segment) -> tuple[Point, float] | None:
    """Where two segments cross (strictly inside both) and at what angle (degrees)."""
    (x0, y0), (x1, y1) = a
    (u0, v0), (u1, v1) = b
    d = (x1 - x0) * (v1 - v0) - (y1 - y0) * (u1 - u0)
    if abs(d) < 1e-12:
        return None
    t = ((u0 - x0) * (v1 - v0) - (v0 - y0) * (u1 - u0)) / d
    s = ((u0 - x0) * (y1 - y0) - (v0 - y0) * (x1 - x0)) / d
    if not (0.0 < t < 1.0 and 0.0 < s < 1.0):
        return None
    angle = abs(math.degrees(math.atan2(y1 - y0, x1 - x0) - math.atan2(v1 - v0, u1 - u0)))
    angle = angle % 180.0
    return (x0 + t * (x1 - x0), y0 + t * (y1 - y0)), min(angle, 180.0 - angle)


def _stroke_networks(tile: Tile, pack: EnigmaPack) -> tuple[dict[str, Point],
                                                             list[tuple[int, Segment]]]:
    """Where the renderer puts the tile's cells, and each segment of its channels with the
    index of the network (component) it belongs to."""
    layout = layout_tile(tile, pack.ports, spacing=spacing_for(pack))
    comps = tile.components()
    where: dict[Point, int] = {}
    for k, comp in enumerate(comps):
        for q in comp.ports:
            where[port_point(q, pack.ports)] = k
        for c in comp.cells:
            where[layout.cells[c]] = k
    segments: list[tuple[int, Segment]] = []
    for line in layout.strokes:
        k = where.get(line[0], where.get(line[-1], -1))
        segments += [(k, (line[i], line[i + 1])) for i in range(len(line) - 1)]
    return layout.cells, segments


def drawable(tile: Tile, pack: EnigmaPack) -> bool:
    """Whether the renderer draws ``tile`` so that its picture says what it is: no channel
    runs under a cell of another network or beside a channel of another network, and two
    networks' channels meet only by crossing squarely, away from cells and sides (a real
    tile's art is so; a drawing that says something else is no test of the reader)."""
    cells, segments = _stroke_networks(tile, pack)
    comp_of = {c: k for k, comp in enumerate(tile.components()) for c in comp.cells}
    rc, cw = pack.cell_radius, pack.channel_width
    for k, seg in segments:
        for c, at in cells.items():
            clear = rc + (0.5 + CELL_CLEARANCE_WIDTHS) * cw
            if comp_of.get(c, -2) != k and _point_segment(at, seg) < clear:
                return False
    for i, (k, a) in enumerate(segments):
        for m, b in segments[i + 1:]:
            if k == m:
                continue
            cross = _crossing(a, b)
            if cross is None:
                if _seg_distance(a, b) < APART_WIDTHS * cw:
                    return False
                continue
            (x, y), angle = cross
            near_cell = any(math.hypot(x - cx, y - cy) < rc + CROSSING_CLEARANCE
                            for cx, cy in cells.values())
            near_side = min(x, y, 1 - x, 1 - y) < CROSSING_CLEARANCE
            if angle < MIN_CROSSING_DEG or near_cell or near_side:
                return False
    return True


def random_catalogue(seed: int, pack: EnigmaPack, size: int = CATALOGUE_SIZE) -> Catalogue:
    """A catalogue of ``size`` random tiles that ``pack``'s drawing shows for what they are
    (:func:`drawable`), random categories (for their icons), and the demo catalogue's start
    tile."""
    rng = random.Random(seed)
    base = load_catalogue()
    tiles: list[Tile] = []
    while len(tiles) < size:
        tile = random_tile(rng)
        if drawable(tile, pack):
            tiles.append(tile)
    entries = tuple(CatalogueEntry(f"R{k:03d}", rng.choice(CATEGORIES), "demo", tile, "1")
                    for k, tile in enumerate(tiles))
    return Catalogue(base.status, "random tiles (tests and benchmarks)", base.colours,
                     base.start, entries)


__all__ = ["ALL_PORTS", "CATALOGUE_SIZE", "COLOURS", "drawable", "random_catalogue", "random_tile"]
