"""Sheet reader stages 3-5: the paper under uneven light, per-cell ink measurements, and
each cell classified as empty, filled or doubtful (with the candidates for the bonus 1).

Works on the canonical image of :mod:`vision.second_chance.geometry`; see
:mod:`vision.second_chance.reader` for the whole pipeline.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.second_chance.shapes import Cell
from config.schema import SheetReaderSettings
from vision.second_chance.geometry import CANON_CELL, CANON_MARGIN, CANON_SIZE
from vision.second_chance.layout import GRID_CELLS, SheetLayout

N = GRID_CELLS



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
    #: (9, 9, 4) which way the strokes inside run (see :func:`stroke_directions`); zeros when
    #: not measured
    strokes: np.ndarray | None = None




#: a patch's bright end is this percentile of its pixels (the paper between strokes) ...
PATCH_BRIGHT_END = 0.9
#: ... and a patch is textured (strokes with paper between) when that end is this many times
#: its middle percentile; a uniform patch (paper, or solid shading) is nearer
TEXTURED_PATCH = 1.2
#: the most rounds a solid block grows by (one patch, half a cell, a round)
SOLID_ROUNDS = 12
#: a patch of a solid block is lifted to this share of its brightest side neighbour (a little
#: below it: the light does not rise inside a block)
SOLID_LIFT = 0.97
#: ... but never above this many times the smooth light of the whole sheet
PAPER_CEILING = 1.04
#: a solid block of shading grows into a neighbouring patch at most this much brighter than
#: the block's own patch beside it (a shadow's slope inside a block is a few percent a patch)
SOLID_GROWTH = 1.15
#: ... and of the same colour: no channel's share of the brightness differs by more than this
#: (paper in a shadow is as dark as a light colour pencil's shading, but not of its colour)
SOLID_HUE = 0.05


def paper_model(gray: np.ndarray, *, step_ratio: float = 0.8, percentile: float = 60,
                colour: np.ndarray | None = None) -> np.ndarray:
    """The paper's brightness everywhere, under uneven light and shadows (see
    :func:`paper_and_unsure`)."""
    return paper_and_unsure(gray, step_ratio=step_ratio, percentile=percentile,
                            colour=colour)[0]


def paper_and_unsure(gray: np.ndarray, *, step_ratio: float = 0.8, percentile: float = 60,
                     colour: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The paper's brightness everywhere, under uneven light and shadows, and the (9, 9) grid
    cells whose paper is unsure.

    Each half-cell patch gives its bright end (hatching, scribbles and crosses leave paper
    between their strokes). A patch much darker than the brightest of its neighbours is ink
    all over (solid shading): its value is replaced by its neighbours' and the test repeated,
    so paper brightness flows into solid blocks from their edges, while the gentle slope of a
    soft shadow (a few percent a patch) is kept. A block grows only over patches of about its
    own brightness and (with ``colour``, the BGR image of ``gray``) of its colour: empty paper
    in a shadow beside a block, low next to the lifted block, stays the paper it is (lifted, it
    would read as shading with full confidence). Such a patch, still much darker than its
    lifted neighbours, may as well be a lighter shading inside a dark block: its cell is unsure.

    A hand's soft shadow falls off over a cell or so, steep enough to look like a block's step.
    The paper's light is followed where paper is seen (:func:`_paper_light`): a block is never
    lifted above it, and a step down to a patch as bright as the margin's paper within a cell
    of it, and of its colour, is that paper in the shadow, never a block.
    """
    step = CANON_CELL // 2
    n = CANON_SIZE // step
    patches = gray[: n * step, : n * step].reshape(n, step, n, step).transpose(0, 2, 1, 3)
    flat = patches.reshape(n, n, -1)
    kth = int(flat.shape[2] * percentile / 100)
    top = int(flat.shape[2] * PATCH_BRIGHT_END)
    # bytes are sorted by radix, in a third of a partition's time: the same order statistics
    parted = (np.sort(flat, axis=2, kind="stable") if gray.dtype == np.uint8
              else np.partition(flat.astype(np.float32), (kth, top), axis=2))
    middle = parted[:, :, kth].astype(np.float32)
    high = parted[:, :, top].astype(np.float32)
    # A patch with strokes shows the paper between them: its high percentile is the paper
    # there (in a shadow too). A uniform patch is paper or solid shading: its middle
    # percentile, which the neighbour test below sorts out.
    textured = high > middle * TEXTURED_PATCH
    bright = np.where(textured, high, middle)
    uniform = ~textured
    level = float(np.median((high / np.maximum(middle, 1.0))[uniform])) if uniform.any() else 1.0
    # side neighbours only: a soft shadow's slope along a diagonal would look like a step
    kernel = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    first = bright < cv2.dilate(bright, kernel) * step_ratio
    surface = _paper_surface(bright, ~first)
    margin, seen = _paper_seen(high, textured, surface)
    # a step down to a patch as bright as the margin's paper beside it is a shadow's edge, not
    # the edge of a solid block: the shadow's paper (the paper between a tile's strokes is no
    # such evidence: a dense hatching's bright end is its own ink, as dark as a solid fill)
    hue = _patch_hue(colour, n, step) if colour is not None else None
    shadowed = as_paper_seen_nearby(bright, margin, high, hue)
    if (first & shadowed).any():  # (else the surface through the rest is the one just fitted)
        first &= ~shadowed
        surface = _paper_surface(bright, ~first)
    ceiling = _paper_light(seen, high, surface) * PAPER_CEILING
    estimate = bright.copy()
    alike = _alike_sides(bright, hue)
    solid = first.copy()
    for _ in range(SOLID_ROUNDS):
        neighbours = cv2.dilate(estimate, kernel)
        low = estimate < neighbours * step_ratio
        # a block is entered at a step (``first``) and grows only over its own kind of patch
        low &= (solid | _grows_into(solid, alike)) & ~shadowed
        if not low.any():
            break
        solid |= low
        # lifted towards the neighbours, but never above the smooth light of the whole sheet:
        # a solid block next to a shadow must not carry bright paper into the shadow
        estimate = np.where(low, np.minimum(neighbours * SOLID_LIFT, ceiling), estimate)
    left_dark = estimate < cv2.dilate(estimate, kernel) * step_ratio
    first_cell = CANON_MARGIN // step
    in_grid = left_dark[first_cell:first_cell + 2 * N, first_cell:first_cell + 2 * N]
    unsure = np.asarray(in_grid.reshape(N, 2, N, 2).any(axis=(1, 3)), dtype=bool)
    smooth = cv2.GaussianBlur(estimate * level, (3, 3), 0.8)
    paper = cv2.resize(smooth, (CANON_SIZE, CANON_SIZE), interpolation=cv2.INTER_LINEAR)
    return paper, unsure


def _patch_hue(colour: np.ndarray, n: int, step: int) -> np.ndarray:
    """(n, n, 3): each patch's channels as shares of its brightness (grey: all 1)."""
    mean = cv2.resize(colour[: n * step, : n * step], (n, n),
                      interpolation=cv2.INTER_AREA).astype(np.float32)
    hue: np.ndarray = mean / np.maximum(mean.mean(axis=2, keepdims=True), 1.0)
    return hue


#: the four side neighbours (dy, dx)
_SIDES = ((0, 1), (0, -1), (1, 0), (-1, 0))


def side_slices(n: int, dy: int, dx: int) -> tuple[tuple[slice, slice], tuple[slice, slice]]:
    """(the entries of an (n, n) array that have a neighbour at (dy, dx), those neighbours), as
    slices (side or corner neighbours)."""
    here = (slice(max(-dy, 0), n - max(dy, 0)), slice(max(-dx, 0), n - max(dx, 0)))
    there = (slice(max(dy, 0), n - max(-dy, 0)), slice(max(dx, 0), n - max(-dx, 0)))
    return here, there


def _alike_sides(bright: np.ndarray, hue: np.ndarray | None) -> list[np.ndarray]:
    """Per side of :data:`_SIDES`: a patch is at most ``SOLID_GROWTH`` times as bright as its
    neighbour there and (given ``hue``) of its colour within ``SOLID_HUE``."""
    n = bright.shape[0]
    alike = []
    for dy, dx in _SIDES:
        here, there = side_slices(n, dy, dx)
        ok = bright[here] <= bright[there] * SOLID_GROWTH
        if hue is not None:
            ok &= np.abs(hue[here] - hue[there]).max(axis=2) <= SOLID_HUE
        alike.append(ok)
    return alike


def _grows_into(solid: np.ndarray, alike: list[np.ndarray]) -> np.ndarray:
    """The patches with a solid side neighbour they are alike (see :func:`_alike_sides`)."""
    n = solid.shape[0]
    grows = np.zeros_like(solid)
    for (dy, dx), ok in zip(_SIDES, alike, strict=True):
        here, there = side_slices(n, dy, dx)
        grows[here] |= solid[there] & ok
    return grows


#: a grid patch joins the margin's paper surface when it is at least this share of it
GRID_PAPER_SHARE = 0.85
#: a surface is fitted through at least this many patches (else through the brighter half)
MIN_SURFACE_PATCHES = 12
#: a patch darker than this share of the fitted surface is not paper (dropped from the fit)
BELOW_SURFACE = 0.9


def _paper_surface(bright: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """The smooth light of the paper: a surface through the margin around the grid first (it
    is paper, or the background beyond the sheet, far darker, which the robust fit drops),
    then through it and the grid patches about as bright as it (empty cells). Fitted on the
    grid's patches too from the start, a nearly full sheet's shading, much of it not at a step
    from brighter paper, pulled the light down and a lighter shading was taken for paper."""
    n = bright.shape[0]
    first_cell = CANON_MARGIN // (CANON_CELL // 2)
    ring = np.ones((n, n), dtype=bool)
    ring[first_cell:n - first_cell, first_cell:n - first_cell] = False
    margin = _smooth_surface(bright, keep & ring)
    return _smooth_surface(bright, keep & (ring | (bright >= margin * GRID_PAPER_SHARE)))


#: a margin patch whose bright end is darker than this share of the sheet's smooth light is
#: not paper (a marker, the table beyond the sheet)
MARGIN_PAPER = 0.35
#: the margin's paper is looked at this many patches out from the grid
MARGIN_PATCHES = 2
#: the paper's light is followed at this scale (a Gaussian's sigma, in half-cell patches): a
#: hand's soft shadow falls off over a cell or more
LIGHT_SIGMA = 2.0
#: ... and where the paper seen nearby weighs less than this (in patches), it leans on the
#: smooth surface of the whole sheet
LIGHT_PRIOR = 0.5
#: a patch is as bright as paper seen within this many patches of it (a cell) ...
NEARBY_PATCHES = 2
#: ... when neither is brighter than the other by more than this ratio
AS_PAPER = 1.15


def _paper_seen(high: np.ndarray, textured: np.ndarray, surface: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """Where the paper is seen (its brightness there is the patch's bright end, ``high``): the
    margin around the grid (the title's letters leave paper between them; a marker's or the
    table's bright end is far darker than ``surface``, the smooth light of the whole sheet),
    and that margin with the textured grid patches (the paper between strokes)."""
    n = high.shape[0]
    first_cell = CANON_MARGIN // (CANON_CELL // 2)
    grid = np.zeros((n, n), dtype=bool)
    grid[first_cell:n - first_cell, first_cell:n - first_cell] = True
    # the patches next to the grid: further out the canonical image may reach past the sheet
    near = cv2.dilate(grid.astype(np.uint8), np.ones((2 * MARGIN_PATCHES + 1,) * 2, np.uint8))
    margin = (near > 0) & ~grid & (high >= surface * MARGIN_PAPER)
    return margin, margin | (grid & textured)


def as_paper_seen_nearby(bright: np.ndarray, seen: np.ndarray, value: np.ndarray,
                          hue: np.ndarray | None) -> np.ndarray:
    """The patches as bright as paper seen within :data:`NEARBY_PATCHES` of them (within
    :data:`AS_PAPER`) and (given ``hue``, see :func:`_patch_hue`) of its colour (within
    :data:`SOLID_HUE`): under a soft shadow, where the margin's paper is darker too, a uniform
    patch as dark as it and of its colour is that paper (a light colour pencil's fill is as
    dark, not of the paper's colour). The arrays are padded by the reach (as paper not seen),
    so every offset is one slice of the whole grid; the hue's channels are compared one by one
    (numpy reduces a short last axis slowly)."""
    reach = NEARBY_PATCHES
    n = bright.shape[0]
    pad = ((reach, reach), (reach, reach))
    seen_pad, value_pad = np.pad(seen, pad), np.pad(value, pad)
    hue_pad = np.pad(hue, (*pad, (0, 0))) if hue is not None else None
    out = np.zeros((n, n), dtype=bool)
    for dy in range(2 * reach + 1):
        for dx in range(2 * reach + 1):
            other = value_pad[dy:dy + n, dx:dx + n]
            alike = (seen_pad[dy:dy + n, dx:dx + n] & (bright <= other * AS_PAPER)
                     & (other <= bright * AS_PAPER))
            if hue is not None and hue_pad is not None:
                gap = np.abs(hue - hue_pad[dy:dy + n, dx:dx + n])
                alike &= np.maximum(np.maximum(gap[..., 0], gap[..., 1]), gap[..., 2]) <= SOLID_HUE
            out |= alike
    return out


def _paper_light(seen: np.ndarray, value: np.ndarray, surface: np.ndarray) -> np.ndarray:
    """The paper's light patch by patch, following a soft shadow: a local weighted mean of the
    paper seen (see :func:`_paper_seen`), leaning on ``surface`` (the smooth light of the
    whole sheet) where little paper is seen nearby. A smooth surface through the whole sheet
    cannot bend as fast as a shadow's edge."""
    weight = seen.astype(np.float32)
    spread = cv2.GaussianBlur(weight, (0, 0), LIGHT_SIGMA)
    mean = cv2.GaussianBlur(value.astype(np.float32) * weight, (0, 0), LIGHT_SIGMA)
    # the blurs' sums in patches (a Gaussian's peak weight is 1 / (2 pi sigma^2))
    mass = 2 * np.pi * LIGHT_SIGMA ** 2
    light: np.ndarray = (mean * mass + surface * LIGHT_PRIOR) / (spread * mass + LIGHT_PRIOR)
    return light


@lru_cache(maxsize=2)
def _surface_design(n: int) -> np.ndarray:
    """The cubic surface's terms at every patch of an (n, n) grid (made once: four fits a
    read)."""
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float64)
    x = (xx / (n - 1) * 2 - 1).ravel()
    y = (yy / (n - 1) * 2 - 1).ravel()
    design = np.stack([np.ones_like(x), x, y, x * x, x * y, y * y, x ** 3, x * x * y,
                       x * y * y, y ** 3], axis=1)
    design.setflags(write=False)
    return design


def _smooth_surface(values: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """A cubic surface through the kept values (robust: values far below it are dropped)."""
    design = _surface_design(values.shape[0])
    v = values.ravel().astype(np.float64)
    mask = keep.ravel().copy()
    if mask.sum() < MIN_SURFACE_PATCHES:
        mask = v >= np.percentile(v, 50)
    coeffs = np.linalg.lstsq(design[mask], v[mask], rcond=None)[0]
    for _ in range(2):
        fitted = design @ coeffs
        mask = keep.ravel() & (v > fitted * BELOW_SURFACE)
        if mask.sum() < MIN_SURFACE_PATCHES:
            break
        coeffs = np.linalg.lstsq(design[mask], v[mask], rcond=None)[0]
    surface: np.ndarray = (design @ coeffs).reshape(values.shape).astype(np.float32)
    return surface


#: the reading works on the grid plus this many pixels around it
PAD = 8
GRID_PX = N * CANON_CELL


#: the paper's colour is measured on every this many pixels (each way)
CAST_STEP = 4
#: a margin pixel is paper when it is at least this share of the paper's brightness there ...
CAST_PAPER = 0.9
#: ... and at least this many such pixels are needed; else the brightest 30% of the image
MIN_CAST_PIXELS = 20


def paper_cast(canon: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """The paper's colour (per channel, relative to its grey) from the margin around the grid."""
    img = canon[::CAST_STEP, ::CAST_STEP].astype(np.float32)
    gray = img.mean(axis=2)
    ratio = gray / np.maximum(paper[::CAST_STEP, ::CAST_STEP], 1.0)
    ring = np.ones(gray.shape, bool)
    m = CANON_MARGIN // CAST_STEP
    ring[m:-m, m:-m] = False
    paperlike = ring & (ratio > CAST_PAPER)
    if paperlike.sum() < MIN_CAST_PIXELS:
        paperlike = ratio > np.percentile(ratio, 70)
    return img[paperlike].mean(axis=0) / max(float(gray[paperlike].mean()), 1.0)  # type: ignore[no-any-return]


def crop_grid(a: np.ndarray) -> np.ndarray:
    """The grid and PAD pixels around it; cell (r, c) starts at PAD + (r, c) * CANON_CELL."""
    lo, hi = CANON_MARGIN - PAD, CANON_MARGIN + GRID_PX + PAD
    return a[lo:hi, lo:hi]


def ink_maps(
    grid_img: np.ndarray, paper: np.ndarray, cast: np.ndarray, settings: SheetReaderSettings
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
    ink = ((darkness > settings.ink_darkness)
           | ((chroma > settings.ink_chroma) & (darkness > settings.ink_light)))
    return ink, darkness, cv2.merge(channels), chroma


def cells_view(a: np.ndarray) -> np.ndarray:
    """(9, C, 9, C, ...) view of the grid region of a cropped map."""
    grid = a[PAD:PAD + GRID_PX, PAD:PAD + GRID_PX]
    return grid.reshape(N, CANON_CELL, N, CANON_CELL, *a.shape[2:])


def stroke_directions(darkness: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """Which way the strokes inside each cell run: ``(9, 9, 4)``, the darkness gradient's
    direction as ``(cos 2a, sin 2a, cos 4a, sin 4a)`` averaged with its strength as weight
    (``a`` the gradient's angle from the x axis, so vertical strokes give ``cos 2a = 1``).

    The doubled angle makes a stroke's two edges agree; a single hatching direction has a
    long ``2a`` vector, cross-hatching cancels it and shows in ``4a`` (a square grid of
    strokes against a diagonal one). A player shades one tile one way: two cells hatched
    differently are two tiles even in one colour and with no outline seen, and a hatch stroke
    that runs along a border tells why the border looks drawn.
    """
    # the gradients of the whole map (the insides' edges need the pixels round them), the rest
    # on the cells' insides alone, (9, size, 9, size) as the cells' view has them: the same
    # pixels summed in the same order, with half the pixels of the whole map to work out
    gx, gy = (np.ascontiguousarray(cells_view(cv2.Sobel(darkness, cv2.CV_32F, *d, ksize=3))
                                   [:, lo:hi, :, lo:hi]) for d in ((1, 0), (0, 1)))
    strength = gx * gx + gy * gy
    cos2, sin2 = gx * gx - gy * gy, 2 * gx * gy  # strength times cos 2a, sin 2a
    # the centre cell's printed ring runs every way: left out, as stroke_energy leaves it out
    # (with it, a light fill there measured no direction and was read empty for sure)
    rows, cols = _ring_pixels(lo, hi)
    ring = (N // 2, rows % CANON_CELL - lo, N // 2, cols % CANON_CELL - lo)
    for a in (strength, cos2, sin2):
        a[ring] = 0.0
    cos4 = (cos2 * cos2 - sin2 * sin2) / np.maximum(strength, 1e-12)
    sin4 = 2 * cos2 * sin2 / np.maximum(strength, 1e-12)

    def per_cell(a: np.ndarray) -> np.ndarray:
        inside: np.ndarray = a.sum(axis=(1, 3))
        return inside

    total = np.maximum(per_cell(strength), 1e-9)
    return np.stack([per_cell(v) / total for v in (cos2, sin2, cos4, sin4)], axis=2)


#: a cell's strokes are a deliberate mark, whatever their darkness, from this mean squared
#: gradient of the darkness inside (Sobel; bare paper, noise and JPEG measure 0.0002, 0.004
#: at the 95th percentile; the lightest coloured pencil hatching 0.003 and up) ...
MARK_ENERGY = 0.003
#: ... when they also run one way (the doubled angle's mean length, see stroke_directions:
#: noise and grain point everywhere, 0.1; hatching 0.9)
MARK_COHERENCE = 0.4
#: a lone cell of such strokes (no side neighbour like it) is a mark from this energy on: the
#: traces a rubber leaves of a mistake are faint hatching too (0.004-0.0065), in one cell; a
#: light fill spans its tile's cells, and a one-cell tile shaded that lightly is rare
MARK_ENERGY_ALONE = 0.007


def stroke_strength(darkness: np.ndarray, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """``(9, 9, size, size)`` each cell inside's squared darkness gradient (Sobel), and where
    it is measured (see :func:`_measured`)."""
    gx = cv2.Sobel(darkness, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(darkness, cv2.CV_32F, 0, 1, ksize=3)
    seen = _measured(lo, hi)
    strength = cells_view(gx * gx + gy * gy)[:, lo:hi, :, lo:hi].transpose(0, 2, 1, 3) * seen
    return strength, seen


def stroke_energy(darkness: np.ndarray, lo: int, hi: int, *,
                  measured: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """(9, 9): the mean squared gradient of the darkness inside each cell (Sobel), the
    centre cell's printed ring left out: how much stroke there is, however faint.
    ``measured``: :func:`stroke_strength` of the same darkness, ``lo`` and ``hi`` when
    already measured."""
    strength, seen = stroke_strength(darkness, lo, hi) if measured is None else measured
    energy: np.ndarray = strength.sum(axis=(2, 3)) / seen.sum(axis=(2, 3))
    return energy


def stroke_marks(darkness: np.ndarray, lo: int, hi: int, read_empty: np.ndarray, *,
                 directions: np.ndarray | None = None,
                 energy: np.ndarray | None = None) -> np.ndarray:
    """(9, 9) bool: the cells of ``read_empty`` whose inside has strokes that run one way,
    faint or not (a light fill), the centre cell's printed ring left out: strong ones, or
    faint ones beside another such cell read empty (see :data:`MARK_ENERGY_ALONE`).
    ``directions``: :func:`stroke_directions` of the same ``darkness``, ``lo`` and ``hi`` when
    already measured (``CellFeatures.strokes``: 4.5 ms a read), ``energy`` its
    :func:`stroke_energy` likewise."""
    energy = stroke_energy(darkness, lo, hi) if energy is None else energy
    if directions is None:
        directions = stroke_directions(darkness, lo, hi)
    coherence = np.hypot(directions[..., 0], directions[..., 1])
    faint = read_empty & (energy >= MARK_ENERGY) & (coherence >= MARK_COHERENCE)
    padded = np.pad(faint, 1)
    beside = padded[:-2, 1:-1] | padded[2:, 1:-1] | padded[1:-1, :-2] | padded[1:-1, 2:]
    marked: np.ndarray = faint & ((energy >= MARK_ENERGY_ALONE) | beside)
    return marked


#: a cell's marks are spread over it (a fill) when the middle of its inside, this share of its
#: side across, has at least :data:`SPREAD_MARKS` of the inside's mean stroke energy: a
#: marker's fill or outline spilling over from the square beside lies along one side
MIDDLE_SHARE = 0.5
SPREAD_MARKS = 0.5


def marks_spread(darkness: np.ndarray, lo: int, hi: int, *,
                 measured: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """(9, 9) bool: the cells whose strokes (the darkness's gradient) reach the middle of
    their inside as much as its edges (see :data:`SPREAD_MARKS`). ``measured``: as
    :func:`stroke_energy`'s."""
    strength, seen = stroke_strength(darkness, lo, hi) if measured is None else measured
    size = hi - lo
    m0 = int(round(size * (1 - MIDDLE_SHARE) / 2))
    m1 = size - m0
    whole = strength.sum(axis=(2, 3)) / np.maximum(seen.sum(axis=(2, 3)), 1.0)
    middle = (strength[:, :, m0:m1, m0:m1].sum(axis=(2, 3))
              / np.maximum(seen[:, :, m0:m1, m0:m1].sum(axis=(2, 3)), 1.0))
    spread: np.ndarray = middle >= SPREAD_MARKS * np.maximum(whole, 1e-12)
    return spread


def colour_strength(norm: np.ndarray, lo: int, hi: int, chroma: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
    """(9, 9) twice: how far the mean colour of each cell's inside is from grey, over the
    whole inside and over its middle (:data:`MIDDLE_SHARE` of its side across). ``norm``: the
    cropped grid's channels as shares of the paper under them, its cast taken out (see
    :func:`ink_maps`), so the paper is grey; ``chroma``: the whole inside's mean colour off
    grey, as :func:`colour_cover` gives it (the mean over the inside is the costly part, and
    it is that one). The mean is taken before the distance: a picture's colour noise
    averages out over a cell (a pixel's own chroma does not), a coloured pencil's or a felt
    marker's fill does not, however light it is in grey."""
    size = hi - lo
    m0 = int(round(size * (1 - MIDDLE_SHARE) / 2))
    mean = _lanes_mean(inside_lanes(norm, lo + m0, hi - m0))
    return _chroma_length(chroma), _chroma_length(mean - mean.mean(axis=2, keepdims=True))


def inside_lanes(a: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """``(9, size, size, 9, channels)``: a copy of the ``lo:hi`` inside of every cell of a
    cropped map of channels (``a``, (h, w, channels)), a row of cells' pixels and their
    channels last (one contiguous lane each row, column and cell row)."""
    lanes: np.ndarray = np.ascontiguousarray(
        cells_view(a)[:, lo:hi, :, lo:hi].transpose(0, 1, 3, 2, 4))
    return lanes


def _lanes_mean(lanes: np.ndarray) -> np.ndarray:
    """``(9, 9, channels)``: the mean of each cell's pixels in :func:`inside_lanes` (or a
    block of them), to the bit numpy's mean over the cells' view (``mean(axis=(1, 3))``):
    numpy adds that view's pixels one after another, row by row, into each cell's channel
    (its innermost axis is the channels, not a summed one), and adds the lanes' pixels in that
    order too, a whole lane of a row's cells at a time instead of three channels (a third of
    the time)."""
    mean: np.ndarray = np.add.reduce(lanes, axis=(1, 2)) / (lanes.shape[1] * lanes.shape[2])
    return mean


def _chroma_length(chroma: np.ndarray) -> np.ndarray:
    """(9, 9): the length of each cell's colour off grey ((9, 9, 3))."""
    length: np.ndarray = np.sqrt((chroma ** 2).sum(axis=2))
    return length


#: a square's inside is cut into this many blocks a side to see how far a colour covers it
COVER_BLOCKS = 3


def colour_cover(norm: np.ndarray, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """((9, 9, 3), (9, 9)): each cell's mean colour off grey (its channels' mean colour, less
    their own mean: the paper is (0, 0, 0)) and how far that colour covers the cell: the
    weakest of its inside's :data:`COVER_BLOCKS` x :data:`COVER_BLOCKS` blocks' mean colour
    taken along the cell's own, as a share of the cell's. A fill reaches the square's sides
    (1 for an even fill); a smudge or a stroke spilling in from beside fades across it."""
    lanes = inside_lanes(norm, lo, hi)  # (9, S, S, 9, 3)
    mean = _lanes_mean(lanes)
    chroma: np.ndarray = mean - mean.mean(axis=2, keepdims=True)
    length = _chroma_length(chroma)
    unit = chroma / np.maximum(length, 1e-9)[..., None]
    size, cover = hi - lo, np.full((N, N), np.inf)
    cuts = [round(size * k / COVER_BLOCKS) for k in range(COVER_BLOCKS + 1)]
    for a0, a1 in itertools.pairwise(cuts):
        for b0, b1 in itertools.pairwise(cuts):
            block = _lanes_mean(lanes[:, a0:a1, b0:b1])
            block = block - block.mean(axis=2, keepdims=True)
            cover = np.minimum(cover, (block * unit).sum(axis=2))
    share: np.ndarray = cover / np.maximum(length, 1e-9)
    return chroma, share


#: the printed centre circle's radius, in cells (vision.second_chance.layout), and how far either
#: side of it a pixel of the centre cell is taken for the printed ring, in canonical pixels (the
#: line's width, the camera's blur, the grid found a pixel or two off)
CENTRE_CIRCLE = SheetLayout.circle_ratio
CENTRE_RING_REACH = 3.0


#: ... and for the strokes' direction, how far either side of it: the ring's edges are far
#: stronger than a light fill's strokes, and a grid found two pixels off leaves them in
DIRECTION_RING_REACH = 5.0


@lru_cache(maxsize=4)
def _ring_pixels(lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """(rows, columns) in the grid (cell (0, 0) at 0) of the centre cell's printed circle
    inside ``lo:hi`` (see :func:`_measured`)."""
    offsets = np.arange(lo, hi, dtype=np.float32) + 0.5 - CANON_CELL / 2
    distance = np.hypot(offsets[:, None], offsets[None, :])
    rows, cols = np.nonzero(np.abs(distance - CENTRE_CIRCLE * CANON_CELL) <= DIRECTION_RING_REACH)
    start = (N // 2) * CANON_CELL + lo
    return rows + start, cols + start


@lru_cache(maxsize=4)
def _measured(lo: int, hi: int) -> np.ndarray:
    """``(9, 9, size, size)`` 1 where a cell's inside is measured, 0 on the centre cell's
    printed circle: an empty centre is not a cell with a ring drawn in it."""
    size = hi - lo
    seen = np.ones((N, N, size, size), np.float32)
    offsets = np.arange(lo, hi, dtype=np.float32) + 0.5 - CANON_CELL / 2
    distance = np.hypot(offsets[:, None], offsets[None, :])
    ring = np.abs(distance - CENTRE_CIRCLE * CANON_CELL) <= CENTRE_RING_REACH
    seen[N // 2, N // 2][ring] = 0.0
    seen.setflags(write=False)
    return seen


def cell_features(
    ink: np.ndarray,
    darkness: np.ndarray,
    norm: np.ndarray,
    chroma_map: np.ndarray,
    settings: SheetReaderSettings,
) -> CellFeatures:
    """Measure every cell's inside (the outlines along its sides stay out)."""
    lo = int(round(CANON_CELL * settings.inset))
    hi = CANON_CELL - lo
    seen = _measured(lo, hi)
    inside = (cells_view(ink)[:, lo:hi, :, lo:hi].transpose(0, 2, 1, 3).astype(np.float32)
              * seen)
    dark = cells_view(darkness)[:, lo:hi, :, lo:hi].transpose(0, 2, 1, 3)
    colour = cells_view(norm)[:, lo:hi, :, lo:hi].transpose(0, 2, 1, 3, 4)
    size = hi - lo
    area = seen.sum(axis=(2, 3))
    count = inside.sum(axis=(2, 3))
    share = count / area
    coords = (np.arange(size, dtype=np.float32) + lo) / CANON_CELL
    safe = np.maximum(count, 1)
    mean_y = (inside.sum(axis=3) * coords).sum(axis=2) / safe
    mean_x = (inside.sum(axis=2) * coords).sum(axis=2) / safe
    var_y = (inside.sum(axis=3) * coords**2).sum(axis=2) / safe - mean_y**2
    var_x = (inside.sum(axis=2) * coords**2).sum(axis=2) / safe - mean_x**2
    # the hue of the ink: its mean deviation from grey (graphite and black pen have none)
    # channel by channel: numpy reduces a short last axis (and sums over a strided view of
    # three channels) some ten times slower
    grey = (colour[..., 0] + colour[..., 1] + colour[..., 2]) / 3
    ink_colour = np.stack([((colour[..., k] - grey) * inside).sum(axis=(2, 3))
                           for k in range(3)], axis=-1) / safe[..., None]
    mean_dark = (dark * seen).sum(axis=(2, 3)) / area
    texture = np.sqrt(np.maximum(
        (dark ** 2 * seen).sum(axis=(2, 3)) / area - mean_dark ** 2, 0.0))
    score = np.maximum.reduce(
        [
            share / settings.ink_share_unit,
            np.maximum(texture - settings.texture_floor, 0) / settings.texture_unit,
            mean_dark / settings.darkness_unit,
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
        strokes=stroke_directions(darkness.astype(np.float32), lo, hi),
    )


#: the confidence of a cell read empty on unsure paper (see :func:`paper_and_unsure`)
UNSURE_PAPER_CONFIDENCE = 0.4
#: a cell read filled whose darkness varies less than this inside is as smooth as paper ...
PAPER_SMOOTH = 0.012
#: ... and no darker than a shadow: doubtful (a solid marker fill, far darker, is not)
PAPER_SMOOTH_DARKNESS = 0.5


#: a hole (see :func:`_surrounded`) is asked about from this share of ``empty_score`` on
HOLE_MARKS = 0.8
#: a cell read filled this even inside (the std of its darkness; solid pencil shading measures
#: 0.03-0.07, hatching 0.1 and up) ...
EVEN_FILL = 0.035
#: ... whose raw brightness is within this share of an empty neighbour's, in the same hue
#: (:data:`SOLID_HUE`), looks like that paper
PAPER_ALIKE = 0.05


def looks_like_paper_beside(grid_img: np.ndarray, state: np.ndarray, texture: np.ndarray,
                            settings: SheetReaderSettings) -> np.ndarray:
    """(9, 9): the cells read filled (``state`` 1) that look like the empty paper of a cell
    next to them (sides and corners): even inside, of its raw brightness and hue.

    Paper in a deep shadow, enclosed by tiles, can be lifted with them by the paper model and
    read as solid shading with full confidence (its raw grey within a unit or two of the empty
    cells nearby); shading that dark beside paper is darker than that paper by far more than
    :data:`PAPER_ALIKE`."""
    out = np.zeros((N, N), bool)
    even_fill = (state == 1) & (texture < EVEN_FILL)
    if not even_fill.any():  # (before the cells' colours are measured: most of the time)
        return out
    lo = int(round(CANON_CELL * settings.inset))
    hi = CANON_CELL - lo
    mean = _lanes_mean(inside_lanes(grid_img, lo, hi).astype(np.float32))  # (9, 9, 3)
    bright = np.maximum(mean.mean(axis=2), 1.0)
    hue = mean / bright[..., None]
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == dc == 0:
                continue
            here, there = side_slices(N, dr, dc)
            alike = (even_fill[here] & (state[there] == 0)
                     & (np.abs(bright[here] / bright[there] - 1.0) <= PAPER_ALIKE)
                     & (np.abs(hue[here] - hue[there]).max(axis=2) <= SOLID_HUE))
            out[here] |= alike
    return out


def _surrounded(filled: np.ndarray) -> np.ndarray:
    """(9, 9): the cells whose side neighbours on the grid are all ``filled``."""
    padded = np.pad(filled, 1, constant_values=True)
    out: np.ndarray = (padded[:-2, 1:-1] & padded[2:, 1:-1] & padded[1:-1, :-2]
                       & padded[1:-1, 2:])
    return out


#: a 1 candidate's ink spreads at least this far up and down (std, in cells): a dot or a
#: short dash does not
ONE_MIN_SPREAD_Y = 0.1


def classify_cells(
    f: CellFeatures, settings: SheetReaderSettings, unsure_paper: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, list[Cell]]:
    """(state, confidence, bonus candidates): state 0 empty, 1 filled, -1 doubtful.

    A cell that would read empty on unsure paper (``unsure_paper``, (9, 9) bool) is doubtful:
    its ink was measured against its own brightness, which may be a lighter shading."""
    score = f.score
    state = np.where(score >= settings.filled_score, 1,
                     np.where(score <= settings.empty_score, 0, -1))
    # confidence: 0.5 at the edge of the doubtful band, 1.0 at twice the distance
    centre = math.sqrt(settings.empty_score * settings.filled_score)
    half_band = math.log(settings.filled_score / centre)
    distance = np.abs(np.log(np.maximum(score, 1e-3) / centre)) / half_band
    confidence = np.where(
        state == -1, distance * 0.5, np.clip(0.5 + (distance - 1) * 0.5, 0.5, 1.0)
    )
    # a cell dark all over but as smooth as paper: drawn shading always leaves grain or strokes
    # (std of its darkness 0.017 and up), paper in a shadow does not (about 0.007: the shadow's
    # paper, taken for a block and lifted, would read filled for sure)
    smooth = (state == 1) & (f.texture < PAPER_SMOOTH) & (f.darkness < PAPER_SMOOTH_DARKNESS)
    state = np.where(smooth, -1, state)
    confidence = np.where(smooth, np.minimum(confidence, UNSURE_PAPER_CONFIDENCE), confidence)
    if unsure_paper is not None:
        asked = unsure_paper & (state == 0)
        state = np.where(asked, -1, state)
        confidence = np.where(asked, np.minimum(confidence, UNSURE_PAPER_CONFIDENCE),
                              confidence)
    # a cell read empty among filled (or doubtful) neighbours on every side is a hole in the
    # drawing, far rarer than one more shaded cell: with marks in it, it is asked (a light
    # colour pencil's fill can score 0.55-0.57, just under empty_score, among doubtful cells of
    # its own light tile; erased traces in such holes score up to 0.59, so a few of those are
    # asked too)
    hole = (state == 0) & _surrounded(state != 0) & (score >= HOLE_MARKS * settings.empty_score)
    state = np.where(hole, -1, state)
    confidence = np.where(hole, np.minimum(confidence, UNSURE_PAPER_CONFIDENCE), confidence)
    ones = []
    for r in range(N):
        for c in range(N):
            if f.ink[r, c] < settings.one_min_ink:
                continue
            if f.spread_y[r, c] < ONE_MIN_SPREAD_Y:
                continue
            if f.spread_x[r, c] <= settings.one_aspect * f.spread_y[r, c]:
                ones.append((r, c))
    return state, confidence, ones


#: the down stroke of a written 1 spans at least this share of the inside of its cell
ONE_MIN_HEIGHT = 0.4
#: a piece of ink of fewer pixels than this is a speck, not a stroke
STROKE_MIN_PIXELS = 6


def is_sure_one(ink: np.ndarray, cell: Cell, f: CellFeatures,
                settings: SheetReaderSettings) -> bool:
    """A written 1 for sure: narrow, upright, one or two strokes (hatching is many), and a
    down stroke over at least ``ONE_MIN_HEIGHT`` of the cell's inside (a few specks of light
    hatching are neither many nor tall), standing clear of the cell's left and right sides (a
    1 is written in the middle of its square; a stroke that runs in from a side is a tile's
    fill or outline spilling over from the square beside)."""
    r, c = cell
    if f.spread_x[r, c] > min(settings.one_max_spread, settings.one_strict * f.spread_y[r, c]):
        return False
    lo = int(round(CANON_CELL * settings.inset))
    y0, x0 = PAD + r * CANON_CELL + lo, PAD + c * CANON_CELL + lo
    size = CANON_CELL - 2 * lo
    crop = ink[y0:y0 + size, x0:x0 + size].astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(crop, connectivity=8)
    strokes = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= STROKE_MIN_PIXELS]
    tallest = max((int(stats[i, cv2.CC_STAT_HEIGHT]) for i in strokes), default=0)
    from_a_side = any(stats[i, cv2.CC_STAT_LEFT] == 0
                      or stats[i, cv2.CC_STAT_LEFT] + stats[i, cv2.CC_STAT_WIDTH] >= size
                      for i in strokes)
    return 1 <= len(strokes) <= 2 and tallest >= ONE_MIN_HEIGHT * size and not from_a_side
