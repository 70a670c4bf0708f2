"""The tile reader's fast paths give exactly what numpy's general functions gave: the small-array
median, and the bright pixels of the ring a patch is balanced on."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from vision.enigma.small_stats import median
from vision.enigma.tile import BRIGHT_PERCENTILE, _balance_ring, _bright


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8])
def test_median_is_numpys_on_random_arrays(dtype: type) -> None:
    rng = np.random.default_rng(21)
    for n in range(1, 80):
        flat = (rng.random(n) * 255).astype(dtype)
        rows = (rng.random((n, 3)) * 255).astype(dtype)
        for got, want in ((median(flat), np.median(flat)),
                          (median(rows, axis=0), np.median(rows, axis=0)),
                          (median(list(flat.tolist())), np.median(list(flat.tolist())))):
            assert np.asarray(got).dtype == np.asarray(want).dtype
            assert np.array_equal(got, want)


def test_median_of_nothing_is_numpys_nan() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert np.isnan(median(np.zeros((0, 3), np.float32), axis=0)).all()
        assert np.isnan(median(np.zeros(0)))


@pytest.mark.parametrize("p", [32, 45, 64, 97, 128, 160])
def test_bright_ring_pixels_are_those_at_the_percentile(p: int) -> None:
    rng = np.random.default_rng(p)
    border, rank = _balance_ring(p)
    for _ in range(20):
        patch = rng.integers(0, 256, (p, p, 3)).astype(np.uint8)
        patch[rng.random((p, p)) < 0.3] = rng.integers(0, 256, 3).astype(np.uint8)  # ties
        ring = patch[border].astype(np.float32)
        want = ring[ring.sum(axis=1) >= np.percentile(ring.sum(axis=1), BRIGHT_PERCENTILE)]
        assert np.array_equal(_bright(patch[border], rank), want)
        floats = patch[border].astype(np.float32) + 0.25
        assert np.array_equal(_bright(floats, rank), floats[
            floats.sum(axis=1) >= np.percentile(floats.sum(axis=1), BRIGHT_PERCENTILE)])
