"""CPU per warp of :mod:`vision.warp` against its first map build (full float64 coordinate
grids, then a float32 cast), in one run, on the Enigma warps' real sizes.

    python bench/warp.py [--repeats 30]

Prints, per case, the median CPU ms of the old and the new ``warp_perspective`` (maps and
remap), and whether the two gave the same pixels (they must).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

import cv2
import numpy as np
from one_core import on_one_core

from vision.warp import warp_perspective

FRAME = (2304, 1296)
#: (name, source size, output size, channels, float image): the reader's straightened table,
#: the puzzle check's mat and card, and one turn of the card search (three float layers)
CASES = (
    ("reader table 2304x1296 -> 1003x875", FRAME, (1003, 875), 3, False),
    ("puzzle mat 2304x1296 -> 960x600", FRAME, (960, 600), 3, False),
    ("puzzle card 2304x1296 -> 816x816", FRAME, (816, 816), 3, False),
    ("card search turn 184x150 float x3", (184, 150), (184, 150), 3, True),
)


def old_maps(matrix: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """vision.warp's maps before the broadcast build (kept as the reference: this bench and
    tests/vision/core/test_warp.py compare against it): full float64 coordinate grids, then
    one cast to float32."""
    w, h = size
    inv = np.linalg.inv(np.asarray(matrix, np.float64))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    den = inv[2, 0] * xx + inv[2, 1] * yy + inv[2, 2]
    den = np.where(np.abs(den) < 1e-12, 1e-12, den)
    map_x = (inv[0, 0] * xx + inv[0, 1] * yy + inv[0, 2]) / den
    map_y = (inv[1, 0] * xx + inv[1, 1] * yy + inv[1, 2]) / den
    return map_x.astype(np.float32), map_y.astype(np.float32)


def old_warp_perspective(image: np.ndarray, matrix: np.ndarray,
                         size: tuple[int, int]) -> np.ndarray:
    """vision.warp before the broadcast maps (kept here for the comparison)."""
    m1, m2 = cv2.convertMaps(*old_maps(matrix, size), cv2.CV_16SC2)
    return cv2.remap(image, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)


def _matrix(src: tuple[int, int], dst: tuple[int, int], affine: bool) -> np.ndarray:
    """A tilted camera's view of a quadrilateral in the source, or a turn about the centre."""
    if affine:
        return np.vstack([cv2.getRotationMatrix2D((src[0] / 2, src[1] / 2), 17.0, 1.0),
                          [0.0, 0.0, 1.0]])
    sw, sh = src
    seen = np.array([[0.22 * sw, 0.18 * sh], [0.78 * sw, 0.2 * sh], [0.83 * sw, 0.9 * sh],
                     [0.17 * sw, 0.88 * sh]], np.float32)
    dw, dh = dst
    out = np.array([[0, 0], [dw, 0], [dw, dh], [0, dh]], np.float32)
    return cv2.getPerspectiveTransform(seen, out).astype(np.float64)


Warp = Callable[[np.ndarray, np.ndarray, tuple[int, int]], np.ndarray]


def _median_cpu_ms(warp: Warp, image: np.ndarray, matrix: np.ndarray, size: tuple[int, int],
                   repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.process_time()
        warp(image, matrix, size)
        times.append((time.process_time() - t0) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=30, help="warps timed per case")
    args = parser.parse_args(argv)
    on_one_core()
    rng = np.random.default_rng(0)
    for name, src, dst, channels, is_float in CASES:
        image = rng.random((src[1], src[0], channels)).astype(np.float32)
        if not is_float:
            image = (image * 255).astype(np.uint8)
        matrix = _matrix(src, dst, affine=src == dst)
        same = np.array_equal(old_warp_perspective(image, matrix, dst),
                              warp_perspective(image, matrix, dst))
        # interleaved, so a load change on the shared machine hits both alike
        old, new = [], []
        for _ in range(3):
            old.append(_median_cpu_ms(old_warp_perspective, image, matrix, dst, args.repeats))
            new.append(_median_cpu_ms(warp_perspective, image, matrix, dst, args.repeats))
        before, after = statistics.median(old), statistics.median(new)
        print(f"{name:38s} old {before:6.2f} ms CPU, new {after:6.2f} ms "
              f"({1 - after / before:.0%} less); same pixels: {same}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
