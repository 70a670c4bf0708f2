"""Whether this machine draws the readers' test scenes (Enigma's independent tables and puzzle
renders, Second Chance's hand-drawn sheets) as the tests found them.

The scenes the reader tests were found on are drawn by numpy >= 2 and OpenCV >= 4.11. The Pi
floor's numpy 1.24 and OpenCV 4.10 draw other pixels from the same seed, so a test that names
a question or a square read exactly there asserts, on the floor, only what must hold on any
pixels: the square is read right or not sure.
"""

from __future__ import annotations

import cv2
import numpy as np

SCENES_AS_FOUND = (np.lib.NumpyVersion(np.__version__) >= "2.0.0"
                   and tuple(int(v) for v in cv2.__version__.split(".")[:2]) >= (4, 11))
