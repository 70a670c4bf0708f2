"""Sheet reader stages 3-5 applied to a sheet: every cell measured and classified, a light fill
found, the questions about doubtful cells, the bonus 1, and the cells counted filled. The
measures themselves are in :mod:`vision.second_chance.cells`; see
:mod:`vision.second_chance.reader` for the whole pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.second_chance.shapes import Cell
from config.schema import SheetReaderSettings
from vision.second_chance.cells import (
    MARK_ENERGY_ALONE,
    UNSURE_PAPER_CONFIDENCE,
    CellFeatures,
    cell_features,
    classify_cells,
    crop_grid,
    ink_maps,
    is_sure_one,
    looks_like_paper_beside,
    marks_spread,
    paper_and_unsure,
    paper_cast,
    stroke_energy,
    stroke_marks,
)
from vision.second_chance.geometry import CANON_CELL
from vision.second_chance.layout import GRID_CELLS

N = GRID_CELLS


#: from this many doubtful cells on, the cells read empty are asked about too
MANY_DOUBTFUL = 8


#: the one mark looking a little like a 1 (asked about) is the bonus meanwhile from this share
#: of ``one_max_ink`` on: pen 1s that fail the stroke test have ink 0.22-0.34, the faint
#: traces and strokes of tiles that look a little like a 1, 0.02-0.06
HEAVY_ONE_INK = 0.3


#: a doubtful cell (asked about) counts as filled meanwhile from this fill score on, below the
#: middle of the doubtful band: doubtful cells are mostly light shading on nearly full sheets
#: (doubtful empty cells score up to about 0.76, doubtful filled ones below the middle from
#: about 0.85)
DOUBTFUL_LEANS_FILLED = 0.8


@dataclass(frozen=True)
class CellsRead:
    """Every cell measured and classified (see :func:`read_cells`); arrays of shape (9, 9)."""

    ink: np.ndarray  # the ink mask of the cropped grid (vision.second_chance.cells.crop_grid)
    darkness: np.ndarray  # the darkness map of the cropped grid
    features: CellFeatures
    state: np.ndarray  # 0 empty, 1 filled, -1 doubtful
    confidence: np.ndarray
    ones: list[Cell]  # the candidates for the bonus 1
    unsure_paper: np.ndarray  # cells whose paper is unsure (see paper_and_unsure)
    #: cells read empty by their ink with strokes in them that run one way, spread over the
    #: cell, not as faint as a rubber's traces (see vision.second_chance.cells.stroke_marks,
    #: marks_spread, MARK_ENERGY_ALONE): a light fill, asked about, and filled meanwhile
    marked: np.ndarray | None = None

    @property
    def doubtful(self) -> list[Cell]:
        return [(r, c) for r in range(N) for c in range(N) if self.state[r, c] == -1]


def read_cells(settings: SheetReaderSettings, canon: np.ndarray) -> CellsRead:
    """Stages 3-5: the paper under the light, each cell's ink, and each cell classified."""
    paper, unsure_paper = paper_and_unsure(cv2.cvtColor(canon, cv2.COLOR_BGR2GRAY),
                                           colour=canon)
    cast = paper_cast(canon, paper)
    ink, darkness, norm, chroma_map = ink_maps(crop_grid(canon), crop_grid(paper), cast,
                                               settings)
    f = cell_features(ink, darkness, norm, chroma_map, settings)
    state, confidence, ones = classify_cells(f, settings, unsure_paper)
    # an even fill that looks like the empty paper beside it is asked about; so is a cell
    # read empty with strokes in it that run one way (a light fill: any deliberate mark)
    lo = int(round(CANON_CELL * settings.inset))
    # the strokes' directions are the features' own (cell_features measures them on the same
    # float32 darkness, inset and cells)
    faint_marks = stroke_marks(darkness.astype(np.float32), lo, CANON_CELL - lo, state == 0,
                               directions=f.strokes)
    paper_like = looks_like_paper_beside(crop_grid(canon), state, f.texture, settings)
    paper_like |= faint_marks
    state = np.where(paper_like, -1, state)
    confidence = np.where(paper_like, np.minimum(confidence, UNSURE_PAPER_CONFIDENCE),
                          confidence)
    marked = light_fills(darkness.astype(np.float32), faint_marks & ~unsure_paper, lo)
    return CellsRead(ink, darkness, f, state, confidence, ones, unsure_paper, marked)


def light_fills(darkness: np.ndarray, faint_marks: np.ndarray, lo: int) -> np.ndarray:
    """(9, 9) bool: of the cells with ``faint_marks`` (see
    :func:`~vision.second_chance.cells.stroke_marks`), those a light fill covers: strokes
    spread over the cell (not a neighbour's spilling in along a side), side by side with
    another such cell (a light fill spans its tile's cells) and not as faint as the traces a
    rubber leaves of a mistake (one cell, or two side by side, fainter than most fills)."""
    hi = CANON_CELL - lo
    marked = (faint_marks & marks_spread(darkness, lo, hi)
              & (stroke_energy(darkness, lo, hi) >= MARK_ENERGY_ALONE))
    padded = np.pad(marked, 1)
    beside = padded[:-2, 1:-1] | padded[2:, 1:-1] | padded[1:-1, :-2] | padded[1:-1, 2:]
    fills: np.ndarray = marked & beside
    return fills


def cell_questions(settings: SheetReaderSettings, cells: CellsRead) -> list[dict[str, Any]]:
    """A question for every doubtful cell; with many of them, one about the cells read empty."""
    questions: list[dict[str, Any]] = []
    doubtful = cells.doubtful
    for cell in doubtful:
        # a cell asked about only for the paper under it (see paper_and_unsure) has no marks
        # to speak of: it is darker than the shading beside it was taken to be lit
        shadowed = (bool(cells.unsure_paper[cell])
                    and cells.features.score[cell] <= settings.empty_score)
        questions.append(
            {
                "kind": "cell",
                "cells": [list(cell)],
                "message": f"is cell {list(cell)} filled? "
                + ("it looks empty but dark: a shadow, or light shading?" if shadowed
                   else "the marks are not clear"),
            }
        )
    if len(doubtful) >= MANY_DOUBTFUL:
        # this many unclear cells say the sheet's own light and shading were misjudged (a
        # nearly full sheet in light pencil): a cell read empty is no surer than they are
        read_empty = [[r, c] for r in range(N) for c in range(N) if cells.state[r, c] == 0]
        if read_empty:
            questions.append(
                {
                    "kind": "cell",
                    "cells": read_empty,
                    "message": f"{len(doubtful)} cells are unclear, so the empty ones may be "
                    "misread too: are these cells empty?",
                }
            )
    return questions


def find_bonus(settings: SheetReaderSettings, cells: CellsRead, *, one_possible: bool = True
               ) -> tuple[Cell | None, list[Cell], list[dict[str, Any]]]:
    """(the bonus 1 or None, the cells that look like a 1, the questions about them).

    ``one_possible``: whether the player may have written the 1 (only a player who dropped
    out first writes one). Where none can be, a mark only a little like a 1 is asked about as
    before but stays the square of a tile it is read as meanwhile, never the 1 (the cards then
    settle it with that tile)."""
    state, f = cells.state, cells.features
    bonus: Cell | None = None
    questions: list[dict[str, Any]] = []
    ones = [cell for cell in cells.ones if state[cell] != 0]
    # a 1 shaped mark with more ink than a written 1 has (a heavy pen, a blurred frame) is
    # never taken for sure, but asked about when no sure 1 is found: read as a one-cell tile
    # it would change the score without a question
    # a sure 1 is also a cell surely written in: faint traces of an erased mark (a doubtful
    # cell, asked about anyway) that look like a 1 never compete with a clear one
    strong = [cell for cell in ones
              if state[cell] == 1 and f.ink[cell] <= settings.one_max_ink
              and is_sure_one(cells.ink, cell, f, settings)]
    weak = [cell for cell in ones if cell not in strong]
    if len(strong) == 1:
        bonus = strong[0]
    elif not strong and weak:
        if (one_possible and len(weak) == 1 and state[weak[0]] == 1
                and f.ink[weak[0]] >= settings.one_max_ink * HEAVY_ONE_INK):
            # meanwhile, one mark that looks like a 1 in heavy ink (a pen's 1: its strokes
            # break into more pieces than a pencil's) is the bonus rather than a one-cell tile
            bonus = weak[0]
        questions.append(
            {
                "kind": "bonus",
                "cells": [list(c) for c in weak],
                "message": "is there a handwritten 1 here? the marks look a little like one",
            }
        )
    if len(strong) > 1:
        ones = strong
        questions.append(
            {
                "kind": "bonus",
                "cells": [list(c) for c in ones],
                "message": "several cells look like a handwritten 1: which is it?",
            }
        )
    return bonus, ones, questions


def filled_cells(cells: CellsRead, bonus: Cell | None) -> set[Cell]:
    """The cells counted filled: read filled, doubtful leaning filled (asked about; they count
    on the side their score is nearer meanwhile), and the bonus."""
    state, score = cells.state, cells.features.score
    marked = cells.marked if cells.marked is not None else np.zeros((N, N), bool)
    filled = {(r, c) for r in range(N) for c in range(N)
              if state[r, c] == 1
              or (state[r, c] == -1 and (score[r, c] >= DOUBTFUL_LEANS_FILLED
                                         or marked[r, c]))}
    if bonus is not None:
        filled.add(bonus)
    return filled
