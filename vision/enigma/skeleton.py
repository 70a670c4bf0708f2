"""Zhang-Suen thinning (``cv2.ximgproc`` is not in the headless OpenCV wheel), one table
look-up per pixel and step: the eight neighbours are packed into a byte by one filter.

>>> import numpy as np
>>> bar = np.zeros((7, 12), bool); bar[2:5, 1:11] = True
>>> int(skeletonize(bar).sum()) <= 10
True
"""

from __future__ import annotations

import cv2
import numpy as np

#: the weight of each neighbour in the packed byte: P2..P9 clockwise from north get bits 0..7
_BIT_KERNEL = np.array([[128, 1, 2], [64, 0, 4], [32, 16, 8]], np.float32)


def _removable(step: int) -> np.ndarray:
    """Per packed neighbourhood (256 entries), whether Zhang-Suen's ``step`` removes the
    pixel in the middle of it: 2..6 neighbours, one 0->1 transition around it, and the
    step's two products of three neighbours zero."""
    table = np.zeros(256, bool)
    for code in range(256):
        p = [(code >> k) & 1 for k in range(8)]  # p[0] = P2 ... p[7] = P9
        p2, p3, p4, p5, p6, p7, p8, p9 = p
        seq = [*p, p[0]]
        transitions = sum(1 for i in range(8) if seq[i] == 0 and seq[i + 1] == 1)
        if step == 0:
            c1, c2 = p2 * p4 * p6 == 0, p4 * p6 * p8 == 0
        else:
            c1, c2 = p2 * p4 * p8 == 0, p2 * p6 * p8 == 0
        table[code] = 2 <= sum(p) <= 6 and transitions == 1 and c1 and c2
    return table


_REMOVABLE = (_removable(0), _removable(1))
#: per packed neighbourhood, how many of the eight neighbours are set
_COUNT = np.array([bin(code).count("1") for code in range(256)], np.uint8)


def _packed(img: np.ndarray) -> np.ndarray:
    """Each pixel's eight neighbours as one byte (outside the image counts as 0)."""
    code = cv2.filter2D(img, cv2.CV_32F, _BIT_KERNEL, borderType=cv2.BORDER_CONSTANT)
    return code.astype(np.uint8)


def skeletonize(mask: np.ndarray, *, max_iterations: int = 100) -> np.ndarray:
    """The one-pixel-wide skeleton of a boolean mask (Zhang & Suen 1984)."""
    whole = np.asarray(mask, bool).astype(np.uint8)
    # thinned within the set pixels' box and a pixel round it (a channel piece fills a
    # small part of its tile): outside, every pixel is 0 and stays 0, as the border counts
    left, top, width, height = cv2.boundingRect(whole)
    if width == 0:
        return whole.astype(bool)
    x0, y0 = max(0, left - 1), max(0, top - 1)
    img = whole[y0 : top + height + 1, x0 : left + width + 1]
    thin_in_place(img, max_iterations)
    return whole.astype(bool)


def thin_in_place(img: np.ndarray, max_iterations: int) -> None:
    """Zhang-Suen's steps on ``img`` (uint8 0/1, changed in place) until none removes a
    pixel."""
    for _ in range(max_iterations):
        changed = False
        for step in (0, 1):
            remove = (img == 1) & _REMOVABLE[step][_packed(img)]
            if remove.any():
                img[remove] = 0
                changed = True
        if not changed:
            break


def endpoints(skeleton: np.ndarray) -> list[tuple[int, int]]:
    """(x, y) of skeleton pixels with exactly one neighbour."""
    sk = skeleton.astype(np.uint8)
    ys, xs = np.nonzero((sk == 1) & (_COUNT[_packed(sk)] == 1))
    return list(zip(xs.tolist(), ys.tolist(), strict=True))


__all__ = ["endpoints", "skeletonize", "thin_in_place"]
