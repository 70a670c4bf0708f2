"""What the Second Chance sheet reader returns: the cells, tiles and bonus read, the core's check,
and the questions for the players (see :func:`vision.second_chance.reader.read_sheet`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.second_chance.shapes import Cell, Shape
from companion.second_chance.sheet import SheetCheck
from vision.second_chance.layout import GRID_CELLS

N = GRID_CELLS


@dataclass(frozen=True)
class SheetReading:
    """What the reader saw, the check of the core, and the questions for the players."""

    grid_rows: tuple[str, ...]
    shapes: tuple[tuple[Cell, ...], ...]
    bonus: Cell | None
    check: SheetCheck
    questions: tuple[dict[str, Any], ...]
    doubtful: tuple[Cell, ...]
    confidence: float
    cell_confidence: np.ndarray
    method: str
    seconds: float
    debug: dict[str, Any] = field(default_factory=dict)
    #: every border between two filled cells: (outline there, confidence, decided by); see
    #: :class:`Segmentation`
    outlines: dict[tuple[Cell, Cell], tuple[bool | None, float, str]] = field(
        default_factory=dict)

    @property
    def filled(self) -> tuple[Cell, ...]:
        return tuple((r, c) for r in range(N) for c in range(N) if self.grid_rows[r][c] != ".")

    def to_json(self) -> dict[str, Any]:
        """The output of ``companion read sheet`` (issue 11's format plus details)."""
        return {
            "grid": list(self.grid_rows),
            "shapes": [
                {
                    "cells": [list(c) for c in cells],
                    "shape": Shape.from_cells(cells).canonical().text,
                }
                for cells in self.shapes
            ],
            "empty": self.check.empty,
            "bonus": list(self.bonus) if self.bonus is not None else None,
            "problems": [p.to_json() for p in self.check.problems],
            "questions": list(self.questions),
            "start_covers_centre": self.check.start_covers_centre,
            "confidence": round(self.confidence, 3),
            "doubtful": [list(c) for c in self.doubtful],
            "method": self.method,
            "seconds": round(self.seconds, 4),
            "outlines": [
                {"cells": [list(a), list(b)], "outline": outline,
                 "confidence": round(sure, 3), "by": by}
                for (a, b), (outline, sure, by) in sorted(self.outlines.items())
            ],
        }
