"""Read a Second Chance sheet from a camera frame: filled cells, tiles, the bonus 1, questions.

Stages (each a small function over the canonical image of :mod:`vision.second_chance.geometry`):

1. :func:`~vision.second_chance.geometry.locate_grid`: markers, or the pad's frame; refuses a frame
   it cannot trust (exit 4); then :func:`check_sheet_picture` (the picture check of
   :mod:`vision.picture` on the sheet's outline: a noisy, dark, flat or blurred picture is
   refused, one near a limit lowers every confidence) and :func:`refuse_without_grid`;
2. grid lines found and the image rectified (lens, a bent sheet);
3-5. :mod:`~vision.second_chance.cell_reading`, on the measures of
   :mod:`~vision.second_chance.cells`: the paper's brightness under uneven light and shadows
   (from the margins and the bright parts of cells, following a soft shadow), so ink is
   measured against the paper it is on (a cell whose paper it cannot tell from a lighter
   shading is asked about if it reads empty); per cell, the share of ink (dark, or coloured:
   coloured pencils that are light in grey still differ from the paper in colour) and how that
   ink is spread; each cell empty, filled or doubtful; the bonus 1 is the filled cell whose ink
   is a narrow upright stroke;
6. :mod:`~vision.second_chance.border_look`, on the measures of
   :mod:`~vision.second_chance.border_light`: between two filled neighbours, is there a drawn
   outline (a line darker than both sides all along the border) or a change of colour?
7. :func:`~vision.second_chance.outlines.segment`: tiles are the groups of filled cells joined
   where there is no outline (each border decided in
   :mod:`~vision.second_chance.border_decisions`, tiles drawn without an outline asked about in
   :mod:`~vision.second_chance.unoutlined`); a border that cannot be decided, or outlines that
   do not close, become questions; a small learned model of each border
   (:mod:`vision.second_chance.borders`, trained on rendered sheets) cuts outlines the score
   missed, joins undecided borders it is sure of, and leaves undecided a border the score
   decided against its lean;
8. ``check_sheet`` of the core reports the rules' side: empty count, start on the centre,
   canonical shapes, illegal shapes.

Nothing is guessed: every doubt is a question in the result. A wrong score applied without a
question is the worst failure there is.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import cv2
import numpy as np

from companion.second_chance import CENTRE
from companion.second_chance.deck import Deck
from companion.second_chance.drawn import TileChoices
from companion.second_chance.shapes import Cell
from companion.second_chance.sheet import check_sheet
from config.schema import SheetReaderSettings
from vision.errors import FrameRefusedError
from vision.picture import (
    check_picture,
    confidence_factor,
    measure_inside,
    measure_picture,
    region_mask,
)
from vision.second_chance.border_look import (
    BorderLook,
    SidesLook,
    ask_unoutlined,
    has_cuts_short_of_certain,
    measure_borders,
    segment_tiles,
    stroked_cells,
    surely_inside,
    take_in_shading,
)
from vision.second_chance.by_cards import (
    CARDS_SURE,
    confirmed_by_cards,
    empty_beside,
    is_settled_by_cards,
    joins_left_to_the_cards,
    one_left_to_no_tile,
    settle_asked_by_cards,
    tiles_beyond_the_cards,
    without_the_one,
)
from vision.second_chance.cell_reading import (
    CellsRead,
    ask_lone_colour_fills,
    cell_questions,
    filled_cells,
    find_bonus,
    read_cells,
)
from vision.second_chance.fill_by_cards import settle_doubtful_by_cards
from vision.second_chance.geometry import (
    GridFit,
    line_evidence,
    locate_grid,
    rectify,
    refine_mesh,
    sheet_outline,
    warp_canon,
)
from vision.second_chance.layout import GRID_CELLS, SheetLayout
from vision.second_chance.outlines import Segmentation
from vision.second_chance.settings import DEFAULT_SETTINGS, picture_limits
from vision.second_chance.sheet_reading import SheetReading
from vision.second_chance.sides import side_coverage
from vision.second_chance.washed_out import ask_washed_out

__all__ = [
    "full_grid_questions",
    "name_tiles_in_cell_questions",
    "one_settled_for_cards",
    "overall_confidence",
    "read_canonical",
    "read_sheet",
    "rectified",
    "squares_by_cards",
]

N = GRID_CELLS


#: the confidence of a sheet read with any question
ASKED_CONFIDENCE = 0.5


def rectified(canon: np.ndarray) -> np.ndarray:
    """The canonical image with the grid lines found and straightened (lens, a bent sheet),
    in colour."""
    gray = _channel_mean(canon) if canon.ndim == 3 else canon.astype(np.float32)
    mesh = refine_mesh(gray)
    canon = rectify(canon, mesh)
    if canon.ndim == 2:
        canon = cv2.cvtColor(canon, cv2.COLOR_GRAY2BGR)
    return canon


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


def _channel_mean(image: np.ndarray) -> np.ndarray:
    """The mean of a uint8 image's channels, as float32: what ``image.mean(axis=2)`` gives
    (the channels' sum is an exact integer either way, divided in float64), in a fifth of its
    time (numpy's mean over a short last axis is slow, 5 ms a read)."""
    if image.dtype != np.uint8:
        return image.mean(axis=2).astype(np.float32)  # type: ignore[no-any-return]
    total = image[..., 0].astype(np.uint16)
    for channel in range(1, image.shape[2]):
        total += image[..., channel]
    mean: np.ndarray = (total / image.shape[2]).astype(np.float32)
    return mean


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
    # the borders' light depends on the cells read filled alone, which the glare's doubtful
    # cells (read empty) leave as they are
    measured = measure_borders(settings, cells)
    cells = ask_washed_out(cells, measured)
    cells = replace(cells, confidence=cells.confidence * confidence_scale)
    questions = cell_questions(settings, cells)
    bonus, ones, bonus_questions = find_bonus(settings, cells, one_possible=one_possible)
    questions.extend(bonus_questions)
    filled = filled_cells(cells, bonus)
    tiles = filled - ({bonus} if bonus else set())
    look = take_in_shading(settings, measured, cells.doubtful, filled, tiles)
    empty = np.array([[(r, c) not in filled for c in range(N)] for r in range(N)])
    coverage = side_coverage(cells.darkness, empty, surely_inside(look),
                             over_fill=choices is None or has_cuts_short_of_certain(look),
                             stroked=stroked_cells(look.levels.texture))
    seg = segment_tiles(settings, tiles, look, cells.features.colour, coverage, choices)
    # (the sides of a tile on empty cells are the same in both: the cuts' coverage)
    seg, sides = ask_unoutlined(seg, look.levels, filled, tiles,
                                coverage.by_border(for_cuts=True))
    cells = ask_lone_colour_fills(cells, seg.shapes, questions)
    one_by_cards = False
    if choices is not None:
        seg, cells, questions, bonus, filled, one_by_cards = _read_with_the_cards(
            seg, cells, questions, bonus, filled, bonus_questions, choices,
            one_possible=one_possible)
    cells, questions = _confirmed_by_the_cards(seg, cells, questions, bonus, choices,
                                               one_by_cards, one_possible=one_possible)
    questions.extend(seg.questions)
    unclear_top = orientation_confidence < settings.min_orientation
    questions.extend(_sheet_wide_questions(seg, choices, unclear_top, filled))
    name_tiles_in_cell_questions(questions, seg.shapes)
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


def _read_with_the_cards(
    seg: Segmentation, cells: CellsRead, questions: list[dict[str, Any]], bonus: Cell | None,
    filled: set[Cell], bonus_questions: list[dict[str, Any]], choices: TileChoices, *,
    one_possible: bool,
) -> tuple[Segmentation, CellsRead, list[dict[str, Any]], Cell | None, set[Cell], bool]:
    """What the cards drawn settle of what the drawing left open: a light 1 read as a tile
    no card allows, the splits asked, then the doubtful squares. Returns the segmentation,
    cells, questions, bonus 1 and filled squares as read with the cards, and whether the
    cards placed the 1."""
    one_by_cards = False
    if bonus is None and one_possible:
        # a light 1 read as a tile of one square no card allows: the 1 meanwhile, and
        # still asked (the cards settle where it is, not that the mark is a 1)
        marks = [(r, c) for q in bonus_questions for r, c in q["cells"]]
        bonus = one_left_to_no_tile(seg.shapes, marks, choices)
        if bonus is not None:
            seg, one_by_cards = without_the_one(seg, bonus), True
    seg = settle_asked_by_cards(seg, choices)
    if one_settled_for_cards(bonus, bonus_questions, one_possible=one_possible):
        seg, cells, questions = squares_by_cards(seg, cells, questions, choices, bonus)
        # a split asked elsewhere on the sheet is searched again with those squares read:
        # a doubtful square read as a tile of its own (or none) had left the cards no way
        seg = settle_asked_by_cards(seg, choices)
        filled = {cell for shape in seg.shapes for cell in shape} | (
            {bonus} if bonus else set())
    return seg, cells, questions, bonus, filled, one_by_cards


def _confirmed_by_the_cards(
    seg: Segmentation, cells: CellsRead, questions: list[dict[str, Any]], bonus: Cell | None,
    choices: TileChoices | None, one_by_cards: bool, *, one_possible: bool,
) -> tuple[CellsRead, list[dict[str, Any]]]:
    """The squares the cards confirm are sure and their questions dropped; a 1 where none
    can be is asked, and the joins the cards leave open."""
    confirmed = confirmed_by_cards(seg.shapes, not seg.questions, bonus, choices, N,
                                   one_possible=one_possible)
    if bonus is not None and choices is not None and not one_possible:
        questions.append({"kind": "bonus", "cells": [list(bonus)],
                          "message": "this looks like a handwritten 1, but only a player who "
                          "dropped out writes one: is it a 1?"})
    if confirmed:
        questions = [q for q in questions if (q["kind"] == "bonus" and one_by_cards)
                     or not is_settled_by_cards(q, confirmed, seg.shapes, bonus,
                                                one_possible=one_possible)]
        sure = np.array([[(r, c) in confirmed for c in range(N)] for r in range(N)])
        cells = replace(cells, confidence=np.where(sure, np.maximum(cells.confidence,
                                                                    CARDS_SURE),
                                                   cells.confidence))
    questions.extend(joins_left_to_the_cards(seg, confirmed))
    return cells, questions


def _sheet_wide_questions(seg: Segmentation, choices: TileChoices | None,
                          orientation_unclear: bool, filled: set[Cell]
                          ) -> list[dict[str, Any]]:
    """Tiles the cards drawn cannot all be (and the squares read empty beside them: one may
    be a square of theirs missed), and a sheet whose top is unclear."""
    questions: list[dict[str, Any]] = []
    beyond = tiles_beyond_the_cards(seg.shapes, choices) if choices is not None else set()
    if beyond:
        questions.append({"kind": "split", "cells": [list(c) for c in sorted(beyond)],
                          "message": "these tiles cannot all be the cards drawn, one a round: "
                          "where are the outlines?"})
        missed = empty_beside(beyond, filled, N)
        if missed:
            questions.append({"kind": "cell", "cells": [list(c) for c in missed],
                              "message": "the tiles beside these cells cannot all be the "
                              "cards drawn: are these cells empty?"})
    if orientation_unclear:
        questions.append({"kind": "orientation", "cells": [],
                          "message": "which side of the sheet is up? the title is not clear"})
    return questions


def one_settled_for_cards(bonus: Cell | None, bonus_questions: list[dict[str, Any]], *,
                          one_possible: bool) -> bool:
    """Whether the bonus 1 is settled enough for the cards to read the doubtful squares: read
    where the player may have written one (asked only, if at all, whether that mark is it),
    or none read where none can be (a mark asked about as a 1 is then a tile's, or nothing).
    A 1 possible and none read: a doubtful square left empty could be a faint 1."""
    asked = {(r, c) for q in bonus_questions for r, c in q["cells"]}
    if one_possible:
        return bonus is not None and asked <= {bonus}
    return bonus is None


def squares_by_cards(seg: Segmentation, cells: CellsRead, questions: list[dict[str, Any]],
                     choices: TileChoices, bonus: Cell | None
                     ) -> tuple[Segmentation, CellsRead, list[dict[str, Any]]]:
    """The doubtful squares the cards settle (see
    :func:`~vision.second_chance.fill_by_cards.settle_doubtful_by_cards`): read as the cards
    say, sure as the cards are, their questions gone; called when
    :func:`one_settled_for_cards`."""
    # a clear light fill is searched as the filled square of its tile it is (the search is
    # smaller); its question stays until the cards confirm the whole sheet
    clear = set() if cells.clear_fills is None else {
        (int(r), int(c)) for r, c in zip(*np.nonzero(cells.clear_fills), strict=True)}
    doubtful = set(cells.doubtful) - ({bonus} if bonus else set()) - clear
    if not doubtful:
        return seg, cells, questions
    seg, settled = settle_doubtful_by_cards(seg, doubtful, choices)
    if not settled:
        return seg, cells, questions
    in_tiles = {cell for shape in seg.shapes for cell in shape}
    state, confidence = cells.state.copy(), cells.confidence.copy()
    for cell in settled:
        state[cell] = 1 if cell in in_tiles else 0
        confidence[cell] = max(confidence[cell], CARDS_SURE)
    questions = [q for q in questions if q["kind"] != "cell"
                 or not {(r, c) for r, c in q["cells"]} <= settled]
    return seg, replace(cells, state=state, confidence=confidence), questions


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
    # the frame made grey once: the markers or the pad's frame are found in it, and the
    # picture check measures it (a colour pixel's grey is the same in the whole or a part)
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    fit: GridFit = locate_grid(gray, layout)
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    quality = check_sheet_picture(image, fit, settings, layout, gray=gray)
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


#: ... by bilinear interpolation from this scale up, by area below it: near 1 the two give
#: nearly the same picture (each pixel kept is a mean of the 2x2 around it, every pixel of
#: the frame counts), and OpenCV's area resize at a fractional scale is its slow path (46 ms
#: for a 2548 x 1816 scan, 8 ms bilinear); further down only the area keeps every pixel
LINEAR_SHRINK = 0.75


def within_reading_size(image: np.ndarray) -> np.ndarray:
    """``image``, shrunk when its longer side is over :data:`MAX_FRAME_SIDE`."""
    side = max(image.shape[:2])
    if side <= MAX_FRAME_SIDE:
        return image
    scale = MAX_FRAME_SIDE / side
    how = cv2.INTER_LINEAR if scale >= LINEAR_SHRINK else cv2.INTER_AREA
    shrunk: np.ndarray = cv2.resize(image, None, fx=scale, fy=scale, interpolation=how)
    return shrunk


def check_sheet_picture(image: np.ndarray, fit: GridFit, settings: SheetReaderSettings,
                        layout: SheetLayout | None = None, *,
                        gray: np.ndarray | None = None) -> float:
    """The picture check of :mod:`vision.picture` on the sheet's outline in the frame: refuses
    a frame that carries too little of the sheet (sensor noise makes bare paper look shaded,
    so a noisy frame would read filled everywhere); else the picture's quality.

    The reader tells marks from paper by darkness and grain, colour only helps it part tiles,
    so a picture without colour is not refused. The sheet is white paper: burnt-out paper
    is no loss, so the burnt-out share allowed is the sheet's own (``[vision.sheet]
    max_clipped``). ``gray``: the frame's grey, when the caller made it (not made again)."""
    outline = sheet_outline(fit, layout)
    # measured on the frame cut to the sheet (the same measures, without a mask the size of
    # the frame); an outline wholly off the frame is measured as before, and refused there
    # the colour is not measured: needs_colour=False below
    measures = measure_inside(image, outline, colour=False, gray=gray)
    if measures is None:
        measures = measure_picture(image, region_mask(image.shape, outline), colour=False,
                                   gray=gray)
    return check_picture(measures, picture_limits(settings), needs_colour=False)


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
