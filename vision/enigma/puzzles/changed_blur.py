"""A Gaussian blur made again only where its input changed: the same float32 values as a
blur of the whole new image, for a fraction of the CPU when few pixels changed.

The fragment check blurs a mask of the black pieces several times as the mask is refined
(:func:`vision.enigma.puzzles.fragment.own_black`); after the first time only a few
thousand pixels change, in a few dozen small places. A blurred pixel depends only on the
input within the kernel's reach, so only the blocks within that reach of a change are made
again, each run of them from a window of the new input wide enough that its border never
reaches them. OpenCV's row filter works on whole groups of pixels from the row's start and
on the last few alone: a window starting on a multiple of :data:`ALIGN` pixels groups them
as the whole image does, so each pixel is summed alike and the values are the same bit for
bit.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

#: a window's left edge lies on a multiple of this many pixels (OpenCV's widest group of
#: float32 pixels, and more)
ALIGN = 32
#: the changes are found on blocks of this many pixels a side
BLOCK = 16

Box = tuple[int, int, int, int]


def gaussian_reach(sigma: float) -> int:
    """How many pixels each way a float32 Gaussian blur of ``sigma`` reaches (OpenCV's
    kernel size for it is ``2 * reach + 1``)."""
    size = int(round(sigma * 4 * 2 + 1)) | 1
    return size // 2


def changed_places(changed: np.ndarray, sigma: float) -> list[Box]:
    """The boxes (x0, y0, x1, y1) that hold every pixel whose blur of ``sigma`` a change
    (``changed``: uint8, non-zero where the input changed) reaches: whole blocks of
    :data:`BLOCK` pixels, joined where they touch."""
    h, w = changed.shape
    rows, cols = -(-h // BLOCK), -(-w // BLOCK)
    padded = np.zeros((rows * BLOCK, cols * BLOCK), np.uint8)
    padded[:h, :w] = changed
    # the rows of a block first (whole rows at once), then its columns
    blocks = padded.reshape(rows, BLOCK, -1).max(axis=1).reshape(rows, cols, BLOCK).max(axis=2)
    grow = 2 * math.ceil(gaussian_reach(sigma) / BLOCK) + 1
    near = cv2.dilate(blocks, np.ones((grow, grow), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(near, connectivity=8)
    return [(int(x) * BLOCK, int(y) * BLOCK, min(w, int(x + bw) * BLOCK),
             min(h, int(y + bh) * BLOCK)) for x, y, bw, bh, _area in stats[1:n]]


def blur_again(blurred: np.ndarray, image: np.ndarray, places: list[Box], sigma: float
               ) -> np.ndarray:
    """``cv2.GaussianBlur(image, (0, 0), sigma)`` (float32, one channel), given ``blurred``,
    that blur of an image that differs from ``image`` only where :func:`changed_places`
    gave ``places``. ``blurred`` is updated in place and returned."""
    reach = gaussian_reach(sigma)
    h, w = image.shape
    windows = [blur_window(place, reach, w, h) for place in places]
    if len(windows) > 1:
        joined = (min(b[0] for b in windows), min(b[1] for b in windows),
                  max(b[2] for b in windows), max(b[3] for b in windows))
        if box_area(joined) < sum(box_area(b) for b in windows):
            # the places' windows overlap (a step of the fragment check changes pixels all
            # along the pieces' outlines): one window round them all blurs fewer pixels
            windows = [joined] * len(places)
    made: dict[Box, np.ndarray] = {}
    for (x, y, x1, y1), (wx0, wy0, wx1, wy1) in zip(places, windows, strict=True):
        if (wx0, wy0, wx1, wy1) not in made:
            made[wx0, wy0, wx1, wy1] = cv2.GaussianBlur(image[wy0:wy1, wx0:wx1], (0, 0), sigma)
        part = made[wx0, wy0, wx1, wy1]
        blurred[y:y1, x:x1] = part[y - wy0:y1 - wy0, x - wx0:x1 - wx0]
    return blurred


def blur_window(place: Box, reach: int, w: int, h: int) -> Box:
    """The window (x0, y0, x1, y1) of a ``w`` x ``h`` image whose blur of ``reach`` gives
    ``place`` as the whole image's blur does: the blur's reach round it, its left edge on a
    multiple of :data:`ALIGN` pixels."""
    x, y, x1, y1 = place
    return (max(0, x - reach) // ALIGN * ALIGN, max(0, y - reach), min(w, x1 + reach),
            min(h, y1 + reach))


def box_area(box: Box) -> int:
    """The pixels of the box (x0, y0, x1, y1)."""
    return (box[2] - box[0]) * (box[3] - box[1])
