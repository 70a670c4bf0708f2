"""The clipped channels raised a band of pixels at a time (session 28) are, to the bit, what
the plain whole-card expression gave (kept here as the reference): on pixel lists longer and
shorter than a band, with none, some and all channels clipped."""

from __future__ import annotations

import numpy as np
import pytest

from vision.enigma.puzzles.view import (
    UNCLIP_BAND_PIXELS,
    UNCLIPPED_LEVEL,
    count_per_pixel,
    unclip,
)


def _plain_unclip(planes: np.ndarray, gains: np.ndarray, paper: np.ndarray) -> np.ndarray:
    out = planes.astype(np.float32) * gains[:3, np.newaxis]
    high = planes >= UNCLIPPED_LEVEL
    n_low = 3 - count_per_pixel(high, axis=0).astype(np.int64)
    known = out / paper[:, np.newaxis]
    known[high] = 0.0
    share = (known[0] + known[1] + known[2]) / np.maximum(n_low, 1)
    raise_ = high & (n_low > 0)
    result: np.ndarray = out.copy()
    result[raise_] = np.maximum(out[raise_], (share * paper[:, np.newaxis])[raise_])
    return result


@pytest.mark.parametrize("seed", range(10))
def test_unclip_by_bands_is_the_plain_one_to_the_bit(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 3 * UNCLIP_BAND_PIXELS + 5))
    planes = rng.integers(180, 256, (3, n)).astype(np.uint8)  # a lamp: many clipped
    planes[:, rng.random(n) < 0.2] = 255  # every channel clipped: left as it is
    gains = rng.uniform(0.8, 1.6, 3).astype(np.float32)
    paper = rng.uniform(200.0, 255.0, 3).astype(np.float32)
    want = _plain_unclip(planes, gains, paper)
    got = unclip(planes, gains, paper)
    assert got.shape == want.shape and got.dtype == want.dtype == np.float32
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
