"""Enigma conduit tiles: the schema of ``records.md``, ports, rotation and local channels.

A tile's conduit side is a small graph: power cells (by id, with a colour) and ports (an
opening on a side, at a position along it), joined by links. The JSON form is the one game
records carry inline::

    {"cells": {"a": "red", "b": "blue"}, "links": [["N", "a"], ["a", "E"], ["S", "b"]]}

Ports are a side letter plus a position 0..2 counted clockwise along the side; a bare letter is
the middle (``N`` == ``N1``). A port on side N at position p meets the neighbour's port on side
S at position 2 - p (and likewise for every pair of opposite sides). Rotation turns the tile by
clockwise quarter turns: each port moves that many sides on (N -> E -> S -> W) and keeps its
position number.

>>> t = parse_tile({"cells": {"a": "red"}, "links": [["N", "a"], ["a", "E0"]]})
>>> format_tile(t.rotated(1))
{'cells': {'a': 'red'}, 'links': [['E', 'a'], ['S0', 'a']]}
>>> Port("N", 0).meets()
Port(side='S', position=2)
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from companion.enigma.errors import TileFormatError

#: Sides in clockwise order; a rotation by r moves a port r places along this tuple.
SIDES: tuple[str, ...] = ("N", "E", "S", "W")
#: Grid step towards the neighbour on each side; y grows downward (records.md).
OFFSETS: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE: dict[str, str] = {"N": "S", "E": "W", "S": "N", "W": "E"}
#: Positions along a side (the default model of rules/enigma.md section 4.3).
POSITIONS = 3
MIDDLE = 1

_PORT_RE = re.compile(r"^([NESW])([0-9]*)$")

Pos = tuple[int, int]


class Port(NamedTuple):
    """An opening on ``side`` at ``position`` (0..2, clockwise along the side)."""

    side: str
    position: int

    def rotated(self, quarter_turns: int) -> Port:
        """This port after turning the tile ``quarter_turns`` times clockwise."""
        index = (SIDES.index(self.side) + quarter_turns) % 4
        return Port(SIDES[index], self.position)

    def meets(self) -> Port:
        """The neighbour's port that this one joins: opposite side, mirrored position."""
        return Port(OPPOSITE[self.side], POSITIONS - 1 - self.position)

    def __str__(self) -> str:
        return format_port(self)


Endpoint = Port | str
"""A link end: a :class:`Port` or a cell id."""


def is_port_name(text: str) -> bool:
    """True when ``text`` is written like a port (``N``, ``E2``), valid position or not."""
    return _PORT_RE.match(text) is not None


def parse_port(text: str) -> Port:
    """Parse ``N``, ``N0``..``N2`` (and E, S, W); a bare letter is the middle position."""
    match = _PORT_RE.match(text)
    if match is None:
        raise TileFormatError(f"{text!r} is not a port: expected a side N/E/S/W and 0..2")
    side, digits = match.groups()
    position = int(digits) if digits else MIDDLE
    if not 0 <= position < POSITIONS or (digits and len(digits) > 1):
        raise TileFormatError(
            f"port {text!r}: position must be 0..{POSITIONS - 1} along the side"
        )
    return Port(side, position)


def format_port(port: Port) -> str:
    """The canonical name: the middle is a bare letter (``N``), the others ``N0``/``N2``."""
    return port.side if port.position == MIDDLE else f"{port.side}{port.position}"


def _endpoint_key(end: Endpoint) -> tuple[int, str]:
    # Ports sort before cells, then by name, so a tile has one canonical form.
    if isinstance(end, Port):
        return (0, f"{SIDES.index(end.side)}{end.position}")
    return (1, end)


def _format_endpoint(end: Endpoint) -> str:
    return format_port(end) if isinstance(end, Port) else end


@dataclass(frozen=True, slots=True)
class Component:
    """Cells and ports of one tile joined by its links: one channel network inside the tile."""

    cells: tuple[str, ...]
    ports: tuple[Port, ...]


@dataclass(frozen=True, slots=True)
class Tile:
    """A conduit side: ``cells`` as (id, colour) pairs sorted by id, and ``links``.

    Build one with :func:`parse_tile` (which validates) or :meth:`make`.
    """

    cells: tuple[tuple[str, str], ...]
    links: tuple[tuple[Endpoint, Endpoint], ...]

    @classmethod
    def make(
        cls, cells: Mapping[str, str], links: Iterable[tuple[Endpoint | str, Endpoint | str]]
    ) -> Tile:
        """A validated tile from Python values; link ends may be port names or cell ids."""
        return parse_tile(
            {
                "cells": dict(cells),
                "links": [[_format_endpoint(a), _format_endpoint(b)] for a, b in links],
            }
        )

    @property
    def colours(self) -> dict[str, str]:
        """Cell id -> colour."""
        return dict(self.cells)

    @property
    def ports(self) -> frozenset[Port]:
        """Every port of the tile: the ports that occur in its links."""
        return frozenset(e for link in self.links for e in link if isinstance(e, Port))

    def ports_on(self, side: str) -> frozenset[int]:
        """The positions of the tile's ports on ``side``."""
        return _side_positions(self)[SIDES.index(side)]

    def colour_of(self, cell: str) -> str:
        """The colour of ``cell``; a cell the tile lacks raises TileFormatError."""
        for cell_id, colour in self.cells:
            if cell_id == cell:
                return colour
        raise TileFormatError(f"the tile has no cell {cell!r}; its cells: {self.cell_ids}")

    @property
    def cell_ids(self) -> tuple[str, ...]:
        return tuple(cell_id for cell_id, _ in self.cells)

    def rotated(self, quarter_turns: int) -> Tile:
        """The tile turned ``quarter_turns`` clockwise (any integer, taken mod 4)."""
        return rotate_tile(self, quarter_turns % 4)

    def components(self) -> tuple[Component, ...]:
        """The tile's separate channel networks (lone cells are components of their own)."""
        return _components(self)

    def signature(self) -> tuple[tuple[tuple[str, str], ...], frozenset[Component]]:
        """What play depends on: the cells and which cells and ports are connected.

        Two tiles with the same signature behave the same on the table even when their links
        are written differently (a crossroads may be N-E, E-S, S-W or N-S, E-W, N-E).
        """
        return self.cells, frozenset(self.components())

    def is_equivalent(self, other: Tile) -> bool:
        return self.signature() == other.signature()

    def to_json(self) -> dict[str, object]:
        return format_tile(self)

    def __str__(self) -> str:
        return json.dumps(format_tile(self), separators=(", ", ": "))


def _canonical(
    cells: Iterable[tuple[str, str]], links: Iterable[tuple[Endpoint, Endpoint]]
) -> Tile:
    ordered_links = []
    for a, b in links:
        if _endpoint_key(b) < _endpoint_key(a):
            a, b = b, a
        ordered_links.append((a, b))
    ordered_links.sort(key=lambda link: (_endpoint_key(link[0]), _endpoint_key(link[1])))
    return Tile(tuple(sorted(cells)), tuple(ordered_links))


def parse_tile(data: object, *, where: str = "tile") -> Tile:
    """Validate a tile's JSON form and return the canonical :class:`Tile`.

    Raises :class:`TileFormatError` naming the problem: a link end that is neither a cell id
    nor a port, a cell id written like a port, a colour that is not a string, and so on.
    """
    if not isinstance(data, Mapping):
        raise TileFormatError(f"{where}: must be an object with 'cells' and 'links'")
    cells = data.get("cells", {})
    links = data.get("links", [])
    if not isinstance(cells, Mapping):
        raise TileFormatError(f"{where}: 'cells' must be an object of cell id -> colour")
    if not isinstance(links, list):
        raise TileFormatError(f"{where}: 'links' must be a list of [end, end] pairs")
    parsed_cells: list[tuple[str, str]] = []
    for cell_id, colour in cells.items():
        if not isinstance(cell_id, str) or not cell_id:
            raise TileFormatError(f"{where}: a cell id must be a non-empty string")
        if is_port_name(cell_id):
            raise TileFormatError(f"{where}: cell id {cell_id!r} is written like a port")
        if not isinstance(colour, str) or not colour:
            raise TileFormatError(f"{where}: cell {cell_id!r} needs a colour name, got {colour!r}")
        parsed_cells.append((cell_id, colour))
    cell_ids = {cell_id for cell_id, _ in parsed_cells}
    parsed_links: list[tuple[Endpoint, Endpoint]] = []
    for number, link in enumerate(links, start=1):
        if not isinstance(link, list | tuple) or len(link) != 2:
            raise TileFormatError(f"{where}: link {number} must be a pair [end, end], got {link!r}")
        ends: list[Endpoint] = []
        for end in link:
            if not isinstance(end, str):
                raise TileFormatError(f"{where}: link {number} end {end!r} must be a string")
            if end in cell_ids:
                ends.append(end)
            elif is_port_name(end):
                ends.append(parse_port(end))
            else:
                raise TileFormatError(
                    f"{where}: link {number} end {end!r} is neither a cell id "
                    f"({', '.join(sorted(cell_ids)) or 'no cells'}) nor a port"
                )
        parsed_links.append((ends[0], ends[1]))
    return _canonical(parsed_cells, parsed_links)


def format_tile(tile: Tile) -> dict[str, object]:
    """The tile's JSON form (canonical order; the middle port written as a bare letter)."""
    return {
        "cells": dict(tile.cells),
        "links": [[_format_endpoint(a), _format_endpoint(b)] for a, b in tile.links],
    }


def loads_tile(text: str) -> Tile:
    """Parse a tile from JSON text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TileFormatError(f"tile: not valid JSON: {exc.msg}") from exc
    return parse_tile(data)


def dumps_tile(tile: Tile) -> str:
    """Compact JSON text of a tile (the record's inline form)."""
    return json.dumps(format_tile(tile), separators=(",", ":"))


@functools.lru_cache(maxsize=4096)
def rotate_tile(tile: Tile, quarter_turns: int) -> Tile:
    """``tile`` turned ``quarter_turns`` (0..3) clockwise; cells and links are unchanged."""
    if quarter_turns % 4 == 0:
        return tile

    def turn(end: Endpoint) -> Endpoint:
        return end.rotated(quarter_turns) if isinstance(end, Port) else end

    return _canonical(tile.cells, ((turn(a), turn(b)) for a, b in tile.links))


def distinct_rotations(tile: Tile) -> tuple[int, ...]:
    """The rotations 0..3 that give different tiles (a symmetric tile has fewer).

    Tiles are compared by :meth:`Tile.signature`, i.e. by what is connected to what.
    """
    seen: set[object] = set()
    kept = []
    for r in range(4):
        signature = rotate_tile(tile, r).signature()
        if signature not in seen:
            seen.add(signature)
            kept.append(r)
    return tuple(kept)


@functools.lru_cache(maxsize=4096)
def _side_positions(tile: Tile) -> tuple[frozenset[int], ...]:
    by_side: dict[str, set[int]] = {side: set() for side in SIDES}
    for port in tile.ports:
        by_side[port.side].add(port.position)
    return tuple(frozenset(by_side[side]) for side in SIDES)


@functools.lru_cache(maxsize=4096)
def _components(tile: Tile) -> tuple[Component, ...]:
    # A tiny union-find over the tile's endpoints; tiles have a handful of them.
    parent: dict[Endpoint, Endpoint] = {}

    def find(x: Endpoint) -> Endpoint:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for cell_id, _ in tile.cells:
        parent[cell_id] = cell_id
    for a, b in tile.links:
        parent.setdefault(a, a)
        parent.setdefault(b, b)
        root_a, root_b = find(a), find(b)
        if root_a != root_b:
            parent[root_b] = root_a
    groups: dict[Endpoint, list[Endpoint]] = {}
    for end in parent:
        groups.setdefault(find(end), []).append(end)
    components = []
    for members in groups.values():
        cells = tuple(sorted(e for e in members if not isinstance(e, Port)))
        ports = tuple(sorted((e for e in members if isinstance(e, Port)), key=_endpoint_key))
        components.append(Component(cells, ports))
    components.sort(key=lambda c: (c.cells, [_endpoint_key(p) for p in c.ports]))
    return tuple(components)


def neighbour(pos: Pos, side: str) -> Pos:
    """The grid square on ``side`` of ``pos``."""
    dx, dy = OFFSETS[side]
    return (pos[0] + dx, pos[1] + dy)


#: The default start tile (records.md option ``start``): a crossroads, no cells.
CROSSROADS = _canonical(
    (), [(Port("N", 1), Port("E", 1)), (Port("E", 1), Port("S", 1)), (Port("S", 1), Port("W", 1))]
)


__all__ = [
    "CROSSROADS",
    "Component",
    "Endpoint",
    "MIDDLE",
    "OFFSETS",
    "OPPOSITE",
    "POSITIONS",
    "Port",
    "Pos",
    "SIDES",
    "Tile",
    "distinct_rotations",
    "dumps_tile",
    "format_port",
    "format_tile",
    "is_port_name",
    "loads_tile",
    "neighbour",
    "parse_port",
    "parse_tile",
    "rotate_tile",
]
