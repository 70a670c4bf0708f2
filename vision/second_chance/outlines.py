"""Sheet reader stages 6-7: outlines between filled neighbours (drawn lines, changes of
colour) and the segmentation of filled cells into tiles, with questions where the drawing
leaves a border open. See :mod:`vision.second_chance.reader` for the whole pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, cast

import cv2
import numpy as np

from companion.second_chance.drawn import TileChoices
from companion.second_chance.shapes import Cell
from config.schema import SheetReaderSettings
from vision.second_chance.by_cards import MAX_SETTLEMENTS, Way, card_of, is_a_card, settle_by_cards
from vision.second_chance.cells import GRID_PX, PAD
from vision.second_chance.geometry import CANON_CELL
from vision.second_chance.layout import GRID_CELLS
from vision.second_chance.profiles import BORDER_TRIM

N = GRID_CELLS
#: the confidence of a border the profile decided (the score alone left it undecided)
PROFILE_SURE = 0.6
#: ... and of a border the learned model decided (see :mod:`vision.second_chance.borders`)
MODEL_SURE = 0.6
#: a border the score decided is left undecided where the model leans the other way past this
#: (where score and model disagree past even odds, the model is right far more often than
#: not)
MODEL_DOUBT = 0.5
#: a border the score only just cut (its confidence below this) is left undecided unless the
#: model is sure of the outline too
BARELY_CUT = 0.55
#: ... and of a border cut because a drawn outline's two loose ends face each other across it
CLOSURE_SURE = 0.55
#: a border between a filled and an empty cell shows a drawn outline when it lets through at
#: most this share of the light a printed line lets through (drawn: 0.3-0.7, bare: 0.85-1.1,
#: in every style)
BARE_LINE = 0.8
#: ... and a side this light (as light as the printed line) is surely bare
SURELY_BARE = 0.95
#: on a sheet with missing outlines, a cut the drawing decided less surely than this is asked
WEAK_CUT = 0.7
#: ... and its confidence is then at most this (below 0.5: undecided)
WEAK_CUT_ASKED = 0.45
#: the confidence of a join inside a tile read without an outline around it (asked)
UNOUTLINED_JOIN = 0.25
#: between two cells hatched alike with strokes along the border, a cut the score decided less
#: surely than this is asked even where the model is sure of it: the stroke along the printed
#: line fools both (such a cut can score a confidence of about 0.66 with the model near 0.97)
ALONG_CUT = 0.75
#: outline scores below this are left out of a sheet's two groups (see outline_thresholds)
NO_LINE_BELOW = -0.1
#: the two groups' centres start this far below ``join`` and above ``cut``, and move to their
#: medians for at most this many rounds
GROUPS_START = (0.05, 0.15)
GROUPS_ROUNDS = 20
#: the printed line's light is the median over the borders between two empty cells when there
#: are this many ...
MIN_EMPTY_BORDERS = 3
#: ... else (a nearly full sheet) this percentile of the borders between filled cells (inside a
#: tile, most of them), when there are this many, kept within this range of a printed line's
#: light; else the prior
INSIDE_PERCENTILE = 70
MIN_FILLED_BORDERS = 6
PRINTED_LINE_RANGE = (0.45, 0.85)
#: a border this much lighter than a printed line under the fill shows paper between the two
#: fills: undecided, never a join (inside a tile the score stays above about -0.2; between two
#: tiles shaded apart with no outline, half are below)
PAPER_BETWEEN = -0.2


def border_light(darkness: np.ndarray, *, sides: tuple[float, float] = (0.12, 0.3),
                 percentile: float = 70.0, reach: int = 1, across: int = 2,
                 along: int = 5) -> tuple[tuple[np.ndarray, np.ndarray],
                                          tuple[np.ndarray, np.ndarray]]:
    """Light through each border between neighbours, and light beside it: see
    :func:`border_light_levels` (with one percentile)."""
    (through_r, beside_r), (through_b, beside_b) = border_light_levels(
        darkness, sides=sides, percentiles=(percentile,), reach=reach, across=across,
        along=along)
    return (through_r[0], beside_r), (through_b[0], beside_b)


def border_light_levels(darkness: np.ndarray, *, sides: tuple[float, float] = (0.12, 0.3),
                        percentiles: tuple[float, ...] = (70.0,), reach: int = 1,
                        across: int = 2, along: int = 5
                        ) -> tuple[tuple[np.ndarray, np.ndarray],
                                   tuple[np.ndarray, np.ndarray]]:
    """Light through each border between neighbours, and light beside it (per cell of border):
    ``((through_right, beside_right), (through_below, beside_below))``, ``through_*`` with one
    leading entry per percentile asked (a low one tells how evenly dark the border is).

    ``right[r, c]`` is the border right of (r, c) (9 x 8), ``below[r, c]`` the one under it
    (8 x 9). Inside a tile the fill runs over the printed line, so the ratio is what the
    printed line lets through; a drawn outline takes much more away.

    At each point along a border the light through it is the darkest ``across``-pixel
    window within ``reach`` pixels of the grid line, after smoothing ``along`` pixels along
    it: a hand-drawn outline wobbles off the printed line by a pixel or two (and the grid
    found may be off by one), so a fixed band on the line dilutes it with the fill beside
    it; the smoothing along the line keeps pencil grain and the gaps between hatch strokes
    from looking like a line. A border's value is the ``percentile`` of its points (an
    outline runs all along the border, a hatch stroke across it only at a point).
    """
    t = 1.0 - darkness
    side_a, side_b = int(round(CANON_CELL * sides[0])), int(round(CANON_CELL * sides[1]))
    trim = int(CANON_CELL * BORDER_TRIM)
    xs = PAD + np.arange(1, N) * CANON_CELL
    smooth_v = cv2.blur(t, (across, along))  # vertical lines: across in x, along in y
    smooth_h = cv2.blur(t, (along, across))
    # (8, H): the darkest window near each vertical line, at every height
    band_v = np.stack([smooth_v[:, x - reach:x + reach + 1].min(axis=1) for x in xs])
    band_h = np.stack([smooth_h[y - reach:y + reach + 1, :].min(axis=0) for y in xs])
    left = np.stack([t[:, x - side_b:x - side_a].mean(axis=1) for x in xs])
    right_side = np.stack([t[:, x + side_a:x + side_b].mean(axis=1) for x in xs])
    side_v = (left + right_side) / 2
    up = np.stack([t[y - side_b:y - side_a, :].mean(axis=0) for y in xs])
    down = np.stack([t[y + side_a:y + side_b, :].mean(axis=0) for y in xs])
    side_h = (up + down) / 2

    def cells(a: np.ndarray) -> np.ndarray:
        # (8, L) -> (8, 9, trimmed middle of each cell's stretch)
        return a[:, PAD:PAD + GRID_PX].reshape(N - 1, N, CANON_CELL)[:, :, trim:CANON_CELL - trim]

    def per_cell(a: np.ndarray) -> np.ndarray:
        # (P, 8, 9): the percentiles over each cell's stretch
        return np.percentile(cells(a), percentiles, axis=2)  # type: ignore[no-any-return]

    def beside(a: np.ndarray) -> np.ndarray:
        return np.percentile(cells(a), percentiles[0], axis=2)  # type: ignore[no-any-return]

    # (8 lines, 9 rows) transposed to (9, 8); (8 lines, 9 cols)
    return ((per_cell(band_v).transpose(0, 2, 1), beside(side_v).T),
            (per_cell(band_h), beside(side_h)))


def outline_scores(through: np.ndarray, beside: np.ndarray, printed: float,
                   settings: SheetReaderSettings) -> np.ndarray:
    """How much darker each border is than the printed line would be under the fill beside it.

    Shading covers the paper and the printed line alike, down to the light that full cover
    lets through (``ink_floor``); so under dark shading the printed line loses most of its
    contrast, and a ratio to the fill alone would make a pencil outline over solid shading
    look like no outline. The light expected through a border with no outline is the
    printed line's, covered as much as the fill beside it is covered.
    """
    floor = settings.ink_floor
    cover = np.clip((1.0 - beside) / max(1.0 - floor, 1e-3), 0.0, 1.0)
    expected = printed * (1.0 - cover) + floor * cover
    scores: np.ndarray = 1.0 - through / np.maximum(expected, 1e-3)
    return scores


def outline_thresholds(scores: np.ndarray, settings: SheetReaderSettings) -> tuple[float, float]:
    """(cut, join) for this sheet, from its own outline scores between filled cells.

    The scores of one sheet fall in two groups: borders inside a tile (no outline) and
    borders between tiles (an outline). Their levels move with the hand and the light (soft
    pencil over dark shading gives low scores all over, heavy pen high ones), so the decision
    is taken against this sheet's two groups (two means in one dimension, medians as
    centres); a border close to the middle of the two is undecided (a question, unless the
    rules settle it). A sheet without two clear groups keeps the fixed thresholds.
    """
    values = np.asarray(scores, np.float64)
    # a border much lighter than a printed line under the fill shows paper between two fills
    # (tiles shaded apart with no outline drawn): neither group, it would drag the insides'
    values = values[values >= NO_LINE_BELOW]
    if values.size < 4:
        return settings.cut, settings.join
    lo, hi = settings.join - GROUPS_START[0], settings.cut + GROUPS_START[1]
    for _ in range(GROUPS_ROUNDS):
        mid = (lo + hi) / 2
        low, high = values[values <= mid], values[values > mid]
        if low.size == 0 or high.size == 0:
            return settings.cut, settings.join
        new_lo, new_hi = float(np.median(low)), float(np.median(high))
        if new_lo == lo and new_hi == hi:
            break
        lo, hi = new_lo, new_hi
    gap = hi - lo
    if gap < settings.min_outline_gap:
        return settings.cut, settings.join
    mid = (lo + hi) / 2
    return mid + settings.outline_margin * gap, mid - settings.outline_margin * gap


def printed_line_level(right: np.ndarray, below: np.ndarray, filled: np.ndarray,
                       settings: SheetReaderSettings) -> float:
    """How much light the printed grid line lets through.

    Measured on the borders between two empty cells; on a nearly full sheet, from the upper
    part of the borders between filled cells (inside a tile, most of them); else the prior.
    """
    empty = ~filled
    values = list(right[empty[:, :-1] & empty[:, 1:]])
    values += list(below[empty[:-1, :] & empty[1:, :]])
    if len(values) >= MIN_EMPTY_BORDERS:
        return float(np.median(values))
    inside = list(right[filled[:, :-1] & filled[:, 1:]])
    inside += list(below[filled[:-1, :] & filled[1:, :]])
    if len(inside) >= MIN_FILLED_BORDERS:
        return float(np.clip(np.percentile(inside, INSIDE_PERCENTILE), *PRINTED_LINE_RANGE))
    return settings.printed_line_prior


@dataclass(frozen=True)
class Segmentation:
    """Tiles found on a sheet, and the questions the outlines leave open."""

    shapes: tuple[tuple[Cell, ...], ...]
    questions: tuple[dict[str, Any], ...]
    #: every border between two filled cells: (cell, cell) -> (outline there: True, False or
    #: None when asked; confidence 0..1, below 0.5 when the drawing left it undecided; what
    #: decided it: "drawing", "colour", "profile" (the shape of the border's profile, where the
    #: score left it open), "closure" (a gap between two loose ends of a drawn outline),
    #: "rules" or "asked")
    outlines: dict[tuple[Cell, Cell], tuple[bool | None, float, str]] = field(
        default_factory=dict)


def hue_gap(a: np.ndarray, b: np.ndarray, settings: SheetReaderSettings) -> float:
    """1 - cos of the angle between two inks' hues; 0 when either is grey (no evidence)."""
    na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    if na < settings.min_hue or nb < settings.min_hue:
        return 0.0
    return 1.0 - float(np.dot(a, b)) / (na * nb)


class _Union:
    def __init__(self) -> None:
        self.parent: dict[Cell, Cell] = {}

    def find(self, a: Cell) -> Cell:
        self.parent.setdefault(a, a)
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def union(self, a: Cell, b: Cell) -> None:
        self.parent[self.find(a)] = self.find(b)


def _is_legal_tile(cells: list[Cell]) -> bool:
    """A tile the rules allow: 1-7 cells, or the 8-cell start on the centre."""
    if (N // 2, N // 2) in cells:
        return len(cells) == 8
    return 1 <= len(cells) <= 7


Corner = tuple[int, int]


def _ends(border: tuple[Cell, Cell]) -> tuple[Corner, Corner]:
    """The two grid corners (row, col of the grid lines) a border between two cells joins."""
    (r, c), (nr, nc) = border
    if r == nr:  # cells side by side: the vertical line right of (r, c)
        return (r, c + 1), (r + 1, c + 1)
    return (r + 1, c), (r + 1, c + 1)


def _gaps(tiles: set[Cell], cuts: list[tuple[Cell, Cell]], joins: list[tuple[Cell, Cell]],
          unsure: list[tuple[Cell, Cell]]) -> list[tuple[Cell, Cell]]:
    """Joins where a drawn outline has a gap: both corners of the border are loose ends of the
    outlines (see :func:`_loose_corners`), and neither corner has another such join. (Loose
    ends next to an undecided border are left to the rules, which close every outline.)"""
    loose = _loose_corners(tiles, cuts, unsure)
    candidates = [b for b in joins if all(corner in loose for corner in _ends(b))]
    uses: dict[Corner, int] = {}
    for border in candidates:
        for corner in _ends(border):
            uses[corner] = uses.get(corner, 0) + 1
    return [b for b in candidates if all(uses[corner] == 1 for corner in _ends(b))]


def _loose_corners(tiles: set[Cell], cuts: list[tuple[Cell, Cell]],
                   maybe: list[tuple[Cell, Cell]]) -> set[Corner]:
    """Grid corners where exactly one outline ends (the cuts, and the sides of tile cells not
    shared with another tile cell) and no undecided border (``maybe``) could continue it: a
    drawn outline does not stop there."""
    degree: dict[Corner, int] = {}
    for border in cuts:
        for corner in _ends(border):
            degree[corner] = degree.get(corner, 0) + 1
    for r, c in tiles:
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            if (r + dr, c + dc) in tiles:
                continue
            a, b = sorted([(r, c), (r + dr, c + dc)])
            for corner in _ends((a, b)):
                degree[corner] = degree.get(corner, 0) + 1
    open_ends = {corner for border in maybe for corner in _ends(border)}
    return {corner for corner, n in degree.items() if n == 1 and corner not in open_ends}


def _question(kind: str, cells: list[Cell], message: str) -> dict[str, Any]:
    return {"kind": kind, "cells": [list(x) for x in sorted(cells)], "message": message}


def segment(
    tiles: set[Cell],
    right: np.ndarray,
    below: np.ndarray,
    colour: np.ndarray,
    settings: SheetReaderSettings,
    *,
    max_unsure: int = 8,
    thresholds: tuple[float, float] | None = None,
    settle_by_rules: bool = True,
    profile_verdicts: dict[tuple[Cell, Cell], bool] | None = None,
    border_probability: dict[tuple[Cell, Cell], float] | None = None,
    sure_probability: tuple[float, float] = (1.0, 0.0),
    hatched_along: set[tuple[Cell, Cell]] | None = None,
    coverage: dict[tuple[Cell, Cell], float] | None = None,
    grid_hatched: set[tuple[Cell, Cell]] | None = None,
    stroked: set[tuple[Cell, Cell]] | None = None,
    choices: TileChoices | None = None,
) -> Segmentation:
    """Group filled cells into tiles; what the drawing leaves open becomes a question.

    Borders with a clear outline (or a change of colour) separate tiles, borders clearly
    without one join them, except where paper shows between the two fills
    (:data:`PAPER_BETWEEN`: two tiles shaded apart, no outline drawn). An undecided border is
    settled by the rules when only one way of settling the undecided borders around it gives
    tiles the rules allow (1-7 cells, the start 8 on the centre) and ``settle_by_rules`` (the
    sheet's outlines stand out); otherwise it is a question (and joined meanwhile).
    ``profile_verdicts`` (see :mod:`vision.second_chance.profiles`) decide some of the borders the
    score leaves undecided, by the shape of their profile. ``border_probability`` (see
    :mod:`vision.second_chance.borders`) is the learned chance of an outline on each border: at
    least
    the first of ``sure_probability`` cuts a border the score did not cut, at most the second
    joins one the score left undecided (never where paper shows between the fills or the
    colour changes). ``hatched_along`` are borders between two cells hatched alike with
    strokes that run along the border: a stroke there darkens the printed line like an
    outline: a cut the score made there is asked about unless the score made it surely
    (:data:`ALONG_CUT`) and the model is sure of it. ``coverage`` (see
    :mod:`vision.second_chance.sides`) is the share of each border a drawn stroke follows: it
    vetoes and settles decisions (see :func:`check_by_sides`), with ``grid_hatched`` the
    borders between two cells hatched along the grid's directions and ``stroked`` those
    between two cells filled with strokes (any direction). ``choices`` (see
    :mod:`companion.second_chance.drawn`) are the cards the player drew: undecided borders are
    settled where only one split gives tiles that can be those cards, and a tile read with a
    shape no card has is asked about.
    """
    verdicts = profile_verdicts or {}
    learned = border_probability or {}
    cut_at, join_at = thresholds if thresholds is not None else (settings.cut, settings.join)
    rule = BorderRule(settings, (cut_at, join_at), sure_probability)
    decided = _Decided([], [], [], {})
    for border, evidence in _border_evidence(tiles, right, below, colour, settings,
                                             (cut_at, join_at), learned,
                                             hatched_along or set(), verdicts):
        if coverage is not None and border in coverage:
            evidence = replace(evidence, coverage=coverage[border])
        kind, outline = decide_border(evidence, rule)
        if coverage is not None and border in coverage:
            kind, outline = check_by_sides(kind, outline, evidence, coverage[border],
                                           border in (grid_hatched or set()),
                                           stroked=border in (stroked or set()),
                                           cut_chance=sure_probability[0])
        {"cut": decided.cuts, "join": decided.joins, "unsure": decided.unsure}[kind].append(
            border)
        decided.outlines[border] = outline
    base = _close_gaps(tiles, decided)
    final, questions = _settle_undecided(tiles, decided, base, settle_by_rules, max_unsure,
                                         choices)
    groups: dict[Cell, list[Cell]] = {}
    for cell in tiles:
        groups.setdefault(final.find(cell), []).append(cell)
    questions += _group_questions(groups, decided.cuts, final, choices)
    shapes = tuple(sorted(tuple(sorted(g)) for g in groups.values()))
    return Segmentation(shapes, tuple(_first_of_each(questions)), decided.outlines)


@dataclass(frozen=True)
class BorderEvidence:
    """What is known of one border between two filled cells (see :func:`decide_border`)."""

    score: float  # the outline score
    hue: float  # the hue gap of the two cells' inks (see :func:`hue_gap`)
    strong_hue: bool  # a change of colour that is an outline for sure
    sure: float  # the confidence of the score's side: 0.5 at the undecided band's edge
    distance: float  # from the middle of the undecided band, in half bands
    chance: float | None  # the learned chance of an outline (None: no model)
    hatched_along: bool  # the two cells are hatched alike along the border
    verdict: bool | None  # the profile's say (None: it has none)
    #: the share of the border a drawn stroke follows (None: not measured; see
    #: vision.second_chance.sides)
    coverage: float | None = None


@dataclass(frozen=True)
class BorderRule:
    """The sheet's thresholds for :func:`decide_border`."""

    settings: SheetReaderSettings
    thresholds: tuple[float, float]  # (cut, join) outline scores
    sure_probability: tuple[float, float]  # (cut from, join up to) learned chances


@dataclass
class _Decided:
    """The borders decided so far, and each one's outline entry (see :class:`Segmentation`)."""

    cuts: list[tuple[Cell, Cell]]
    joins: list[tuple[Cell, Cell]]
    unsure: list[tuple[Cell, Cell]]
    outlines: dict[tuple[Cell, Cell], tuple[bool | None, float, str]]


def _border_evidence(
    tiles: set[Cell], right: np.ndarray, below: np.ndarray, colour: np.ndarray,
    settings: SheetReaderSettings, thresholds: tuple[float, float],
    learned: dict[tuple[Cell, Cell], float], along: set[tuple[Cell, Cell]],
    verdicts: dict[tuple[Cell, Cell], bool],
) -> list[tuple[tuple[Cell, Cell], BorderEvidence]]:
    """Every border between two of ``tiles`` (row by row), with what is known of it."""
    cut_at, join_at = thresholds
    middle, half = (cut_at + join_at) / 2, max((cut_at - join_at) / 2, 1e-6)
    found = []
    for r, c in sorted(tiles):
        for (nr, nc), score in (
            ((r, c + 1), right[r, c] if c + 1 < N else 0.0),
            ((r + 1, c), below[r, c] if r + 1 < N else 0.0),
        ):
            if (nr, nc) not in tiles:
                continue
            hue = hue_gap(colour[r, c], colour[nr, nc], settings)
            strong_hue = (hue > settings.colour_cut * settings.sure_hue_factor
                          and min(np.linalg.norm(colour[r, c]), np.linalg.norm(colour[nr, nc]))
                          >= settings.min_hue * settings.sure_hue_factor)
            # confidence: 0.5 at the edge of the undecided band, 1.0 at twice the distance
            distance = abs(float(score) - middle) / half
            sure = float(np.clip(0.5 + (distance - 1) * 0.5, 0.5, 1.0))
            border = ((r, c), (nr, nc))
            found.append((border, BorderEvidence(
                score, hue, bool(strong_hue), sure, distance, learned.get(border),
                border in along, verdicts.get(border))))
    return found


def decide_border(e: BorderEvidence, rule: BorderRule
                  ) -> tuple[str, tuple[bool | None, float, str]]:
    """``("cut" | "join" | "unsure", the border's outline entry)``: see :func:`segment`."""
    settings = rule.settings
    cut_at, join_at = rule.thresholds
    cut_chance, join_chance = rule.sure_probability
    score, hue, strong_hue, chance = e.score, e.hue, e.strong_hue, e.chance
    asked: tuple[str, tuple[bool | None, float, str]] = (
        "unsure", (None, 0.5 * min(e.distance, 1.0), "asked"))
    if (score > cut_at and hue <= settings.colour_cut and chance is not None
            and chance <= join_chance and e.coverage is not None
            and e.coverage < SIDE_CUT_NEEDS):
        # the score alone sees a line, the learned model surely none and no stroke follows
        # the line: the printed line through a dense fill or a translucent marker, on a sheet
        # whose outlines hardly stand out from its insides (its thresholds sit low)
        return "join", (False, MODEL_SURE, "model")
    # the score's side, against the model's: a border the score decided one way and the
    # model leans the other way (past even odds) is left undecided
    doubted = chance is not None and (
        (score > cut_at and not strong_hue and chance <= MODEL_DOUBT)
        or (score > cut_at and not strong_hue and (
            (e.sure < BARELY_CUT and chance < cut_chance)
            or (e.hatched_along and (e.sure < ALONG_CUT or chance < cut_chance))))
        or (join_at >= score >= PAPER_BETWEEN and hue <= settings.colour_cut
            and MODEL_DOUBT <= chance < cut_chance))
    if doubted:
        return asked
    if score > cut_at or strong_hue or (hue > settings.colour_cut and score > join_at):
        by_score = score > cut_at
        return "cut", (True, e.sure if by_score else 1.0 if strong_hue else 0.5,
                       "drawing" if by_score else "colour")
    if (chance if chance is not None else 0.0) >= cut_chance:
        # the score missed it, the sheet's other measures of the border did not
        return "cut", (True, MODEL_SURE, "model")
    if ((chance if chance is not None else 1.0) <= join_chance and score > join_at
            and hue <= settings.colour_cut):
        return "join", (False, MODEL_SURE, "model")
    if e.verdict is not None and score > join_at:
        # the score left it open, the profile across the border did not
        return "cut" if e.verdict else "join", (e.verdict, PROFILE_SURE, "profile")
    if score > join_at or hue > settings.colour_cut or score < PAPER_BETWEEN:
        # a change of colour where no line is seen (or a line not clear enough): the
        # pencils of one tile can differ a little; or paper between the two fills (two
        # tiles shaded apart, no outline drawn): asked unless the rules settle it
        return asked
    return "join", (False, e.sure, "drawing")


#: a cut between two cells hatched along the grid's directions, or one the learned model made
#: alone, needs a drawn stroke along at least this share of the border: drawn outlines cover
#: nearly all of it (gaps, a wobble off the line); strokes of the hatching that lie along the
#: line inside a tile cover a half to two thirds of it, and score like an outline (the score
#: and the learned model both take them for one)
SIDE_CUT_NEEDS = 0.8
#: an undecided border is cut where a stroke follows this share of it (all of it) and the
#: learned model does not doubt an outline. (No stroke along a border is no join: players skip
#: outlines, and two touching tiles then show none between them.)
SIDE_SURELY_DRAWN = 1.0
SIDES_SURE = 0.6


def check_by_sides(kind: str, outline: tuple[bool | None, float, str], e: BorderEvidence,
                   coverage: float, grid_hatched: bool = False, *, stroked: bool = False,
                   cut_chance: float = MODEL_DOUBT
                   ) -> tuple[str, tuple[bool | None, float, str]]:
    """``decide_border``'s verdict held against how much of the border a drawn stroke follows
    (``coverage``) and the learned model's say (``e.chance``, sure of an outline from
    ``cut_chance``). A change of colour is an outline with or without a stroke; elsewhere a
    cut is asked (or left to the rules):

    - where no stroke follows most of the line (:data:`SIDE_CUT_NEEDS`) and the two cells are
      hatched along the grid's directions (``grid_hatched``) or filled with strokes at all
      (``stroked``), or the learned model is not sure of an outline (a dense fill or a
      translucent marker lets the printed line show through: the score alone sees a line);
    - where the learned model made it alone and no stroke follows all of the line, or the two
      cells are hatched alike along it (the model was fitted on the project's own renders,
      and takes other hands' hatching for outlines: a hatch stroke lying on the line follows
      all of it);
    - between two cells filled with strokes (hatching, loops), where the model is not sure of
      it or the drawing made it only barely (:data:`ALONG_CUT`): a row of loops lies along the
      line all the way, a hatch stroke or an outline's overshoot past its corner follows it a
      while, and each looks like an outline to the score or the model.

    A border joined because no line is seen there is asked where a stroke follows all of it
    and the fills' strokes do not run along it (an outline hidden under a dense fill in the
    same ink). An undecided border a stroke follows all along is cut, unless that stroke may be the
    fill's (hatching along it, or strokes the model does not take for an outline). Otherwise
    the cuts stand: a soft pencil outline over dark shading takes little more light than the
    printed line does, and is an outline."""
    by = outline[2]
    model_unsure = e.chance is not None and e.chance < cut_chance
    if kind == "cut" and by != "colour" and (
            (coverage < SIDE_CUT_NEEDS and (grid_hatched or stroked or model_unsure))
            or (by == "model" and (coverage < SIDE_SURELY_DRAWN or e.hatched_along))
            or (stroked and (model_unsure or (by == "drawing" and e.sure < ALONG_CUT)))):
        return "unsure", (None, 0.25, "asked")
    if (kind == "join" and outline[2] == "drawing" and coverage >= SIDE_SURELY_DRAWN
            and not e.hatched_along and not grid_hatched):
        # no line seen, yet a stroke follows all of the border and the fills' strokes do
        # not run along it: an outline hidden under a dense fill in the same ink
        return "unsure", (None, 0.25, "asked")
    if (kind == "unsure" and coverage >= SIDE_SURELY_DRAWN and not e.hatched_along
            and not grid_hatched and not (stroked and model_unsure)
            and (e.chance is None or e.chance >= MODEL_DOUBT)):
        return "cut", (True, SIDES_SURE, "sides")
    return kind, outline


def _joined(tiles: set[Cell], joins: list[tuple[Cell, Cell]]) -> _Union:
    """The pieces ``tiles`` make, joined across ``joins``."""
    pieces = _Union()
    for cell in tiles:
        pieces.find(cell)
    for a, b in joins:
        pieces.union(a, b)
    return pieces


def _close_gaps(tiles: set[Cell], decided: _Decided) -> _Union:
    """The pieces joined where there is no outline, after closing the gaps of drawn outlines.

    A drawn outline never just stops: where two of its loose ends face each other across one
    border, the line runs there too (drawn too lightly to score); looked for only when an
    outline does not close. The borders closed move from the joins to the cuts (in place).
    """
    base = _joined(tiles, decided.joins)
    if any(base.find(a) == base.find(b) for a, b in decided.cuts):
        gaps = _gaps(tiles, decided.cuts, decided.joins, decided.unsure)
        for border in gaps:
            decided.joins.remove(border)
            decided.cuts.append(border)
            decided.outlines[border] = (True, CLOSURE_SURE, "closure")
        if gaps:
            base = _joined(tiles, decided.joins)
    return base


def _settle_undecided(tiles: set[Cell], decided: _Decided, base: _Union,
                      settle_by_rules: bool, max_unsure: int,
                      choices: TileChoices | None = None,
                      ) -> tuple[_Union, list[dict[str, Any]]]:
    """The tiles once the undecided borders are settled: clusters of base pieces linked by
    undecided borders, each settled by the rules when exactly one settlement is legal (and
    ``settle_by_rules``), or when the cards the player drew (``choices``) leave one, else
    joined and asked about. Rules' settlements update ``decided.outlines`` in place."""
    members: dict[Cell, list[Cell]] = {}
    for cell in tiles:
        members.setdefault(base.find(cell), []).append(cell)
    linked = _Union()
    for a, b in decided.unsure:
        linked.union(base.find(a), base.find(b))
    clusters: dict[Cell, list[tuple[Cell, Cell]]] = {}
    for edge in decided.unsure:
        clusters.setdefault(linked.find(base.find(edge[0])), []).append(edge)
    final = _Union()
    for cell in tiles:
        final.union(cell, base.find(cell))
    questions: list[dict[str, Any]] = []
    outlines = decided.outlines
    settlements = _settlements(list(clusters.values()), members, base, decided.cuts,
                               max_unsure, choices)
    for edges, settled in zip(clusters.values(), settlements, strict=True):
        roots = sorted({base.find(x) for edge in edges for x in edge})
        if settled is not None and settle_by_rules:
            for i, (a, b) in enumerate(edges):
                joined = bool(settled >> i & 1)
                if joined:
                    final.union(a, b)
                outlines[(a, b)] = (not joined, outlines[(a, b)][1],
                                    "rules" if choices is None else "cards")
            continue
        for a, b in edges:
            final.union(a, b)
        cells = [x for root in roots for x in members[root]]
        a, b = edges[0]
        questions.append(_question(
            "split", cells,
            f"is there an outline between {list(a)} and {list(b)}? the drawing does not "
            "show it clearly",
        ))
    return final, questions


def _settlements(clusters: list[list[tuple[Cell, Cell]]], members: dict[Cell, list[Cell]],
                 base: _Union, cuts: list[tuple[Cell, Cell]], max_unsure: int,
                 choices: TileChoices | None) -> list[int | None]:
    """Each cluster's one settlement the rules (and the cards drawn, ``choices``) allow, or
    None where they allow several or none."""
    if choices is None:
        found = [_legal_settlements(edges, _roots(edges, base), members, base, cuts)
                 if len(edges) <= max_unsure else [] for edges in clusters]
        return [legal[0] if len(legal) == 1 else None for legal in found]
    ways: list[list[Way]] = []
    for edges in clusters:
        legal = (_legal_settlements(edges, _roots(edges, base), members, base, cuts,
                                    limit=MAX_SETTLEMENTS, choices=choices)
                 if len(edges) <= max_unsure else [])
        ways.append([(choice, _pieces_cards(choice, edges, members, base)) for choice in legal])
    in_clusters = {root for edges in clusters for root in _roots(edges, base)}
    fixed = [card_of(cells) for root, cells in members.items() if root not in in_clusters]
    return settle_by_cards(fixed, ways, choices)


def _roots(edges: list[tuple[Cell, Cell]], base: _Union) -> list[Cell]:
    return sorted({base.find(x) for edge in edges for x in edge})


def _trial(choice: int, edges: list[tuple[Cell, Cell]], roots: list[Cell],
           base: _Union) -> _Union:
    """The base pieces ``roots`` of ``edges``, joined where ``choice`` has a bit set."""
    trial = _Union()
    for root in roots:
        trial.find(root)
    for i, (a, b) in enumerate(edges):
        if choice >> i & 1:
            trial.union(base.find(a), base.find(b))
    return trial


def _pieces(choice: int, edges: list[tuple[Cell, Cell]], members: dict[Cell, list[Cell]],
            base: _Union, trial: _Union | None = None) -> list[list[Cell]]:
    """The pieces the base pieces of ``edges`` make, joined where ``choice`` has a bit set
    (``trial``, when already joined so)."""
    roots = _roots(edges, base)
    trial = trial if trial is not None else _trial(choice, edges, roots, base)
    pieces: dict[Cell, list[Cell]] = {}
    for root in roots:
        pieces.setdefault(trial.find(root), []).extend(members[root])
    return list(pieces.values())


def _pieces_cards(choice: int, edges: list[tuple[Cell, Cell]],
                  members: dict[Cell, list[Cell]], base: _Union) -> tuple[str, ...]:
    return tuple(card_of(p) for p in _pieces(choice, edges, members, base))


def _legal_settlements(edges: list[tuple[Cell, Cell]], roots: list[Cell],
                       members: dict[Cell, list[Cell]], base: _Union,
                       cuts: list[tuple[Cell, Cell]], *, limit: int = 2,
                       choices: TileChoices | None = None) -> list[int]:
    """The settlements of ``edges`` (bit i set: edge i joined) that give tiles the rules
    allow (the shapes of cards some round gave, with ``choices``), with every drawn outline
    between two tiles; stops at the ``limit``-th one found."""
    root_set = set(roots)
    legal: list[int] = []
    for choice in range(1 << len(edges)):
        trial = _trial(choice, edges, roots, base)
        # a drawn outline must end up between two tiles, not inside one: the ones
        # drawn clearly and the ones this settlement would draw
        closed = all(
            trial.find(base.find(a)) != trial.find(base.find(b))
            for a, b in cuts
            if base.find(a) in root_set and base.find(b) in root_set
        ) and all(
            trial.find(base.find(a)) != trial.find(base.find(b))
            for i, (a, b) in enumerate(edges) if not choice >> i & 1
        )
        if closed and all(_is_legal_tile(p) and (choices is None or is_a_card(p, choices))
                          for p in _pieces(choice, edges, members, base, trial)):
            legal.append(choice)
            if len(legal) >= limit:
                break
    return legal


def _group_questions(groups: dict[Cell, list[Cell]], cuts: list[tuple[Cell, Cell]],
                     final: _Union, choices: TileChoices | None = None
                     ) -> list[dict[str, Any]]:
    """Questions about the tiles found: an outline inside one, a shape no tile can be."""
    questions = []
    for a, b in cuts:
        if final.find(a) == final.find(b):
            questions.append(_question(
                "outline", groups[final.find(a)],
                f"an outline between {list(a)} and {list(b)} does not close: are these one "
                "tile or several?",
            ))
    # a shape the rules do not allow is far more likely a missed outline than a player's
    # mistake: asked, never passed on as read
    for group in groups.values():
        if not _is_legal_tile(group):
            questions.append(_question(
                "split", group,
                f"these {len(group)} cells read as one shape, which no tile can be: where are "
                "the outlines?",
            ))
        elif choices is not None and not is_a_card(group, choices):
            # a piece that no card drawn has: an outline missed, or one seen that is not
            # there
            questions.append(_question(
                "split", group,
                f"these {len(group)} cells read as one tile, but no card drawn has that "
                "shape: where are the outlines?",
            ))
    return questions


def _first_of_each(questions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The questions without repeats (same kind and cells), first ones kept."""
    seen: set[tuple[str, str]] = set()
    unique = []
    for q in questions:
        key = (q["kind"], str(q["cells"]))
        if key not in seen:
            seen.add(key)
            unique.append(q)
    return unique


def unoutlined_tiles(
    seg: Segmentation,
    through_right: np.ndarray,
    through_below: np.ndarray,
    printed: float,
    empty: set[Cell],
    *,
    side_drawn: dict[tuple[Cell, Cell], float] | None = None,
    surely_drawn: float = 1.0,
    surely_bare: float = 0.0,
) -> Segmentation:
    """Ask about every tile of two or more cells read without an outline around it.

    The borders inside a tile are joined because no line is seen there; that is evidence only
    where the player draws outlines. Where the sides of a tile facing empty cells show no drawn
    line (at least half of them let through as much light as the printed line,
    :data:`BARE_LINE`), the player skipped the outline, and two touching tiles drawn that way
    look like one: which it is, only the players know (the rules allow both, colours did not
    split it). (An outline in a light coloured pencil can look bare too: asked, which is
    safe; the colour of the line does not tell them apart, a camera's colour cast tints bare
    printed lines as much.) On a sheet with such a tile, a tile with no side on an empty cell
    is asked about too (its sides are its neighbours' outlines), and so is a cut only just
    decided (:data:`WEAK_CUT`, the profile, a closed gap). The start on the centre (8 cells) is
    not asked: no split of it is legal. The question names the cells; its joins become asked
    borders.

    ``side_drawn`` (see :mod:`vision.second_chance.borders`) is the learned chance that the outline
    is drawn on each side ``(tile cell, empty cell)``: a side it gives at least ``surely_drawn``
    counts as drawn whatever its light (a light coloured pencil's outline), but only on a sheet
    where it is sure of every side that looks bare. Where one tile's outline is skipped, a faint
    outline elsewhere is as doubtful as before: the outline it draws between two tiles can be missed
    as easily (a light pencil tile joined to an unoutlined one), and only the question about its
    tile catches that. A side it gives at most ``surely_bare`` is surely bare: a tile whose bare
    sides all are shows that the player skips outlines as surely as a side that lets through all the
    printed line's light.
    """
    chances = side_drawn or {}
    light = _SideLight(through_right, through_below, printed, empty)
    looks_bare = [side for shape in seg.shapes for side in light.sides(shape)
                  if light.through(side) > BARE_LINE * printed]
    # the model counts only on a sheet where it is sure of every side that looks bare
    learned = ({} if any(chances.get(side, 0.0) < surely_drawn for side in looks_bare)
               else chances)
    questions = list(seg.questions)
    outlines = dict(seg.outlines)
    asked = {(q["kind"], str(q["cells"])) for q in questions}
    sides: dict[tuple[Cell, ...], tuple[int, int]] = {}
    skips = False
    for shape in seg.shapes:
        bare, drawn, certain, lightest = light.count(shape, learned, chances, surely_drawn,
                                                     surely_bare)
        sides[shape] = (bare, drawn)
        # a player who surely skipped one outline may have skipped others: then a tile with no
        # side on an empty cell (all its sides are other tiles' outlines) tells nothing of its
        # own (a light coloured pencil's outline can look bare by a little, not by this much)
        skips = skips or (bare > 0 and bare >= drawn
                          and (lightest >= SURELY_BARE or certain == bare))
    if skips:
        _ask_weak_cuts(seg, questions, outlines)
    centre = (N // 2, N // 2)
    for shape in seg.shapes:
        bare, drawn = sides[shape]
        if len(shape) < 2 or (centre in shape and len(shape) == 8):
            continue  # nothing to split; the start on the centre has 8 cells, no fewer
        if (bare > 0 and bare >= drawn) or (skips and bare + drawn == 0):
            _ask_unverified(shape, seg, asked, questions, outlines)
    unique = {(q["kind"], str(q["cells"])): q for q in reversed(questions)}
    kept = [q for q in questions if unique[(q["kind"], str(q["cells"]))] is q]
    return Segmentation(seg.shapes, tuple(kept), outlines)


@dataclass(frozen=True)
class _SideLight:
    """The light through the sides of tiles on empty cells."""

    through_right: np.ndarray
    through_below: np.ndarray
    printed: float
    empty: set[Cell]

    def sides(self, shape: tuple[Cell, ...]) -> list[tuple[Cell, Cell]]:
        """The sides ``(tile cell, empty cell)`` of a tile, cell by cell."""
        return [((r, c), (nr, nc)) for r, c in shape
                for nr, nc in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c))
                if (nr, nc) in self.empty]

    def through(self, side: tuple[Cell, Cell]) -> float:
        (r, c), (nr, nc) = side
        a = min((r, c), (nr, nc))
        # the array's own number type, as the thresholds were compared with it
        return cast(float, self.through_right[a] if r == nr else self.through_below[a])

    def count(self, shape: tuple[Cell, ...], learned: dict[tuple[Cell, Cell], float],
              chances: dict[tuple[Cell, Cell], float], surely_drawn: float,
              surely_bare: float) -> tuple[int, int, int, float]:
        """A tile's sides on empty cells: (bare, drawn, surely bare by the model, the
        lightest's light relative to the printed line's)."""
        bare = drawn = certain = 0
        lightest = 0.0
        for side in self.sides(shape):
            through = self.through(side)
            if learned.get(side, 0.0) >= surely_drawn:
                drawn += 1
                continue
            lightest = max(lightest, through / max(self.printed, 1e-3))
            if through > BARE_LINE * self.printed:
                bare += 1
                certain += chances.get(side, 1.0) <= surely_bare
            else:
                drawn += 1
        return bare, drawn, certain, lightest


def _ask_weak_cuts(seg: Segmentation, questions: list[dict[str, Any]],
                   outlines: dict[tuple[Cell, Cell], tuple[bool | None, float, str]]) -> None:
    """Where a player skips outlines, the sheet's two groups of scores are mixed with bare
    borders: a cut only just decided (the profile, a closed gap, a score near the middle) is
    asked too (``questions`` and ``outlines`` updated in place)."""
    for border, (outline, sure, by) in seg.outlines.items():
        if not outline or (by == "drawing" and sure >= WEAK_CUT) or by not in (
                "drawing", "profile", "closure", "model"):
            continue
        a, b = border
        both = [x for t in seg.shapes if a in t or b in t for x in t]
        questions.append(_question(
            "split", both,
            f"is there an outline between {list(a)} and {list(b)}? the drawing does not "
            "show it clearly",
        ))
        outlines[border] = (None, min(sure, WEAK_CUT_ASKED), "asked")


def _ask_unverified(shape: tuple[Cell, ...], seg: Segmentation, asked: set[tuple[str, str]],
                    questions: list[dict[str, Any]],
                    outlines: dict[tuple[Cell, Cell], tuple[bool | None, float, str]]) -> None:
    """Ask whether a tile read without an outline around it is one tile or several; its joins
    become asked borders (``questions`` and ``outlines`` updated in place)."""
    cells = set(shape)
    # a cut inside the tile only the profile or a closed gap made is as doubtful as the
    # joins: the tile beyond it is part of the question
    near = set(shape)
    for (a, b), (outline, _, by) in seg.outlines.items():
        if outline and by in ("profile", "closure", "model") and (a in cells) != (b in cells):
            other = b if a in cells else a
            near.update(next(t for t in seg.shapes if other in t))
    question = _question(
        "split", list(near),
        f"no outline is drawn around these {len(shape)} cells: are they one tile or "
        "several?",
    )
    if ("split", str(question["cells"])) not in asked:
        questions.append(question)
    for border, (outline, _, _) in outlines.items():
        if outline is False and border[0] in cells and border[1] in cells:
            outlines[border] = (None, UNOUTLINED_JOIN, "asked")
