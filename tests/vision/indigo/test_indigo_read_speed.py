"""The Indigo reader's faster paths (issue 20, read time) give what the plain ones give, on
seeded arrays and boards: speed is measured by bench/, only the results are held here."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.indigo import ROUTE_CELLS
from companion.indigo.geometry import Cell
from vision.indigo.board import cell_xy
from vision.indigo.discs import disc_offsets, disc_pixels
from vision.indigo.gems import GEM_CLOSE, close_gem_labels, spots_with_colour_round
from vision.indigo.model import (
    BRIGHTNESS,
    CHROMA,
    COMPARE_RADIUS,
    FEW_PIXELS_AT_ONCE,
    GEM_NAMES,
    GEM_SHADE_BAND,
    GREY_CHROMA,
    PackModel,
    canonical_size,
    colour_features,
    gem_label_map,
    nearest_banded,
    pack_model,
    to_canonical,
)
from vision.indigo.pack import IndigoPack
from vision.indigo.settings import DEFAULT_SETTINGS
from vision.indigo.tiles import LEAST_SEEN_PIXELS, cells_chroma
from vision.one_thread import BLAS_ONE_THREAD_WORK, one_thread_product


@pytest.mark.parametrize("rows", [1, 5, 10, 11, 54, 61])
def test_a_product_a_few_rows_at_a_time_is_the_whole_product(rows: int) -> None:
    rng = np.random.default_rng(rows)
    left = rng.normal(size=(rows, 509)).astype(np.float32)
    right = rng.normal(size=(509, 48)).astype(np.float32)
    got = one_thread_product(left, right)
    assert got.shape == (rows, 48)
    # the BLAS may add in another order for fewer rows: the same sums to float32's precision
    np.testing.assert_allclose(got, left @ right, rtol=1e-5, atol=1e-3)


def test_each_part_of_a_product_is_small_enough_for_one_thread() -> None:
    rng = np.random.default_rng(3)
    right = rng.normal(size=(509, 48)).astype(np.float32)
    seen: list[int] = []

    class Rows(np.ndarray):
        """Records the rows of each part multiplied."""

        def __matmul__(self, other: np.ndarray) -> np.ndarray:
            seen.append(len(self))
            return np.asarray(self) @ other

    left = rng.normal(size=(54, 509)).astype(np.float32).view(Rows)
    one_thread_product(left, right)
    assert sum(seen) == 54
    assert max(seen) * 509 * 48 <= BLAS_ONE_THREAD_WORK


def _plain_nearest(pixels: np.ndarray, colours: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The banded nearest colour as first written: a column at a time, new arrays."""
    lo, hi = GEM_SHADE_BAND
    least = np.full(len(pixels), np.inf, np.float32)
    index = np.zeros(len(pixels), np.intp)
    for k, colour in enumerate(colours):
        d2 = (pixels[:, 0] - colour[0]) ** 2 + (pixels[:, 1] - colour[1]) ** 2
        dy = pixels[:, 2] - colour[2]
        d2 += (np.maximum(dy - hi, 0.0) + np.minimum(dy - lo, 0.0)) ** 2
        closer = d2 < least
        least[closer] = d2[closer]
        index[closer] = k
    return least, index


def _features_round(colours: np.ndarray, rng: np.random.Generator, n: int) -> np.ndarray:
    """Seeded colour features: near the given colours (shaded, tinted), and anywhere."""
    picks = colours[rng.integers(len(colours), size=n)]
    near = picks + rng.normal(scale=[6.0, 6.0, 10.0], size=(n, 3))
    anywhere = rng.uniform([20, 20, 40], [120, 120, 110], size=(n, 3))
    return np.concatenate([near, anywhere]).astype(np.float32)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_nearest_colour_on_planes_is_the_plain_one_to_the_bit(demo: IndigoPack,
                                                                  seed: int) -> None:
    model = pack_model(demo, 16)
    gems = np.array([model.gem_lab[n] for n in GEM_NAMES], np.float32)
    pixels = _features_round(np.vstack([gems, model.palette]), np.random.default_rng(seed), 5000)
    for colours in (gems, model.palette):
        least, index = nearest_banded(np.ascontiguousarray(pixels.T), colours)
        plain_least, plain_index = _plain_nearest(pixels, colours)
        assert np.array_equal(least, plain_least)
        assert np.array_equal(index, plain_index)


@pytest.mark.parametrize("seed", [1, 2])
def test_gem_labels_of_some_pixels_are_those_of_the_whole_map(demo: IndigoPack,
                                                              seed: int) -> None:
    model = pack_model(demo, 16)
    gems = np.array([model.gem_lab[n] for n in GEM_NAMES], np.float32)
    rng = np.random.default_rng(seed)
    lab = _features_round(gems, rng, 90 * 90 // 2).reshape(90, 90, 3)
    every = gem_label_map(lab, model)
    assert set(np.unique(every)) == {0, 1, 2, 3}  # the seeded pixels take every label
    where = np.sort(rng.choice(90 * 90, size=3000, replace=False))
    some = gem_label_map(lab, model, where=where)
    assert np.array_equal(some.ravel()[where], every.ravel()[where])
    assert not np.delete(some.ravel(), where).any()


def _plain_with_colour(labels: np.ndarray, centres: list[tuple[float, float]], radius: float,
                       reach: float, least: float) -> list[bool]:
    """Each spot's square looked at in turn, as _gem_off_spot does before it filters."""
    r, inside = disc_offsets(round(radius, 2))
    side = r + int(math.ceil(reach))
    out = []
    for x, y in centres:
        xi, yi = int(round(x)), int(round(y))
        block = labels[max(0, yi - side): yi + side + 1, max(0, xi - side): xi + side + 1]
        whole = yi - side >= 0 and xi - side >= 0 and block.shape == (2 * side + 1,) * 2
        counts = np.bincount(block.ravel(), minlength=len(GEM_NAMES) + 1)
        out.append(whole and bool((counts[1:] >= least * float(inside.sum())).any()))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_spots_with_a_gem_colour_round_them_are_counted_as_one_by_one(seed: int) -> None:
    rng = np.random.default_rng(seed)
    labels = np.zeros((200, 240), np.uint8)
    for _ in range(25):  # blobs of each colour, some at the edges
        x, y, code = int(rng.integers(240)), int(rng.integers(200)), int(rng.integers(1, 4))
        cv2.circle(labels, (x, y), int(rng.integers(2, 9)), code, -1)
    labels[rng.random(labels.shape) < 0.03] = 2  # and scattered pixels
    centres = [(float(x), float(y)) for x, y in rng.uniform([-5, -5], [245, 205], (300, 2))]
    radius, reach, least = 6.72, 7.68, 0.2
    got = spots_with_colour_round(labels, centres, radius, reach, least)
    assert got == _plain_with_colour(labels, centres, radius, reach, least)
    assert 0 < sum(got) < len(got)


def _plain_cell_chroma(lab: np.ndarray, model: PackModel, cell: Cell,
                       glare: np.ndarray | None) -> tuple[np.ndarray | None, bool]:
    """One cell's median chromaticity inside the compared disc, outside the glare (None off
    the board or when too little is left), and whether glare lies in the disc: the reader's
    way cell by cell before :func:`cells_chroma`."""
    x, y = to_canonical(cell_xy(cell), model.cell_px)
    radius = COMPARE_RADIUS * model.cell_px
    pixels = disc_pixels(lab, (x, y), radius)
    under = False
    if glare is not None and pixels.size:
        burnt = disc_pixels(glare, (x, y), radius)
        under = bool(burnt.any())
        pixels = pixels[~burnt]
    if len(pixels) < LEAST_SEEN_PIXELS:
        return None, under
    chroma: np.ndarray = np.median(pixels[:, :2], axis=0)
    return chroma, under


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_cells_colours_at_once_are_each_cells_own(demo: IndigoPack, seed: int) -> None:
    model = pack_model(demo, DEFAULT_SETTINGS.cell_px)
    size = canonical_size(model.cell_px)
    rng = np.random.default_rng(seed)
    lab = rng.normal([60, 70, 80], [8, 8, 10], (size, size, 3)).astype(np.float32)
    glare = np.zeros((size, size), np.uint8)
    for _ in range(12):  # reflections: some cells partly under, some wholly, most not
        x, y = (int(v) for v in rng.integers(0, size, 2))
        cv2.circle(glare, (x, y), int(rng.integers(3, 30)), 1, -1)
    cells = list(ROUTE_CELLS)
    for mask in (None, glare.astype(bool)):
        together = cells_chroma(lab, model, cells, mask)
        for cell in cells:
            chroma, under = _plain_cell_chroma(lab, model, cell, mask)
            assert together[cell][1] == under
            if chroma is None:
                assert together[cell][0] is None
            else:
                assert np.array_equal(together[cell][0], chroma)
    partly = [c for c, (v, under) in cells_chroma(lab, model, cells, glare.astype(bool)).items()
              if under and v is not None]
    assert partly  # the seeded glare leaves some cells part seen


def _plain_colour_features(bgr: np.ndarray, saturation: float = 1.0) -> np.ndarray:
    """The colour features as the reader made them before its uint8 planes (session 22)."""
    shape = np.shape(bgr)
    img = (np.asarray(bgr, np.float32) + 1.0).reshape(-1, 1, 3)
    blue, green, red = cv2.split(img)
    total = blue + green
    total += red
    chroma = [CHROMA * blue / total, CHROMA * red / total]
    if saturation != 1.0:
        for plane in chroma:
            plane -= GREY_CHROMA
            plane *= 1.0 / saturation
            plane += GREY_CHROMA
    out: np.ndarray = cv2.merge([*chroma, BRIGHTNESS * np.log(total)]).reshape(shape)
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("saturation", [1.0, 0.7, 1.3])
def test_colour_features_are_the_plain_ones_to_the_bit(seed: int, saturation: float) -> None:
    rng = np.random.default_rng(seed)
    camera = rng.integers(0, 256, (37 + seed, 53, 3), dtype=np.uint8)
    camera[0, :4] = [[0, 0, 0], [255, 255, 255], [0, 255, 0], [255, 0, 255]]  # the extremes
    # a view, not contiguous (a crop of the board), and the other inputs the readers pass
    inputs = [camera, camera[3:30, 5:40], camera.reshape(-1, 3),
              camera.astype(np.float32) * np.float32(1.07), camera[0, 0].astype(np.float32)]
    for bgr in inputs:
        want = _plain_colour_features(bgr, saturation)
        got = colour_features(bgr, saturation)
        assert got.dtype == want.dtype == np.float32 and got.shape == want.shape
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


def _plain_close(labels: np.ndarray, gem_r: float) -> np.ndarray:
    """Each colour closed over the whole map, as session 22 closed them."""
    side = 2 * max(1, int(round(GEM_CLOSE * gem_r))) + 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))
    out = labels.copy()
    for code in range(1, len(GEM_NAMES) + 1):
        closed = cv2.morphologyEx((labels == code).astype(np.uint8), cv2.MORPH_CLOSE, kernel)
        out[(out == 0) & (closed > 0)] = code
    return out


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("gem_r", [1.0, 4.4, 9.6])
def test_each_colour_closed_round_its_pixels_is_the_whole_maps_closing(seed: int,
                                                                       gem_r: float) -> None:
    rng = np.random.default_rng(seed)
    labels = np.zeros((120 + seed, 97), np.uint8)
    for _ in range(12):  # broken rings and specks of every colour, some at the map's edges
        code = int(rng.integers(1, len(GEM_NAMES) + 1))
        x = int(rng.integers(-3, labels.shape[1] + 3))
        y = int(rng.integers(-3, labels.shape[0] + 3))
        radius = int(rng.integers(2, 12))
        cv2.circle(labels, (x, y), radius, code, int(rng.integers(1, 4)))
    labels[rng.random(labels.shape) < 0.01] = len(GEM_NAMES)
    labels[rng.random(labels.shape) < 0.05] = 0  # facets and highlights: holes in the gems
    assert np.array_equal(close_gem_labels(labels, gem_r), _plain_close(labels, gem_r))
    one_colour = np.where(labels == 1, labels, 0).astype(np.uint8)
    assert np.array_equal(close_gem_labels(one_colour, gem_r), _plain_close(one_colour, gem_r))
    empty = np.zeros_like(labels)
    assert np.array_equal(close_gem_labels(empty, gem_r), empty)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("count", [1, 40, 344])
def test_the_nearest_colour_of_few_pixels_at_once_is_the_plain_one_to_the_bit(
        demo: IndigoPack, seed: int, count: int) -> None:
    model = pack_model(demo, 32)
    gems = np.array([model.gem_lab[n] for n in GEM_NAMES], np.float32)
    rng = np.random.default_rng(seed)
    pixels = _features_round(np.vstack([gems, model.palette]), rng, count)
    pixels[: len(gems)] = gems[: len(pixels)]  # some exactly on a colour
    # a colour twice: the first of the two is the nearest, as in the passes
    twice = np.vstack([model.palette, model.palette[:2]])
    for colours in (gems, model.palette, twice, np.vstack([gems, model.palette])):
        assert len(pixels) * len(colours) <= FEW_PIXELS_AT_ONCE
        least, index = nearest_banded(np.ascontiguousarray(pixels.T), colours)
        plain_least, plain_index = _plain_nearest(pixels, colours)
        assert np.array_equal(least, plain_least)
        assert np.array_equal(index, plain_index)
