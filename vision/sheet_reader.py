"""Read a Second Chance sheet from a camera frame: filled cells, tiles, the bonus 1, questions.

Stages (each a small function over the canonical image of :mod:`vision.sheet_geometry`):

1. :func:`~vision.sheet_geometry.locate_grid`: markers, or the pad's frame; refuses a frame it
   cannot trust (exit 4);
2. grid lines found and the image rectified (lens, a bent sheet);
3. :func:`paper_model`: the paper's brightness under uneven light and shadows, from the margins
   and the bright parts of cells, so ink is measured against the paper it is on;
4. :func:`cell_features`: per cell, the share of ink (dark, or coloured: coloured pencils that
   are light in grey still differ from the paper in colour) and how that ink is spread;
5. :func:`classify_cells`: empty, filled or doubtful; the bonus 1 is the filled cell whose ink
   is a narrow upright stroke;
6. :func:`border_light`, :func:`outline_scores`: between two filled neighbours, is there a
   drawn outline (a line darker than both sides all along the border) or a change of colour?
7. :func:`segment`: tiles are the groups of filled cells joined where there is no outline;
   a border that cannot be decided, or outlines that do not close, become questions;
8. ``check_sheet`` of the core reports the rules' side: empty count, start on the centre,
   canonical shapes, illegal shapes.

Nothing is guessed: every doubt is a question in the result. A wrong score applied without a
question is the worst failure there is.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, fields
from typing import Any

import cv2
import numpy as np

from companion.second_chance.deck import Deck
from companion.second_chance.shapes import Cell, Shape
from companion.second_chance.sheet import SheetCheck, check_sheet
from config.schema import Config
from vision.sheet_geometry import (
    CANON_CELL,
    CANON_MARGIN,
    CANON_SIZE,
    GridFit,
    locate_grid,
    rectify,
    refine_mesh,
    warp_canon,
)
from vision.sheet_layout import GRID_CELLS, SheetLayout

N = GRID_CELLS


@dataclass(frozen=True)
class SheetReaderConfig:
    """Thresholds of the sheet reader (defaults tuned on rendered sheets; see bench).

    Config ``[vision.sheet]`` has the same keys and defaults: :func:`reader_config` turns a
    loaded configuration into this.
    """

    #: a pixel is ink when its most absorbed colour channel is darker than the paper by this
    ink_darkness: float = 0.2
    #: ... or, for a coloured mark, this much colour and at least ``ink_light`` darkness
    ink_chroma: float = 0.08
    ink_light: float = 0.08
    #: the fill score of a cell is the largest of: its share of ink pixels / ``ink_share_unit``,
    #: its texture (darkness std above ``texture_floor``) / ``texture_unit`` (hatching), its
    #: mean darkness / ``darkness_unit`` (solid shading). Up to ``empty_score`` empty, from
    #: ``filled_score`` filled, in between doubtful: a question (faint erased traces land there
    #: only when they are unclear)
    ink_share_unit: float = 0.10
    texture_floor: float = 0.01
    texture_unit: float = 0.035
    darkness_unit: float = 0.15
    empty_score: float = 0.6
    filled_score: float = 1.7
    #: the smallest ink share of a written 1
    one_min_ink: float = 0.02
    #: the inside of a cell, as a share of the cell kept on each side (outlines stay outside)
    inset: float = 0.16
    #: a 1: the ink's horizontal spread at most this share of its vertical spread; a sure one
    #: has at most ``one_max_ink`` of its cell in ink (a heavier 1-shaped mark is asked about)
    one_aspect: float = 0.6
    one_max_ink: float = 0.4
    #: a sure 1: horizontal spread at most ``one_strict`` of the vertical and at most
    #: ``one_max_spread`` of a cell, in one or two strokes; looser candidates are asked about
    one_strict: float = 0.5
    one_max_spread: float = 0.1
    #: outline score (darkness of the border over its sides): above ``cut`` an outline,
    #: below ``join`` none, between undecided (used as they are when a sheet's own scores do
    #: not show two clear groups, see ``min_outline_gap``)
    cut: float = 0.13
    join: float = 0.075
    #: a sheet's outline scores fall in two groups (outlines, none) whose levels differ from
    #: sheet to sheet (soft pencil over dark shading, firm pen): when the two groups' medians
    #: are at least ``min_outline_gap`` apart, a border is an outline above their midpoint plus
    #: ``outline_margin`` of the gap, none below the midpoint minus it, undecided between
    min_outline_gap: float = 0.12
    outline_margin: float = 0.15
    #: the light a printed grid line lets through, when a sheet has too few borders to tell
    printed_line_prior: float = 0.63
    #: the light that shading covering the paper completely lets through (relative to the
    #: paper): under shading the printed line is expected that much less distinct
    ink_floor: float = 0.3
    #: hue difference (1 - cos) between two cells' ink that marks two tiles, counted only
    #: when both inks have at least ``min_hue`` colour
    colour_cut: float = 0.06
    min_hue: float = 0.04
    #: a change of colour alone is an outline for sure when its hue difference and both inks'
    #: colour are this many times ``colour_cut`` and ``min_hue``; a smaller change counts only
    #: with a border that is not clearly without a line (else the border is undecided)
    sure_hue_factor: float = 2.0
    #: cells whose read is less sure than this are listed as doubtful
    doubtful_below: float = 0.6
    #: below this orientation confidence (pad without markers) the orientation is a question
    min_orientation: float = 0.2


def reader_config(cfg: Config | None = None) -> SheetReaderConfig:
    """The reader's thresholds from a loaded configuration's ``[vision.sheet]`` (``None``:
    the defaults); the section has one key for every field of :class:`SheetReaderConfig`.

    >>> reader_config().cut
    0.13
    """
    sheet = (cfg if cfg is not None else Config()).vision.sheet
    return SheetReaderConfig(**{f.name: getattr(sheet, f.name) for f in fields(SheetReaderConfig)})


DEFAULT_CONFIG = reader_config()


@dataclass(frozen=True)
class CellFeatures:
    """Per-cell measurements, arrays of shape (9, 9)."""

    ink: np.ndarray  # share of the inside that is ink
    score: np.ndarray  # fill score: <= empty_score empty, >= filled_score filled
    texture: np.ndarray  # std of the darkness inside
    spread_x: np.ndarray  # std of ink x positions, in cells
    spread_y: np.ndarray
    colour: np.ndarray  # (9, 9, 3) mean deviation from grey of the ink pixels (hue)
    darkness: np.ndarray  # mean darkness of the inside (0 paper .. 1 black)


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


# ---------------------------------------------------------------- stages


def paper_model(gray: np.ndarray, *, step_ratio: float = 0.8, percentile: float = 60
                ) -> np.ndarray:
    """The paper's brightness everywhere, under uneven light and shadows.

    Each half-cell patch gives its bright end (hatching, scribbles and crosses leave paper
    between their strokes). A patch much darker than the brightest of its neighbours is ink
    all over (solid shading): its value is replaced by its neighbours' and the test repeated,
    so paper brightness flows into solid blocks from their edges, while the gentle slope of a
    soft shadow (a few percent a patch) is kept.
    """
    g = gray.astype(np.float32)
    step = CANON_CELL // 2
    n = CANON_SIZE // step
    patches = g[: n * step, : n * step].reshape(n, step, n, step).transpose(0, 2, 1, 3)
    flat = patches.reshape(n, n, -1)
    kth = int(flat.shape[2] * percentile / 100)
    top = int(flat.shape[2] * 0.9)
    parted = np.partition(flat, (kth, top), axis=2)
    middle = parted[:, :, kth].astype(np.float32)
    high = parted[:, :, top].astype(np.float32)
    # A patch with strokes shows the paper between them: its high percentile is the paper
    # there (in a shadow too). A uniform patch is paper or solid shading: its middle
    # percentile, which the neighbour test below sorts out.
    textured = high > middle * 1.2
    bright = np.where(textured, high, middle)
    uniform = ~textured
    level = float(np.median((high / np.maximum(middle, 1.0))[uniform])) if uniform.any() else 1.0
    # side neighbours only: a soft shadow's slope along a diagonal would look like a step
    kernel = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    first = bright < cv2.dilate(bright, kernel) * step_ratio
    ceiling = _smooth_surface(bright, ~first) * 1.04
    estimate = bright.copy()
    for _ in range(12):
        neighbours = cv2.dilate(estimate, kernel)
        low = estimate < neighbours * step_ratio
        if not low.any():
            break
        # lifted towards the neighbours, but never above the smooth light of the whole sheet:
        # a solid block next to a shadow must not carry bright paper into the shadow
        estimate = np.where(low, np.minimum(neighbours * 0.97, ceiling), estimate)
    smooth = cv2.GaussianBlur(estimate * level, (3, 3), 0.8)
    return cv2.resize(
        smooth,
        (CANON_SIZE, CANON_SIZE),
        interpolation=cv2.INTER_LINEAR,
    )


def _smooth_surface(values: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """A cubic surface through the kept values (robust: values far below it are dropped)."""
    n = values.shape[0]
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float64)
    x = (xx / (n - 1) * 2 - 1).ravel()
    y = (yy / (n - 1) * 2 - 1).ravel()
    design = np.stack([np.ones_like(x), x, y, x * x, x * y, y * y, x ** 3, x * x * y,
                       x * y * y, y ** 3], axis=1)
    v = values.ravel().astype(np.float64)
    mask = keep.ravel().copy()
    if mask.sum() < 12:
        mask = v >= np.percentile(v, 50)
    coeffs = np.linalg.lstsq(design[mask], v[mask], rcond=None)[0]
    for _ in range(2):
        fitted = design @ coeffs
        mask = keep.ravel() & (v > fitted * 0.9)
        if mask.sum() < 12:
            break
        coeffs = np.linalg.lstsq(design[mask], v[mask], rcond=None)[0]
    surface: np.ndarray = (design @ coeffs).reshape(n, n).astype(np.float32)
    return surface


#: the reading works on the grid plus this many pixels around it
PAD = 8
GRID_PX = N * CANON_CELL


def paper_cast(canon: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """The paper's colour (per channel, relative to its grey) from the margin around the grid."""
    img = canon[::4, ::4].astype(np.float32)
    gray = img.mean(axis=2)
    ratio = gray / np.maximum(paper[::4, ::4], 1.0)
    ring = np.ones(gray.shape, bool)
    m = CANON_MARGIN // 4
    ring[m:-m, m:-m] = False
    paperlike = ring & (ratio > 0.9)
    if paperlike.sum() < 20:
        paperlike = ratio > np.percentile(ratio, 70)
    return img[paperlike].mean(axis=0) / max(float(gray[paperlike].mean()), 1.0)  # type: ignore[no-any-return]


def crop_grid(a: np.ndarray) -> np.ndarray:
    """The grid and PAD pixels around it; cell (r, c) starts at PAD + (r, c) * CANON_CELL."""
    lo, hi = CANON_MARGIN - PAD, CANON_MARGIN + GRID_PX + PAD
    return a[lo:hi, lo:hi]


def ink_maps(
    grid_img: np.ndarray, paper: np.ndarray, cast: np.ndarray, cfg: SheetReaderConfig
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per pixel of the cropped grid: ink mask, darkness (0..1), colour (paper = (1, 1, 1))
    and chroma (spread of the colour channels)."""
    channels = [
        cv2.divide(grid_img[:, :, i].astype(np.float32), paper * float(cast[i]))
        for i in range(3)
    ]
    low = cv2.min(cv2.min(channels[0], channels[1]), channels[2])
    high = cv2.max(cv2.max(channels[0], channels[1]), channels[2])
    # darkness in the most absorbed channel: graphite darkens all three, a coloured pencil
    # darkens one or two strongly even when it looks light in grey
    darkness = np.clip(1.0 - low, 0.0, 1.0)
    chroma = high - low
    ink = (darkness > cfg.ink_darkness) | ((chroma > cfg.ink_chroma) & (darkness > cfg.ink_light))
    return ink, darkness, cv2.merge(channels), chroma


def _cells_view(a: np.ndarray) -> np.ndarray:
    """(9, C, 9, C, ...) view of the grid region of a cropped map."""
    grid = a[PAD:PAD + GRID_PX, PAD:PAD + GRID_PX]
    return grid.reshape(N, CANON_CELL, N, CANON_CELL, *a.shape[2:])


def cell_features(
    ink: np.ndarray,
    darkness: np.ndarray,
    norm: np.ndarray,
    chroma_map: np.ndarray,
    cfg: SheetReaderConfig,
) -> CellFeatures:
    """Measure every cell's inside (the outlines along its sides stay out)."""
    lo = int(round(CANON_CELL * cfg.inset))
    hi = CANON_CELL - lo
    inside = _cells_view(ink)[:, lo:hi, :, lo:hi].transpose(0, 2, 1, 3).astype(np.float32)
    dark = _cells_view(darkness)[:, lo:hi, :, lo:hi].transpose(0, 2, 1, 3)
    colour = _cells_view(norm)[:, lo:hi, :, lo:hi].transpose(0, 2, 1, 3, 4)
    size = hi - lo
    count = inside.sum(axis=(2, 3))
    share = count / (size * size)
    coords = (np.arange(size, dtype=np.float32) + lo) / CANON_CELL
    safe = np.maximum(count, 1)
    mean_y = (inside.sum(axis=3) * coords).sum(axis=2) / safe
    mean_x = (inside.sum(axis=2) * coords).sum(axis=2) / safe
    var_y = (inside.sum(axis=3) * coords**2).sum(axis=2) / safe - mean_y**2
    var_x = (inside.sum(axis=2) * coords**2).sum(axis=2) / safe - mean_x**2
    # the hue of the ink: its mean deviation from grey (graphite and black pen have none)
    grey = colour.mean(axis=4, keepdims=True)
    ink_colour = ((colour - grey) * inside[..., None]).sum(axis=(2, 3)) / safe[..., None]
    mean_dark = dark.mean(axis=(2, 3))
    texture = dark.std(axis=(2, 3))
    score = np.maximum.reduce(
        [
            share / cfg.ink_share_unit,
            np.maximum(texture - cfg.texture_floor, 0) / cfg.texture_unit,
            mean_dark / cfg.darkness_unit,
        ]
    )
    return CellFeatures(
        ink=share,
        score=score,
        texture=texture,
        spread_x=np.sqrt(np.maximum(var_x, 0)),
        spread_y=np.sqrt(np.maximum(var_y, 0)),
        colour=ink_colour,
        darkness=mean_dark,
    )


def classify_cells(
    f: CellFeatures, cfg: SheetReaderConfig
) -> tuple[np.ndarray, np.ndarray, list[Cell]]:
    """(state, confidence, bonus candidates): state 0 empty, 1 filled, -1 doubtful."""
    score = f.score
    state = np.where(score >= cfg.filled_score, 1, np.where(score <= cfg.empty_score, 0, -1))
    # confidence: 0.5 at the edge of the doubtful band, 1.0 at twice the distance
    centre = math.sqrt(cfg.empty_score * cfg.filled_score)
    half_band = math.log(cfg.filled_score / centre)
    distance = np.abs(np.log(np.maximum(score, 1e-3) / centre)) / half_band
    confidence = np.where(
        state == -1, distance * 0.5, np.clip(0.5 + (distance - 1) * 0.5, 0.5, 1.0)
    )
    ones = []
    for r in range(N):
        for c in range(N):
            if f.ink[r, c] < cfg.one_min_ink:
                continue
            if f.spread_y[r, c] < 0.1:
                continue
            if f.spread_x[r, c] <= cfg.one_aspect * f.spread_y[r, c]:
                ones.append((r, c))
    return state, confidence, ones


def _one_stroke(ink: np.ndarray, cell: Cell, f: CellFeatures, cfg: SheetReaderConfig) -> bool:
    """A written 1 for sure: narrow, upright, and one or two strokes (hatching is many)."""
    r, c = cell
    if f.spread_x[r, c] > min(cfg.one_max_spread, cfg.one_strict * f.spread_y[r, c]):
        return False
    lo = int(round(CANON_CELL * cfg.inset))
    y0, x0 = PAD + r * CANON_CELL + lo, PAD + c * CANON_CELL + lo
    size = CANON_CELL - 2 * lo
    crop = ink[y0:y0 + size, x0:x0 + size].astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(crop, connectivity=8)
    strokes = sum(1 for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= 6)
    return strokes <= 2


def border_light(darkness: np.ndarray, *, sides: tuple[float, float] = (0.12, 0.3),
                 percentile: float = 70.0, reach: int = 1, across: int = 2,
                 along: int = 5) -> tuple[tuple[np.ndarray, np.ndarray],
                                          tuple[np.ndarray, np.ndarray]]:
    """Light through each border between neighbours, and light beside it (per cell of border):
    ``((through_right, beside_right), (through_below, beside_below))``.

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
    trim = int(CANON_CELL * 0.22)
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

    def per_cell(a: np.ndarray) -> np.ndarray:
        # (8, L) -> (8, 9): percentile over the trimmed middle of each cell's stretch
        cells = a[:, PAD:PAD + GRID_PX].reshape(N - 1, N, CANON_CELL)[:, :, trim:CANON_CELL - trim]
        return np.percentile(cells, percentile, axis=2)  # type: ignore[no-any-return]

    # (8 lines, 9 rows) transposed to (9, 8); (8 lines, 9 cols)
    return (per_cell(band_v).T, per_cell(side_v).T), (per_cell(band_h), per_cell(side_h))


def outline_scores(through: np.ndarray, beside: np.ndarray, printed: float,
                   cfg: SheetReaderConfig) -> np.ndarray:
    """How much darker each border is than the printed line would be under the fill beside it.

    Shading covers the paper and the printed line alike, down to the light that full cover
    lets through (``ink_floor``); so under dark shading the printed line loses most of its
    contrast, and a ratio to the fill alone would make a pencil outline over solid shading
    look like no outline. The light expected through a border with no outline is the
    printed line's, covered as much as the fill beside it is covered.
    """
    floor = cfg.ink_floor
    cover = np.clip((1.0 - beside) / max(1.0 - floor, 1e-3), 0.0, 1.0)
    expected = printed * (1.0 - cover) + floor * cover
    scores: np.ndarray = 1.0 - through / np.maximum(expected, 1e-3)
    return scores


def outline_thresholds(scores: np.ndarray, cfg: SheetReaderConfig) -> tuple[float, float]:
    """(cut, join) for this sheet, from its own outline scores between filled cells.

    The scores of one sheet fall in two groups: borders inside a tile (no outline) and
    borders between tiles (an outline). Their levels move with the hand and the light (soft
    pencil over dark shading gives low scores all over, heavy pen high ones), so the decision
    is taken against this sheet's two groups (two means in one dimension, medians as
    centres); a border close to the middle of the two is undecided (a question, unless the
    rules settle it). A sheet without two clear groups keeps the fixed thresholds.
    """
    values = np.asarray(scores, np.float64)
    if values.size < 4:
        return cfg.cut, cfg.join
    lo, hi = cfg.join - 0.05, cfg.cut + 0.15
    for _ in range(20):
        mid = (lo + hi) / 2
        low, high = values[values <= mid], values[values > mid]
        if low.size == 0 or high.size == 0:
            return cfg.cut, cfg.join
        new_lo, new_hi = float(np.median(low)), float(np.median(high))
        if new_lo == lo and new_hi == hi:
            break
        lo, hi = new_lo, new_hi
    gap = hi - lo
    if gap < cfg.min_outline_gap:
        return cfg.cut, cfg.join
    mid = (lo + hi) / 2
    return mid + cfg.outline_margin * gap, mid - cfg.outline_margin * gap


def printed_line_level(right: np.ndarray, below: np.ndarray, filled: np.ndarray,
                       cfg: SheetReaderConfig) -> float:
    """How much light the printed grid line lets through.

    Measured on the borders between two empty cells; on a nearly full sheet, from the upper
    part of the borders between filled cells (inside a tile, most of them); else the prior.
    """
    empty = ~filled
    values = list(right[empty[:, :-1] & empty[:, 1:]])
    values += list(below[empty[:-1, :] & empty[1:, :]])
    if len(values) >= 3:
        return float(np.median(values))
    inside = list(right[filled[:, :-1] & filled[:, 1:]])
    inside += list(below[filled[:-1, :] & filled[1:, :]])
    if len(inside) >= 6:
        return float(np.clip(np.percentile(inside, 70), 0.45, 0.85))
    return cfg.printed_line_prior


@dataclass(frozen=True)
class Segmentation:
    """Tiles found on a sheet, and the questions the outlines leave open."""

    shapes: tuple[tuple[Cell, ...], ...]
    questions: tuple[dict[str, Any], ...]
    #: every border between two filled cells: (cell, cell) -> (outline there: True, False or
    #: None when asked; confidence 0..1, below 0.5 when the drawing left it undecided; what
    #: decided it: "drawing", "colour", "rules" or "asked")
    outlines: dict[tuple[Cell, Cell], tuple[bool | None, float, str]] = field(
        default_factory=dict)


def hue_gap(a: np.ndarray, b: np.ndarray, cfg: SheetReaderConfig) -> float:
    """1 - cos of the angle between two inks' hues; 0 when either is grey (no evidence)."""
    na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    if na < cfg.min_hue or nb < cfg.min_hue:
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


def _question(kind: str, cells: list[Cell], message: str) -> dict[str, Any]:
    return {"kind": kind, "cells": [list(x) for x in sorted(cells)], "message": message}


def segment(
    tiles: set[Cell],
    right: np.ndarray,
    below: np.ndarray,
    colour: np.ndarray,
    cfg: SheetReaderConfig,
    *,
    max_unsure: int = 8,
    thresholds: tuple[float, float] | None = None,
    settle_by_rules: bool = True,
) -> Segmentation:
    """Group filled cells into tiles; what the drawing leaves open becomes a question.

    Borders with a clear outline (or a change of colour) separate tiles, borders clearly
    without one join them. An undecided border is settled by the rules when only one way of
    settling the undecided borders around it gives tiles the rules allow (1-7 cells, the start
    8 on the centre) and ``settle_by_rules`` (the sheet's outlines stand out); otherwise it is
    a question (and joined meanwhile).
    """
    cut_at, join_at = thresholds if thresholds is not None else (cfg.cut, cfg.join)
    base = _Union()
    for cell in tiles:
        base.find(cell)
    cuts: list[tuple[Cell, Cell]] = []
    unsure: list[tuple[Cell, Cell]] = []
    outlines: dict[tuple[Cell, Cell], tuple[bool | None, float, str]] = {}
    middle, half = (cut_at + join_at) / 2, max((cut_at - join_at) / 2, 1e-6)
    for r, c in sorted(tiles):
        for (nr, nc), score in (
            ((r, c + 1), right[r, c] if c + 1 < N else 0.0),
            ((r + 1, c), below[r, c] if r + 1 < N else 0.0),
        ):
            if (nr, nc) not in tiles:
                continue
            hue = hue_gap(colour[r, c], colour[nr, nc], cfg)
            strong_hue = (hue > cfg.colour_cut * cfg.sure_hue_factor
                          and min(np.linalg.norm(colour[r, c]), np.linalg.norm(colour[nr, nc]))
                          >= cfg.min_hue * cfg.sure_hue_factor)
            # confidence: 0.5 at the edge of the undecided band, 1.0 at twice the distance
            distance = abs(float(score) - middle) / half
            sure = float(np.clip(0.5 + (distance - 1) * 0.5, 0.5, 1.0))
            border = ((r, c), (nr, nc))
            if score > cut_at or strong_hue or (hue > cfg.colour_cut and score > join_at):
                cuts.append(border)
                by_score = score > cut_at
                outlines[border] = (True, sure if by_score else 1.0 if strong_hue else 0.5,
                                    "drawing" if by_score else "colour")
            elif score > join_at or hue > cfg.colour_cut:
                # a change of colour where no line is seen (or a line not clear enough): the
                # pencils of one tile can differ a little; asked unless the rules settle it
                unsure.append(border)
                outlines[border] = (None, 0.5 * min(distance, 1.0), "asked")
            else:
                base.union((r, c), (nr, nc))
                outlines[border] = (False, sure, "drawing")
    members: dict[Cell, list[Cell]] = {}
    for cell in tiles:
        members.setdefault(base.find(cell), []).append(cell)
    # clusters of base pieces linked by undecided borders, each settled on its own
    linked = _Union()
    for a, b in unsure:
        linked.union(base.find(a), base.find(b))
    clusters: dict[Cell, list[tuple[Cell, Cell]]] = {}
    for edge in unsure:
        clusters.setdefault(linked.find(base.find(edge[0])), []).append(edge)
    final = _Union()
    for cell in tiles:
        final.union(cell, base.find(cell))
    questions: list[dict[str, Any]] = []
    for edges in clusters.values():
        roots = sorted({base.find(x) for edge in edges for x in edge})
        root_set = set(roots)
        legal: list[int] = []
        if len(edges) <= max_unsure:
            for choice in range(1 << len(edges)):
                trial = _Union()
                for root in roots:
                    trial.find(root)
                for i, (a, b) in enumerate(edges):
                    if choice >> i & 1:
                        trial.union(base.find(a), base.find(b))
                pieces: dict[Cell, list[Cell]] = {}
                for root in roots:
                    pieces.setdefault(trial.find(root), []).extend(members[root])
                # a drawn outline must end up between two tiles, not inside one
                closed = all(
                    trial.find(base.find(a)) != trial.find(base.find(b))
                    for a, b in cuts
                    if base.find(a) in root_set and base.find(b) in root_set
                )
                if closed and all(_is_legal_tile(p) for p in pieces.values()):
                    legal.append(choice)
                    if len(legal) > 1:
                        break
        if len(legal) == 1 and settle_by_rules:
            for i, (a, b) in enumerate(edges):
                joined = bool(legal[0] >> i & 1)
                if joined:
                    final.union(a, b)
                outlines[(a, b)] = (not joined, outlines[(a, b)][1], "rules")
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
    groups: dict[Cell, list[Cell]] = {}
    for cell in tiles:
        groups.setdefault(final.find(cell), []).append(cell)
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
    seen: set[tuple[str, str]] = set()
    unique = []
    for q in questions:
        key = (q["kind"], str(q["cells"]))
        if key not in seen:
            seen.add(key)
            unique.append(q)
    shapes = tuple(sorted(tuple(sorted(g)) for g in groups.values()))
    return Segmentation(shapes, tuple(unique), outlines)


def read_canonical(
    canon: np.ndarray,
    cfg: SheetReaderConfig = DEFAULT_CONFIG,
    *,
    method: str = "canonical",
    started: float | None = None,
    orientation_confidence: float = 1.0,
    deck: Deck | None = None,
) -> SheetReading:
    """Read a canonical (already located) sheet image."""
    started = time.perf_counter() if started is None else started
    gray = canon.mean(axis=2).astype(np.float32) if canon.ndim == 3 else canon.astype(np.float32)
    mesh = refine_mesh(gray)
    canon = rectify(canon, mesh)
    if canon.ndim == 2:
        canon = cv2.cvtColor(canon, cv2.COLOR_GRAY2BGR)
    gray = cv2.cvtColor(canon, cv2.COLOR_BGR2GRAY).astype(np.float32)
    paper = paper_model(gray)
    cast = paper_cast(canon, paper)
    ink, darkness, norm, chroma_map = ink_maps(crop_grid(canon), crop_grid(paper), cast, cfg)
    f = cell_features(ink, darkness, norm, chroma_map, cfg)
    state, confidence, ones = classify_cells(f, cfg)
    questions: list[dict[str, Any]] = []
    doubtful = [(r, c) for r in range(N) for c in range(N) if state[r, c] == -1]
    for cell in doubtful:
        questions.append(
            {
                "kind": "cell",
                "cells": [list(cell)],
                "message": f"is cell {list(cell)} filled? the marks are not clear",
            }
        )
    bonus: Cell | None = None
    ones = [cell for cell in ones if state[cell] != 0]
    # a 1 shaped mark with more ink than a written 1 has (a heavy pen, a blurred frame) is
    # never taken for sure, but asked about when no sure 1 is found: read as a one-cell tile
    # it would change the score without a question
    strong = [cell for cell in ones
              if f.ink[cell] <= cfg.one_max_ink and _one_stroke(ink, cell, f, cfg)]
    weak = [cell for cell in ones if cell not in strong]
    if len(strong) == 1:
        bonus = strong[0]
    elif not strong and weak:
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
    # a doubtful cell is asked about; meanwhile it counts on the side its score is nearer
    leaning = math.sqrt(cfg.empty_score * cfg.filled_score)
    filled = {(r, c) for r in range(N) for c in range(N)
              if state[r, c] == 1 or (state[r, c] == -1 and f.score[r, c] >= leaning)}
    if bonus is not None:
        filled.add(bonus)
    tiles = filled - ({bonus} if bonus else set())
    (through_r, beside_r), (through_b, beside_b) = border_light(darkness)
    ratio_r = through_r / np.maximum(beside_r, 1e-3)
    ratio_b = through_b / np.maximum(beside_b, 1e-3)
    printed = printed_line_level(ratio_r, ratio_b, state == 1, cfg)
    right = outline_scores(through_r, beside_r, printed, cfg)
    below = outline_scores(through_b, beside_b, printed, cfg)
    pairs = np.concatenate([right[np.asarray([[(r, c) in tiles and (r, c + 1) in tiles
                                               for c in range(N - 1)] for r in range(N)])],
                            below[np.asarray([[(r, c) in tiles and (r + 1, c) in tiles
                                               for c in range(N)] for r in range(N - 1)])]])
    thresholds = outline_thresholds(pairs, cfg)
    # the rules may settle an undecided border only on a sheet whose outlines stand out from
    # the rest (two clear groups): where none are drawn, a legal split is still a guess
    calibrated = thresholds != (cfg.cut, cfg.join)
    seg = segment(tiles, right, below, f.colour, cfg, thresholds=thresholds,
                  settle_by_rules=calibrated)
    questions.extend(seg.questions)
    # a doubtful cell changes the tiles around it: they are part of its question
    for q in questions:
        if q["kind"] != "cell":
            continue
        r, c = q["cells"][0]
        near = {(r + dr, c + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))}
        for shape in seg.shapes:
            if near & set(shape):
                q["cells"].extend(list(x) for x in shape if list(x) not in q["cells"])
    if orientation_confidence < cfg.min_orientation:
        questions.append(
            {
                "kind": "orientation",
                "cells": [],
                "message": "which side of the sheet is up? the title is not clear",
            }
        )
    check = check_sheet(sorted(filled), shapes=list(seg.shapes), bonus=bonus, deck=deck)
    rows = tuple(
        "".join("1" if (r, c) == bonus else "#" if (r, c) in filled else "." for c in range(N))
        for r in range(N)
    )
    doubtful_all = sorted(
        {(r, c) for r in range(N) for c in range(N) if confidence[r, c] < cfg.doubtful_below}
        | {tuple(x) for q in questions for x in q["cells"]}
    )
    overall = float(confidence.min())
    # the least sure outline the drawing (or the colour) decided; the rules' settlements and
    # the asked borders are covered by the questions
    drawn = [sure for _, sure, by in seg.outlines.values() if by in ("drawing", "colour")]
    if drawn:
        overall = min(overall, min(drawn))
    if questions:
        overall = min(overall, 0.5)
    return SheetReading(
        grid_rows=rows,
        shapes=seg.shapes,
        bonus=bonus,
        check=check,
        questions=tuple(questions),
        doubtful=tuple(doubtful_all),
        confidence=overall,
        cell_confidence=confidence,
        method=method,
        seconds=time.perf_counter() - started,
        outlines=seg.outlines,
        debug={
            "ink": f.score,
            "right": right,
            "below": below,
            "printed": printed,
            "thresholds": thresholds,
            "spread_x": f.spread_x,
            "spread_y": f.spread_y,
            "canon": canon,
            "ones": ones, "colour": f.colour, "texture": f.texture, "darkness": f.darkness,
        },
    )


def read_sheet(
    image: np.ndarray,
    cfg: SheetReaderConfig = DEFAULT_CONFIG,
    *,
    layout: SheetLayout | None = None,
    deck: Deck | None = None,
) -> SheetReading:
    """Read a camera frame of a sheet. Raises FrameRefusedError (exit 4) when the grid cannot
    be found or trusted."""
    started = time.perf_counter()
    fit: GridFit = locate_grid(image, layout)
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    canon = warp_canon(image, fit.image_to_canon)
    return read_canonical(
        canon,
        cfg,
        method=fit.method,
        started=started,
        orientation_confidence=fit.orientation_confidence,
        deck=deck,
    )
