"""Read a Second Chance sheet from a camera frame: filled cells, tiles, the bonus 1, questions.

Stages (each a small function over the canonical image of :mod:`vision.second_chance.geometry`):

1. :func:`~vision.second_chance.geometry.locate_grid`: markers, or the pad's frame; refuses a frame
   it cannot trust (exit 4); then :func:`check_sheet_picture` (the picture check of
   :mod:`vision.picture` on the sheet's outline: a noisy, dark, flat or blurred picture is
   refused, one near a limit lowers every confidence) and :func:`refuse_without_grid`;
2. grid lines found and the image rectified (lens, a bent sheet);
3. :func:`paper_model`: the paper's brightness under uneven light and shadows, from the margins
   and the bright parts of cells, so ink is measured against the paper it is on (a cell whose
   paper it cannot tell from a lighter shading is asked about if it reads empty);
4. :func:`cell_features`: per cell, the share of ink (dark, or coloured: coloured pencils that
   are light in grey still differ from the paper in colour) and how that ink is spread;
5. :func:`classify_cells`: empty, filled or doubtful; the bonus 1 is the filled cell whose ink
   is a narrow upright stroke;
6. :func:`border_light`, :func:`outline_scores`: between two filled neighbours, is there a
   drawn outline (a line darker than both sides all along the border) or a change of colour?
7. :func:`segment`: tiles are the groups of filled cells joined where there is no outline;
   a border that cannot be decided, or outlines that do not close, become questions; a small
   learned model of each border (:mod:`vision.second_chance.borders`, trained on rendered sheets)
   cuts outlines the score missed, joins undecided borders it is sure of, and leaves
   undecided a border the score decided against its lean;
8. ``check_sheet`` of the core reports the rules' side: empty count, start on the centre,
   canonical shapes, illegal shapes.

Nothing is guessed: every doubt is a question in the result. A wrong score applied without a
question is the worst failure there is.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from companion.second_chance import CENTRE
from companion.second_chance.deck import Deck
from companion.second_chance.drawn import TileChoices
from companion.second_chance.shapes import Cell, Shape
from companion.second_chance.sheet import SheetCheck, check_sheet
from config.schema import SheetReaderSettings
from vision.errors import FrameRefusedError
from vision.picture import check_picture, confidence_factor, measure_picture, region_mask
from vision.second_chance.borders import (
    FEATURES,
    SheetBorderLevels,
    border_features,
    load_border_model,
    load_side_model,
    side_features,
)
from vision.second_chance.by_cards import (
    CARDS_SURE,
    confirmed_by_cards,
    is_settled_by_cards,
    settle_asked_by_cards,
)
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
from vision.second_chance.geometry import (
    CANON_CELL,
    GridFit,
    line_evidence,
    locate_grid,
    rectify,
    refine_mesh,
    sheet_outline,
    warp_canon,
)
from vision.second_chance.layout import GRID_CELLS, SheetLayout
from vision.second_chance.outlines import (
    Segmentation,
    border_light_levels,
    outline_scores,
    outline_thresholds,
    printed_line_level,
    segment,
    unoutlined_tiles,
)
from vision.second_chance.profiles import border_profiles, profile_verdicts
from vision.second_chance.settings import DEFAULT_SETTINGS, picture_limits
from vision.second_chance.sides import SideCoverage, side_coverage

__all__ = [
    "BorderLook",
    "CellsRead",
    "SheetReading",
    "SidesLook",
    "ask_unoutlined",
    "cell_questions",
    "filled_cells",
    "light_fills",
    "find_bonus",
    "look_at_borders",
    "measure_borders",
    "name_tiles_in_cell_questions",
    "overall_confidence",
    "read_canonical",
    "read_cells",
    "read_sheet",
    "rectified",
    "segment_tiles",
    "stroked_alike",
    "take_in_shading",
]

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



#: from this many doubtful cells on, the cells read empty are asked about too
MANY_DOUBTFUL = 8
#: a cell whose darkness varies this much inside (its std) is hatched, not shaded solid
#: (solid pencil shading measures 0.03-0.07, hatching and cross-hatching 0.1-0.18)
HATCHED_TEXTURE = 0.1
#: the one mark looking a little like a 1 (asked about) is the bonus meanwhile from this share
#: of ``one_max_ink`` on: pen 1s that fail the stroke test have ink 0.22-0.34, the faint
#: traces and strokes of tiles that look a little like a 1, 0.02-0.06
HEAVY_ONE_INK = 0.3
#: a doubtful cell (asked about) counts as filled meanwhile from this fill score on, below the
#: middle of the doubtful band: doubtful cells are mostly light shading on nearly full sheets
#: (doubtful empty cells score up to about 0.76, doubtful filled ones below the middle from
#: about 0.85)
DOUBTFUL_LEANS_FILLED = 0.8
#: two cells are hatched alike along their border when their strokes' mean direction along it
#: (vision.second_chance.borders' strokes_along: 1 all along, -1 all across) is at least this,
#: and their directions differ (strokes_apart) by at most this (pencil hatching along the
#: border darkens the printed line like an outline: about 0.94 and 0.02)
HATCH_ALONG = 0.8
HATCH_ALIKE = 0.2
#: the percentiles of the light along a border: the light through it, and its low end (how
#: evenly dark the border is)
THROUGH_PERCENTILE = 70.0
LOW_PERCENTILE = 30.0
#: the light beside a border is never taken below this (a ratio's denominator)
MIN_BESIDE = 1e-3
#: the confidence of a sheet read with any question
ASKED_CONFIDENCE = 0.5


@dataclass(frozen=True)
class BorderLook:
    """What the reader makes of the borders between filled cells (see
    :func:`look_at_borders`)."""

    thresholds: tuple[float, float]  # (cut, join) outline scores of this sheet
    calibrated: bool  # the sheet's outlines stand out from its insides (two groups)
    verdicts: dict[tuple[Cell, Cell], bool]  # the profile's say on undecided borders
    levels: SheetBorderLevels
    borders: list[tuple[Cell, Cell]]
    features: np.ndarray  # a row of vision.second_chance.borders.FEATURES per border
    probability: dict[tuple[Cell, Cell], float]  # the learned chance of an outline
    extra_probability: dict[tuple[Cell, Cell], float]  # ... on the extra borders asked for


def look_at_borders(tiles: set[Cell], measured: SheetBorderLevels,
                    settings: SheetReaderSettings,
                    extra: list[tuple[Cell, Cell]] | None = None) -> BorderLook:
    """Score, profile and the learned model on every border between two of ``tiles``, and
    on the ``extra`` borders (a cell beside a tile, taken as filled: measured against the
    same sheet, left out of its thresholds)."""
    right, below = measured.right, measured.below
    scores: dict[tuple[Cell, Cell], float] = {}
    for r, c in tiles:
        if (r, c + 1) in tiles:
            scores[((r, c), (r, c + 1))] = float(right[r, c])
        if (r + 1, c) in tiles:
            scores[((r, c), (r + 1, c))] = float(below[r, c])
    thresholds = outline_thresholds(np.asarray(list(scores.values())), settings)
    # the rules may settle an undecided border only on a sheet whose outlines stand out from
    # the rest (two clear groups): where none are drawn, a legal split is still a guess
    calibrated = thresholds != (settings.cut, settings.join)
    verdicts = {}
    cut_at, join_at = thresholds
    profile_r, profile_b = measured.profile_right, measured.profile_below
    if calibrated and any(join_at < s <= cut_at for s in scores.values()):
        # a second look at the undecided borders: their profile against the sheet's own
        # sure insides and sure outlines (soft pencil outlines over dark shading)
        profiles = {(a, b): profile_r[a] if a[0] == b[0] else profile_b[a] for a, b in scores}
        verdicts = profile_verdicts(profiles, scores, thresholds)
        # between two hatched cells a stroke of the hatching along the printed line has the
        # profile of an outline (cross-hatching): the profile cuts nothing there
        texture = measured.texture
        verdicts = {border: cut for border, cut in verdicts.items()
                    if not (cut and min(texture[border[0]], texture[border[1]])
                            >= HATCHED_TEXTURE)}
    # the learned look at every border (see vision.second_chance.borders)
    borders = sorted(scores)
    levels = replace(measured, thresholds=thresholds, calibrated=calibrated)
    extra = list(extra or [])
    features = border_features(borders + extra, levels)
    model = load_border_model()
    chances = (model.probabilities(features).tolist() if model is not None
               else [0.5] * len(features))
    return BorderLook(thresholds, calibrated, verdicts, levels, borders,
                      features[:len(borders)],
                      dict(zip(borders, chances[:len(borders)], strict=True))
                      if model is not None else {},
                      dict(zip(extra, chances[len(borders):], strict=True)))


def _borders_beside(cells: list[Cell], tiles: set[Cell]) -> list[tuple[Cell, Cell]]:
    """The borders between each of ``cells`` and the tile cells beside it."""
    return [(min(cell, other), max(cell, other)) for cell in cells
            for other in ((cell[0], cell[1] + 1), (cell[0] + 1, cell[1]),
                          (cell[0], cell[1] - 1), (cell[0] - 1, cell[1]))
            if other in tiles]


def _inside_a_tile(cells: list[Cell], look: BorderLook, tiles: set[Cell]) -> set[Cell]:
    """The ``cells`` (doubtful, read empty) beside a tile with surely no outline between, where
    the tile's own outline would run if the cell were outside it: shading of that tile (a
    light coloured pencil)."""
    model = load_border_model()
    if model is None:
        return set()
    return {cell for cell in cells
            if any(look.extra_probability[border] <= model.join_below
                   for border in _borders_beside([cell], tiles))}


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


def rectified(canon: np.ndarray) -> np.ndarray:
    """The canonical image with the grid lines found and straightened (lens, a bent sheet),
    in colour."""
    gray = canon.mean(axis=2).astype(np.float32) if canon.ndim == 3 else canon.astype(np.float32)
    mesh = refine_mesh(gray)
    canon = rectify(canon, mesh)
    if canon.ndim == 2:
        canon = cv2.cvtColor(canon, cv2.COLOR_GRAY2BGR)
    return canon


def read_cells(settings: SheetReaderSettings, canon: np.ndarray) -> CellsRead:
    """Stages 3-5: the paper under the light, each cell's ink, and each cell classified."""
    gray = cv2.cvtColor(canon, cv2.COLOR_BGR2GRAY).astype(np.float32)
    paper, unsure_paper = paper_and_unsure(gray, colour=canon)
    cast = paper_cast(canon, paper)
    ink, darkness, norm, chroma_map = ink_maps(crop_grid(canon), crop_grid(paper), cast,
                                               settings)
    f = cell_features(ink, darkness, norm, chroma_map, settings)
    state, confidence, ones = classify_cells(f, settings, unsure_paper)
    # an even fill that looks like the empty paper beside it is asked about; so is a cell
    # read empty with strokes in it that run one way (a light fill: any deliberate mark)
    lo = int(round(CANON_CELL * settings.inset))
    faint_marks = stroke_marks(darkness.astype(np.float32), lo, CANON_CELL - lo, state == 0)
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


def find_bonus(settings: SheetReaderSettings, cells: CellsRead
               ) -> tuple[Cell | None, list[Cell], list[dict[str, Any]]]:
    """(the bonus 1 or None, the cells that look like a 1, the questions about them)."""
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
        if (len(weak) == 1 and state[weak[0]] == 1
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


def measure_borders(settings: SheetReaderSettings, cells: CellsRead) -> SheetBorderLevels:
    """Stage 6: the light through and beside every border, the printed line's level, and each
    border's outline score and profile."""
    (levels_r, beside_r), (levels_b, beside_b) = border_light_levels(
        cells.darkness, percentiles=(THROUGH_PERCENTILE, LOW_PERCENTILE))
    (through_r, low_r), (through_b, low_b) = levels_r, levels_b
    ratio_r = through_r / np.maximum(beside_r, MIN_BESIDE)
    ratio_b = through_b / np.maximum(beside_b, MIN_BESIDE)
    printed = printed_line_level(ratio_r, ratio_b, cells.state == 1, settings)
    right = outline_scores(through_r, beside_r, printed, settings)
    below = outline_scores(through_b, beside_b, printed, settings)
    f = cells.features
    return SheetBorderLevels(
        right, below, through_r, through_b, low_r, low_b, beside_r, beside_b,
        *border_profiles(cells.darkness), printed, (settings.cut, settings.join), False,
        f.colour, f.darkness, f.texture, f.strokes)


def take_in_shading(settings: SheetReaderSettings, measured: SheetBorderLevels,
                    doubtful: list[Cell], filled: set[Cell], tiles: set[Cell]) -> BorderLook:
    """The look at the borders between ``tiles``; a doubtful cell read empty that no outline
    parts from a tile beside it is shading of that tile (a light coloured pencil): it joins
    ``filled`` and ``tiles`` (in place) meanwhile, and is still asked about."""
    leaning_empty = [cell for cell in doubtful if cell not in filled]
    look = look_at_borders(tiles, measured, settings, _borders_beside(leaning_empty, tiles))
    inside = _inside_a_tile(leaning_empty, look, tiles)
    if inside:
        filled |= inside
        tiles |= inside
        look = look_at_borders(tiles, measured, settings)
    return look


def segment_tiles(settings: SheetReaderSettings, tiles: set[Cell], look: BorderLook,
                  colour: np.ndarray, sides: SideCoverage | None = None,
                  choices: TileChoices | None = None) -> Segmentation:
    """Stage 7: the tiles, from the look at their borders (see :func:`segment`), how much
    of each a drawn stroke follows (``sides``) and the cards the player drew (``choices``)."""
    model = load_border_model()
    along = look.features[:, FEATURES.index("strokes_along")]
    apart = look.features[:, FEATURES.index("strokes_apart")]
    hatched_along = {border for border, a, b in zip(look.borders, along, apart, strict=True)
                     if a >= HATCH_ALONG and b <= HATCH_ALIKE}
    levels = look.levels
    return segment(tiles, levels.right, levels.below, colour, settings,
                   thresholds=look.thresholds,
                   settle_by_rules=look.calibrated, profile_verdicts=look.verdicts,
                   border_probability=look.probability,
                   sure_probability=((model.cut_above, model.join_below) if model is not None
                                     else (1.0, 0.0)),
                   hatched_along=hatched_along,
                   coverage=({border: sides.of(*border) for border in look.borders}
                             if sides is not None else None),
                   grid_hatched=hatched_with_the_grid(look.borders, look.levels.strokes),
                   stroked=stroked_alike(look.borders, look.levels.texture),
                   choices=choices)


#: two cells are hatched along the grid's directions when the mean of their strokes' cos 4a
#: (see vision.second_chance.cells.stroke_directions: 1 for strokes along the grid lines, -1
#: for diagonal ones) is at least this
GRID_HATCH = 0.4


def hatched_with_the_grid(borders: list[tuple[Cell, Cell]], strokes: np.ndarray | None
                          ) -> set[tuple[Cell, Cell]]:
    """The borders between two cells whose strokes run along the grid's lines (hatching or
    cross-hatching at 0 and 90 degrees): some of those strokes lie on the printed line."""
    if strokes is None:
        return set()
    return {(a, b) for a, b in borders
            if (strokes[a][2] + strokes[b][2]) / 2 >= GRID_HATCH}


def stroked_alike(borders: list[tuple[Cell, Cell]], texture: np.ndarray
                  ) -> set[tuple[Cell, Cell]]:
    """The borders between two cells filled with strokes and paper between them (hatching,
    scribbled loops: both at least :data:`HATCHED_TEXTURE`): whatever their direction, some of
    a tile's strokes cross the printed line or follow it a while (the bottoms of a row of
    loops lie along it), and darken it like an outline."""
    return {(a, b) for a, b in borders
            if min(texture[a], texture[b]) >= HATCHED_TEXTURE}


@dataclass(frozen=True)
class SidesLook:
    """The learned look at the sides of tiles on empty cells (see :func:`ask_unoutlined`)."""

    sides: list[tuple[Cell, Cell]]  # (tile cell, empty cell)
    features: np.ndarray  # a row of vision.second_chance.borders.SIDE_FEATURES per side
    drawn: dict[tuple[Cell, Cell], float]  # the learned chance the outline is drawn there


def ask_unoutlined(seg: Segmentation, levels: SheetBorderLevels, filled: set[Cell],
                   tiles: set[Cell]) -> tuple[Segmentation, SidesLook]:
    """Where the player drew no outline, the joins are no evidence: those tiles are asked
    about (see :func:`unoutlined_tiles`)."""
    empty = {(r, c) for r in range(N) for c in range(N) if (r, c) not in filled}
    sides = [(cell, (cell[0] + dr, cell[1] + dc)) for cell in sorted(tiles)
             for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
             if (cell[0] + dr, cell[1] + dc) in empty]
    empty_borders = [(a, (a[0] + dr, a[1] + dc)) for a in sorted(empty)
                     for dr, dc in ((0, 1), (1, 0)) if (a[0] + dr, a[1] + dc) in empty]
    side_rows = side_features(sides, empty_borders, levels)
    side_model = load_side_model()
    side_drawn = (dict(zip(sides, side_model.probabilities(side_rows).tolist(), strict=True))
                  if side_model is not None else {})
    seg = unoutlined_tiles(seg, levels.through_right, levels.through_below, levels.printed,
                           empty, side_drawn=side_drawn,
                           surely_drawn=side_model.cut_above if side_model is not None
                           else 1.0,
                           surely_bare=side_model.join_below if side_model is not None
                           else 0.0)
    return seg, SidesLook(sides, side_rows, side_drawn)


def name_tiles_in_cell_questions(questions: list[dict[str, Any]],
                                 shapes: tuple[tuple[Cell, ...], ...]) -> None:
    """A doubtful cell, or one that may be the bonus 1, changes the tiles around it (a cell of
    a tile read as the 1 cuts its tile short): they become part of its question (in place)."""
    for q in questions:
        if q["kind"] not in ("cell", "bonus"):
            continue
        # a cell question names its one cell first (then, on a sheet of many doubts, every
        # cell read empty: those are asked about themselves, not their neighbours)
        asked = q["cells"] if q["kind"] == "bonus" else q["cells"][:1]
        near = {(r + dr, c + dc) for r, c in asked
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))}
        for shape in shapes:
            if near & set(shape):
                q["cells"].extend(list(x) for x in shape if list(x) not in q["cells"])


def overall_confidence(confidence: np.ndarray, seg: Segmentation,
                       questions: list[dict[str, Any]]) -> float:
    """The least sure cell, or the least sure outline the drawing (or the colour) decided;
    the rules' settlements and the asked borders are covered by the questions."""
    overall = float(confidence.min())
    drawn = [sure for _, sure, by in seg.outlines.values()
             if by in ("drawing", "colour", "profile", "model", "sides")]
    if drawn:
        overall = min(overall, min(drawn))
    if questions:
        overall = min(overall, ASKED_CONFIDENCE)
    return overall


#: a cell read filled is read clearly from this confidence on (the middle of a sure read's
#: range, 0.5..1): a grid read full is a win, reported only from cells read this clearly
CLEAR_CELL = 0.75


def full_grid_questions(cells: CellsRead, filled: set[Cell]) -> list[dict[str, Any]]:
    """A full grid ends the game: read full with any cell less than clear (noise on bare
    paper looks like shading), the players are asked whether the sheet is really full."""
    if len(filled) < N * N:
        return []
    unclear = [[r, c] for r in range(N) for c in range(N)
               if cells.state[r, c] != 1 or cells.confidence[r, c] < CLEAR_CELL]
    if not unclear:
        return []
    return [{"kind": "full", "cells": unclear,
             "message": f"every cell reads filled, {len(unclear)} of them not clearly: "
             "is the sheet really full?"}]


def read_canonical(
    canon: np.ndarray,
    *,
    settings: SheetReaderSettings = DEFAULT_SETTINGS,
    method: str = "canonical",
    started: float | None = None,
    orientation_confidence: float = 1.0,
    deck: Deck | None = None,
    confidence_scale: float = 1.0,
    choices: TileChoices | None = None,
    one_possible: bool = True,
) -> SheetReading:
    """Read a canonical (already located) sheet image. Every confidence is multiplied by
    ``confidence_scale`` (the picture check's :func:`~vision.picture.confidence_factor`), so
    cells of a picture near its limits are doubtful sooner. ``choices``: the cards the player
    drew (:func:`companion.second_chance.drawn.tile_choices`), which settle outlines the
    drawing leaves open and confirm the squares' reads; ``one_possible``: whether the player
    may have written the bonus 1 (:func:`companion.second_chance.drawn.may_have_the_one`).
    """
    started = time.perf_counter() if started is None else started
    canon = rectified(canon)
    cells = read_cells(settings, canon)
    cells = replace(cells, confidence=cells.confidence * confidence_scale)
    questions = cell_questions(settings, cells)
    bonus, ones, bonus_questions = find_bonus(settings, cells)
    questions.extend(bonus_questions)
    filled = filled_cells(cells, bonus)
    tiles = filled - ({bonus} if bonus else set())
    measured = measure_borders(settings, cells)
    look = take_in_shading(settings, measured, cells.doubtful, filled, tiles)
    empty = np.array([[(r, c) not in filled for c in range(N)] for r in range(N)])
    seg = segment_tiles(settings, tiles, look, cells.features.colour,
                        side_coverage(cells.darkness, empty), choices)
    seg, sides = ask_unoutlined(seg, look.levels, filled, tiles)
    if choices is not None:
        seg = settle_asked_by_cards(seg, choices)
    confirmed = confirmed_by_cards(seg.shapes, not seg.questions, bonus, choices, N,
                                   one_possible=one_possible)
    if bonus is not None and choices is not None and not one_possible:
        questions.append({"kind": "bonus", "cells": [list(bonus)],
                          "message": "this looks like a handwritten 1, but only a player who "
                          "dropped out writes one: is it a 1?"})
    if confirmed:
        questions = [q for q in questions if not is_settled_by_cards(
            q, confirmed, seg.shapes, bonus, one_possible=one_possible)]
        sure = np.array([[(r, c) in confirmed for c in range(N)] for r in range(N)])
        cells = replace(cells, confidence=np.where(sure, np.maximum(cells.confidence,
                                                                    CARDS_SURE),
                                                   cells.confidence))
    questions.extend(seg.questions)
    name_tiles_in_cell_questions(questions, seg.shapes)
    if orientation_confidence < settings.min_orientation:
        questions.append(
            {
                "kind": "orientation",
                "cells": [],
                "message": "which side of the sheet is up? the title is not clear",
            }
        )
    check = check_sheet(sorted(filled), shapes=list(seg.shapes), bonus=bonus, deck=deck)
    questions.extend(full_grid_questions(cells, filled))
    rows = tuple(
        "".join("1" if (r, c) == bonus else "#" if (r, c) in filled else "." for c in range(N))
        for r in range(N)
    )
    doubtful_all = sorted(
        {(r, c) for r in range(N) for c in range(N)
         if cells.confidence[r, c] < settings.doubtful_below}
        | {tuple(x) for q in questions for x in q["cells"]}
        | ({CENTRE} if not check.start_covers_centre else set())
    )
    confidence = overall_confidence(cells.confidence, seg, questions) * (
        1.0 if check.start_covers_centre else ASKED_CONFIDENCE)
    return SheetReading(
        grid_rows=rows,
        shapes=seg.shapes,
        bonus=bonus,
        check=check,
        questions=tuple(questions),
        doubtful=tuple(doubtful_all),
        confidence=confidence,
        cell_confidence=cells.confidence,
        method=method,
        seconds=time.perf_counter() - started,
        outlines={border: (outline, sure * confidence_scale, by)
                  for border, (outline, sure, by) in seg.outlines.items()},
        debug=_debug(canon, cells, ones, look, sides),
    )


def _debug(canon: np.ndarray, cells: CellsRead, ones: list[Cell], look: BorderLook,
           sides: SidesLook) -> dict[str, Any]:
    """The intermediate measures of a read, for ``SheetReading.debug`` (the bench, tests)."""
    f, levels = cells.features, look.levels
    return {
        "ink": f.score,
        "right": levels.right,
        "below": levels.below,
        "printed": levels.printed,
        "thresholds": look.thresholds,
        "spread_x": f.spread_x,
        "spread_y": f.spread_y,
        "canon": canon,
        "ones": ones, "colour": f.colour, "texture": f.texture, "darkness": f.darkness,
        "darkness_map": cells.darkness,
        "border_features": dict(zip(look.borders, look.features, strict=True)),
        "border_probability": look.probability,
        "side_features": dict(zip(sides.sides, sides.features, strict=True)),
        "side_drawn": sides.drawn,
    }


def read_sheet(
    image: np.ndarray,
    *,
    settings: SheetReaderSettings = DEFAULT_SETTINGS,
    layout: SheetLayout | None = None,
    deck: Deck | None = None,
    choices: TileChoices | None = None,
    one_possible: bool = True,
) -> SheetReading:
    """Read a camera frame of a sheet. Raises FrameRefusedError (exit 4) when the grid cannot
    be found or trusted. ``choices``: the cards the player drew, one entry a tile (see
    :func:`companion.second_chance.drawn.tile_choices`); the app knows them from the game's
    events, and whether the player may have written the 1 (``one_possible``)."""
    started = time.perf_counter()
    image = within_reading_size(image)
    fit: GridFit = locate_grid(image, layout)
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    quality = check_sheet_picture(image, fit, settings, layout)
    canon = warp_canon(image, fit.image_to_canon)
    refuse_without_grid(canon, fit)
    return read_canonical(
        canon,
        settings=settings,
        method=fit.method,
        started=started,
        orientation_confidence=fit.orientation_confidence,
        deck=deck,
        confidence_scale=confidence_factor(quality),
        choices=choices,
        one_possible=one_possible,
    )


#: a frame whose longer side is larger than this (pixels) is read shrunk to it: a flat 300 dpi
#: scan of an A4 page carries some four times the detail the canonical grid keeps (CANON_CELL
#: pixels a cell), and the marker search and the picture check cost grows with every pixel.
#: The Pi camera's stills (2304 wide) are read as they are: the picture check's noise and
#: focus limits are set on them
MAX_FRAME_SIDE = 2400


def within_reading_size(image: np.ndarray) -> np.ndarray:
    """``image``, shrunk (by area) when its longer side is over :data:`MAX_FRAME_SIDE`."""
    side = max(image.shape[:2])
    if side <= MAX_FRAME_SIDE:
        return image
    scale = MAX_FRAME_SIDE / side
    shrunk: np.ndarray = cv2.resize(image, None, fx=scale, fy=scale,
                                    interpolation=cv2.INTER_AREA)
    return shrunk


def check_sheet_picture(image: np.ndarray, fit: GridFit, settings: SheetReaderSettings,
                        layout: SheetLayout | None = None) -> float:
    """The picture check of :mod:`vision.picture` on the sheet's outline in the frame: refuses
    a frame that carries too little of the sheet (sensor noise makes bare paper look shaded,
    so a noisy frame would read filled everywhere); else the picture's quality.

    The reader tells marks from paper by darkness and grain, colour only helps it part tiles,
    so a picture without colour is not refused. The sheet is white paper: burnt-out paper
    is no loss, so the burnt-out share allowed is the sheet's own (``[vision.sheet]
    max_clipped``)."""
    mask = region_mask(image.shape, sheet_outline(fit, layout))
    return check_picture(measure_picture(image, mask), picture_limits(settings),
                         needs_colour=False)


#: the grid lines must be at least this much darker than the cells' middles (of the paper's
#: light; see geometry.line_evidence): what the pad's frame is found with
MIN_LINE_EVIDENCE = 0.08


def refuse_without_grid(canon: np.ndarray, fit: GridFit) -> None:
    """The app's sheet is found by its markers alone: with no grid seen between them (the
    markers printed or cut out on their own, a sheet held off the page) there is nothing to
    read, and reading it would give an empty sheet for sure. Refused."""
    if fit.method != "markers":
        return  # a pad is found by its grid: it was seen
    gray = cv2.cvtColor(canon, cv2.COLOR_BGR2GRAY) if canon.ndim == 3 else canon
    if line_evidence(gray) < MIN_LINE_EVIDENCE:
        raise FrameRefusedError(
            "the sheet's markers are in view but no grid between them: show the whole "
            "printed sheet, flat", reason="no-grid")
