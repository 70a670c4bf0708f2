"""The card view divided by the light a band of rows at a time (session 28) is, to the bit,
the plain whole-image expression flatten_light used before (kept here as the reference):
on views larger and smaller than a band, with a light field dimmer than 8 in places, and
pixels past 255 and at 0."""

from __future__ import annotations

import numpy as np
import pytest

from vision.enigma.puzzles.view import FLATTEN_BAND_PIXELS, divided_by_light


def _plain(image: np.ndarray, field: np.ndarray, target: np.ndarray) -> np.ndarray:
    flat = image.astype(np.float32)
    flat *= target
    flat /= np.maximum(field, 8.0, out=field)
    out: np.ndarray = np.clip(flat, 0, 255, out=flat).astype(np.uint8)
    return out


@pytest.mark.parametrize("seed", range(10))
def test_divided_by_light_is_the_plain_division_to_the_bit(seed: int) -> None:
    rng = np.random.default_rng(seed)
    h = int(rng.integers(1, 4 * FLATTEN_BAND_PIXELS // 100))
    w = int(rng.integers(1, 200))
    image = rng.integers(0, 256, (h, w, 3), np.uint8)
    field = rng.uniform(0.0, 300.0, (h, w, 3)).astype(np.float32)
    field[rng.random((h, w)) < 0.1] = rng.uniform(0.0, 8.0)  # a dark corner: floored at 8
    target = rng.uniform(150.0, 255.0, 3).astype(np.float32)
    want_field, got_field = field.copy(), field.copy()
    want = _plain(image, want_field, target)
    got = divided_by_light(image, got_field, target)
    assert got.dtype == want.dtype == np.uint8
    assert np.array_equal(got, want)
    assert np.array_equal(got_field, want_field)  # the field raised to 8 in place, as before
