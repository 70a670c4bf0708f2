"""The gains table gives the whole-image float product to the bit, for float32 and float64
gains (the readers' colour balances were written as that product; a pixel moved by one grey
level moves their colour-classified edges)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.gains import times_gains


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("seed", range(6))
def test_the_table_is_the_float_product(seed: int, dtype: type) -> None:
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 256, (37, 53, 3), dtype=np.uint8)
    gains = rng.uniform(0.2, 3.0, 3).astype(dtype)  # some channels clip, some darken
    expected = np.clip(image.astype(np.float32) * gains, 0, 255).astype(np.uint8)
    assert np.array_equal(times_gains(image, gains), expected)


def test_a_view_into_a_bigger_image_is_scaled_too() -> None:
    image = np.arange(6 * 8 * 3, dtype=np.uint8).reshape(6, 8, 3)
    part = image[1:5, 2:6]
    gains = np.array([2.0, 1.0, 0.5], np.float32)
    assert np.array_equal(times_gains(part, gains),
                          np.clip(part.astype(np.float32) * gains, 0, 255).astype(np.uint8))
