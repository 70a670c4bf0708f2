"""The table straightened part by part (:mod:`vision.enigma.lazy_table`) gives the pixels of
the whole straightened, balanced table to the bit, wherever it is cut."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.enigma.lazy_table import BLOCK_PX, LazyTable
from vision.gains import times_gains
from vision.warp import warp_perspective

SIZE = (203, 177)  # straightened width, height: not a whole number of blocks


def _table(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A noisy picture and a tilted view of it that the straightened size fits inside."""
    rng = np.random.default_rng(seed)
    frame = (rng.random((300, 360, 3)) * 255).astype(np.uint8)
    seen = np.array([[40, 30], [320, 50], [300, 270], [60, 250]], np.float32)
    seen += rng.uniform(-15, 15, (4, 2)).astype(np.float32)
    out = np.array([[0, 0], [SIZE[0], 0], [SIZE[0], SIZE[1]], [0, SIZE[1]]], np.float32)
    return frame, cv2.getPerspectiveTransform(seen, out).astype(np.float64)


@pytest.mark.parametrize("seed", range(4))
def test_cuts_and_samples_are_those_of_the_whole_balanced_table(seed: int) -> None:
    frame, matrix = _table(seed)
    gains = np.array([0.8, 1.3, 1.05], np.float32)
    whole = times_gains(warp_perspective(frame, matrix, SIZE), gains)
    lazy = LazyTable(frame, matrix, SIZE)
    lazy.make(50, 40, 90, 80)  # made before the gains are known (the start tile's window)
    lazy.balance(gains)
    assert np.array_equal(lazy.canon[40:80, 50:90], whole[40:80, 50:90])
    rng = np.random.default_rng(seed)
    # centres anywhere, the table's edges and a little past them included (the cut then
    # repeats the edge pixels, as getRectSubPix does on the whole table)
    for cx, cy in rng.uniform((-10, -10), (SIZE[0] + 10, SIZE[1] + 10), (40, 2)):
        side = int(rng.integers(8, 70))
        want = cv2.getRectSubPix(whole, (side, side), (float(cx), float(cy)))
        assert np.array_equal(lazy.cut(side, (float(cx), float(cy))), want)
    for step in (2, 3):
        assert np.array_equal(lazy.sampled(step), whole[::step, ::step])


def test_only_the_blocks_looked_at_are_made() -> None:
    frame, matrix = _table(9)
    lazy = LazyTable(frame, matrix, SIZE)
    lazy.balance(np.ones(3, np.float32))
    lazy.cut(20, (100.0, 90.0))
    made = lazy.canon.any(axis=2)
    rows, cols = np.nonzero(made)
    assert rows.min() >= (90 - 11) // BLOCK_PX * BLOCK_PX and rows.max() < 90 + 11 + BLOCK_PX
    assert cols.min() >= (100 - 11) // BLOCK_PX * BLOCK_PX and cols.max() < 100 + 11 + BLOCK_PX
    with pytest.raises(ValueError, match="balanced already"):
        lazy.balance(np.ones(3, np.float32))
