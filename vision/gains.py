"""Per-channel gains on an 8-bit BGR image, as the readers use them to take out a colour cast.

``times_gains(image, gains)`` gives, to the bit, ``clip(image.astype(float32) * gains, 0, 255)``
truncated to uint8 (the product in the gains' own precision), through one table of the 256
levels per channel: no float copy of the whole image.

>>> import numpy as np
>>> times_gains(np.array([[[100, 200, 30]]], np.uint8), np.array([1.5, 1.5, 0.5], np.float32))
array([[[150, 255,  15]]], dtype=uint8)
"""

from __future__ import annotations

import cv2
import numpy as np


def times_gains(image: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """``image`` (8-bit, 3 channels) with each channel times its gain, clipped to 0..255."""
    levels = np.arange(256, dtype=np.float32)[:, np.newaxis]
    table = np.clip(levels * np.asarray(gains)[:3], 0, 255).astype(np.uint8)
    out: np.ndarray = cv2.LUT(np.ascontiguousarray(image), table.reshape(256, 1, 3))
    return out


__all__ = ["times_gains"]
