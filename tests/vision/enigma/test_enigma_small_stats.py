"""The small-array median gives numpy's median exactly: value and type."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from vision.enigma.small_stats import median


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
