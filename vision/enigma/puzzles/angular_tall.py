"""The angular structure built of real cubes: each column's top face read at its own height.

A cube is as tall as it is wide. Seen by a camera whose centre stands ``H`` over the table at
its NADIR ``N`` (:mod:`vision.enigma.puzzles.camera_pose`), the top of a column ``k`` cubes
tall over the base cell ``B`` shows on the mat image at ``N + (B - N) * H / (H - k * cube)``:
moved away from the nadir and enlarged, the more the taller the column. So the tops of a
structure do not lie on one grid, and the sides that face the camera fill the sweep from
each base to its top (session 26's census: 0 of 27 held-apart right builds of 12 mm cubes
were read, "the structure does not fit a grid of cubes").

Here the grid is the BASES' grid, and each column's top is looked for at every height: the
lamp lights a top face full and the sides less (a side takes half the light and what the
lamp adds facing it), so a top is a square of one colour, lit as the brightest of that
colour. The camera's pose comes from the mat's homography for each lens of the range the
appliance is used with (its principal point in the frame's middle, or, where no such lens
fits, where the homography puts it: :mod:`vision.enigma.puzzles.off_centre_pose`); the
lens, the grid's place and the heights are those that explain the lit tops best, with the
base edges that face the nadir (where the sides start) at the edges of the structure seen.
Where the tops do not tell (one hidden under a taller column, lit tops no column explains,
two poses that read differently) the check asks.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.enigma import puzzle_angular as angular
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.camera_pose import Eye, camera_eyes
from vision.enigma.puzzles.off_centre_pose import off_centre_eyes
from vision.enigma.puzzles.view import nearest_colour, open_mask
from vision.warp import warp_affine

#: the lenses the pose is tried with (horizontal field of view, degrees): the range of
#: :data:`~vision.enigma.puzzles.camera_pose.FIELD_OF_VIEW_RANGE_DEG`, in steps
LENS_STEPS_DEG = tuple(55.0 + 2.0 * i for i in range(12))
#: the tallest column looked for, in cubes (the box's pieces are 3 and 4 cubes)
MAX_LAYERS = 4
#: a top face is lit at least this share of its colour's brightest (90th percentile) in the
#: structure: a side takes at most about 0.8 of a top's light
TOP_LIT_SHARE = 0.88
#: how far (cubes) the brightest of a colour is looked for round each pixel: past a
#: column's sides to its own top
LIT_REACH = 1.5
#: a face's part joined to its lit part is read lit down to this share of the brightest
DIM_TOP_SHARE = 0.7
#: a pixel lies within a face where its brightness changes by less than this share a pixel
FACE_SLOPE = 0.015
#: a column stands on a base cell at least this share of which shows the structure: its own
#: body covers its base, whatever hides it in turn
BASE_SHARE = 0.5
#: the middle of a top face, this share of its side each way, is what its colour is read on
INNER = 0.5
#: a top is found at a height where its middle is at least this share of one lit colour
FULL_TOP = 0.6
#: a column's top is read where at least this share of it is not under a taller column's top
MIN_VISIBLE = 0.25
#: the grid's place is looked for in steps of this share of a cube
ORIGIN_STEP = 1 / 8
#: a top more than this share under another's was read partly hidden
OVERLAP_SHARE = 0.1
#: the poses and grid places best by the rough score that are fitted column by column
EXACT_FITS = 12
#: lit top pixels that no column explains, beyond this many cubes' faces, leave the read
#: unsure
UNEXPLAINED_CUBES = 0.35
#: lit pixels taken for columns' sides, beyond this many cubes' faces, leave a read that
#: differs from the card unsure: they may be a top the read placed a little off
SIDES_CUBES = UNEXPLAINED_CUBES
#: lit top pixels in strips this many cubes wide or less along the squares are no top
SLIVER_CUBES = 0.12
#: another pose scoring within this share of the best that reads other colours leaves the
#: read unsure
RIVAL_SHARE = 0.03
#: a fit with tops above the table is read only where it scores this share above the best
#: fit of every column on the table
FLAT_MARGIN = 0.1
#: the grid places best by the rough score that are fitted column by column all on the table
FLAT_EXACT_FITS = 2


@dataclass(frozen=True)
class TallRead:
    """A top view read from the lit tops (None with ``why`` when the tops do not tell), and
    whether every column was found at the table's height (a flat top view)."""

    top: tuple[str, ...] | None
    why: str
    flat: bool
    #: whether a column's top was read beside or partly under a taller column's, or lit
    #: pixels beyond SIDES_CUBES cubes' faces were taken for its sides: a read that then
    #: differs from the card may rest on which column is which, or on a top read in part
    overlapped: bool = False


@dataclass(frozen=True)
class _Fit:
    score: float
    top: tuple[str, ...]
    flat: bool
    squares: tuple[tuple[float, float, float, float, int], ...]  # x0, y0, x1, y1, colour
    #: per column read, the box round its base and its top: what of the structure it shows
    columns: tuple[tuple[float, float, float, float], ...]
    overlapped: bool
    #: per square, the index of its base cell and its height
    cells: tuple[tuple[int, int], ...]
    #: per square, the corner (x0, y0) of its base cell
    bases: tuple[tuple[float, float], ...] = ()


def grid_angle(mask: np.ndarray) -> float:
    """The turn (degrees, -45..45) that sets upright the grid of cubes a region is made
    of: the mean direction, modulo a quarter turn, of its outline's edges, each weighted by
    its strength. Every edge of a structure of cubes runs along its grid, whatever its
    shape; the smallest rectangle round a J or an L shape may lie across it (tuning seed 8
    on wood, a J four cubes high: the rectangle lay at -41 degrees, the cubes at 3, and a
    right structure was "cannot tell: 4.8 x 3.4 cubes")."""
    smooth = cv2.GaussianBlur(mask.astype(np.float32), (0, 0), 1.5)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1)
    # four times the edge's direction: edges a quarter turn apart add up instead of cancelling
    quarter = np.sum(np.hypot(gx, gy) * np.exp(4j * np.arctan2(gy, gx)))
    return math.degrees(float(np.angle(quarter)) / 4)


def _lit_tops(image: np.ndarray, mask: np.ndarray, colours: Mapping[str, Any],
              pieces: Sequence[str], cube: float) -> np.ndarray:
    """Per pixel, the index in ``pieces`` of the lit top face it shows, -1 elsewhere: a
    piece's colour at least TOP_LIT_SHARE as bright as the brightest of that colour within
    LIT_REACH cubes, and the part of the same face joined to it. Measured near, not over the
    whole structure: a lamp's fall and a hand's shadow across it dim a whole top as much as
    a side's lean does (tuning seed 2, wood/mild: the lamp's fall left the red and green tops
    in the shade below the cut). The brightest is taken on the faces, not on their edges:
    the blur that steadies the brightness carries a brighter neighbour's light a few pixels
    into a colour's edge (tuning seeds 1 and 4, wood: a yellow top's light at the red top's
    edge set the red cut above the red top, read as a gap, "not solved")."""
    labels, names = nearest_colour(image, dict(colours))
    value = cv2.blur(image.max(axis=2).astype(np.float32), (5, 5))
    face = _on_faces(value)
    k = max(3, int(LIT_REACH * cube)) | 1
    reach = np.ones((k, k), np.uint8)
    lit = np.full(mask.shape, -1, np.int8)
    for i, name in enumerate(pieces):
        this = mask & (labels == names.index(name))
        if this.sum() < 10:
            continue
        near = cv2.dilate(np.where(this & face, value, 0), reach)
        # a colour seen only on edges (a sliver) is measured on them
        near = np.where(near > 0, near, cv2.dilate(np.where(this, value, 0), reach))
        bright = this & (value >= TOP_LIT_SHARE * near)
        lit[bright | _whole_faces(this & face, bright, value >= DIM_TOP_SHARE * near)] = i
    return lit


def _on_faces(value: np.ndarray) -> np.ndarray:
    """The pixels of ``value`` (blurred brightness) that lie within one face, not on the
    step between two: where it changes by less than FACE_SLOPE of itself a pixel. A top
    and a side meet at a step of a sixth of their light and more; a lamp's fall across a
    top changes it a few thousandths a pixel."""
    slope = np.hypot(cv2.Sobel(value, cv2.CV_32F, 1, 0), cv2.Sobel(value, cv2.CV_32F, 0, 1)) / 8
    return np.asarray(slope < FACE_SLOPE * np.maximum(value, 1.0))


def _whole_faces(face: np.ndarray, lit: np.ndarray, dim: np.ndarray) -> np.ndarray:
    """The pixels of ``face`` at least ``dim`` joined, within it, to ones ``lit``: the
    rest of a top whose far part the lamp's fall dims below the lit cut (tuning seed 2,
    wood/mild: half of a red top two cubes long was left out, a gap, "cannot tell")."""
    grown = (face & dim).astype(np.uint8)
    _, parts = cv2.connectedComponents(grown, connectivity=4)
    seeds = np.unique(parts[(grown > 0) & lit])
    return np.isin(parts, seeds[seeds > 0])


class _Tops:
    """The lit tops of one straightened structure, and the structure, counted over
    rectangles at once."""

    def __init__(self, lit: np.ndarray, n_colours: int, structure: np.ndarray) -> None:
        self.shape = lit.shape
        self.sums = np.stack([cv2.integral((lit == i).astype(np.uint8)).astype(np.int64)
                              for i in range(n_colours)])
        self.total = int((lit >= 0).sum())
        self.ground = cv2.integral(structure.astype(np.uint8)).astype(np.int64)[None]

    def counts(self, x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray
               ) -> np.ndarray:
        """Per colour, the lit pixels in each rectangle (colour first, then the rectangles'
        shape)."""
        return self._sums_in(self.sums, x0, y0, x1, y1)

    def standing(self, bx: np.ndarray, by: np.ndarray, cube: float) -> np.ndarray:
        """Whether a column can stand on each base cell whose corner is ``bx``, ``by``: its
        body covers its base, so at least BASE_SHARE of the base shows some of the
        structure (tuning seed 5 wood/mild: an L of blue tops on the table was fitted as
        squares raised over the cells beside it, one over bare table)."""
        return np.asarray(self._sums_in(self.ground, bx, by, bx + cube, by + cube)[0]
                          >= BASE_SHARE * cube * cube)

    def _sums_in(self, sums: np.ndarray, x0: np.ndarray, y0: np.ndarray, x1: np.ndarray,
                 y1: np.ndarray) -> np.ndarray:
        h, w = self.shape
        xa, xb = (np.minimum(np.maximum(np.rint(v), 0), w).astype(np.intp) for v in (x0, x1))
        ya, yb = (np.minimum(np.maximum(np.rint(v), 0), h).astype(np.intp) for v in (y0, y1))
        return np.asarray(sums[:, yb, xb] - sums[:, ya, xb] - sums[:, yb, xa] + sums[:, ya, xa])


def _visible(tops: _Tops, squares: np.ndarray, counts: np.ndarray,
             taller: Sequence[Sequence[float]]) -> tuple[np.ndarray, np.ndarray]:
    """Per square of ``squares`` (rows x0, y0, x1, y1; ``counts`` its lit pixels of each
    colour, colour first), the lit pixels of each colour in it and its area, less those of
    the parts that ``taller`` squares (accepted before, whose tops hide what lies under
    them) cover: each pixel is explained once."""
    areas = (squares[:, 2] - squares[:, 0]) * (squares[:, 3] - squares[:, 1])
    # only the taller squares that reach the squares' box take anything from them
    x_a, y_a = squares[:, :2].min(axis=0)
    x_b, y_b = squares[:, 2:].max(axis=0)
    near = [t[:4] for t in taller if t[0] < x_b and t[2] > x_a and t[1] < y_b and t[3] > y_a]
    if near:
        t = np.asarray(near, float)
        x0 = np.maximum(squares[:, None, 0], t[None, :, 0])
        y0 = np.maximum(squares[:, None, 1], t[None, :, 1])
        x1 = np.maximum(x0, np.minimum(squares[:, None, 2], t[None, :, 2]))
        y1 = np.maximum(y0, np.minimum(squares[:, None, 3], t[None, :, 3]))
        counts = counts - tops.counts(x0, y0, x1, y1).sum(axis=2)
        areas = areas - ((x1 - x0) * (y1 - y0)).sum(axis=1)
    return counts, areas


def _raised(eye: Eye, bx: np.ndarray, by: np.ndarray, cube: float, layers: int
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The top squares (left, top, side; a last axis per height 0..``layers``) of the
    columns over the base cells whose corners are ``bx``, ``by``."""
    g = eye.height / (eye.height - np.arange(layers + 1) * cube)  # the enlargement
    nx, ny = eye.nadir
    tx = nx + (bx[..., None] - nx) * g
    ty = ny + (by[..., None] - ny) * g
    return tx, ty, np.broadcast_to(cube * g, tx.shape)


def _rough_scores(tops: _Tops, eye: Eye, origins: np.ndarray, cells: tuple[int, int],
                  cube: float, extent: tuple[float, float, float, float], layers: int
                  ) -> np.ndarray:
    """:func:`_fit`'s score for each of ``origins`` (rows x, y), roughly and at once: each
    cell's top at its best height, whatever the other columns' tops hide."""
    cols, rows = cells
    ii, jj = np.meshgrid(np.arange(cols), np.arange(rows))
    bx = origins[:, None, 0] + ii.ravel()[None, :] * cube
    by = origins[:, None, 1] + jj.ravel()[None, :] * cube
    tx, ty, side = _raised(eye, bx, by, cube, layers)
    pad = side * (1 - INNER) / 2
    middle = tops.counts(tx + pad, ty + pad, tx + side - pad, ty + side - pad).max(axis=0)
    whole = tops.counts(tx, ty, tx + side, ty + side).max(axis=0)
    gain = np.where(middle >= FULL_TOP * (side * INNER) ** 2, 2 * whole - side ** 2, -np.inf)
    k = gain.argmax(axis=2)[..., None]
    best = np.take_along_axis(gain, k, axis=2)[..., 0]
    built = (best > 0) & tops.standing(bx, by, cube)
    top_x, top_y = (np.take_along_axis(v, k, axis=2)[..., 0] for v in (tx, ty))
    top_side = np.take_along_axis(side, k, axis=2)[..., 0]
    inf = np.inf
    box = np.stack([np.where(built, np.minimum(bx, top_x), inf).min(axis=1),
                    np.where(built, np.minimum(by, top_y), inf).min(axis=1),
                    np.where(built, np.maximum(bx + cube, top_x + top_side), -inf).max(axis=1),
                    np.where(built, np.maximum(by + cube, top_y + top_side), -inf).max(axis=1)])
    miss = np.abs(box - np.asarray(extent)[:, None]).sum(axis=0)
    score: np.ndarray = np.where(built, best, 0.0).sum(axis=1) - tops.total - miss * cube
    return np.where(built.any(axis=1), score, -np.inf)


@dataclass(frozen=True)
class _Grid:
    """The base cells of one grid place, for one eye: per cell its corner and its top's
    square at each height, the lit pixels of each colour in it, and how full of one lit
    colour it is where its middle is (-1 elsewhere, and where no column can stand)."""

    cells: tuple[int, int]  # columns, rows
    bx: np.ndarray
    by: np.ndarray
    rects: np.ndarray  # cell, height, (x0, y0, x1, y1)
    side: np.ndarray  # cell, height
    whole: np.ndarray  # colour, cell, height
    fill: np.ndarray  # cell, height


def _grid(tops: _Tops, eye: Eye, origin: tuple[float, float], cells: tuple[int, int],
          cube: float, layers: int) -> _Grid:
    """The grid of ``cells`` (columns, rows) whose corner is ``origin``, for the camera at
    ``eye`` (straightened crop px), its columns' tops at heights 0..``layers``."""
    cols, rows = cells
    ii, jj = np.meshgrid(np.arange(cols), np.arange(rows))
    bx, by = origin[0] + ii.ravel() * cube, origin[1] + jj.ravel() * cube
    tx, ty, side = _raised(eye, bx, by, cube, layers)
    pad = side * (1 - INNER) / 2
    middle = tops.counts(tx + pad, ty + pad, tx + side - pad, ty + side - pad)
    whole = tops.counts(tx, ty, tx + side, ty + side)
    fill = np.where(middle.max(axis=0) >= FULL_TOP * (side * INNER) ** 2,
                    whole.max(axis=0) / side ** 2, -1.0)
    fill[~tops.standing(bx, by, cube)] = -1.0
    return _Grid(cells, bx, by, np.stack([tx, ty, tx + side, ty + side], axis=-1), side,
                 whole, fill)


def _fit(tops: _Tops, at: _Grid, cube: float, extent: tuple[float, float, float, float],
         forced: Mapping[int, int] | None = None) -> _Fit | None:
    """The columns over the grid ``at``: per cell the height whose top is fullest of one
    lit colour, tallest first, each where a taller column's top does not cover it (or, for
    the cells ``forced``, at the height given, -1 empty)."""
    cols, rows = at.cells
    bx, by, side, whole = at.bx, at.by, at.side, at.whole
    allowed = np.ones(at.fill.shape, bool)
    for c, k_forced in (forced or {}).items():
        allowed[c] = np.arange(at.fill.shape[1]) == k_forced
    whole_fill = np.where(allowed, at.fill, -1.0)
    best_k = whole_fill.argmax(axis=1)
    order = sorted(((int(best_k[c]), float(whole_fill[c, best_k[c]]), c)
                    for c in range(len(bx)) if whole_fill[c, best_k[c]] > 0),
                   key=lambda t: (-t[0], -t[1]))
    grid = [["."] * cols for _ in range(rows)]
    squares: list[tuple[float, float, float, float, int]] = []
    columns: list[tuple[float, float, float, float]] = []
    read: list[tuple[int, int]] = []
    bases: list[tuple[float, float]] = []
    matched = wrong = 0.0
    overlapped = False
    box = [math.inf, math.inf, -math.inf, -math.inf]
    for _, _, c in order:
        rects = at.rects[c]
        seen, areas = _visible(tops, rects, whole[:, c, :], squares)
        n = seen.max(axis=0)
        gain = np.where(allowed[c] & (areas >= MIN_VISIBLE * side[c] ** 2) &
                        (n >= FULL_TOP * np.maximum(areas, 1.0)), 2 * n - areas, -np.inf)
        k = int(gain.argmax())
        if not np.isfinite(gain[k]):
            continue  # no top of its own seen: empty, or under a taller column's top
        x0, y0, x1, y1 = (float(v) for v in rects[k])
        squares.append((x0, y0, x1, y1, int(seen[:, k].argmax())))
        read.append((c, k))
        bases.append((float(bx[c]), float(by[c])))
        columns.append((min(bx[c], rects[k, 0]), min(by[c], rects[k, 1]),
                        max(bx[c] + cube, rects[k, 2]), max(by[c] + cube, rects[k, 3])))
        overlapped |= bool(areas[k] < (1 - OVERLAP_SHARE) * side[c, k] ** 2)
        matched += float(n[k])
        wrong += float(areas[k] - n[k])
        grid[c // cols][c % cols] = str(squares[-1][4])
        box = [min(box[0], bx[c], rects[k, 0]), min(box[1], by[c], rects[k, 1]),
               max(box[2], bx[c] + cube, rects[k, 2]), max(box[3], by[c] + cube, rects[k, 3])]
    if not squares:
        return None
    miss = sum(abs(a - b) for a, b in zip(box, extent, strict=True))
    score = matched - wrong - (tops.total - matched) - miss * cube
    return _Fit(score, tuple("".join(r) for r in grid), max(k for _, k in read) == 0,
                tuple(squares),
                tuple(columns), overlapped, tuple(read), tuple(bases))


def _overlapping(squares: Sequence[tuple[float, float, float, float, int]]) -> list[int]:
    """The indices of the squares that overlap another of their colour: tops of one colour
    at one height tile, so where they overlap, one of them may be read at the wrong
    height."""
    def meet(a: Sequence[float], b: Sequence[float]) -> bool:
        return a[4] == b[4] and min(a[2], b[2]) > max(a[0], b[0]) and \
            min(a[3], b[3]) > max(a[1], b[1])
    return [i for i, a in enumerate(squares)
            if any(meet(a, b) for j, b in enumerate(squares) if j != i)]


def _settled(tops: _Tops, at: _Grid, cube: float, extent: tuple[float, float, float, float],
             fit: _Fit) -> _Fit:
    """``fit`` bettered column by column: each column whose top overlaps another of its
    colour tried empty and at each other height its top's middle is full at, the best
    score kept. :func:`_fit` takes each column's fullest top, tallest first, so a raised
    square lying within a wider top of its colour (an L of one colour's tops) wins it over
    the columns that stand under it, which then show only slivers, are read at other heights
    or are lost (tuning seeds 5 wood/mild and moderate, 3 cloth/strong: right builds read as
    another picture over a partly hidden top, "cannot tell"); each column is judged here by
    what the whole fit explains with it."""
    forced: dict[int, int] = {}
    for c, k in [fit.cells[i] for i in _overlapping(fit.squares)]:
        for other in (-1, *np.flatnonzero(at.fill[c] > 0)):
            if other == k:
                continue
            tried = _fit(tops, at, cube, extent, {**forced, c: other})
            if tried is not None and tried.score > fit.score:
                fit, k = tried, other
        forced[c] = k
    return fit


def _lit_bodies(lit: np.ndarray, squares: Sequence[tuple[float, float, float, float, int]],
                bases: Sequence[tuple[float, float]], cube: float) -> np.ndarray:
    """The lit pixels (``lit``: colour index, -1 unlit) that the columns read explain: those
    of a column's colour within its body as the mat shows it, the hull of its base cell
    (corner ``bases[i]``) and its top square (``squares[i]``). The sides the camera sees
    fill the sweep from the base to the top, and a side that faces the lamp takes as much
    light as a top or more (a vertical face lit from 40 degrees up takes more than a level
    one), so lit pixels are no proof of a top: counted only against a top square, a lit
    side is left unexplained and the read asks."""
    explained = np.zeros(lit.shape, bool)
    h, w = lit.shape
    for (x0, y0, x1, y1, colour), (bx, by) in zip(squares, bases, strict=True):
        corners = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (bx, by),
                            (bx + cube, by), (bx + cube, by + cube), (bx, by + cube)])
        xa, ya = (max(0, int(v)) for v in corners.min(axis=0))
        xb, yb = (min(n, int(math.ceil(v)) + 1) for v, n in zip(corners.max(axis=0), (w, h),
                                                                   strict=True))
        if xb <= xa or yb <= ya:
            continue
        body = np.zeros((yb - ya, xb - xa), np.uint8)
        hull = cv2.convexHull(np.round((corners - (xa, ya)) * 16).astype(np.int32))
        cv2.fillConvexPoly(body, hull, 1, shift=4)
        explained[ya:yb, xa:xb] |= (body > 0) & (lit[ya:yb, xa:xb] == colour)
    return explained


def _lit_on_sides(lit: np.ndarray, fit: _Fit, cube: float) -> int:
    """How many lit pixels the columns of ``fit`` explain as their sides, not as tops."""
    on_tops = np.zeros(lit.shape, bool)
    for x0, y0, x1, y1, colour in fit.squares:
        at = (slice(max(0, int(round(y0))), max(0, int(round(y1)))),
              slice(max(0, int(round(x0))), max(0, int(round(x1)))))
        on_tops[at] |= lit[at] == colour
    return int((_lit_bodies(lit, fit.squares, fit.bases, cube) & ~on_tops).sum())


def _unexplained(lit: np.ndarray, structure: np.ndarray, fit: _Fit, cube: float) -> int:
    """What the columns read leave unexplained: lit pixels outside every column of their
    colour (its top and the sides the camera sees, :func:`_lit_bodies`), and pixels of the
    structure outside every column's box (a column whose top, dimmed by the lamp's fall, was
    not found: tuning seed 2 wood/mild, a right structure was "not solved" with a red cube
    read as a gap), but for slivers along the edges (less than 2 x SLIVER_CUBES wide): a
    pose read in steps leaves the squares a few pixels off the tops."""
    covered = np.zeros(lit.shape, bool)
    h, w = lit.shape

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[slice, slice]:
        return (slice(max(0, int(round(y0))), min(h, int(round(y1)))),
                slice(max(0, int(round(x0))), min(w, int(round(x1)))))

    seen = _lit_bodies(lit, fit.squares, fit.bases, cube)
    for column in fit.columns:
        covered[box(*column)] = True
    left = ((lit >= 0) & ~seen) | (structure & ~covered)
    return int(open_mask(left, max(1, int(SLIVER_CUBES * cube))).sum())


def _named(top: tuple[str, ...], pieces: Sequence[str]) -> tuple[str, ...]:
    return tuple("".join(angular.EMPTY if ch == "." else pieces[int(ch)] for ch in row)
                 for row in top)


def structure_crop(image: np.ndarray, mask: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, tuple[float, float], tuple[int, int]]:
    """The square of ``image`` and ``mask`` round the region ``mask`` (not empty) that
    stays within it turned about its centre (half its rectangle's diagonal), the centre in
    that square and the square's corner in ``image``: only that square is straightened and
    labelled (the whole mat was most of the check's time)."""
    ys, xs = np.nonzero(mask)
    (cx, cy), (rw, rh), _ = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
    reach = int(math.ceil(math.hypot(rw, rh) / 2)) + 3
    x_a, y_a = max(0, int(cx) - reach), max(0, int(cy) - reach)
    box = (slice(y_a, int(cy) + reach + 1), slice(x_a, int(cx) + reach + 1))
    return image[box], mask[box], (cx - x_a, cy - y_a), (x_a, y_a)


def _straight_tops(image: np.ndarray, mask: np.ndarray, cube: float, pack: EnigmaPack,
                   background: Mapping[str, Any]
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int]]:
    """The lit tops (:func:`_lit_tops`) and the structure, cropped and turned so that the
    grid of cubes runs along the axes; the turn (2 x 3, from the crop) and the crop's corner
    in ``image``."""
    image, mask, centre, corner = structure_crop(image, mask)
    lit = _lit_tops(image, mask, {**pack.angular, **background}, list(pack.angular), cube)
    turn = cv2.getRotationMatrix2D(centre, grid_angle(lit >= 0), 1.0)
    h, w = mask.shape
    # shifted by one: the warp fills what it brings in from outside with 0, no colour
    lit = warp_affine((lit + 1).astype(np.uint8), turn, (w, h), nearest=True).astype(np.int8) - 1
    straight = warp_affine(mask.astype(np.uint8), turn, (w, h), nearest=True) > 0
    return lit, straight, turn, corner


def _placed_fits(tops: _Tops, eyes: Sequence[Eye], cube: float,
                 extent: tuple[float, float, float, float], layers: int = MAX_LAYERS,
                 exact: int = EXACT_FITS) -> list[tuple[_Grid, _Fit]]:
    """The best fits of the columns up to ``layers`` cubes tall to the lit tops, each with
    its grid: every eye (straightened crop px) and grid place in steps of ORIGIN_STEP scored
    roughly, the ``exact`` best fitted column by column."""
    cells = (int(math.ceil((extent[2] - extent[0]) / cube)) + 1,
             int(math.ceil((extent[3] - extent[1]) / cube)) + 1)
    steps = np.arange(0.0, 1.0, ORIGIN_STEP) * cube
    origins = np.array([(extent[0] - cube + dx, extent[1] - cube + dy)
                        for dx in steps for dy in steps])
    rough: list[tuple[float, Eye, int]] = []
    for eye in eyes:
        if eye.height <= MAX_LAYERS * cube * 1.5:
            continue  # a camera this low is no camera over the mat
        scores = _rough_scores(tops, eye, origins, cells, cube, extent, layers)
        rough += [(float(scores[i]), eye, int(i)) for i in np.flatnonzero(np.isfinite(scores))]
    rough.sort(key=lambda t: -t[0])
    placed = []
    for _, eye, i in rough[:exact]:
        at = _grid(tops, eye, (float(origins[i, 0]), float(origins[i, 1])), cells, cube, layers)
        if (f := _fit(tops, at, cube, extent)) is not None:
            placed.append((at, f))
    return placed


def _fits(tops: _Tops, eyes: Sequence[Eye], cube: float,
          extent: tuple[float, float, float, float], layers: int = MAX_LAYERS,
          exact: int = EXACT_FITS) -> list[_Fit]:
    """The fits of :func:`_placed_fits`, without their grids."""
    return [f for _, f in _placed_fits(tops, eyes, cube, extent, layers, exact)]


#: a camera over the table too high for any height to show: every top on its base cell
_ON_THE_TABLE = Eye((0.0, 0.0), 1e12)


def _flat_stands(flat: Sequence[_Fit], lit: np.ndarray, structure: np.ndarray, cube: float,
                 best: _Fit | None) -> bool:
    """Whether the structure reads as flat: every column on the table (the fits ``flat``)
    explains the lit tops all but as well as ``best``, the best fit with some above it
    (within FLAT_MARGIN of it), or, where the camera's pose is not known (no ``best``),
    leaves nothing unexplained. Lit tops of flat pieces fit some top above the table a
    little better by chance, by a few pixels of a square's edge, and a camera whose
    homography is no lens's of the range gives no pose (held-apart flat cubes, session 27: 5
    wrong builds the one grid read plainly were "cannot tell" instead of "not solved";
    tuning seed 1 wood/mild and seed 3 wood/moderate, flat: the same)."""
    if not flat:
        return False
    on_table = max(flat, key=lambda f: f.score)
    if best is None:
        return _unexplained(lit, structure, on_table, cube) <= UNEXPLAINED_CUBES * cube * cube
    return on_table.score >= best.score - FLAT_MARGIN * max(1.0, abs(best.score))


def _eyes_in_crop(eyes: Sequence[Eye], turn: np.ndarray, corner: tuple[int, int]
                  ) -> list[Eye]:
    """The eyes (mat px) taken into the straightened crop whose corner in the mat is
    ``corner``: a turn and a shift keep the nadir's rule."""
    x_a, y_a = corner
    nadirs = [turn @ np.array([e.nadir[0] - x_a, e.nadir[1] - y_a, 1.0]) for e in eyes]
    return [Eye((float(n[0]), float(n[1])), e.height) for n, e in zip(nadirs, eyes,
                                                                       strict=True)]


class TallReader:
    """The top view of the structure ``mask`` of the mat ``image`` (``cube`` px a side;
    ``view_to_frame`` the homography from the mat image to the camera frame of
    ``frame_size``), read on its columns' lit tops at their own heights. The lit tops, the
    poses, the grid places and their fits are found once: a read that asks is read again
    ``thorough`` on the same fits, each bettered column by column (:func:`_settled`), where
    finding them again was about a third of the check's time on off-centre frames."""

    def __init__(self, image: np.ndarray, mask: np.ndarray, cube: float, pack: EnigmaPack,
                 background: Mapping[str, Any], view_to_frame: np.ndarray,
                 frame_size: tuple[int, int]) -> None:
        self._cube, self._pieces = cube, list(pack.angular)
        self._empty = not mask.any()
        if self._empty:
            return
        self._lit, self._straight, turn, corner = _straight_tops(image, mask, cube, pack,
                                                                 background)
        sy, sx = np.nonzero(self._straight)
        self._extent = (float(sx.min()), float(sy.min()), float(sx.max() + 1),
                        float(sy.max() + 1))
        self._tops = _Tops(self._lit, len(pack.angular), self._straight)
        # a frame whose principal point lies off its middle (a cropped picture) fits no
        # centred lens: its pose is then the card's own family of off-centre lenses
        eyes = (camera_eyes(view_to_frame, frame_size, LENS_STEPS_DEG)
                or off_centre_eyes(view_to_frame, frame_size))
        self._placed = _placed_fits(self._tops, _eyes_in_crop(eyes, turn, corner), cube,
                                    self._extent)
        self._settled: list[_Fit] | None = None
        self._flat: list[_Fit] | None = None

    def read(self, thorough: bool = False) -> TallRead:
        """The read; ``thorough``, each fit bettered column by column (a few times the
        time, for a read that would otherwise ask)."""
        if self._empty:
            return TallRead(None, "nothing built", False)
        if thorough and self._settled is None:
            self._settled = [_settled(self._tops, at, self._cube, self._extent, f)
                             for at, f in self._placed]
        return self._judged(self._settled if thorough and self._settled is not None
                            else [f for _, f in self._placed])

    def _judged(self, fits: list[_Fit]) -> TallRead:
        lit, straight, cube, extent = self._lit, self._straight, self._cube, self._extent
        best = max(fits, key=lambda f: f.score) if fits else None
        if best is None or not best.flat:
            if self._flat is None:  # every column on the table: the same on each read
                self._flat = _fits(self._tops, [_ON_THE_TABLE], cube, extent, layers=0,
                                   exact=FLAT_EXACT_FITS)
            if _flat_stands(self._flat, lit, straight, cube, best):
                return TallRead(None, "", True)
        if best is None:
            return TallRead(None, ASK_STRAIGHT, False)
        if _unexplained(lit, straight, best, cube) > UNEXPLAINED_CUBES * cube * cube:
            return TallRead(None, ASK_STRAIGHT, best.flat)
        seen = angular.crop(best.top)
        margin = RIVAL_SHARE * max(1.0, abs(best.score))
        if any(angular.crop(f.top) != seen for f in fits if f.score >= best.score - margin):
            return TallRead(None, ASK_STRAIGHT, best.flat)
        on_sides = _lit_on_sides(lit, best, cube) > SIDES_CUBES * cube * cube
        return TallRead(_named(seen, self._pieces), "", best.flat,
                        best.overlapped or on_sides)


def read_tall(image: np.ndarray, mask: np.ndarray, cube: float, pack: EnigmaPack,
              background: Mapping[str, Any], view_to_frame: np.ndarray,
              frame_size: tuple[int, int], thorough: bool = False) -> TallRead:
    """One read of a :class:`TallReader` (``thorough`` as its :meth:`TallReader.read`)."""
    return TallReader(image, mask, cube, pack, background, view_to_frame,
                      frame_size).read(thorough)


ASK_STRAIGHT = ("the tops of the cubes cannot all be seen from here: hold the camera straight "
                "above the structure, and check again")

__all__ = ["ASK_STRAIGHT", "TallRead", "TallReader", "grid_angle", "read_tall",
           "structure_crop"]
