"""Gem movement after a tile is placed (rules/indigo.md §7).

Gems rest on *edge points* ``(cell, edge)``: a route tile's path end, a corner's U-turn end, a
corner's arrow edge (the amber before it moves). The centre's stock is a count: it gives out
:data:`~companion.indigo.pieces.CENTRE_STOCK` in order.

After a tile goes on cell ``n``, every gem on a point that faces ``n`` moves (plus the next
centre gem when ``n`` touches the centre). Each follows the paths until it

* **exits** through a gateway exit,
* **rests** on the last point before an empty cell, or
* **collides**: its next step enters the starting point of another mover; both are removed.

The result does not depend on the order the movers are followed in (§7, "order does not
matter"), so :func:`move_gems` follows them one by one from the untouched board.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from enum import StrEnum

from companion.indigo.errors import ImpossiblePathError
from companion.indigo.geometry import (
    CENTRE,
    CORNER_BY_CELL,
    EXITS,
    Cell,
    EdgePoint,
    across,
    is_on_board,
    neighbour,
    opposite,
)
from companion.indigo.pieces import CENTRE_STOCK, Gem
from companion.indigo.tiles import Tile

# A path can visit each of the 54 route cells' 3 paths at most once, plus 6 U-turns.
_MAX_STEPS = 54 * 3 + 6 + 1


class Ending(StrEnum):
    """How a gem's journey ended."""

    REST = "rest"
    EXIT = "exit"
    COLLIDED = "collided"


class Source(StrEnum):
    """Where a moving gem started."""

    CENTRE = "centre"
    CORNER = "corner"  # a corner's amber on its arrow edge
    ROUTE = "route"  # resting on a route tile or a corner's U-turn end


@dataclass(frozen=True)
class GemMove:
    """One gem's journey in a placement, for the score, the UI animation and the camera check.

    * ``start``: where it was (a centre gem: the centre's edge that faces the new tile; an
      amber: its corner's arrow edge);
    * ``points``: every edge point it passes after ``start``, two per tile it crosses (the
      entry point, then the exit point); cross the edge between one pair and the next;
    * ``end``: the last point: where it rests, the exit it leaves by, or, for a collision,
      the spot where the other gem started (the two meet halfway along the chain between
      their starts; the UI may stop both at half way);
    * ``gateway``: the gateway it left by (exits only); ``receivers``: who got it (the first
      takes this gem, a second owner takes a twin from the reserve);
    * ``collided_with``: index in the report's ``moves`` of the other gem (collisions only).
    """

    gem: Gem
    source: Source
    start: EdgePoint
    points: tuple[EdgePoint, ...]
    ending: Ending
    gateway: int | None = None
    collided_with: int | None = None
    receivers: tuple[int, ...] = ()

    @property
    def end(self) -> EdgePoint:
        return self.points[-1] if self.points else self.start

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The cells whose paths the gem ran along, in order (a cell may appear twice)."""
        return tuple(cell for cell, _ in self.points[::2])

    @property
    def is_exit(self) -> bool:
        return self.ending is Ending.EXIT


@dataclass(frozen=True)
class Movement:
    """What :func:`move_gems` computed: the moves and the gems left resting afterwards."""

    moves: tuple[GemMove, ...]
    resting: dict[EdgePoint, Gem]
    centre_left: int


def movers(
    tiles: Mapping[Cell, Tile], resting: Mapping[EdgePoint, Gem], centre_left: int, placed: Cell
) -> list[tuple[EdgePoint, Gem, Source]]:
    """The gems that move when a tile goes on ``placed``, in the order of its edges."""
    found: list[tuple[EdgePoint, Gem, Source]] = []
    for edge in range(6):
        other = neighbour(placed, edge)
        point = (other, opposite(edge))
        gem = resting.get(point)
        if gem is not None:
            corner = CORNER_BY_CELL.get(other)
            is_amber = corner is not None and corner.arrow_edge == point[1]
            found.append((point, gem, Source.CORNER if is_amber else Source.ROUTE))
        elif other == CENTRE and centre_left > 0:
            found.append((point, CENTRE_STOCK[len(CENTRE_STOCK) - centre_left], Source.CENTRE))
    return found


def _trace(
    start: EdgePoint, tiles: Mapping[Cell, Tile], starts: Mapping[EdgePoint, int]
) -> tuple[list[EdgePoint], Ending, int | None]:
    """Follow one gem from ``start``: (points passed, ending, gateway or index collided with)."""
    cell, edge = start
    points: list[EdgePoint] = []
    for _ in range(_MAX_STEPS):
        gate = EXITS.get((cell, edge))
        if gate is not None:
            return points, Ending.EXIT, gate
        nxt = neighbour(cell, edge)
        entry = opposite(edge)
        other = starts.get((nxt, entry))
        if other is not None:
            return points, Ending.COLLIDED, other
        tile = tiles.get(nxt)
        if tile is not None:
            out = tile.other_end(entry)
        else:
            corner = CORNER_BY_CELL.get(nxt)
            if corner is not None:
                turned = corner.uturn_other(entry)
                if turned is None:
                    raise ImpossiblePathError(
                        f"gem from {start} reached corner {nxt} edge {entry}, not its U-turn"
                    )
                out = turned
            elif nxt == CENTRE or not is_on_board(nxt):
                raise ImpossiblePathError(
                    f"gem from {start} ran into a dead end at {(cell, edge)}")
            else:
                return points, Ending.REST, None
        points.append((nxt, entry))
        points.append((nxt, out))
        cell, edge = nxt, out
    raise ImpossiblePathError(f"gem from {start} did not stop within {_MAX_STEPS} steps")


def move_gems(
    tiles: Mapping[Cell, Tile], resting: Mapping[EdgePoint, Gem], centre_left: int, placed: Cell
) -> Movement:
    """Move every gem touched by the tile just placed on ``placed``.

    ``tiles`` must already hold the new tile. Receivers are not filled in here (ownership is
    the state's business); ``resting`` is not changed.
    """
    found = movers(tiles, resting, centre_left, placed)
    if not found:
        return Movement((), dict(resting), centre_left)
    starts = {point: i for i, (point, _, _) in enumerate(found)}
    after = dict(resting)
    left = centre_left
    moves: list[GemMove] = []
    traced: list[tuple[list[EdgePoint], Ending, int | None]] = []
    for i, (point, _gem, source) in enumerate(found):
        own = {p: j for p, j in starts.items() if j != i}
        traced.append(_trace(point, tiles, own))
        if source is Source.CENTRE:
            left -= 1
        else:
            del after[point]
    for i, (point, gem, source) in enumerate(found):
        points, ending, extra = traced[i]
        if ending is Ending.COLLIDED:
            assert extra is not None and traced[extra][1] is Ending.COLLIDED, (point, extra)
            assert traced[extra][2] == i, f"collision of {point} is not mutual"
            moves.append(GemMove(gem, source, point, tuple(points), ending, collided_with=extra))
        elif ending is Ending.EXIT:
            moves.append(GemMove(gem, source, point, tuple(points), ending, gateway=extra))
        else:
            end = points[-1] if points else point
            assert end not in after, f"two gems rest on {end}"
            after[end] = gem
            moves.append(GemMove(gem, source, point, tuple(points), ending))
    return Movement(tuple(moves), after, left)


def trace_path(
    start: EdgePoint, tiles: Mapping[Cell, Tile], starts: Collection[EdgePoint] = ()
) -> tuple[tuple[EdgePoint, ...], Ending] | None:
    """The points a gem setting off from ``start`` along the paths of ``tiles`` passes (two
    per tile: where it enters and leaves), and how it stops: it rests on the last point
    (``REST``), leaves the board by it (``EXIT``), or meets the gem starting there
    (``COLLIDED``) when its paths run into another of ``starts``. None for paths that no board
    of the rules has (they run into the centre or a corner's side that is none of ``starts``).
    """
    others = {point: 0 for point in starts if point != start}
    try:
        points, ending, _ = _trace(start, tiles, others)
    except ImpossiblePathError:
        return None
    return tuple(points), ending


def path_end(
    start: EdgePoint, tiles: Mapping[Cell, Tile], starts: Collection[EdgePoint] = ()
) -> tuple[EdgePoint, Ending] | None:
    """Where a gem setting off from ``start`` stops (:func:`trace_path`): the point it rests on
    or leaves by (for a collision, the last point before the other gem's start), and how.

    >>> from companion.indigo.tiles import Tile
    >>> path_end((CENTRE, 2), {(1, 0): Tile(1, 0)})
    (((1, 0), 2), <Ending.REST: 'rest'>)
    """
    traced = trace_path(start, tiles, starts)
    if traced is None:
        return None
    points, ending = traced
    return (points[-1] if points else start), ending


def faces_filled_cell(point: EdgePoint, tiles: Mapping[Cell, Tile]) -> bool:
    """True when a gem resting on ``point`` would face a placed route tile (never after a turn)."""
    return across(point)[0] in tiles
