"""The table of placed conduit tiles: placement, conduit systems, networkers and scoring.

Graph nodes are every placed tile's cells and ports; edges are the links inside a tile and the
pairs of ports that meet across a shared side (a port on side N at position p meets the
neighbour's S port at position 2 - p). A **conduit system** is a connected component; it is
**closed** when none of its ports is unmatched (rules/enigma.md section 5).

Systems are kept incrementally, union-find style: every node maps to a system id, and a
placement only builds the new tile's systems and merges the few systems its matched ports
touch, relabelling the smaller side of each merge. Nothing else on the table is recomputed;
the new :class:`Board` shares every untouched :class:`System` object with the old one. (The
node -> system maps are copied with ``dict()`` so that boards stay frozen; that copy is a
C-level memory copy, about 13 us per placement on a 100-tile table, see bench/enigma_engine.py.)

>>> from companion.enigma.tiles import CROSSROADS, Tile
>>> board = Board.start(CROSSROADS)
>>> cap = Tile.make({"a": "red"}, [("W", "a")])
>>> board = board.place(cap, (1, 0), rotation=0)
>>> board.system_counts()
(1, 0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from companion.enigma.errors import EnigmaIllegalMoveError
from companion.enigma.tiles import (
    OPPOSITE,
    POSITIONS,
    SIDES,
    Pos,
    Tile,
    distinct_rotations,
    neighbour,
)

#: A port on the table: (x, y, side, position).
PortRef = tuple[int, int, str, int]
#: A power cell on the table: (x, y, cell id).
CellRef = tuple[int, int, str]

#: Networker rule readings (rules/enigma.md section 9): "any" (seed 000, the default) blocks a
#: colour already held by any networker in the system; "others" only by another player's.
NETWORKER_RULES = ("any", "others")


@dataclass(frozen=True, slots=True)
class Networker:
    """A player's networker standing on a power cell."""

    player: str
    at: Pos
    cell: str
    colour: str


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile on the table: its conduit side as given, the rotation, and the turned tile."""

    tile: Tile
    rotation: int
    turned: Tile


@dataclass(frozen=True, slots=True)
class System:
    """One conduit system: its cells (with colours), ports, unmatched ports and networkers."""

    id: int
    cells: tuple[tuple[CellRef, str], ...]
    ports: tuple[PortRef, ...]
    open_ports: frozenset[PortRef]
    networkers: tuple[Networker, ...] = ()

    @property
    def is_closed(self) -> bool:
        """Closed: no channel without an end, i.e. no unmatched port."""
        return not self.open_ports

    @property
    def size(self) -> int:
        return len(self.cells) + len(self.ports)

    def count(self, colour: str) -> int:
        """How many of the system's cells have ``colour``."""
        return sum(1 for _, c in self.cells if c == colour)

    def colour_counts(self) -> dict[str, int]:
        return dict(Counter(c for _, c in self.cells))


@dataclass(frozen=True, slots=True)
class Award:
    """What one networker earned when its system was scored."""

    player: str
    at: Pos
    cell: str
    colour: str
    points: int


@dataclass(frozen=True, slots=True)
class ScoredSystem:
    """The breakdown of one closed system's scoring, for the screen."""

    system: int
    cells: tuple[tuple[CellRef, str], ...]
    colour_counts: tuple[tuple[str, int], ...]
    awards: tuple[Award, ...]

    def points_by_player(self) -> dict[str, int]:
        totals: dict[str, int] = {}
        for award in self.awards:
            totals[award.player] = totals.get(award.player, 0) + award.points
        return totals

    def to_json(self) -> dict[str, object]:
        return {
            "system": self.system,
            "cells": [[x, y, cell, colour] for (x, y, cell), colour in self.cells],
            "colours": dict(self.colour_counts),
            "awards": [
                {"player": a.player, "at": list(a.at), "cell": a.cell, "colour": a.colour,
                 "points": a.points}
                for a in self.awards
            ],
        }


@dataclass(frozen=True, slots=True)
class Placement:
    """A legal square and rotation for a tile."""

    at: Pos
    rotation: int


@dataclass(frozen=True)
class Board:
    """The placed tiles and their conduit systems. Frozen: every change returns a new board."""

    tiles: Mapping[Pos, PlacedTile] = field(default_factory=dict)
    port_system: Mapping[PortRef, int] = field(default_factory=dict)
    cell_system: Mapping[CellRef, int] = field(default_factory=dict)
    systems: Mapping[int, System] = field(default_factory=dict)
    occupied: Mapping[CellRef, Networker] = field(default_factory=dict)
    next_id: int = 0

    # ----------------------------------------------------------------- building
    @classmethod
    def start(cls, start_tile: Tile) -> Board:
        """A table holding only the start tile at [0, 0]."""
        return cls()._add(start_tile, (0, 0), 0)

    def placement_problem(
        self, tile: Tile, at: Pos, rotation: int, *, require_edge_match: bool = True
    ) -> str | None:
        """Why ``tile`` turned by ``rotation`` may not go on ``at``, or None when it may.

        The reason starts with the rule's name: ``rule 'empty square'``, ``rule 'adjacency'``
        or ``rule 'edge matching'``.
        """
        if not 0 <= rotation <= 3:
            return f"rule 'rotation': rotation must be 0..3 quarter turns, got {rotation}"
        if at in self.tiles:
            return f"rule 'empty square': square {list(at)} already holds a tile"
        turned = tile.rotated(rotation)
        touching = False
        for side in SIDES:
            other = self.tiles.get(neighbour(at, side))
            if other is None:
                continue
            touching = True
            if require_edge_match:
                mine = turned.ports_on(side)
                theirs = other.turned.ports_on(OPPOSITE[side])
                wanted = frozenset(POSITIONS - 1 - p for p in theirs)
                if mine != wanted:
                    return (
                        f"rule 'edge matching': on side {side} of {list(at)} the tile has "
                        f"{_describe(side, mine)} but the neighbour needs "
                        f"{_describe(side, wanted)}"
                    )
        if not touching:
            return (
                f"rule 'adjacency': square {list(at)} shares no side with a placed tile"
            )
        return None

    def can_place(
        self, tile: Tile, at: Pos, rotation: int, *, require_edge_match: bool = True
    ) -> bool:
        return self.placement_problem(
            tile, at, rotation, require_edge_match=require_edge_match
        ) is None

    def place(
        self, tile: Tile, at: Pos, rotation: int, *, require_edge_match: bool = True
    ) -> Board:
        """The board with ``tile`` turned by ``rotation`` on ``at``; refuses an illegal square.

        Networkers and scoring are separate steps: :meth:`put_networker`, :meth:`score_closed`.
        """
        problem = self.placement_problem(
            tile, at, rotation, require_edge_match=require_edge_match
        )
        if problem is not None:
            raise EnigmaIllegalMoveError(problem)
        return self._add(tile, at, rotation)

    def frontier(self) -> list[Pos]:
        """Empty squares sharing a side with a placed tile, sorted (y, then x)."""
        squares = {
            neighbour(pos, side) for pos in self.tiles for side in SIDES
        } - self.tiles.keys()
        return sorted(squares, key=lambda p: (p[1], p[0]))

    def legal_placements(
        self, tile: Tile, *, require_edge_match: bool = True, distinct: bool = False
    ) -> list[Placement]:
        """Every square and rotation where ``tile`` may go.

        ``distinct`` keeps one rotation of those that give the same turned tile.
        """
        rotations = distinct_rotations(tile) if distinct else (0, 1, 2, 3)
        return [
            Placement(at, r)
            for at in self.frontier()
            for r in rotations
            if self.placement_problem(tile, at, r, require_edge_match=require_edge_match) is None
        ]

    def _add(self, tile: Tile, at: Pos, rotation: int) -> Board:
        turned = tile.rotated(rotation)
        x, y = at
        tiles = dict(self.tiles)
        tiles[at] = PlacedTile(tile, rotation, turned)
        port_system = dict(self.port_system)
        cell_system = dict(self.cell_system)
        systems = dict(self.systems)
        next_id = self.next_id
        colours = turned.colours
        matched: set[PortRef] = set()
        parent: dict[int, int] = {}

        def find(sid: int) -> int:
            while parent.get(sid, sid) != sid:
                sid = parent[sid]
            return sid

        for component in turned.components():
            sid = next_id
            next_id += 1
            parent[sid] = sid
            cells = tuple(((x, y, c), colours[c]) for c in component.cells)
            ports = tuple((x, y, p.side, p.position) for p in component.ports)
            open_ports = set()
            joined = []
            for port, ref in zip(component.ports, ports, strict=True):
                other_at = neighbour(at, port.side)
                other = tiles.get(other_at)
                meets = port.meets()
                if other is not None and meets in other.turned.ports:
                    other_ref = (other_at[0], other_at[1], meets.side, meets.position)
                    matched.add(other_ref)
                    joined.append(port_system[other_ref])
                else:
                    open_ports.add(ref)
            systems[sid] = System(sid, cells, ports, frozenset(open_ports))
            for ref_cell, _ in cells:
                cell_system[ref_cell] = sid
            for ref in ports:
                port_system[ref] = sid
            for old in joined:
                parent.setdefault(old, old)
                root_new, root_old = find(sid), find(old)
                if root_new != root_old:
                    parent[root_old] = root_new
        groups: dict[int, list[int]] = {}
        for sid in parent:
            groups.setdefault(find(sid), []).append(sid)
        for members in groups.values():
            _merge(members, systems, port_system, cell_system, matched)
        return Board(tiles, port_system, cell_system, systems, self.occupied, next_id)

    # ----------------------------------------------------------------- queries
    def system_of_cell(self, at: Pos, cell: str) -> System:
        return self.systems[self.cell_system[(at[0], at[1], cell)]]

    def system_of_port(self, ref: PortRef) -> System:
        return self.systems[self.port_system[ref]]

    def systems_at(self, at: Pos) -> tuple[System, ...]:
        """The systems that hold a cell or port of the tile on ``at`` (no repeats)."""
        placed = self.tiles[at]
        ids: dict[int, None] = {}
        for cell_id, _ in placed.turned.cells:
            ids[self.cell_system[(at[0], at[1], cell_id)]] = None
        for port in sorted(placed.turned.ports):
            ids[self.port_system[(at[0], at[1], port.side, port.position)]] = None
        return tuple(self.systems[sid] for sid in ids)

    def system_counts(self) -> tuple[int, int]:
        """(open, closed) numbers of systems, cell-less ones and lone cells included."""
        closed = sum(1 for s in self.systems.values() if not s.open_ports)
        return len(self.systems) - closed, closed

    def networkers(self) -> Iterator[Networker]:
        return iter(self.occupied.values())

    def networkers_of(self, player: str) -> int:
        """How many of ``player``'s networkers stand on the board."""
        return sum(1 for n in self.occupied.values() if n.player == player)

    # ----------------------------------------------------------------- networkers
    def networker_problem(
        self, at: Pos, cell: str, player: str, *, rule: str = "any"
    ) -> str | None:
        """Why ``player`` may not put a networker on ``cell`` of the tile on ``at``, or None.

        Checked on the board as it stands (after the tile joined it: merged systems count as
        one). Supply and "the tile just placed" are the game's checks, not the board's.
        """
        placed = self.tiles.get(at)
        if placed is None:
            return f"rule 'networker': no tile on {list(at)}"
        colours = placed.turned.colours
        if cell not in colours:
            return (
                f"rule 'networker': the tile on {list(at)} has no cell {cell!r} "
                f"(its cells: {', '.join(sorted(colours)) or 'none'})"
            )
        ref = (at[0], at[1], cell)
        if ref in self.occupied:
            return f"rule 'networker': cell {cell!r} on {list(at)} is taken"
        colour = colours[cell]
        system = self.systems[self.cell_system[ref]]
        for other in system.networkers:
            if other.colour == colour and (rule == "any" or other.player != player):
                return (
                    f"rule 'networker': {other.player}'s networker already sits on a "
                    f"{colour} cell of this conduit system (at {list(other.at)}, cell "
                    f"{other.cell!r})"
                )
        return None

    def networker_cells(self, at: Pos, player: str, *, rule: str = "any") -> tuple[str, ...]:
        """The cells of the tile on ``at`` where ``player`` may put a networker."""
        placed = self.tiles[at]
        return tuple(
            cell
            for cell, _ in placed.turned.cells
            if self.networker_problem(at, cell, player, rule=rule) is None
        )

    def put_networker(self, at: Pos, cell: str, player: str, *, rule: str = "any") -> Board:
        """The board with ``player``'s networker on ``cell`` of the tile on ``at``."""
        problem = self.networker_problem(at, cell, player, rule=rule)
        if problem is not None:
            raise EnigmaIllegalMoveError(problem)
        ref = (at[0], at[1], cell)
        networker = Networker(player, at, cell, self.tiles[at].turned.colours[cell])
        sid = self.cell_system[ref]
        systems = dict(self.systems)
        old = systems[sid]
        systems[sid] = System(
            old.id, old.cells, old.ports, old.open_ports, (*old.networkers, networker)
        )
        occupied = dict(self.occupied)
        occupied[ref] = networker
        return Board(
            self.tiles, self.port_system, self.cell_system, systems, occupied, self.next_id
        )

    # ----------------------------------------------------------------- scoring
    def score_closed(self, at: Pos) -> tuple[Board, tuple[ScoredSystem, ...]]:
        """Score every closed system of the tile on ``at`` and send its networkers home.

        Only the new tile's systems can have been closed by its placement. Each networker
        earns its owner one point per cell of its colour in the system (its own included);
        two networkers on one colour each score in full.
        """
        scored = []
        systems: dict[int, System] | None = None
        occupied: dict[CellRef, Networker] | None = None
        for system in self.systems_at(at):
            if system.open_ports:
                continue
            counts = system.colour_counts()
            awards = tuple(
                Award(n.player, n.at, n.cell, n.colour, counts.get(n.colour, 0))
                for n in system.networkers
            )
            scored.append(
                ScoredSystem(system.id, system.cells, tuple(sorted(counts.items())), awards)
            )
            if system.networkers:
                if systems is None or occupied is None:
                    systems, occupied = dict(self.systems), dict(self.occupied)
                systems[system.id] = System(
                    system.id, system.cells, system.ports, system.open_ports, ()
                )
                for n in system.networkers:
                    del occupied[(n.at[0], n.at[1], n.cell)]
        if systems is None or occupied is None:
            return self, tuple(scored)
        board = Board(
            self.tiles, self.port_system, self.cell_system, systems, occupied, self.next_id
        )
        return board, tuple(scored)


def _merge(
    members: list[int],
    systems: dict[int, System],
    port_system: dict[PortRef, int],
    cell_system: dict[CellRef, int],
    matched: set[PortRef],
) -> None:
    """Merge ``members`` into the largest of them, relabelling the smaller ones' nodes."""
    parts = [systems[sid] for sid in members]
    base = max(parts, key=lambda s: (s.size, -s.id))
    cells = list(base.cells)
    ports = list(base.ports)
    open_ports = set(base.open_ports)
    networkers = list(base.networkers)
    for part in parts:
        if part is base:
            continue
        del systems[part.id]
        for ref_cell, _ in part.cells:
            cell_system[ref_cell] = base.id
        for ref in part.ports:
            port_system[ref] = base.id
        cells.extend(part.cells)
        ports.extend(part.ports)
        open_ports.update(part.open_ports)
        networkers.extend(part.networkers)
    open_ports.difference_update(matched)
    systems[base.id] = System(
        base.id, tuple(cells), tuple(ports), frozenset(open_ports), tuple(networkers)
    )


def _describe(side: str, positions: frozenset[int]) -> str:
    if not positions:
        return "no port"
    return "ports " + ", ".join(f"{side}{p}" for p in sorted(positions))


__all__ = [
    "Award",
    "Board",
    "CellRef",
    "NETWORKER_RULES",
    "Networker",
    "PlacedTile",
    "Placement",
    "PortRef",
    "ScoredSystem",
    "System",
]
