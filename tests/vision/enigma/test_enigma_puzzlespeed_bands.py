"""The card search's per-pixel measures made a band of rows at a time (session 28): chroma
and whiteness give, to the bit, what the plain whole-image expressions gave (kept here as
the reference), on images larger and smaller than a band, 8-bit and float, cut views."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.enigma.puzzles.card_find import (
    BAND_PIXELS,
    MAX_CHROMA,
    WHITE_FLOOR,
    WHITE_TOP,
    brightness,
    chroma,
    whiteness,
)


def _plain_chroma(image: np.ndarray) -> np.ndarray:
    b, g, r = cv2.split(image if image.dtype == np.uint8 else image.astype(np.float32))
    spread = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    out: np.ndarray = spread.astype(np.float32) / np.maximum(brightness(image), 1.0)
    return out


def _plain_whiteness(image: np.ndarray) -> np.ndarray:
    level = np.clip((brightness(image) / 255.0 - WHITE_FLOOR) / (WHITE_TOP - WHITE_FLOOR), 0, 1)
    out: np.ndarray = level * np.clip(1.0 - _plain_chroma(image) / MAX_CHROMA, 0, 1)
    return out


@pytest.mark.parametrize("seed", range(8))
def test_chroma_and_whiteness_by_bands_are_the_plain_ones_to_the_bit(seed: int) -> None:
    rng = np.random.default_rng(seed)
    h, w = int(rng.integers(1, 4 * BAND_PIXELS // 150)), int(rng.integers(1, 260))
    image = rng.integers(0, 256, (h, w, 3), np.uint8)
    image[rng.random((h, w)) < 0.3] = rng.integers(0, 256)  # greys, white and black
    for seen in (image, image[:, 1:], image.astype(np.float32) * 0.9):
        for fast, plain in ((chroma, _plain_chroma), (whiteness, _plain_whiteness)):
            want, got = plain(seen), fast(seen)
            assert got.shape == want.shape and got.dtype == want.dtype == np.float32
            assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
