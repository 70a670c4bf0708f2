"""The colour features made channel plane by channel plane and a band of rows at a time
(session 28) are, to the bit, what the plain pixel-by-pixel expression (kept here as the
reference) gives: on images larger and smaller than a band, cut views, floats, pixel lists
and single colours."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from vision.enigma.colours import FEATURE_BAND_PIXELS, colour_features
from vision.enigma.read_types import BRIGHTNESS, CHROMA, DARK


def _plain_colour_features(bgr: Any) -> np.ndarray:
    img = np.asarray(bgr, np.float32) + 1.0
    b, r = img[..., 0], img[..., 2]
    total = b + img[..., 1]
    total += r
    out = np.empty(img.shape, np.float32)
    trust = np.clip(total / DARK, 0.25, 1.0)
    out[..., 0] = CHROMA * ((b / total - 1 / 3) * trust + 1 / 3)
    out[..., 1] = CHROMA * ((r / total - 1 / 3) * trust + 1 / 3)
    out[..., 2] = BRIGHTNESS * np.log(total)
    return out


def _inputs(seed: int) -> list[Any]:
    rng = np.random.default_rng(seed)
    h = int(rng.integers(2, 3 * FEATURE_BAND_PIXELS // 200))  # one band or several
    w = int(rng.integers(150, 260))
    image = rng.integers(0, 256, (h, w, 3), np.uint8)
    image[: h // 4] = rng.choice([0, 1, 254, 255], (h // 4, w, 3))  # the darkest and clipped
    return [image, image[1:-1, 3:w - 2], image[:, ::2],
            image.astype(np.float32), image.astype(np.float64)[: h // 2],
            image.reshape(-1, 3)[:: 7], rng.uniform(0, 255, (int(rng.integers(1, 40)), 3)),
            np.array(image[0, 0], np.float32), tuple(int(v) for v in image[-1, -1]),
            image[:0], np.zeros((0, 3), np.float32), image[:6, :4, None]]


@pytest.mark.parametrize("seed", range(8))
def test_colour_features_are_the_plain_ones_to_the_bit(seed: int) -> None:
    for bgr in _inputs(seed):
        want = _plain_colour_features(bgr)
        got = colour_features(bgr)
        assert got.shape == want.shape and got.dtype == want.dtype == np.float32
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
