"""Sheet reader stage 6, the light along the borders: how much light passes through each border
between neighbouring cells and beside it, how much darker than the printed line it is (the
outline score), the sheet's own two groups of scores, and the printed line's level. See
:mod:`vision.second_chance.reader` for the whole pipeline.
"""

from __future__ import annotations

import cv2
import numpy as np

from config.schema import SheetReaderSettings
from vision.second_chance.cells import GRID_PX, PAD
from vision.second_chance.geometry import CANON_CELL
from vision.second_chance.layout import GRID_CELLS
from vision.second_chance.profiles import BORDER_TRIM

N = GRID_CELLS


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
    # every line's pixels gathered at once, (8 lines, width): the same sums, one call each
    band = xs[:, None] + np.arange(-reach, reach + 1)
    before = xs[:, None] + np.arange(-side_b, -side_a)
    after = xs[:, None] + np.arange(side_a, side_b)
    # (8, H): the darkest window near each vertical line, at every height
    band_v = smooth_v[:, band].min(axis=2).T
    band_h = smooth_h[band, :].min(axis=1)
    side_v = (t[:, before].mean(axis=2).T + t[:, after].mean(axis=2).T) / 2
    side_h = (t[before, :].mean(axis=1) + t[after, :].mean(axis=1)) / 2

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
