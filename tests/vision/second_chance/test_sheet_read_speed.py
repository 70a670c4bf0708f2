"""The sheet reader's fast paths give what the plain computations give, to the bit.

Each fast path takes every median of a measure at once where the plain one took them one
call at a time; speed itself is measured by ``bench/`` (no timing here). The plain versions
are kept below as the reference.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np
import pytest

import vision.second_chance.cells as cells
import vision.second_chance.reader as reader
from tests.vision.second_chance.plain_line_ratios import plain_line_ratios
from vision.second_chance.cells import (
    AS_PAPER,
    EVEN_FILL,
    NEARBY_PATCHES,
    PAD,
    PAPER_ALIKE,
    SOLID_HUE,
    as_paper_seen_nearby,
    cells_view,
    looks_like_paper_beside,
    paper_and_unsure,
    side_slices,
)
from vision.second_chance.geometry import CANON_CELL
from vision.second_chance.settings import DEFAULT_SETTINGS
from vision.second_chance.sides import (
    BAND_PX,
    END_TRIM,
    FILL_ALIKE,
    MIN_UNDER_FILL_SIDES,
    alike_medians,
    columns_reduced,
    light_of_cells,
    line_darkness,
    line_ratios,
    under_fill_levels,
)
from vision.second_chance.synth.hands import render_hand_sheet
from vision.second_chance.synth.sheet import SheetContent

N = 9
SIZE = N * CANON_CELL + 2 * PAD
Border = tuple[tuple[int, int], tuple[int, int]]


def _plain_under_fill_levels(vertical: np.ndarray, horizontal: np.ndarray,
                             inside: frozenset[Border], cell_light: np.ndarray
                             ) -> tuple[np.ndarray, np.ndarray]:
    """sides.under_fill_levels as it was: one median a side, one a query."""
    known: list[tuple[float, float]] = []
    for a, b in inside:
        first, second = min(a, b), max(a, b)
        ratios = (vertical[first[0], first[1]] if first[0] == second[0]
                  else horizontal[first[1], first[0]])
        known.append(((cell_light[first] + cell_light[second]) / 2, float(np.median(ratios))))
    fills = np.array([k[0] for k in known])
    ratios = np.array([k[1] for k in known])

    def level(fill: float) -> float:
        alike = np.abs(fills - fill) <= FILL_ALIKE
        return float(np.median(ratios[alike])) if alike.sum() >= MIN_UNDER_FILL_SIDES else 1.0

    beside_v = (cell_light[:, :-1] + cell_light[:, 1:]) / 2
    beside_h = ((cell_light[:-1, :] + cell_light[1:, :]) / 2).T
    return (np.vectorize(level)(beside_v).astype(np.float32),
            np.vectorize(level)(beside_h).astype(np.float32))


def _plain_line_darkness(darkness: np.ndarray) -> np.ndarray:
    """sides.line_darkness as it was: one median a side."""
    trim = int(CANON_CELL * END_TRIM)
    out = np.zeros((N, N - 1), np.float32)
    for c in range(N - 1):
        x = PAD + (c + 1) * CANON_CELL
        band = darkness[:, x - BAND_PX:x + BAND_PX + 1].max(axis=1)
        for r in range(N):
            y0 = PAD + r * CANON_CELL
            out[r, c] = float(np.median(band[y0 + trim:y0 + CANON_CELL - trim]))
    return out


def _plain_as_paper_seen_nearby(bright: np.ndarray, seen: np.ndarray, value: np.ndarray,
                                hue: np.ndarray | None) -> np.ndarray:
    """cells.as_paper_seen_nearby as it was: one neighbour offset at a time."""
    n = bright.shape[0]
    out = np.zeros((n, n), dtype=bool)
    reach = NEARBY_PATCHES
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            here, there = side_slices(n, dy, dx)
            other = value[there]
            alike = (seen[there] & (bright[here] <= other * AS_PAPER)
                     & (other <= bright[here] * AS_PAPER))
            if hue is not None:
                alike &= np.abs(hue[here] - hue[there]).max(axis=2) <= SOLID_HUE
            out[here] |= alike
    return out


def _seeded_darkness(seed: int, *, levels: int) -> tuple[np.ndarray, np.ndarray]:
    """A seeded darkness map (printed lines, fills of a few levels so that many cells' fills
    are exactly alike, noise) and the cells read empty."""
    rng = np.random.default_rng(seed)
    darkness = rng.normal(0.03, 0.02, (SIZE, SIZE)).astype(np.float32)
    empty = rng.random((N, N)) < 0.4
    shades = rng.uniform(0.1, 0.8, levels)
    for r in range(N):
        for c in range(N):
            if not empty[r, c]:
                y, x = PAD + r * CANON_CELL, PAD + c * CANON_CELL
                darkness[y:y + CANON_CELL, x:x + CANON_CELL] += shades[rng.integers(levels)]
    for i in range(N + 1):
        darkness[:, PAD + i * CANON_CELL] += 0.4
        darkness[PAD + i * CANON_CELL, :] += 0.4
    return np.clip(darkness, 0, 1), empty


def _inside(empty: np.ndarray, seed: int) -> frozenset[Border]:
    """Some borders between two filled cells, in either order."""
    rng = random.Random(seed)
    borders: list[Border] = []
    for r in range(N):
        for c in range(N):
            for nr, nc in ((r, c + 1), (r + 1, c)):
                if nr < N and nc < N and not empty[r, c] and not empty[nr, nc] \
                        and rng.random() < 0.6:
                    borders.append(((r, c), (nr, nc)) if rng.random() < 0.5
                                   else ((nr, nc), (r, c)))
    return frozenset(borders)


def _assert_same_levels(darkness: np.ndarray, inside: frozenset[Border]) -> None:
    light = 1.0 - darkness.astype(np.float32)
    vertical, horizontal = line_ratios(light), line_ratios(light.T.copy())
    cell_light = light_of_cells(light)
    fast = under_fill_levels(vertical, horizontal, inside, cell_light)
    plain = _plain_under_fill_levels(vertical, horizontal, inside, cell_light)
    for got, want in zip(fast, plain, strict=True):
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.array_equal(got, want)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("levels", [1, 3, 40])
def test_the_levels_under_the_fills_are_the_plain_ones(seed: int, levels: int) -> None:
    darkness, empty = _seeded_darkness(seed, levels=levels)
    _assert_same_levels(darkness, _inside(empty, seed))


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_alike_medians_are_numpys_one_by_one(seed: int, dtype: type) -> None:
    rng = np.random.default_rng(seed)
    fills = rng.choice(rng.uniform(0, 1, 6), 25).astype(dtype)     # ties, odd and even counts
    ratios = rng.uniform(0.3, 1.0, 25)
    beside = np.concatenate([fills[:8], fills[:4] + FILL_ALIKE, rng.uniform(0, 1, 12)]
                            ).astype(np.float32).reshape(4, 6)
    want = np.ones(beside.shape, np.float32)
    for index, fill in np.ndenumerate(beside):
        alike = np.abs(fills - float(fill)) <= FILL_ALIKE
        if alike.sum() >= MIN_UNDER_FILL_SIDES:
            want[index] = float(np.median(ratios[alike]))
    assert np.array_equal(alike_medians(fills, ratios, beside), want)


@pytest.mark.parametrize("count", [0, 1, 2, 3])
def test_the_levels_with_too_few_sides_inside_are_the_plain_ones(count: int) -> None:
    darkness, empty = _seeded_darkness(7, levels=2)
    inside = sorted(_inside(~np.zeros((N, N), bool), 7))[:count]
    _assert_same_levels(darkness, frozenset(inside))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_lines_darkness_is_the_plain_one(seed: int) -> None:
    darkness, _ = _seeded_darkness(seed, levels=5)
    for image in (darkness, darkness.T.copy()):
        got, want = line_darkness(image), _plain_line_darkness(image)
        assert got.dtype == want.dtype and np.array_equal(got, want)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_lines_ratios_are_the_plain_ones(seed: int) -> None:
    darkness, _ = _seeded_darkness(seed, levels=5)
    light = 1.0 - darkness
    for image in (light, light.T.copy()):
        got, want = line_ratios(image), plain_line_ratios(image)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.array_equal(got, want)


def test_columns_reduced_are_each_columns_own() -> None:
    image = np.random.default_rng(4).random((30, 50)).astype(np.float32)
    starts = np.array([[0, 10], [20, 41]])
    got = columns_reduced(image, starts, 9, np.minimum)
    assert got.shape == (2, 2, 30)
    for index, start in np.ndenumerate(starts):
        assert np.array_equal(got[index], image[:, start:start + 9].min(axis=1))
    assert np.array_equal(columns_reduced(image, starts[0], 3, np.maximum)[1],
                          image[:, 10:13].max(axis=1))


def _seeded_patches(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(bright, seen, value, hue) of a seeded (24, 24) patch grid: levels and hues drawn from
    a few values, so that many neighbours sit exactly at the limits."""
    rng = np.random.default_rng(seed)
    levels = np.array([100, 115, 132.25, 150, 200], np.float32)
    bright = rng.choice(levels, (24, 24)).astype(np.float32)
    value = rng.choice(levels, (24, 24)).astype(np.float32)
    hue = rng.choice(np.array([0.95, 1.0, 1.05, 1.1], np.float32), (24, 24, 3))
    return bright, rng.random((24, 24)) < 0.3, value, hue


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_paper_seen_nearby_is_the_plain_one(seed: int) -> None:
    bright, seen, value, hue = _seeded_patches(seed)
    for colour in (hue, None):
        got = as_paper_seen_nearby(bright, seen, value, colour)
        assert got.dtype == bool
        assert np.array_equal(got, _plain_as_paper_seen_nearby(bright, seen, value, colour))


@pytest.mark.parametrize(("style", "condition", "seed"),
                         [("pencil", "harsh", 2), ("marker", "harsh", 4), ("coloured", "mild", 1)])
def test_the_paper_surface_is_fitted_again_only_when_it_would_differ(
        sheet_content: Callable[..., SheetContent], monkeypatch: pytest.MonkeyPatch,
        style: str, condition: str, seed: int) -> None:
    """The paper's surface is fitted a second time only where the shadow's steps change the
    patches it is fitted through; else the first fit is the second, to the bit."""
    frame = render_hand_sheet(sheet_content(seed), style=style, condition=condition, seed=seed)
    canon = reader.rectified(reader.warp_canon(frame, reader.locate_grid(frame).image_to_canon))
    keeps: list[np.ndarray] = []
    shadows: list[np.ndarray] = []
    fit, nearby = cells._paper_surface, cells.as_paper_seen_nearby

    def fit_spy(bright: np.ndarray, keep: np.ndarray) -> np.ndarray:
        keeps.append(keep.copy())
        return fit(bright, keep)

    def nearby_spy(*args: Any) -> np.ndarray:
        shadows.append(nearby(*args))
        return shadows[-1]

    monkeypatch.setattr(cells, "_paper_surface", fit_spy)
    monkeypatch.setattr(cells, "as_paper_seen_nearby", nearby_spy)
    paper_and_unsure(cv2.cvtColor(canon, cv2.COLOR_BGR2GRAY), colour=canon)
    assert len(shadows) == 1 and len(keeps) in (1, 2)
    # the plain reader fitted it again through the patches that are no block's step, the
    # steps into a shadow's paper no longer counted as steps
    steps = ~keeps[0]
    again = ~(steps & ~shadows[0])
    assert np.array_equal(keeps[-1], again)
    assert (len(keeps) == 2) == bool((steps & shadows[0]).any())


def _plain_looks_like_paper_beside(grid_img: np.ndarray, state: np.ndarray,
                                   texture: np.ndarray) -> np.ndarray:
    """cells.looks_like_paper_beside as it was: the cells' colours measured first."""
    lo = int(round(CANON_CELL * DEFAULT_SETTINGS.inset))
    hi = CANON_CELL - lo
    mean = cells_view(grid_img)[:, lo:hi, :, lo:hi].astype(np.float32).mean(axis=(1, 3))
    bright = np.maximum(mean.mean(axis=2), 1.0)
    hue = mean / bright[..., None]
    out = np.zeros((N, N), bool)
    even_fill = (state == 1) & (texture < EVEN_FILL)
    if not even_fill.any():
        return out
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == dc == 0:
                continue
            here, there = side_slices(N, dr, dc)
            out[here] |= (even_fill[here] & (state[there] == 0)
                          & (np.abs(bright[here] / bright[there] - 1.0) <= PAPER_ALIKE)
                          & (np.abs(hue[here] - hue[there]).max(axis=2) <= SOLID_HUE))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_paper_beside_is_the_plain_one_with_and_without_even_fills(seed: int) -> None:
    rng = np.random.default_rng(seed)
    grid = np.full((SIZE, SIZE, 3), 200, np.uint8)
    for r in range(N):
        for c in range(N):
            y, x = PAD + r * CANON_CELL, PAD + c * CANON_CELL
            grid[y:y + CANON_CELL, x:x + CANON_CELL] = rng.choice([196, 200, 204, 120])
    state = rng.choice([-1, 0, 1], (N, N))
    texture = rng.choice([0.01, 0.02, 0.1], (N, N))
    for even in (texture, np.full((N, N), 0.1)):      # some even fills, then none
        got = looks_like_paper_beside(grid, state, even, DEFAULT_SETTINGS)
        assert np.array_equal(got, _plain_looks_like_paper_beside(grid, state, even))
    if seed == 1:  # (a grid where some even fill does look like the paper beside it)
        assert _plain_looks_like_paper_beside(grid, state, texture).any()


def _coverage_arguments(frame: np.ndarray, monkeypatch: pytest.MonkeyPatch,
                        **cards: Any) -> tuple[np.ndarray, np.ndarray, frozenset[Border]]:
    """The darkness map, empty cells and sides inside a tile a read of ``frame`` measures its
    side coverage on."""
    seen: list[tuple[Any, ...]] = []
    measure = reader.side_coverage

    def spy(darkness: np.ndarray, empty: np.ndarray, inside: frozenset[Border] = frozenset(),
            **kwargs: Any) -> Any:
        seen.append((darkness, empty, inside))
        return measure(darkness, empty, inside, **kwargs)

    monkeypatch.setattr(reader, "side_coverage", spy)
    reader.read_sheet(frame, **cards)
    assert len(seen) == 1
    return seen[0]


@pytest.mark.parametrize(("style", "condition", "seed"),
                         [("marker", "mild", 3), ("coloured", "harsh", 5)])
def test_a_read_sheets_sides_are_measured_as_plainly(
        sheet_content: Callable[..., SheetContent], monkeypatch: pytest.MonkeyPatch,
        style: str, condition: str, seed: int) -> None:
    frame = render_hand_sheet(sheet_content(seed), style=style, condition=condition, seed=seed)
    darkness, _, inside = _coverage_arguments(frame, monkeypatch)
    assert len(inside) >= MIN_UNDER_FILL_SIDES
    _assert_same_levels(darkness, inside)
    dark = darkness.astype(np.float32)
    for image in (dark, dark.T.copy()):
        assert np.array_equal(line_darkness(image), _plain_line_darkness(image))
