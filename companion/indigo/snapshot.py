"""What the camera can see of an Indigo board, and how two such views differ (§11).

The board reader builds a :class:`BoardSnapshot` from a frame; the engine gives one for the last
accepted state (:func:`board_snapshot`). :meth:`BoardSnapshot.differences` lists what does not
match, comparing tiles by their path set (type 1 at rotation 3 is the same tile as at 0).

>>> from companion.indigo.state import new_game
>>> snap = board_snapshot(new_game(2))
>>> len(snap.corner_ambers), snap.centre
(6, (<Gem.EMERALD: 'emerald'>, <Gem.EMERALD: 'emerald'>, <Gem.EMERALD: 'emerald'>, \
<Gem.EMERALD: 'emerald'>, <Gem.EMERALD: 'emerald'>, <Gem.SAPPHIRE: 'sapphire'>))
>>> snap.differences(snap)
[]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from companion.indigo.geometry import CORNER_BY_CELL, CORNERS, Cell, EdgePoint
from companion.indigo.pieces import CENTRE_STOCK, Gem
from companion.indigo.state import IndigoState
from companion.indigo.tiles import Tile


class SpotKind(StrEnum):
    """Where on the board a gem lies."""

    EDGE = "edge"  # on an edge point of a route tile, or at a corner's U-turn end
    CORNER = "corner"  # a corner's amber that has not moved, on the arrow edge
    CENTRE = "centre"  # in the centre's stock


@dataclass(frozen=True)
class GemSpot:
    """One gem on the board: ``point`` is the edge point (for a corner amber, the arrow edge;
    for the centre, ``((0, 0), slot)`` with ``slot`` its place in the stock order)."""

    gem: Gem
    kind: SpotKind
    point: EdgePoint


@dataclass(frozen=True)
class BoardSnapshot:
    """The visible board: tiles, gems on edges, unmoved corner ambers, the centre's stock."""

    tiles: Mapping[Cell, Tile] = field(default_factory=dict)
    edge_gems: Mapping[EdgePoint, Gem] = field(default_factory=dict)
    corner_ambers: frozenset[Cell] = frozenset()
    centre: tuple[Gem, ...] = ()

    @property
    def tile_paths(self) -> dict[Cell, tuple[tuple[int, int], ...]]:
        """Placed tiles as path sets, the form to compare."""
        return {cell: tile.paths for cell, tile in self.tiles.items()}

    @property
    def gem_count(self) -> int:
        return len(self.edge_gems) + len(self.corner_ambers) + len(self.centre)

    def spots(self) -> tuple[GemSpot, ...]:
        """Every gem on the board with where it lies, corners first, then edges, then centre."""
        out = [
            GemSpot(Gem.AMBER, SpotKind.CORNER, CORNER_BY_CELL[cell].amber_point)
            for cell in sorted(self.corner_ambers)
        ]
        out += [GemSpot(gem, SpotKind.EDGE, point)
                for point, gem in sorted(self.edge_gems.items())]
        out += [GemSpot(gem, SpotKind.CENTRE, ((0, 0), slot))
                for slot, gem in enumerate(self.centre)]
        return tuple(out)

    def differences(self, other: BoardSnapshot) -> list[str]:
        """Human-readable differences from ``self`` (expected) to ``other`` (seen); [] if same."""
        out: list[str] = []
        for cell in sorted(set(self.tiles) | set(other.tiles)):
            mine, theirs = self.tiles.get(cell), other.tiles.get(cell)
            if mine is None and theirs is not None:
                out.append(f"cell {cell}: expected empty, seen T{theirs.kind}r{theirs.rotation}")
            elif mine is not None and theirs is None:
                out.append(f"cell {cell}: expected T{mine.kind}r{mine.rotation}, seen empty")
            elif mine is not None and theirs is not None and mine.paths != theirs.paths:
                out.append(
                    f"cell {cell}: expected paths {mine.paths}, seen {theirs.paths}"
                )
        for point in sorted(set(self.edge_gems) | set(other.edge_gems)):
            a, b = self.edge_gems.get(point), other.edge_gems.get(point)
            if a != b:
                out.append(
                    f"edge {point}: expected {a.value if a else 'no gem'}, "
                    f"seen {b.value if b else 'no gem'}"
                )
        for cell in sorted(self.corner_ambers ^ other.corner_ambers):
            has = "an amber" if cell in self.corner_ambers else "no amber"
            out.append(f"corner {cell}: expected {has} on its arrow")
        if self.centre != other.centre:
            out.append(
                f"centre: expected {''.join(g.letter for g in self.centre) or 'empty'}, "
                f"seen {''.join(g.letter for g in other.centre) or 'empty'}"
            )
        return out


def board_snapshot(state: IndigoState) -> BoardSnapshot:
    """The visible board of ``state``."""
    ambers = frozenset(
        corner.cell for corner in CORNERS if state.gems.get(corner.amber_point) is Gem.AMBER
    )
    amber_points = {CORNER_BY_CELL[cell].amber_point for cell in ambers}
    edge_gems = {p: g for p, g in state.gems.items() if p not in amber_points}
    centre = CENTRE_STOCK[len(CENTRE_STOCK) - state.centre_left:]
    return BoardSnapshot(
        tiles=dict(state.tiles), edge_gems=edge_gems, corner_ambers=ambers, centre=centre
    )
