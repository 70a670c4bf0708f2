"""The puzzle checks' fast paths give exactly what the general functions gave: the card
search's shifted levels, the conduit card's grey levels, the clipped channels counted per
pixel, and the angular structure's bands grown on the box round it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.enigma.puzzles.angular_light import grown, grown_by
from vision.enigma.puzzles.card_find import rolled
from vision.enigma.puzzles.conduit import channel_mean
from vision.enigma.puzzles.view import count_per_pixel


@pytest.mark.parametrize("shape", [(5, 7), (40, 33), (1, 9), (9, 1)])
def test_rolled_is_numpys_roll(shape: tuple[int, int]) -> None:
    image = np.random.default_rng(13).random(shape, dtype=np.float32)
    for axis in (0, 1):
        for shift in range(-25, 26):
            assert np.array_equal(rolled(image, shift, axis), np.roll(image, shift, axis=axis))


def test_channel_mean_is_numpys_mean_to_the_bit() -> None:
    image = np.random.default_rng(26).integers(0, 256, (64, 80, 3), dtype=np.uint8)
    want = image.astype(np.float32).mean(axis=2)
    got = channel_mean(image)
    assert got.dtype == want.dtype and np.array_equal(got, want)


def test_count_per_pixel_is_numpys_sum() -> None:
    flags = np.random.default_rng(21).random((50, 60, 3)) < 0.4
    assert np.array_equal(count_per_pixel(flags), flags.sum(axis=2, dtype=np.uint8))
    assert np.array_equal(count_per_pixel(flags.reshape(-1, 3)),
                          flags.reshape(-1, 3).sum(axis=1, dtype=np.uint8))


@pytest.mark.parametrize("radius", [0.3, 1.0, 2.6, 7.9, 30.0, 48.0])
def test_grown_is_a_dilation_of_the_whole_mask(radius: float) -> None:
    rng = np.random.default_rng(7)
    r = max(1, int(radius))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    for _ in range(60):
        h, w = (int(v) for v in rng.integers(5, 120, 2))
        mask = np.zeros((h, w), bool)
        for _ in range(int(rng.integers(0, 6))):
            y, x = int(rng.integers(0, h)), int(rng.integers(0, w))
            mask[y:y + int(rng.integers(1, 10)), x:x + int(rng.integers(1, 10))] = True
        assert np.array_equal(grown(mask, radius), cv2.dilate(mask.astype(np.uint8), kernel) > 0)


def test_grown_by_is_a_dilation_of_the_whole_mask_at_every_radius() -> None:
    """The angular check's radii (a tenth, one and two and a half cubes of 48 px) at once:
    kernels of 240 px whose rows round half-way differently from a Euclidean disc."""
    rng = np.random.default_rng(11)
    radii = (4.8, 48.0, 120.0)
    kernels = [cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
               for r in (4, 48, 120)]
    for _ in range(6):
        h, w = (int(v) for v in rng.integers(150, 400, 2))
        mask = np.zeros((h, w), np.uint8)
        for _ in range(int(rng.integers(1, 4))):
            centre = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            cv2.circle(mask, centre, int(rng.integers(1, 40)), 1, -1)
        mask |= (rng.random((h, w)) < 0.002).astype(np.uint8)
        for got, kernel in zip(grown_by(mask.astype(bool), radii), kernels, strict=True):
            assert np.array_equal(got, cv2.dilate(mask, kernel) > 0)
