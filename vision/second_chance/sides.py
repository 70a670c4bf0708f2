"""How much of each cell side a drawn stroke follows: the sheet's outlines as people draw them.

A drawn outline is a stroke that follows the grid line over most of a cell side. It is told
from the printed line by the printed line's own profile on the same sheet: the light on the
line against the light just beside it. That ratio is the same through a translucent fill
(a marker, a coloured pencil multiply the light on the line and beside it alike), so the
printed line showing through a fill is not an outline; ink on the line takes more light than
that.

The light is first averaged along the line over a good part of a side (:data:`ALONG_PX`): a
stroke lying along the line keeps its darkness, a hatch stroke crossing the line is a few
pixels of that length and all but vanishes. Hatching that runs along the line is not told
apart here (its strokes are along the line too): the reader knows it from the strokes inside
the two cells (``strokes_along``).

Works on the darkness map of :mod:`vision.second_chance.cells` (the cropped grid, ``PAD``
pixels around it, 0 paper .. 1 black).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.second_chance.cells import PAD
from vision.second_chance.geometry import CANON_CELL
from vision.second_chance.layout import GRID_CELLS

N = GRID_CELLS
#: the light is averaged along the line over this many pixels (a third of a side)
ALONG_PX = CANON_CELL // 3 | 1
#: a drawn stroke is looked for this far either side of the printed line (wobble, a stroke
#: drawn just inside the tile, the grid found a pixel off)
BAND_PX = 4
#: the light beside the line is taken this far from it (past the band, inside the cells), as
#: the brightest of a band as wide as the line's (so a fill's texture darkens both alike)
BESIDE_PX = 7
#: the ends of a side are left out (corners: the crossing line, an overshoot from the next
#: side)
END_TRIM = 0.12
#: a position of a side is stroked where the line takes this share more light than the
#: printed line does
INK_BEYOND_PRINT = 0.12
#: a position of a side on an empty cell is also stroked where the band's third darkest column
#: (rank 2 of its columns) takes this share more light than the printed line's third darkest
#: does on the same line: an outline drawn beside the printed line, on its shoulders (1-3 px
#: from it), in an ink lighter than the print, which makes the line two or three times as
#: wide but no darker (the independent photos' pencil and coloured outlines, tuning seeds
#: 0-39). Between two filled cells only for a cut to stand, and where the two fills are not
#: both strokes with paper between (see :func:`side_coverage`)
WIDE_RANK = 2
WIDE_BEYOND_PRINT = 0.06
#: the printed line's ratio is measured on at least this many sides between two empty cells;
#: else it is taken as :data:`PRINTED_RATIO`
MIN_PRINTED_SIDES = 1
PRINTED_RATIO = 0.65
#: the printed line under the fills is measured on at least this many sides inside a tile
#: (two filled cells the learned model is sure no outline parts); else the line between two
#: filled cells is held against the printed line between empty ones
MIN_UNDER_FILL_SIDES = 2
#: ... among the sides inside a tile whose fills' mean light is within this of its own (the
#: printed line shows through a light fill and a dense one differently)
FILL_ALIKE = 0.1

Border = tuple[tuple[int, int], tuple[int, int]]


@dataclass(frozen=True)
class SideCoverage:
    """The share of each side a drawn stroke follows: ``right[r, c]`` the side between
    (r, c) and (r, c + 1), ``below[r, c]`` between (r, c) and (r + 1, c); and the printed
    line's own ratio of light on the line to light beside it on this sheet."""

    right: np.ndarray
    below: np.ndarray
    printed: float
    #: how much darker the line is than the two cells' own darkest strokes, side by side as
    #: ``right`` and ``below`` (see :func:`ink_over_fill`); None: not measured
    over_fill_right: np.ndarray | None = None
    over_fill_below: np.ndarray | None = None
    #: the coverage a cut is held against, side by side as ``right`` and ``below``: theirs,
    #: and the line's width between two fills that are not both strokes (see
    #: :func:`side_coverage`); None: as ``right`` and ``below``
    cut_right: np.ndarray | None = None
    cut_below: np.ndarray | None = None

    def of(self, a: tuple[int, int], b: tuple[int, int]) -> float:
        """The coverage of the side between neighbours ``a`` and ``b`` (a first)."""
        return float(self.right[a] if a[0] == b[0] else self.below[a])

    def of_cut(self, a: tuple[int, int], b: tuple[int, int]) -> float:
        """The coverage a cut between neighbours ``a`` and ``b`` (a first) is held
        against."""
        if self.cut_right is None or self.cut_below is None:
            return self.of(a, b)
        return float(self.cut_right[a] if a[0] == b[0] else self.cut_below[a])

    def by_border(self, *, for_cuts: bool = False) -> dict[Border, float]:
        """The coverage of every inner side, keyed ``(a, b)`` with ``a`` the first cell
        (``for_cuts``: the coverage a cut is held against, see :meth:`of_cut`)."""
        right, below = ((self.cut_right, self.cut_below) if for_cuts else (None, None))
        right = self.right if right is None else right
        below = self.below if below is None else below
        return {**{((r, c), (r, c + 1)): float(right[r, c])
                   for r in range(N) for c in range(N - 1)},
                **{((r, c), (r + 1, c)): float(below[r, c])
                   for r in range(N - 1) for c in range(N)}}

    def over_fill(self, a: tuple[int, int], b: tuple[int, int]) -> float | None:
        """The ink over the fill of the side between neighbours ``a`` and ``b`` (a first)."""
        if self.over_fill_right is None or self.over_fill_below is None:
            return None
        return float(self.over_fill_right[a] if a[0] == b[0] else self.over_fill_below[a])


def columns_reduced(image: np.ndarray, starts: np.ndarray, width: int,
                     reduce: np.ufunc) -> np.ndarray:
    """``starts.shape + (height,)``: ``reduce`` (np.minimum or np.maximum: exact in any order)
    over the ``width`` columns of ``image`` from each start, all at once: the columns are
    gathered as rows, and numpy reduces across rows many times faster than along a row's few
    pixels (the plain ``image[:, x:x + width].min(axis=1)``, one line at a time)."""
    rows = image.T[starts[..., None] + np.arange(width)]        # (..., width, height)
    out: np.ndarray = reduce.reduce(rows, axis=-2)
    return out


def line_ratios(light: np.ndarray, rank: int = 0) -> np.ndarray:
    """``(9, 8, positions)``: along each vertical inner line of each row of cells, the light
    on the line over the light beside it (after the light is averaged along the line); the
    light on the line is the ``rank``-th least of the band's columns (0: its darkest point;
    see :data:`WIDE_RANK`)."""
    return line_ratios_ranked(light, (rank,))[0]


def line_ratios_ranked(light: np.ndarray, ranks: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """:func:`line_ratios` of ``light`` at each of ``ranks``, in that order: the light
    averaged along the lines and the light beside them are the same for every rank, so they
    are taken once (a third of the side coverage's time when each rank took its own)."""
    smooth = cv2.blur(light, (1, ALONG_PX))
    width = 2 * BAND_PX + 1
    lines = PAD + CANON_CELL * np.arange(1, N)
    # per line: as wide a band as the line's beside it on the left and on the right
    beside = columns_reduced(smooth, np.stack([lines - BESIDE_PX - width,
                                               lines + BESIDE_PX + 1], axis=1),
                             width, np.minimum)
    brighter_beside = np.maximum(np.maximum(beside[:, 0], beside[:, 1]), 1e-3)
    return tuple(_ratios_by_side(_band_at_rank(smooth, lines, rank) / brighter_beside)
                 for rank in ranks)


def _band_at_rank(smooth: np.ndarray, lines: np.ndarray, rank: int) -> np.ndarray:
    """``(lines, height)``: the ``rank``-th least of the band's columns round each line."""
    width = 2 * BAND_PX + 1
    if rank == 0:
        return columns_reduced(smooth, lines - BAND_PX, width, np.minimum)
    columns = smooth.T[(lines - BAND_PX)[:, None] + np.arange(width)]   # (8, width, h)
    band: np.ndarray = np.partition(columns, rank, axis=1)[:, rank]
    return band


def _ratios_by_side(ratio: np.ndarray) -> np.ndarray:
    """``(9, 8, positions)`` of a ``(8, height)`` ratio along the lines: each row of cells'
    side of each line, its ends trimmed (:data:`END_TRIM`)."""
    trim = int(CANON_CELL * END_TRIM)
    positions = CANON_CELL - 2 * trim
    sides = ratio[:, PAD:PAD + N * CANON_CELL].reshape(N - 1, N, CANON_CELL)
    out: np.ndarray = np.ascontiguousarray(
        sides[:, :, trim:trim + positions].transpose(1, 0, 2), dtype=np.float32)
    return out


def printed_ratio(ratios: tuple[np.ndarray, np.ndarray],
                  bare: tuple[np.ndarray, np.ndarray]) -> float:
    """The printed line's ratio on the sheet: the median over the vertical and horizontal
    sides between two empty cells (``bare``); :data:`PRINTED_RATIO` where there are none."""
    every = np.concatenate([ratios[0][bare[0]], ratios[1][bare[1]]])
    return float(np.median(every)) if len(every) >= MIN_PRINTED_SIDES else PRINTED_RATIO


def _printed_levels(ratios: np.ndarray, bare: np.ndarray, fallback: float) -> np.ndarray:
    """(lines,): the printed line's own ratio on each line, from the sides of it between two
    empty cells (``bare``, (cells, lines) bool); the sheet's where a line has too few."""
    levels = np.full(ratios.shape[1], fallback, np.float32)
    for line in range(ratios.shape[1]):
        own = ratios[bare[:, line], line]
        if len(own) >= MIN_PRINTED_SIDES:
            levels[line] = float(np.median(own))
    return levels


#: the printed line under a fill, as ink over that fill (see :func:`ink_over_fill`), is taken
#: as this percentile over the sheet's sides inside a tile under fills as light
#: (:data:`FILL_ALIKE`): the darker end of the printed line's own profile under that fill
UNDER_FILL_PERCENTILE = 90


def over_printed_line(coverage: SideCoverage, borders: list[Border],
                      inside: frozenset[Border], fill: np.ndarray) -> dict[Border, float]:
    """How much more ink over its fill each of ``borders`` carries than the printed line does
    under a fill as light on the same sheet: its :func:`ink_over_fill` less the
    :data:`UNDER_FILL_PERCENTILE` of the sides ``inside`` a tile whose two cells' mean
    darkness (``fill``, 9 x 9) is within :data:`FILL_ALIKE` of its own. Borders with fewer
    than :data:`MIN_UNDER_FILL_SIDES` such sides, or a sheet whose ink over the fill was not
    measured, have no entry. A drawn outline adds its ink over the printed line; a hatch
    stroke on the line or the printed line through a dense fill or a marker adds none.

    >>> empty = np.zeros((N, N), np.float32)
    >>> over = np.full((N, N), 0.3, np.float32)
    >>> sides = SideCoverage(empty, empty, 0.65, over, over)
    >>> inside = frozenset({((0, 0), (0, 1)), ((1, 0), (1, 1))})
    >>> over_printed_line(sides, [((4, 4), (4, 5))], inside, np.full((N, N), 0.5))
    {((4, 4), (4, 5)): 0.0}
    """
    if coverage.over_fill_right is None:
        return {}
    light = [(float(fill[a] + fill[b]) / 2, float(coverage.over_fill(a, b) or 0.0))
             for a, b in inside]
    found = {}
    for a, b in borders:
        own = float(fill[a] + fill[b]) / 2
        alike = [over for level, over in light if abs(level - own) <= FILL_ALIKE]
        if len(alike) >= MIN_UNDER_FILL_SIDES:
            found[(a, b)] = (float(coverage.over_fill(a, b) or 0.0)
                             - float(np.percentile(alike, UNDER_FILL_PERCENTILE)))
    return found


def light_of_cells(light: np.ndarray) -> np.ndarray:
    """(9, 9): the mean light of each cell (its fill's darkness)."""
    grid = light[PAD:PAD + N * CANON_CELL, PAD:PAD + N * CANON_CELL]
    means: np.ndarray = grid.reshape(N, CANON_CELL, N, CANON_CELL).mean(axis=(1, 3))
    return means


def under_fill_levels(vertical: np.ndarray, horizontal: np.ndarray,
                       inside: frozenset[Border], cell_light: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray]:
    """``(9 rows, 8 lines)``, ``(9 cols, 8 lines)``: the printed line's ratio under a fill as
    dark as the two cells beside each side: the median over the sides ``inside`` a tile whose
    fills are as light (:data:`FILL_ALIKE`); 1 (no say) where there are too few."""
    pairs = [(min(a, b), max(a, b)) for a, b in inside]
    # (the fills' light, as numpy gives it for two cells: float32 or float64 by its version)
    fills = np.array([(cell_light[first] + cell_light[second]) / 2 for first, second in pairs])
    along = np.array([vertical[first[0], first[1]] if first[0] == second[0]
                      else horizontal[first[1], first[0]] for first, second in pairs])
    # each side's ratio, the median along it, as a Python float (float64) like float() gives
    ratios = (np.median(along, axis=1).astype(np.float64) if pairs
              else np.zeros(0, np.float64))
    beside_v = (cell_light[:, :-1] + cell_light[:, 1:]) / 2            # (9 rows, 8 lines)
    beside_h = ((cell_light[:-1, :] + cell_light[1:, :]) / 2).T        # (9 cols, 8 lines)
    return (alike_medians(fills, ratios, beside_v), alike_medians(fills, ratios, beside_h))


def alike_medians(fills: np.ndarray, ratios: np.ndarray, beside: np.ndarray) -> np.ndarray:
    """For each fill light in ``beside``, the median of the ``ratios`` whose ``fills`` are
    within :data:`FILL_ALIKE` of it (1 where fewer than :data:`MIN_UNDER_FILL_SIDES`), as
    float32: every side's median at once, the same values ``np.median`` takes one by one
    (a fifth of the side coverage's time when each was its own call)."""
    if len(ratios) < MIN_UNDER_FILL_SIDES:
        return np.ones(beside.shape, np.float32)
    # the fill compared in the fills' own dtype, as a Python float meets a numpy array
    queries = beside.reshape(-1).astype(fills.dtype)
    alike = np.abs(fills[None, :] - queries[:, None]) <= FILL_ALIKE      # (queries, sides)
    count = alike.sum(axis=1)
    ordered = np.sort(np.where(alike, ratios[None, :], np.inf), axis=1)
    rows = np.arange(len(queries))
    upper, lower = ordered[rows, count // 2], ordered[rows, count // 2 - 1]
    # an even count's median is the mean of the middle two, as np.median takes it (a count
    # under MIN_UNDER_FILL_SIDES has no say: its picks are not used)
    middle = np.where(count % 2 == 1, upper, (lower + upper) / 2)
    levels = np.where(count >= MIN_UNDER_FILL_SIDES, middle, 1.0)
    return levels.reshape(beside.shape).astype(np.float32)


def side_coverage(darkness: np.ndarray, empty: np.ndarray,
                  inside: frozenset[Border] = frozenset(), *,
                  over_fill: bool = True, stroked: np.ndarray | None = None) -> SideCoverage:
    """The coverage of every inner side; ``empty`` (9, 9) bool are the cells read empty, whose
    shared sides show the printed line alone. The printed line is measured on each grid line
    where it can be (the camera's blur and scale change over a tilted sheet).

    A side between two filled cells is held against the printed line under the same fills
    where that is darker: measured on the sides ``inside`` one tile (two filled cells no
    outline parts). A dense dark fill takes more of the line's light than of the paper's
    beside it (ink over ink), so against the bare line the printed line under it would look
    stroked all along (mixed mild 13, ballpoint and marker 14 of the tuning sheets).
    A side with an empty cell beside it is also stroked where the line is wider than the
    printed one (:data:`WIDE_RANK`): an outline drawn beside the print in a lighter ink.
    Between two filled cells that width counts only in the coverage a cut is held against
    (``cut_right``, ``cut_below``), and only where the two fills are not both strokes with
    paper between them (``stroked``, (9, 9) bool; None: every filled cell): the bottoms of a
    row of loops, or hatch strokes, lie along the line beside the print and widen it as such
    an outline does (the project's own loops and ballpoint hatching, tuning pencil,
    ballpoint and marker sheets, some of which the learned model takes for outlines). A
    marker's strokes overlapping on the line widen it too (the project's own mixed scan 5,
    tuning seeds, inside a tile): the width speaks only where the learned model has a say
    too (see :func:`~vision.second_chance.border_decisions.check_by_sides`): it lets a cut
    the drawing or the model made stand (the independent tuning photos 0-39, where the
    outlines between two tiles' even or light fills are drawn on the shoulders). There the
    line is held against the printed line's width under fills as light, as its darkest point
    is: a dense fill widens the printed line under it (ink over ink).
    ``over_fill``: measure each side's ink over the fill too (see :func:`ink_over_fill`)."""
    light = 1.0 - darkness.astype(np.float32)
    bare = (empty[:, :-1] & empty[:, 1:], (empty[:-1, :] & empty[1:, :]).T)
    filled = ~empty
    # (9 rows, 8 lines) and (9 cols, 8 lines): below (r, c) is at [c, r]
    between = (filled[:, :-1] & filled[:, 1:], (filled[:-1, :] & filled[1:, :]).T)
    strokes = filled if stroked is None else filled & stroked
    between_strokes = (strokes[:, :-1] & strokes[:, 1:], (strokes[:-1, :] & strokes[1:, :]).T)
    # the vertical lines' ratios, then the horizontal ones' (of the transposed light)
    (v_darkest, v_wide), (h_darkest, h_wide) = (
        line_ratios_ranked(image, (0, WIDE_RANK)) for image in (light, light.T.copy()))
    darkest, wide = (v_darkest, h_darkest), (v_wide, h_wide)
    printed = printed_ratio(darkest, bare)
    cell_light = light_of_cells(light)
    under = under_fill_levels(*darkest, inside, cell_light)
    wide_printed = printed_ratio(wide, bare)
    wide_under = under_fill_levels(*wide, inside, cell_light)
    drawn, for_cuts = [], []
    for k in range(2):
        cap = np.broadcast_to(_printed_levels(darkest[k], bare[k], printed)[None, :],
                              (N, N - 1))
        cap = np.where(between[k], np.minimum(cap, under[k]), cap)
        wide_cap = np.broadcast_to(_printed_levels(wide[k], bare[k], wide_printed)[None, :],
                                   (N, N - 1))
        wide_cap = np.where(between[k], np.minimum(wide_cap, wide_under[k]), wide_cap)
        widened = wide[k] < wide_cap[:, :, None] * (1 - WIDE_BEYOND_PRINT)
        inked = darkest[k] < cap[:, :, None] * (1 - INK_BEYOND_PRINT)
        drawn.append(inked | (widened & ~between[k][:, :, None]))
        for_cuts.append(inked | (widened & ~between_strokes[k][:, :, None]))
    right, below = _per_side(drawn)
    cut_right, cut_below = _per_side(for_cuts)
    over_right, over_below = ink_over_fill(darkness) if over_fill else (None, None)
    # (over_fill: only a read without the cards uses it, 7 ms a read here)
    return SideCoverage(right, below, printed, over_right, over_below, cut_right, cut_below)


def _per_side(stroked: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """``(right, below)`` as :class:`SideCoverage`'s: the share of each side's positions
    ``stroked`` (vertical lines', horizontal lines')."""
    right = np.zeros((N, N), np.float32)
    below = np.zeros((N, N), np.float32)
    right[:, :N - 1] = stroked[0].mean(axis=2)
    below[:N - 1, :] = stroked[1].mean(axis=2).T
    return right, below


#: the cells' own strokes are taken this far inside each cell (past the lines, an outline's
#: wobble and the fill's overrun of it)
INTERIOR_INSET = 8
#: ... as this percentile of the darkness there: the darkest of the fill's strokes (where
#: hatch strokes cross, or a dense fill's darkest part)
FILL_STROKES_PERCENTILE = 98


def _interiors(darkness: np.ndarray) -> np.ndarray:
    """(9, 9, pixels): the darkness inside each cell, away from its sides."""
    inner = CANON_CELL - 2 * INTERIOR_INSET
    grid = darkness[PAD:PAD + N * CANON_CELL, PAD:PAD + N * CANON_CELL].reshape(
        N, CANON_CELL, N, CANON_CELL)
    keep = slice(INTERIOR_INSET, INTERIOR_INSET + inner)
    inside = grid[:, keep, :, keep]
    return inside.transpose(0, 2, 1, 3).reshape(N, N, inner * inner)


def line_darkness(darkness: np.ndarray) -> np.ndarray:
    """(9 rows, 8 lines): along each vertical inner line of each row of cells, the median over
    the side (ends trimmed) of the darkest pixel within :data:`BAND_PX` of the line (every
    side's median at once)."""
    trim = int(CANON_CELL * END_TRIM)
    lines = PAD + CANON_CELL * np.arange(1, N)
    bands = columns_reduced(darkness, lines - BAND_PX, 2 * BAND_PX + 1, np.maximum)
    sides = bands[:, PAD:PAD + N * CANON_CELL].reshape(N - 1, N, CANON_CELL)
    medians = np.median(sides[:, :, trim:CANON_CELL - trim], axis=2)   # (8 lines, 9 rows)
    out: np.ndarray = np.ascontiguousarray(medians.T, dtype=np.float32)
    return out


def ink_over_fill(darkness: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(right, below)``, (9, 9) each as :class:`SideCoverage`'s: how much darker each inner
    side's line is (the darkest pixel near it, typically along it) than the darkest strokes
    inside the two cells beside it (:data:`FILL_STROKES_PERCENTILE`).

    A drawn outline adds its own ink on top of the printed line and of whatever fill lies
    there; the printed line under a dense fill, or a hatch stroke of the fill lying on the
    line, adds no more than the fill's own strokes do (their darkest are where two of them
    cross, as a stroke crosses the printed line). (Tuning seeds 0-15, mild and harsh photos
    read without the cards: the 17 cuts inside a tile scored 0.05-0.16; the cuts between two
    tiles: 10% below 0.18, median 0.37.)"""
    dark = darkness.astype(np.float32)
    inside = _interiors(dark)
    right = np.ones((N, N), np.float32)
    below = np.ones((N, N), np.float32)
    pairs_v = np.concatenate([inside[:, :-1], inside[:, 1:]], axis=2)    # (9, 8, 2 px)
    pairs_h = np.concatenate([inside[:-1, :], inside[1:, :]], axis=2)    # (8, 9, 2 px)
    right[:, :N - 1] = line_darkness(dark) - np.percentile(
        pairs_v, FILL_STROKES_PERCENTILE, axis=2)
    below[:N - 1, :] = line_darkness(dark.T.copy()).T - np.percentile(
        pairs_h, FILL_STROKES_PERCENTILE, axis=2)
    return right, below
