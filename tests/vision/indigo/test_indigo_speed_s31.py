"""Session 31's faster glare test (issue 20, read time): the sums the test of an empty cell
under glare takes over every pattern, with the light's slope out, are worked out from the
small fits instead of the remainders themselves, and must be the sums of those remainders.
Speed is measured by bench/, only the results are held here (seeded arrays)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.indigo.light_slope import slope_free_sums, without_light_slope


def _slope(side: int) -> np.ndarray:
    """(3, D) a level and the two slopes across a square patch's pixels, as the reader's."""
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float32) / (side / 2) - 1.0
    return np.array([np.ones_like(xx), xx, yy]).reshape(3, -1)


def _weights(rng: np.random.Generator, cells: int, side: int) -> np.ndarray:
    """(cells, D) pixel weights in 0..1: a glare patch of each cell's own size and place
    cut out, one cell almost wholly gone (the ridge's case), one untouched."""
    w = rng.uniform(0.2, 1.0, (cells, side, side)).astype(np.float32)
    for c in range(cells):
        y, x = rng.integers(0, side, 2)
        size = int(rng.integers(1, side))
        w[c, y : y + size, x : x + size] = 0.0
    w[0, :, :] = 0.0
    w[0, 0, :2] = 1.0
    w[1] = 1.0
    return w.reshape(cells, -1)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_slope_free_sums_are_the_sums_of_the_remainders(seed: int) -> None:
    rng = np.random.default_rng(seed)
    cells, side, n = 6, 15, 20
    slope = _slope(side)
    w = _weights(rng, cells, side)
    # patterns with a light slope of their own in them, as a lamp leaves on a print
    rows = (rng.normal(0, 1, (n, side * side)) + rng.normal(0, 2, (n, 3)) @ slope
            ).astype(np.float32)
    seen = rng.normal(0, 1, (cells, side * side)) * w
    left = without_light_slope(np.broadcast_to(rows, (cells, n, side * side)), w, slope)
    squares, against = slope_free_sums(rows, w, seen, slope)
    assert squares.shape == against.shape == (cells, n)
    np.testing.assert_allclose(squares, np.einsum("cd,cnd->cn", w, left * left),
                               rtol=1e-9, atol=1e-6)
    np.testing.assert_allclose(against, np.einsum("cd,cnd->cn", seen, left),
                               rtol=1e-9, atol=1e-6)
    assert (squares >= 0).all()


@pytest.mark.parametrize("seed", [0, 1])
def test_what_is_left_has_no_level_or_slope_of_light_over_the_pixels_weighed(seed: int) -> None:
    rng = np.random.default_rng(seed)
    cells, side = 5, 13
    slope = _slope(side)
    w = _weights(rng, cells, side)[1:]  # the nearly empty cell's fit is the ridge's
    values = (rng.normal(0, 1, (len(w), 2, side * side))
              + rng.normal(0, 3, (len(w), 2, 3)) @ slope).astype(np.float32)
    left = without_light_slope(values, w, slope)
    # a least-squares fit leaves a remainder orthogonal to what it fitted, under the weights
    np.testing.assert_allclose(np.einsum("cd,kd,cnd->cnk", w, slope, left), 0.0, atol=1e-3)
    # and what a level and slope alone made is taken out whole
    plain = (rng.normal(0, 3, (len(w), 1, 3)) @ slope).astype(np.float32)
    np.testing.assert_allclose(without_light_slope(plain, w, slope), 0.0, atol=1e-3)
