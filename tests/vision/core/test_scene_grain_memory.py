"""The tables under the Second Chance card and sheet are grained a band of rows at a time:
the numbers drawn and the pixels are those of the whole-table arithmetic, to the bit, and the
table's float copies never all live at once."""

from __future__ import annotations

import tracemalloc

import numpy as np

from vision.synth.effects import BAND_ROWS, normal_field, with_grain

#: a card's table at the demo camera's size (rows, columns)
TABLE = (1408, 1877)


def test_normal_field_draws_the_whole_field_and_leaves_the_generator_alike() -> None:
    banded_rng, whole_rng = np.random.default_rng(5), np.random.default_rng(5)
    banded = normal_field(banded_rng, (300, 77), 8)
    whole = whole_rng.normal(0, 8, (300, 77)).astype(np.float32)
    assert banded.dtype == np.float32
    assert np.array_equal(banded, whole)
    assert banded_rng.random() == whole_rng.random()  # the next draws are the same


def test_with_grain_is_the_whole_table_sum_clipped() -> None:
    rng = np.random.default_rng(6)
    image = rng.integers(0, 256, (301, 203, 3), dtype=np.uint8)
    grain = (rng.normal(0, 40, (301, 203))).astype(np.float32)  # clips at both ends
    whole = np.clip(image.astype(np.float32) + grain[..., None], 0, 255).astype(np.uint8)
    assert np.array_equal(with_grain(image, grain), whole)


def test_with_grain_holds_its_result_and_a_band_of_floats() -> None:
    image = np.zeros((*TABLE, 3), np.uint8)
    grain = np.zeros(TABLE, np.float32)
    band_floats = BAND_ROWS * TABLE[1] * 3 * 4
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        with_grain(image, grain)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # the whole-table sum held two float copies of the table (8 times the uint8 table)
    assert peak <= image.nbytes + 3 * band_floats, peak / image.nbytes
