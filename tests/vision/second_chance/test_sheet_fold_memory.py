"""The demo camera draws a Second Chance sheet bent and creased while the players play: the
fold's float copies of the sheet go as soon as they are used (no int64 grid first), and the
pixels are those of the whole-sheet arithmetic, to the bit."""

from __future__ import annotations

import math
import tracemalloc

import cv2
import numpy as np

from vision.second_chance.synth.sheet import bend_sheet, crease_sheet

#: a sheet as the demo table draws it (rows, columns)
SHEET = (1050, 740)


def _crease_all_at_once(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The crease as it was written first: every full-size array alive to the end."""
    h, w = image.shape[:2]
    out = image.astype(np.float32)
    if rng.random() < 0.5:
        y = rng.uniform(0.3, 0.7) * h
        a, b = (0.0, y + rng.normal(0, h * 0.03)), (float(w), y + rng.normal(0, h * 0.03))
    else:
        x = rng.uniform(0.3, 0.7) * w
        a, b = (x + rng.normal(0, w * 0.03), 0.0), (x + rng.normal(0, w * 0.03), float(h))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = ((b[0] - a[0]) * (a[1] - yy) - (a[0] - xx) * (b[1] - a[1])) / math.hypot(
        b[0] - a[0], b[1] - a[1])
    side = np.where(d > 0, 1.0 - rng.uniform(0.02, 0.07), 1.0)
    line = 1.0 - 0.12 * np.exp(-((d / 1.5) ** 2)) + 0.06 * np.exp(-(((d - 3) / 2.0) ** 2))
    out *= (side * line)[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def _bend_all_at_once(image: np.ndarray, rng: np.random.Generator, amount: float) -> np.ndarray:
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ax, ay = rng.uniform(-amount, amount, 2) * min(h, w)
    px, py = rng.uniform(0, 2 * math.pi, 2)
    map_x = xx + ax * np.sin(math.pi * yy / h + px) * np.sin(math.pi * xx / w)
    map_y = yy + ay * np.sin(math.pi * xx / w + py) * np.sin(math.pi * yy / h)
    return cv2.remap(image, map_x.astype(np.float32), map_y.astype(np.float32),
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _sheet(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (301, 203, 3), dtype=np.uint8)


def test_the_crease_is_the_whole_sheet_arithmetic_to_the_bit() -> None:
    for seed in range(6):  # both directions of the fold
        image = _sheet(seed)
        rng, reference_rng = np.random.default_rng(seed), np.random.default_rng(seed)
        assert np.array_equal(crease_sheet(image, rng), _crease_all_at_once(image, reference_rng))
        assert rng.random() == reference_rng.random()  # the render's next draws are the same


def test_the_bend_is_the_whole_sheet_arithmetic_to_the_bit() -> None:
    for seed in range(3):
        image = _sheet(seed)
        rng, reference_rng = np.random.default_rng(seed), np.random.default_rng(seed)
        assert np.array_equal(bend_sheet(image, rng, 0.012),
                              _bend_all_at_once(image, reference_rng, 0.012))
        assert rng.random() == reference_rng.random()


def test_the_crease_holds_a_few_float_copies_of_the_sheet_at_once() -> None:
    image = np.full((*SHEET, 3), 200, np.uint8)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        crease_sheet(image, np.random.default_rng(1))
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # with the int64 grid and every array alive to the end: 17 times the uint8 sheet (12 MB
    # more than now at the demo's sheet size); now 8 times: the float sheet (4), the float
    # shade (2.7) and the result
    assert peak <= 10 * image.nbytes, peak / image.nbytes
