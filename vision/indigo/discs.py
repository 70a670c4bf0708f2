"""Sampling the rectified Indigo board: the pixels in a disc or a ring round a point, each
shape worked out once per radius (and per offset from the pixel grid), for the gem, tile and
chip readers (:mod:`vision.indigo.gems`, :mod:`vision.indigo.tiles`,
:mod:`vision.indigo.chips`).
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np


def disc_pixels(lab: np.ndarray, xy: tuple[float, float], radius: float) -> np.ndarray:
    """The pixels of ``lab`` whose centres lie within ``radius`` of ``xy``."""
    x, y = xy
    r = int(math.ceil(radius))
    xi, yi = int(round(x)), int(round(y))
    block = lab[yi - r : yi + r + 1, xi - r : xi + r + 1]
    inside = _disc_inside(xi - x, yi - y, radius)
    in_disc: np.ndarray = block[inside[: block.shape[0], : block.shape[1]]]
    return in_disc


@lru_cache(maxsize=512)
def _disc_inside(dx: float, dy: float, radius: float) -> np.ndarray:
    """The disc of :func:`disc_pixels` round a point ``(dx, dy)`` off the block's middle
    pixel: the board's spots and spaces are the same every frame, so it is worked out once."""
    r = int(math.ceil(radius))
    # open grids, broadcast: the same sums as full ones without building them
    yy, xx = np.ogrid[-r : r + 1, -r : r + 1]
    inside: np.ndarray = (xx + dx) ** 2 + (yy + dy) ** 2 <= radius**2
    return inside


#: a sampled disc is never smaller than this radius in pixels (a coarse canonical board)
MIN_SAMPLE_PX = 1.5


@lru_cache(maxsize=64)
def disc_offsets(radius: float) -> tuple[int, np.ndarray]:
    r = int(math.ceil(radius))
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    return r, (xx * xx + yy * yy) <= radius * radius


def disc_labels(labels: np.ndarray, xy: tuple[float, float], radius: float) -> np.ndarray:
    """The values of ``labels`` in a disc (centred on the nearest pixel)."""
    r, inside = disc_offsets(round(radius, 2))
    xi, yi = int(round(xy[0])), int(round(xy[1]))
    block = labels[yi - r : yi + r + 1, xi - r : xi + r + 1]
    in_disc: np.ndarray = block[inside[: block.shape[0], : block.shape[1]]]
    return in_disc


@lru_cache(maxsize=16)
def ring_offsets(inner: float, outer: float) -> tuple[int, np.ndarray]:
    r = int(math.ceil(outer))
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    d2 = xx * xx + yy * yy
    return r, (d2 >= inner * inner) & (d2 <= outer * outer)


@lru_cache(maxsize=16)
def disc_kernel(radius: float) -> np.ndarray:
    r = int(math.ceil(radius))
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    kernel: np.ndarray = ((xx * xx + yy * yy) <= radius * radius).astype(np.float32)
    return kernel


def grown_by_disc(mask: np.ndarray, reach: int) -> np.ndarray:
    """``cv2.dilate(mask, ellipse) > 0`` of a uint8 ``mask``, the ellipse ``2 * reach + 1``
    pixels across, dilated only in the box of the mask's set pixels widened by ``reach``:
    glare sets a few spots of the board, and dilating the whole board by a cell-wide disc
    cost a read 2-3 ms. The same pixels: one farther than ``reach`` from that box has no set
    pixel within the ellipse, and OpenCV's dilation lets no border pixel in."""
    grown = np.zeros(mask.shape, bool)
    x, y, w, h = cv2.boundingRect(mask)
    if w == 0:
        return grown
    rows, cols = mask.shape
    x0, y0 = max(0, x - reach), max(0, y - reach)
    x1, y1 = min(cols, x + w + reach), min(rows, y + h + reach)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    grown[y0:y1, x0:x1] = cv2.dilate(np.ascontiguousarray(mask[y0:y1, x0:x1]), kernel) > 0
    return grown


#: the confidence of a doubtful piece or count (below the default min_confidence: it is asked)
DOUBTFUL = 0.5

