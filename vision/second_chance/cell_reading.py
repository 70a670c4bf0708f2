"""Sheet reader stages 3-5 applied to a sheet: every cell measured and classified, a light fill
found, the questions about doubtful cells, the bonus 1, and the cells counted filled. The
measures themselves are in :mod:`vision.second_chance.cells`; see
:mod:`vision.second_chance.reader` for the whole pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
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
    colour_cover,
    colour_strength,
    crop_grid,
    ink_maps,
    is_sure_one,
    looks_like_paper_beside,
    marks_spread,
    paper_and_unsure,
    paper_cast,
    stroke_energy,
    stroke_marks,
    stroke_strength,
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
    #: doubtful cells whose strokes stand clear of the sheet's own empty squares and of a
    #: rubber's traces, running the way a like neighbour's run (see :func:`clear_light_fills`):
    #: asked about, filled meanwhile, and filled for the cards' search of the doubtful squares
    clear_fills: np.ndarray | None = None
    #: doubtful cells read filled for their colour alone (see :func:`colour_fills`): a light
    #: fill's strokes, taken for a written 1 no more surely than before
    coloured: np.ndarray | None = None
    #: cells read empty where the picture washes ink out (glare: see
    #: :mod:`vision.second_chance.washed_out`): doubtful, asked about, empty meanwhile
    washed_out: np.ndarray | None = None

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
    # float32 darkness, inset and cells); their energy and spread are measured once for all
    dark = darkness.astype(np.float32)
    strength = stroke_strength(dark, lo, CANON_CELL - lo)
    energy = stroke_energy(dark, lo, CANON_CELL - lo, measured=strength)
    spread = marks_spread(dark, lo, CANON_CELL - lo, measured=strength)
    faint_marks = stroke_marks(dark, lo, CANON_CELL - lo, state == 0, directions=f.strokes,
                               energy=energy)
    paper_like = looks_like_paper_beside(crop_grid(canon), state, f.texture, settings)
    paper_like |= faint_marks
    state = np.where(paper_like, -1, state)
    confidence = np.where(paper_like, np.minimum(confidence, UNSURE_PAPER_CONFIDENCE),
                          confidence)
    marked = light_fills(dark, faint_marks & ~unsure_paper, lo, energy=energy, spread=spread)
    clear = clear_light_fills(dark, state, f.strokes, lo, energy=energy,
                              spread=spread) & ~unsure_paper
    chroma, cover = colour_cover(norm, lo, CANON_CELL - lo)
    colour = colour_fills(*colour_strength(norm, lo, CANON_CELL - lo, chroma), state,
                          unsure_paper)
    tile_wide = fills_across_tile(colour, state, chroma, cover)
    # a doubtful cell so coloured, its colour covering it and running on into its tile, is
    # filled; one read empty (a fill lighter still) is asked about, and filled for the cards'
    # search as a clear light fill is where its colour runs on so; a coloured doubtful cell
    # whose colour stays in it (a smudge of coloured ink) is asked about as before
    coloured, read_empty = tile_wide & (state == -1), colour & (state == 0)
    state = np.where(coloured, 1, np.where(read_empty, -1, state))
    # ... unless it is smoother than the sheet's empty paper: glare's tint, not a fill's
    glare = smoother_than_paper(energy, state)
    confidence = np.where(coloured, COLOUR_FILL_CONFIDENCE,
                          np.where(read_empty, np.minimum(confidence, UNSURE_PAPER_CONFIDENCE),
                                   confidence))
    clear = (clear & ~coloured) | (read_empty & tile_wide & ~glare)
    return CellsRead(ink, darkness, f, state, confidence, ones, unsure_paper, marked, clear,
                     coloured)


#: a cell read doubtful or empty is a coloured fill from this colour strength on (see
#: :func:`~vision.second_chance.cells.colour_strength`): on the tuning sheets (seeds 0-15,
#: mild and harsh photos of five styles) the truly empty squares measure at most 0.012 on a
#: mild photo, 0.046 on a harsh one under a colour cast (where every empty square measures
#: as much), light coloured-pencil fills 0.02-0.08, felt marker's flat fills 0.1 and up
COLOUR_FILL_STRENGTH = 0.02
#: ... and from this many times the median of the sheet's squares read empty (its paper,
#: colour noise and cast; the truly empty squares measure up to 3.5 times it on a mild photo,
#: 5 on a harsh one, and those of them as strong as 0.015 at most 2 times: the doubtful ones
#: so coloured are read filled only where their colour also runs on into their tile, see
#: :func:`fills_across_tile`; those read empty are asked about)
COLOUR_FILL_RATIO = 5.0
#: ... measured on at least this many squares read empty (else no fill is coloured for sure)
COLOUR_FILL_REFERENCE = 4
#: ... with the colour in the middle of the square too (at least this share of the whole's):
#: a fill covers its square, a neighbour's coloured outline or fill spills in along a side
COLOUR_FILL_MIDDLE = 0.5
#: the confidence of a cell so read filled: sure, below a dark fill's
COLOUR_FILL_CONFIDENCE = 0.7
#: a coloured cell's colour covers it when each ninth of its inside holds at least this share
#: of the cell's mean colour, along it (see :func:`~vision.second_chance.cells.colour_cover`):
#: the doubtful coloured fills of the tuning sheets (seeds 0-15, mild and harsh) hold 0.45 and
#: up, an even fill 1
COLOUR_FILL_COVER = 0.35
#: ... and runs on into a side neighbour of the same tool and colour: their mean colours'
#: cosine at least this (one pencil, one marker: 0.9 and up on the tuning sheets' light fills;
#: a tinted smudge of ink beside a tile of another colour, 0.2) ...
SAME_COLOUR_COSINE = 0.9
#: ... as strong within this factor either way (one tool's fill across a tile)
SAME_COLOUR_STRENGTH = 3.0


def fills_across_tile(coloured: np.ndarray, state: np.ndarray, chroma: np.ndarray,
                      cover: np.ndarray) -> np.ndarray:
    """(9, 9) bool: of the ``coloured`` cells (:func:`colour_fills`), those whose colour is a
    fill's: it covers the cell to its sides (``cover``, see
    :func:`~vision.second_chance.cells.colour_cover`) and runs on into a side neighbour read
    filled, or into another such cell, in the same colour and about as strong (``chroma``:
    the cells' mean colours). A player fills a tile's squares with one tool and colour across
    its outline; a smudge of coloured ink, or a tint spilt from beside, is one square's and
    fades, or lies beside a tile of its own colour and strength only by chance."""
    strength = np.sqrt((chroma ** 2).sum(axis=2))
    unit = chroma / np.maximum(strength, 1e-9)[..., None]
    covering = coloured & (cover >= COLOUR_FILL_COVER)
    anchors = covering | (state == 1)
    found = np.zeros((N, N), bool)
    for dr, dc in ((0, 1), (1, 0)):
        here = (slice(0, N - dr), slice(0, N - dc))
        there = (slice(dr, N), slice(dc, N))
        ratio = strength[here] / np.maximum(strength[there], 1e-9)
        alike = (((unit[here] * unit[there]).sum(axis=2) >= SAME_COLOUR_COSINE)
                 & (ratio <= SAME_COLOUR_STRENGTH) & (ratio >= 1 / SAME_COLOUR_STRENGTH))
        found[here] |= covering[here] & anchors[there] & alike
        found[there] |= covering[there] & anchors[here] & alike
    return found


def colour_fills(strength: np.ndarray, middle: np.ndarray, state: np.ndarray,
                 unsure_paper: np.ndarray) -> np.ndarray:
    """(9, 9) bool: the cells read doubtful or empty (``state`` -1, 0) coloured beyond doubt:
    their mean colour
    (``strength``, and ``middle`` in the square's middle, see
    :func:`~vision.second_chance.cells.colour_strength`) far from the grey of the sheet's own
    squares read empty (the same paper, light and camera), on paper whose light is sure.

    A light coloured-pencil fill is as light in grey as an erased smudge or a shadow, and a
    felt marker's flat fill as smooth as paper in a shadow: both are asked about by their
    darkness and grain, yet neither a smudge of graphite nor a shadow has a colour; a
    coloured mark in a square is a deliberate mark."""
    empty = state == 0
    if int(empty.sum()) < COLOUR_FILL_REFERENCE:
        return np.zeros((N, N), bool)
    floor = float(np.median(strength[empty]))
    found: np.ndarray = ((state <= 0) & ~unsure_paper
                         & (strength >= max(COLOUR_FILL_STRENGTH, COLOUR_FILL_RATIO * floor))
                         & (middle >= COLOUR_FILL_MIDDLE * strength))
    return found


#: a doubtful cell's strokes (:func:`~vision.second_chance.cells.stroke_energy`) are a light
#: fill's for sure from this energy on: a rubber's traces measure up to 0.0124 on the tuning
#: sheets (a harsh photo's noise on them included), light pencil and coloured fills 0.017-0.066
CLEAR_FILL_ENERGY = 0.016
#: ... and from this many times the median energy of the sheet's squares read empty (its paper,
#: grain, noise and JPEG: 0.0001 on a clean scan, 0.001 on a mild photo, 0.003-0.006 harsh)
CLEAR_FILL_RATIO = 8.0
#: ... measured on at least this many squares read empty (else no fill is clear)
CLEAR_FILL_REFERENCE = 9
#: the strokes run one way (the doubled angle's mean length; hatching 0.75-0.96) ...
CLEAR_FILL_COHERENCE = 0.7
#: ... the way a side neighbour's do: the cosine of their doubled angles at least this (a
#: player hatches a tile at one angle; a rubber's traces lie at their own)
CLEAR_FILL_SAME_WAY = 0.8


def clear_light_fills(darkness: np.ndarray, state: np.ndarray, directions: np.ndarray | None,
                      lo: int, *, energy: np.ndarray | None = None,
                      spread: np.ndarray | None = None) -> np.ndarray:
    """(9, 9) bool: the doubtful cells (``state`` -1) whose strokes are a light fill's beyond
    doubt: measured against the sheet's own squares read empty (the same paper, light and
    camera), far stronger than theirs and than a rubber's traces, spread over the cell, running
    one way, and the way a side neighbour's like strokes run (a light fill spans its tile's
    squares at one angle). A cell's darkness alone cannot tell a light fill from an empty
    square in the same picture; its strokes can. ``directions``: the cells' stroke directions
    (:func:`~vision.second_chance.cells.stroke_directions` of the same ``darkness``);
    ``energy``, ``spread``: its :func:`~vision.second_chance.cells.stroke_energy` and
    :func:`~vision.second_chance.cells.marks_spread` when already measured."""
    hi = CANON_CELL - lo
    empty = state == 0
    if directions is None or int(empty.sum()) < CLEAR_FILL_REFERENCE:
        return np.zeros((N, N), bool)
    energy = stroke_energy(darkness, lo, hi) if energy is None else energy
    spread = marks_spread(darkness, lo, hi) if spread is None else spread
    floor = float(np.median(energy[empty]))
    way = directions[..., :2]
    length = np.hypot(way[..., 0], way[..., 1])
    unit = way / np.maximum(length, 1e-9)[..., None]
    strong = ((state == -1) & (energy >= max(CLEAR_FILL_ENERGY, CLEAR_FILL_RATIO * floor))
              & (length >= CLEAR_FILL_COHERENCE) & spread)
    clear = np.zeros((N, N), bool)
    for dr, dc in ((0, 1), (1, 0)):
        here = (slice(0, N - dr), slice(0, N - dc))
        there = (slice(dr, N), slice(dc, N))
        alike = (strong[here] & strong[there]
                 & ((unit[here] * unit[there]).sum(axis=2) >= CLEAR_FILL_SAME_WAY))
        clear[here] |= alike
        clear[there] |= alike
    return clear


#: a cell read empty is smoother than the sheet's empty paper below this share of their median
#: stroke energy (:func:`~vision.second_chance.cells.stroke_energy`): a fill keeps the paper's
#: grain and adds its strokes, a blown highlight (glare) flattens the grain. Tuning seeds
#: (s31): the empty squares under glare read coloured across a tile (the glare's white against
#: a tinted paper) measure 0.01-0.56 of it on the independent photos 0-39 (10 squares, sheets
#: 4 15 19 29), the light fills so read 1.6 there and 3.7 and up on the own hands 0-9
SMOOTHER_THAN_PAPER = 1.0


def smoother_than_paper(energy: np.ndarray, state: np.ndarray) -> np.ndarray:
    """(9, 9) bool: the cells whose stroke ``energy`` is below :data:`SMOOTHER_THAN_PAPER`
    of the median of the cells read empty (``state`` 0); none with too few of those."""
    empty = state == 0
    if int(empty.sum()) < CLEAR_FILL_REFERENCE:
        return np.zeros((N, N), bool)
    smooth: np.ndarray = energy < SMOOTHER_THAN_PAPER * float(np.median(energy[empty]))
    return smooth


def light_fills(darkness: np.ndarray, faint_marks: np.ndarray, lo: int, *,
                energy: np.ndarray | None = None, spread: np.ndarray | None = None
                ) -> np.ndarray:
    """(9, 9) bool: of the cells with ``faint_marks`` (see
    :func:`~vision.second_chance.cells.stroke_marks`), those a light fill covers: strokes
    spread over the cell (not a neighbour's spilling in along a side), side by side with
    another such cell (a light fill spans its tile's cells) and not as faint as the traces a
    rubber leaves of a mistake (one cell, or two side by side, fainter than most fills).
    ``energy``, ``spread``: as for :func:`clear_light_fills`."""
    hi = CANON_CELL - lo
    energy = stroke_energy(darkness, lo, hi) if energy is None else energy
    spread = marks_spread(darkness, lo, hi) if spread is None else spread
    marked = faint_marks & spread & (energy >= MARK_ENERGY_ALONE)
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
        glare = cells.washed_out is not None and bool(cells.washed_out[cell])
        questions.append(
            {
                "kind": "cell",
                "cells": [list(cell)],
                "message": f"is cell {list(cell)} filled? "
                + ("it looks empty but dark: a shadow, or light shading?" if shadowed
                   else "it looks empty, but glare washes out the picture there" if glare
                   else "the marks are not clear"),
            }
        )
    # the cells read filled for their colour alone were as unclear by their darkness and grain
    unclear = len(doubtful) + (0 if cells.coloured is None else int(cells.coloured.sum()))
    if unclear >= MANY_DOUBTFUL:
        # this many unclear cells say the sheet's own light and shading were misjudged (a
        # nearly full sheet in light pencil): a cell read empty is no surer than they are
        # (a light coloured fill paler still than those read by their colour, say); the cards
        # settle this question where they confirm the whole sheet
        read_empty = [[r, c] for r in range(N) for c in range(N) if cells.state[r, c] == 0]
        if read_empty:
            questions.append(
                {
                    "kind": "cell",
                    "cells": read_empty,
                    "message": f"{unclear} cells are unclear, so the empty ones may be "
                    "misread too: are these cells empty?",
                }
            )
    return questions


#: the confidence of a cell read filled for its colour alone that the tiles leave on its own
#: (see :func:`ask_lone_colour_fills`): below any doubtful threshold, so it is asked
LONE_COLOUR_FILL_CONFIDENCE = 0.45


def ask_lone_colour_fills(cells: CellsRead, shapes: tuple[tuple[Cell, ...], ...],
                          questions: list[dict[str, Any]]) -> CellsRead:
    """A cell read filled for its colour alone (``cells.coloured``) that the segmentation
    leaves a tile of its own is asked about (``questions`` extended in place; its confidence
    lowered). Its colour was taken for a fill because it runs on into a neighbour read filled
    (:func:`fills_across_tile`: one tool's fill across a tile), and the outlines then part it
    from every neighbour: an erased mistake or a tinted shadow beside a tile of its colour
    reads so as well as a one-square tile does (own renders with outlines left out, seeds
    0-59, and 5000-5029: the only two one-square tiles so read, pen 28 and 31, were empty
    squares, read filled with no question)."""
    if cells.coloured is None:
        return cells
    lone = [shape[0] for shape in shapes if len(shape) == 1 and cells.coloured[shape[0]]]
    if not lone:
        return cells
    confidence = cells.confidence.copy()
    for cell in lone:
        confidence[cell] = min(float(confidence[cell]), LONE_COLOUR_FILL_CONFIDENCE)
        questions.append({"kind": "cell", "cells": [list(cell)],
                          "message": f"is cell {list(cell)} filled? the marks are not clear"})
    return replace(cells, confidence=confidence)


def find_bonus(settings: SheetReaderSettings, cells: CellsRead, *, one_possible: bool = True
               ) -> tuple[Cell | None, list[Cell], list[dict[str, Any]]]:
    """(the bonus 1 or None, the cells that look like a 1, the questions about them).

    ``one_possible``: whether the player may have written the 1 (only a player who dropped
    out first writes one). Where none can be, a mark only a little like a 1 is asked about as
    before but stays the square of a tile it is read as meanwhile, never the 1 (the cards then
    settle it with that tile)."""
    f = cells.features
    # a light fill read filled for its colour alone is as doubtful a 1 as it was a square
    state = cells.state if cells.coloured is None else np.where(cells.coloured, -1,
                                                                  cells.state)
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
    if cells.clear_fills is not None:
        marked = marked | cells.clear_fills
    filled = {(r, c) for r in range(N) for c in range(N)
              if state[r, c] == 1
              or (state[r, c] == -1 and (score[r, c] >= DOUBTFUL_LEANS_FILLED
                                         or marked[r, c]))}
    if bonus is not None:
        filled.add(bonus)
    return filled
