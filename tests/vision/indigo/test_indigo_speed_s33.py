"""Session 33's faster glare mask and gem label map (issue 20, read time): the glare's
dilation worked out only round its clipped pixels, and a pixel told from the board's colours
colour by colour on the pixels still near none, must give the plain computations' results to
the bit. Speed is measured by bench/, only the results are held here (seeded arrays)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.indigo.discs import grown_by_disc
from vision.indigo.model import GEM_SHADE_BAND, nearer_than_every, nearest_banded


def _sparse_mask(rng: np.random.Generator, side: int, spots: int) -> np.ndarray:
    """A uint8 mask with a few filled blobs, some of them on the mask's edges."""
    mask = np.zeros((side, side), np.uint8)
    for _ in range(spots):
        x, y = (int(v) for v in rng.integers(-4, side + 4, 2))
        cv2.circle(mask, (x, y), int(rng.integers(0, 9)), 1, -1)
    return mask


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("reach", [1, 4, 16])
def test_grown_by_disc_is_the_whole_dilation(seed: int, reach: int) -> None:
    rng = np.random.default_rng(seed)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    for spots in (0, 1, 3, 12):
        mask = _sparse_mask(rng, 160, spots)
        grown = grown_by_disc(mask, reach)
        assert grown.dtype == bool
        assert np.array_equal(grown, cv2.dilate(mask, kernel) > 0)


def _planes(rng: np.random.Generator, n: int, colours: np.ndarray) -> np.ndarray:
    """(3, n) float32 feature planes: most pixels near one of ``colours`` (a board's
    print), the rest anywhere, some brightness far beyond the shade band."""
    near = colours[rng.integers(0, len(colours), n)] + rng.normal(0, 2.0, (n, 3))
    anywhere = rng.uniform(40, 90, (n, 3))
    pick = rng.random(n) < 0.8
    pixels = np.where(pick[:, None], near, anywhere)
    pixels[::7, 2] += 3 * (GEM_SHADE_BAND[1] - GEM_SHADE_BAND[0])
    return np.ascontiguousarray(pixels.T.astype(np.float32))


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("n", [0, 5, 600, 20000])
def test_nearer_than_every_is_below_the_nearest_colour(seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    for count in (0, 1, 6):
        colours = rng.uniform(45, 85, (count, 3)).astype(np.float32)
        planes = _planes(rng, n, colours if count else np.full((1, 3), 60.0, np.float32))
        least, _ = nearest_banded(planes, colours)
        limit = rng.uniform(0, 60, n).astype(np.float32)
        if count:
            # limits exactly at a colour's distance and just below it: ties go as '<' says
            limit[::3] = least[::3]
            limit[1::3] = np.nextafter(least[1::3], np.float32(0))
        got = nearer_than_every(planes, colours, limit)
        assert got.dtype == bool and got.shape == (n,)
        assert np.array_equal(got, limit < least)
