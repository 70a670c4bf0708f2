"""What the Indigo reader returns: :class:`IndigoRead`, :class:`CellRead`, :class:`GemRead`,
:class:`ChipRead` (and the :class:`GemSpot` its stages pass on). The pipeline is
:func:`vision.indigo.reader.read_indigo`; its settings are
:class:`vision.indigo.settings.IndigoSettings`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.indigo import CHIPS, Gem, Tile
from companion.indigo.geometry import Cell, EdgePoint
from vision.indigo.pack import IndigoPack
from vision.indigo.view import BoardView, gem_location, tile_entry
from vision.markers import PlaneFit

EMPTY = None  # the class of an empty route cell


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class CellRead:
    """A route cell: ``tile`` None means empty. ``alternatives``: next best (tile, score)."""

    cell: Cell
    tile: Tile | None
    confidence: float
    alternatives: tuple[tuple[Tile | None, float], ...] = ()


@dataclass(frozen=True)
class GemSpot:
    """A gem the reader sees, before it is named by the tiles round it (a :class:`GemRead`)."""

    gem: Gem
    point: EdgePoint | None  # None: on the centre tile
    confidence: float
    #: on the centre: the fewest and most gems of this colour the camera's counts allow (a
    #: heap's outline counted by its peaks and by laying whole discs of two sizes over it)
    plausible: tuple[int, int] | None = None


@dataclass(frozen=True)
class GemRead:
    """A gem: at an edge ``point`` (a corner's unmoved amber is its arrow point), or centre."""

    gem: Gem
    point: EdgePoint | None
    confidence: float

    @property
    def at(self) -> dict[str, Any]:
        return {"centre": True} if self.point is None else gem_location(self.point)


@dataclass(frozen=True)
class ChipRead:
    gate: int
    slot: int
    player: int | None  # index of the pack's chip colour, None: empty chip space
    colour: str | None
    confidence: float


@dataclass
class IndigoRead:
    """What one frame shows, in the engine's types, with confidences and questions."""

    cells: dict[Cell, CellRead]
    gems: list[GemRead]
    chips: list[ChipRead]
    questions: list[str] = field(default_factory=list)
    fit: PlaneFit | None = None
    #: the chips' colours do not fit the art pack: every gem and chip is in doubt (teach it)
    pieces_unlike_pack: bool = False
    timings_ms: dict[str, float] = field(default_factory=dict)
    rectified: np.ndarray | None = field(default=None, repr=False)

    @property
    def tiles(self) -> dict[Cell, Tile]:
        return {c: r.tile for c, r in self.cells.items() if r.tile is not None}

    @property
    def confidence(self) -> float:
        values = [r.confidence for r in self.cells.values()] + [g.confidence for g in self.gems]
        return min(values) if values else 1.0

    def chip_layout(self) -> tuple[tuple[int, int], ...] | None:
        """Per gateway the two chips as player indices, or None when a space reads empty."""
        pairs: dict[int, list[int]] = {}
        for chip in self.chips:
            if chip.player is None:
                return None
            pairs.setdefault(chip.gate, [0, 0])[chip.slot] = chip.player
        if len(pairs) != 6:
            return None
        return tuple((pairs[g][0], pairs[g][1]) for g in range(6))

    def layout(self) -> tuple[str, int] | None:
        """The ownership layout the chips show and the turn (gateways) it is seen at.

        ``("3p", 0)`` is the rules chart as the record's frame has it; a turn of ``k`` means
        the chips match only when gateway g is read as g + k (the board is turned against the
        calibration, or the chips were set out turned). None: no layout matches.
        """
        pairs = self.chip_layout()
        if pairs is None:
            return None
        for name, chart in CHIPS.items():
            for turn in range(6):
                if all(sorted(pairs[(g + turn) % 6]) == sorted(chart[g]) for g in range(6)):
                    return (name, turn)
        return None

    def view(self) -> BoardView:
        """The best reading as a view (what the renderer draws; questions not resolved)."""
        gems = {g.point: g.gem for g in self.gems if g.point is not None}
        centre = tuple(sorted((g.gem for g in self.gems if g.point is None), key=_centre_order))
        return BoardView(tiles=self.tiles, gems=gems, centre=centre, chips=self.chip_layout())

    def to_json(self, pack: IndigoPack | None = None) -> dict[str, Any]:
        tiles = [
            tile_entry(c, r.tile, r.confidence)
            for c, r in sorted(self.cells.items())
            if r.tile is not None
        ]
        gems = [
            {"gem": g.gem.value, "at": g.at, "confidence": round(g.confidence, 4)}
            for g in sorted(self.gems, key=_gem_key)
        ]
        out: dict[str, Any] = {
            "game": "indigo",
            "tiles": tiles,
            "gems": gems,
            "questions": list(self.questions),
            "empty_cells": [
                {"cell": [c[0], c[1]], "confidence": round(r.confidence, 4)}
                for c, r in sorted(self.cells.items())
                if r.tile is None and r.confidence < 1.0
            ],
            "layout": _layout_json(self.layout()),
            "chips": [
                {
                    "gate": ch.gate,
                    "slot": ch.slot,
                    "player": ch.player,
                    "colour": ch.colour,
                    "confidence": round(ch.confidence, 4),
                }
                for ch in self.chips
            ],
        }
        return out


def _layout_json(found: tuple[str, int] | None) -> dict[str, Any] | None:
    return None if found is None else {"name": found[0], "turn": found[1]}


def _centre_order(gem: Gem) -> int:
    return 0 if gem is Gem.EMERALD else 1


def _gem_key(g: GemRead) -> tuple[int, Any]:
    return (1, ()) if g.point is None else (0, g.point)
