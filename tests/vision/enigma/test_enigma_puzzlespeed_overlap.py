"""The thick fragment check's top-face search counts its overlaps by OpenCV on the masks'
bytes (session 28): the same counts as numpy's count of the two windows' common pixels
(kept here as the reference), for shifts every way, none, and of a mask's whole size."""

from __future__ import annotations

import numpy as np
import pytest

from vision.enigma.puzzles.fragment_top import overlap


def _plain_overlap(a: np.ndarray, b: np.ndarray, sx: int, sy: int) -> int:
    h, w = a.shape
    ya, yb = slice(max(sy, 0), h + min(sy, 0)), slice(max(-sy, 0), h + min(-sy, 0))
    xa, xb = slice(max(sx, 0), w + min(sx, 0)), slice(max(-sx, 0), w + min(-sx, 0))
    return int(np.count_nonzero(a[ya, xa] & b[yb, xb]))


@pytest.mark.parametrize("seed", range(10))
def test_overlap_counts_as_numpy_does(seed: int) -> None:
    rng = np.random.default_rng(seed)
    h, w = (int(v) for v in rng.integers(1, 120, 2))
    whole_a = rng.random((h + 4, w + 6)) < rng.uniform(0.05, 0.95)
    whole_b = rng.random((h + 4, w + 6)) < rng.uniform(0.05, 0.95)
    a, b = whole_a[2:-2, 3:-3], whole_b[1:-3, :-6]  # cut views, as the search's crops
    shifts = [(0, 0), (w, 0), (0, -h), (-w, h)] + [
        (int(x), int(y)) for x, y in rng.integers(-30, 31, (25, 2))]
    for sx, sy in shifts:
        if abs(sx) > w or abs(sy) > h:  # the search moves by a few millimetres only
            continue
        assert overlap(a, b, sx, sy) == _plain_overlap(a, b, sx, sy)
