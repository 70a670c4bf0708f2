"""Sheet reader stage 5b: the cells where the picture washes ink out (glare, a blown highlight
on a photo). The printed grid line is ink of one darkness all over the sheet; where the picture
shows it much lighter than elsewhere, a light fill shows lighter still, or as nothing at all:
a cell read empty there is asked about, never read empty for sure. See
:mod:`vision.second_chance.reader` for the whole pipeline.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.second_chance.borders import SheetBorderLevels
from vision.second_chance.cell_reading import CellsRead
from vision.second_chance.cells import UNSURE_PAPER_CONFIDENCE
from vision.second_chance.layout import GRID_CELLS

N = GRID_CELLS


#: a cell read empty is washed out when its sides' printed line (the median over its two to
#: four sides) shows less than this share of the darkness the printed line shows on the sheet.
#: Tuning seeds (s31): the two squares of a tile read empty for sure under glare on the
#: independent photos 0-39 measure 0.47 and 0.60; every other square read empty 0.78 and up
#: there (1566), 0.67 and up on the own hands' scans and photos 0-9 (1941, five styles, three
#: conditions: a marker's flat fill beside a side darkens its line, never lightens it)
WASHED_OUT_LINE = 0.65


def washed_out_cells(levels: SheetBorderLevels) -> np.ndarray:
    """(9, 9) bool: the cells whose sides' printed line shows less than
    :data:`WASHED_OUT_LINE` of the sheet's printed line darkness (``levels.printed``)."""
    printed_dark = max(1.0 - levels.printed, 1e-3)
    sides = np.full((N, N, 4), np.nan)
    right = 1.0 - levels.through_right  # (9, 8): the line right of each cell
    below = 1.0 - levels.through_below  # (8, 9): the line under each cell
    sides[:, :-1, 0], sides[:, 1:, 1] = right, right
    sides[:-1, :, 2], sides[1:, :, 3] = below, below
    shown: np.ndarray = np.nanmedian(sides, axis=2) / printed_dark
    return shown < WASHED_OUT_LINE


def ask_washed_out(cells: CellsRead, levels: SheetBorderLevels) -> CellsRead:
    """``cells`` with each cell read empty where the picture is washed out
    (:func:`washed_out_cells`) doubtful: asked about, empty meanwhile, and searched by the
    cards the player drew like any doubtful square."""
    washed = washed_out_cells(levels) & (cells.state == 0)
    if not washed.any():
        return cells
    return replace(cells, state=np.where(washed, -1, cells.state),
                   confidence=np.where(washed, np.minimum(cells.confidence,
                                                          UNSURE_PAPER_CONFIDENCE),
                                       cells.confidence),
                   washed_out=washed)
