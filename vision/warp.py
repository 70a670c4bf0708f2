"""Bilinear warps that give the same pixels on every OpenCV version the appliance supports.

``cv2.warpPerspective`` / ``cv2.warpAffine`` were reimplemented in OpenCV 4.11/5.x: the new
code interpolates with float weights where 4.10 (the Raspberry Pi floor) rounds the source
coordinate to 1/32 pixel first. The pixels differ by up to 3 grey levels, which is enough to
move a colour-classified edge by a pixel, turn the fitted puzzle card by 0.2 degrees and flip
a borderline decision. ``cv2.remap`` with fixed-point maps (``cv2.convertMaps`` to
``CV_16SC2``) is the same on both, so the Enigma code builds the maps itself (float64, in
numpy) and remaps through them. (``INTER_AREA`` has no meaning for a general warp: OpenCV
uses bilinear for it too, as these helpers do.)
"""

from __future__ import annotations

import cv2
import numpy as np


def _remap(image: np.ndarray, map_x: np.ndarray, map_y: np.ndarray, *, nearest: bool,
           border_value: float | tuple[float, ...]) -> np.ndarray:
    m1, m2 = cv2.convertMaps(map_x.astype(np.float32), map_y.astype(np.float32),
                             cv2.CV_16SC2)
    return cv2.remap(image, m1, m2, cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=border_value)


def warp_perspective(image: np.ndarray, matrix: np.ndarray, size: tuple[int, int], *,
                     nearest: bool = False, border_value: float | tuple[float, ...] = 0
                     ) -> np.ndarray:
    """Like ``cv2.warpPerspective(image, matrix, size)``: ``matrix`` maps source pixels to
    output pixels; ``size`` is (width, height)."""
    w, h = int(size[0]), int(size[1])
    inv = np.linalg.inv(np.asarray(matrix, np.float64))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    den = inv[2, 0] * xx + inv[2, 1] * yy + inv[2, 2]
    den = np.where(np.abs(den) < 1e-12, 1e-12, den)
    map_x = (inv[0, 0] * xx + inv[0, 1] * yy + inv[0, 2]) / den
    map_y = (inv[1, 0] * xx + inv[1, 1] * yy + inv[1, 2]) / den
    return _remap(image, map_x, map_y, nearest=nearest, border_value=border_value)


def warp_affine(image: np.ndarray, matrix: np.ndarray, size: tuple[int, int], *,
                nearest: bool = False, border_value: float | tuple[float, ...] = 0
                ) -> np.ndarray:
    """Like ``cv2.warpAffine(image, matrix, size)`` for a 2x3 ``matrix``."""
    full = np.vstack([np.asarray(matrix, np.float64).reshape(2, 3), [0.0, 0.0, 1.0]])
    return warp_perspective(image, full, size, nearest=nearest, border_value=border_value)


__all__ = ["warp_affine", "warp_perspective"]
