"""The table straightened only where a read looks: the read after a placement, alone.

A read after a placement reads a few tiles, yet it must find which squares hold a tile over
the whole table (:func:`~vision.enigma.squares.see_squares`), and that looks at every second
pixel only (:data:`~vision.enigma.squares.COVER_STEP`). So the table is straightened at that
step for the squares, and in full only where something is looked at closely: the start
tile's window, the table's colour round the markers, the tiles read. Each output pixel of a
warp comes from its own map entry alone, so every pixel made is the one the whole warp
makes, to the bit; the rest of :attr:`LazyTable.canon` stays black and is never read.

Only a table the camera sees whole is straightened so (:func:`~vision.warp.is_seen_whole`):
its seen mask is then known without looking.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.gains import times_gains
from vision.warp import warp_perspective

#: the side (straightened pixels) of the blocks whose making is remembered
BLOCK_PX = 16


class LazyTable:
    """The straightened table (``size``: width, height) made part by part: :meth:`make`
    straightens a box where it was not made yet, balanced once :meth:`balance` has given
    the gains; :meth:`cut` is ``cv2.getRectSubPix`` of the made pixels."""

    def __init__(self, frame: np.ndarray, matrix: np.ndarray, size: tuple[int, int]) -> None:
        self.frame = frame
        self.matrix = matrix
        width, height = size
        self.canon = np.zeros((height, width, 3), np.uint8)
        self._made = np.zeros((-(-height // BLOCK_PX), -(-width // BLOCK_PX)), bool)
        self.gains: np.ndarray | None = None

    def make(self, x0: int, y0: int, x1: int, y1: int) -> None:
        """Straighten (and balance) the box [x0, x1) x [y0, y1), clipped to the table,
        unless it was made already."""
        height, width = self.canon.shape[:2]
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
        if x0 >= x1 or y0 >= y1:
            return
        bx0, by0 = x0 // BLOCK_PX, y0 // BLOCK_PX
        bx1, by1 = -(-x1 // BLOCK_PX), -(-y1 // BLOCK_PX)
        if self._made[by0:by1, bx0:bx1].all():
            return
        # whole blocks: a block is made all at once or not at all
        x0, y0 = bx0 * BLOCK_PX, by0 * BLOCK_PX
        x1, y1 = min(width, bx1 * BLOCK_PX), min(height, by1 * BLOCK_PX)
        part = warp_perspective(self.frame, self.matrix, (x1 - x0, y1 - y0), origin=(x0, y0))
        self.canon[y0:y1, x0:x1] = part if self.gains is None else times_gains(part, self.gains)
        self._made[by0:by1, bx0:bx1] = True

    def balance(self, gains: np.ndarray) -> None:
        """Balance what was made (once) and all that is made from now on with ``gains``."""
        if self.gains is not None:
            raise ValueError("LazyTable.balance: the table is balanced already")
        rows, cols = np.nonzero(self._made)
        if rows.size:
            height, width = self.canon.shape[:2]
            y0, x0 = int(rows.min()) * BLOCK_PX, int(cols.min()) * BLOCK_PX
            y1 = min(height, (int(rows.max()) + 1) * BLOCK_PX)
            x1 = min(width, (int(cols.max()) + 1) * BLOCK_PX)
            # black pixels not made yet stay black under any gain
            self.canon[y0:y1, x0:x1] = times_gains(self.canon[y0:y1, x0:x1], gains)
        self.gains = gains

    def sampled(self, step: int) -> np.ndarray:
        """Every ``step``-th pixel of the whole table along each axis (``canon[::step,
        ::step]`` of the whole straightened table), balanced: straightened at that step."""
        height, width = self.canon.shape[:2]
        if self.gains is None:
            raise ValueError("LazyTable.sampled: balance the table first")
        size = (-(-width // step), -(-height // step))
        return times_gains(warp_perspective(self.frame, self.matrix, size, step=step),
                           self.gains)

    def cut(self, size: int, centre: tuple[float, float]) -> np.ndarray:
        """``cv2.getRectSubPix`` of the straightened table: a ``size`` square round
        ``centre``, its pixels made first (and the one more each way interpolation reads)."""
        x0 = int(np.floor(centre[0] - (size - 1) / 2)) - 1
        y0 = int(np.floor(centre[1] - (size - 1) / 2)) - 1
        self.make(x0, y0, x0 + size + 3, y0 + size + 3)
        patch: np.ndarray = cv2.getRectSubPix(self.canon, (size, size), centre)
        return patch


__all__ = ["BLOCK_PX", "LazyTable"]
