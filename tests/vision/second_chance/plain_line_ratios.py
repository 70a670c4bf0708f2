"""sides.line_ratios as it was before it was made fast, one line and one row of cells at a
time: the reference the speed tests hold the fast versions to, bit for bit."""

from __future__ import annotations

import cv2
import numpy as np

from vision.second_chance.cells import PAD
from vision.second_chance.geometry import CANON_CELL
from vision.second_chance.layout import GRID_CELLS
from vision.second_chance.sides import ALONG_PX, BAND_PX, BESIDE_PX, END_TRIM


def plain_line_ratios(light: np.ndarray, rank: int = 0) -> np.ndarray:
    """Along each line between two columns of cells, the band's ``rank``-th darkest column
    (0: the darkest) over the brighter of the two bands beside it."""
    smooth = cv2.blur(light, (1, ALONG_PX))
    trim = int(CANON_CELL * END_TRIM)
    positions = CANON_CELL - 2 * trim
    width = 2 * BAND_PX + 1
    out = np.ones((GRID_CELLS, GRID_CELLS - 1, positions), np.float32)
    for c in range(GRID_CELLS - 1):
        x = PAD + (c + 1) * CANON_CELL
        band = np.sort(smooth[:, x - BAND_PX:x + BAND_PX + 1], axis=1)[:, rank]
        left = smooth[:, x - BESIDE_PX - width:x - BESIDE_PX].min(axis=1)
        right = smooth[:, x + BESIDE_PX + 1:x + BESIDE_PX + 1 + width].min(axis=1)
        ratio = band / np.maximum(np.maximum(left, right), 1e-3)
        for r in range(GRID_CELLS):
            y0 = PAD + r * CANON_CELL + trim
            out[r, c] = ratio[y0:y0 + positions]
    return out
