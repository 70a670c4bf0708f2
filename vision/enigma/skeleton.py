"""Zhang-Suen thinning with numpy (``cv2.ximgproc`` is not in the headless OpenCV wheel).

>>> import numpy as np
>>> bar = np.zeros((7, 12), bool); bar[2:5, 1:11] = True
>>> int(skeletonize(bar).sum()) <= 10
True
"""

from __future__ import annotations

import numpy as np


def _neighbours(img: np.ndarray) -> tuple[np.ndarray, ...]:
    p = np.pad(img, 1)
    h, w = img.shape
    # P2..P9 clockwise from north
    return (
        p[0:h, 1 : w + 1],
        p[0:h, 2 : w + 2],
        p[1 : h + 1, 2 : w + 2],
        p[2 : h + 2, 2 : w + 2],
        p[2 : h + 2, 1 : w + 1],
        p[2 : h + 2, 0:w],
        p[1 : h + 1, 0:w],
        p[0:h, 0:w],
    )


def skeletonize(mask: np.ndarray, *, max_iterations: int = 100) -> np.ndarray:
    """The one-pixel-wide skeleton of a boolean mask (Zhang & Suen 1984)."""
    img = np.asarray(mask, bool).astype(np.uint8)
    for _ in range(max_iterations):
        changed = False
        for step in (0, 1):
            n = _neighbours(img)
            p2, p3, p4, p5, p6, p7, p8, p9 = n
            count = sum(x.astype(np.int32) for x in n)
            seq = (p2, p3, p4, p5, p6, p7, p8, p9, p2)
            transitions = sum(
                ((seq[i] == 0) & (seq[i + 1] == 1)).astype(np.int32) for i in range(8)
            )
            if step == 0:
                c1 = (p2 * p4 * p6) == 0
                c2 = (p4 * p6 * p8) == 0
            else:
                c1 = (p2 * p4 * p8) == 0
                c2 = (p2 * p6 * p8) == 0
            remove = (img == 1) & (count >= 2) & (count <= 6) & (transitions == 1) & c1 & c2
            if remove.any():
                img[remove] = 0
                changed = True
        if not changed:
            break
    return img.astype(bool)


def endpoints(skeleton: np.ndarray) -> list[tuple[int, int]]:
    """(x, y) of skeleton pixels with exactly one neighbour."""
    sk = skeleton.astype(np.uint8)
    count = sum(x.astype(np.int32) for x in _neighbours(sk))
    ys, xs = np.nonzero((sk == 1) & (count == 1))
    return list(zip(xs.tolist(), ys.tolist(), strict=True))


__all__ = ["endpoints", "skeletonize"]
