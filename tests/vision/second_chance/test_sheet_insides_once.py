"""The cells' insides measured on a copy of the insides alone give what the cells' views gave,
to the bit: the mean colours (:func:`~vision.second_chance.cells.colour_cover`,
:func:`~vision.second_chance.cells.colour_strength`), the strokes' directions, and the lines'
ratios of every rank at once (:func:`~vision.second_chance.sides.line_ratios_ranked`).

Speed itself is measured by ``bench/sheet_compare.py`` (no timing here); the plain versions
(as the reader had them before session 33) are kept below as the reference.
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from tests.vision.second_chance.plain_line_ratios import plain_line_ratios
from vision.second_chance.cells import (
    CENTRE_CIRCLE,
    COVER_BLOCKS,
    DIRECTION_RING_REACH,
    GRID_PX,
    PAD,
    cells_view,
    colour_cover,
    inside_lanes,
    stroke_directions,
)
from vision.second_chance.geometry import CANON_CELL
from vision.second_chance.layout import GRID_CELLS
from vision.second_chance.settings import DEFAULT_SETTINGS
from vision.second_chance.sides import (
    WIDE_RANK,
    line_ratios,
    line_ratios_ranked,
)

N = GRID_CELLS
SIDE = 2 * PAD + GRID_PX
INSET = int(round(CANON_CELL * DEFAULT_SETTINGS.inset))


def _plain_colour_cover(norm: np.ndarray, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """cells.colour_cover as it was: every mean taken over the cells' view."""
    view = cells_view(norm)[:, lo:hi, :, lo:hi]
    mean = view.mean(axis=(1, 3))
    chroma = mean - mean.mean(axis=2, keepdims=True)
    length = np.sqrt((chroma ** 2).sum(axis=2))
    unit = chroma / np.maximum(length, 1e-9)[..., None]
    size, cover = hi - lo, np.full((N, N), np.inf)
    cuts = [round(size * k / COVER_BLOCKS) for k in range(COVER_BLOCKS + 1)]
    for a0, a1 in itertools.pairwise(cuts):
        for b0, b1 in itertools.pairwise(cuts):
            block = view[:, a0:a1, :, b0:b1].mean(axis=(1, 3))
            block = block - block.mean(axis=2, keepdims=True)
            cover = np.minimum(cover, (block * unit).sum(axis=2))
    return chroma, cover / np.maximum(length, 1e-9)


def _plain_stroke_directions(darkness: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """cells.stroke_directions as it was: the products over the whole map, summed over the
    cells' view (the centre cell's ring left out as the reader leaves it out)."""
    gx = cv2.Sobel(darkness, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(darkness, cv2.CV_32F, 0, 1, ksize=3)
    strength = gx * gx + gy * gy
    cos2, sin2 = gx * gx - gy * gy, 2 * gx * gy
    ring = _ring_in_grid(lo, hi)
    for a in (strength, cos2, sin2):
        a[PAD:PAD + GRID_PX, PAD:PAD + GRID_PX][ring] = 0.0
    cos4 = (cos2 * cos2 - sin2 * sin2) / np.maximum(strength, 1e-12)
    sin4 = 2 * cos2 * sin2 / np.maximum(strength, 1e-12)

    def per_cell(a: np.ndarray) -> np.ndarray:
        return cells_view(a)[:, lo:hi, :, lo:hi].sum(axis=(1, 3))  # type: ignore[no-any-return]

    total = np.maximum(per_cell(strength), 1e-9)
    return np.stack([per_cell(v) / total for v in (cos2, sin2, cos4, sin4)], axis=2)


def _ring_in_grid(lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """The centre cell's printed ring inside ``lo:hi``, in grid pixels (the reader's own
    pixels, worked out here as it works them out)."""
    offsets = np.arange(lo, hi, dtype=np.float32) + 0.5 - CANON_CELL / 2
    distance = np.hypot(offsets[:, None], offsets[None, :])
    rows, cols = np.nonzero(np.abs(distance - CENTRE_CIRCLE * CANON_CELL)
                            <= DIRECTION_RING_REACH)
    start = (N // 2) * CANON_CELL + lo
    return rows + start, cols + start


def _seeded_norm(seed: int, dtype: type) -> np.ndarray:
    """The cropped grid's colour as shares of the paper: noise, and coloured fills."""
    rng = np.random.default_rng(seed)
    norm = (1.0 + rng.normal(0.0, 0.05, (SIDE, SIDE, 3))).astype(dtype)
    for r, c in rng.integers(0, N, (20, 2)):
        y, x = PAD + r * CANON_CELL, PAD + c * CANON_CELL
        norm[y:y + CANON_CELL, x:x + CANON_CELL] *= rng.uniform(0.3, 1.0, 3).astype(dtype)
    return norm


def _seeded_darkness(seed: int) -> np.ndarray:
    """A darkness map of hatched cells (strokes one way a cell), noise, and printed lines."""
    rng = np.random.default_rng(seed)
    darkness = rng.normal(0.03, 0.02, (SIDE, SIDE)).astype(np.float32)
    for r, c in rng.integers(0, N, (30, 2)):
        y, x = PAD + r * CANON_CELL, PAD + c * CANON_CELL
        cell = np.zeros((CANON_CELL, CANON_CELL), np.float32)
        step = int(rng.integers(3, 8))
        if rng.random() < 0.5:
            cell[::step, :] = rng.uniform(0.2, 0.9)
        else:
            cell[:, ::step] = rng.uniform(0.2, 0.9)
        darkness[y:y + CANON_CELL, x:x + CANON_CELL] += cv2.GaussianBlur(cell, (3, 3), 0.8)
    for i in range(N + 1):
        darkness[:, PAD + i * CANON_CELL] += 0.4
        darkness[PAD + i * CANON_CELL, :] += 0.4
    return np.clip(darkness, 0, 1)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_cells_mean_colours_are_the_plain_ones(seed: int, dtype: type) -> None:
    norm = _seeded_norm(seed, dtype)
    for lo, hi in ((INSET, CANON_CELL - INSET), (4, 31)):
        got, want = colour_cover(norm, lo, hi), _plain_colour_cover(norm, lo, hi)
        for fast, plain in zip(got, want, strict=True):
            assert fast.dtype == plain.dtype and fast.tobytes() == plain.tobytes()


def test_the_insides_lanes_hold_each_cells_inside() -> None:
    norm = _seeded_norm(3, np.float32)
    lanes = inside_lanes(norm, INSET, CANON_CELL - INSET)
    size = CANON_CELL - 2 * INSET
    assert lanes.shape == (N, size, size, N, 3) and lanes.flags.c_contiguous
    y, x = PAD + 2 * CANON_CELL + INSET, PAD + 7 * CANON_CELL + INSET
    assert np.array_equal(lanes[2, :, :, 7], norm[y:y + size, x:x + size])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_strokes_directions_on_the_insides_are_the_plain_ones(seed: int) -> None:
    darkness = _seeded_darkness(seed)
    for lo, hi in ((INSET, CANON_CELL - INSET), (10, 30)):
        got = stroke_directions(darkness, lo, hi)
        want = _plain_stroke_directions(darkness, lo, hi)
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


@pytest.mark.parametrize("seed", [0, 1])
def test_the_lines_ratios_of_every_rank_at_once_are_each_ranks_own(seed: int) -> None:
    light = 1.0 - _seeded_darkness(seed)
    for image in (light, light.T.copy()):
        darkest, wide = line_ratios_ranked(image, (0, WIDE_RANK))
        assert darkest.tobytes() == line_ratios(image).tobytes()
        assert wide.tobytes() == line_ratios(image, WIDE_RANK).tobytes()
        assert wide.tobytes() == plain_line_ratios(image, WIDE_RANK).tobytes()
