"""What the Break the Code reader measures on a tile: its body colour and its ink map.

Every tile is compared as a normalised image: the tile's face seen straight on, upright,
cropped to its outline and scaled to :data:`NORM_SIZE`. Digits are read by template matching
on an *ink map* (how far each pixel is from the tile's body colour), which works the same for
dark digits on light tiles and light on dark.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.art_pack import BGR

#: normalised tile image (width, height) in pixels
NORM_SIZE = (60, 80)
#: share of the tile's width/height left out around the edge when measuring
EDGE = 0.07
#: the band (inside EDGE) where only the tile body shows, for its colour
BAND = 0.17
#: template shift allowance in pixels each way
SHIFT = 5


#: how many times the body's own spread of grey (wood grain, a mottled plastic, sensor
#: noise) is taken off the ink map: what differs from the body no more than its texture does
#: is not the digit
TEXTURE_FACTOR = 2.0
#: the ink map is smoothed by this much (Gaussian sigma, pixels of the normalised tile): a
#: narrow font's strokes are three pixels wide, and a cut-out a pixel out of step with the
#: template otherwise loses most of their overlap
INK_BLUR = 1.0


def body_texture(norm: np.ndarray) -> float:
    """The spread of the grey over the body band (median absolute deviation, grey levels):
    a plain tile has next to none, a wooden one its grain."""
    grey = cv2.cvtColor(norm, cv2.COLOR_BGR2GRAY).astype(np.float32)
    values = grey[_band_mask(grey.shape)]
    return float(np.median(np.abs(values - np.median(values))))


def ink_map(norm: np.ndarray, body_grey: float) -> np.ndarray:
    """How far each pixel's grey is from the body's, beyond the body's own texture, with the
    tile edge left out (float32)."""
    grey = cv2.cvtColor(norm, cv2.COLOR_BGR2GRAY).astype(np.float32)
    texture = TEXTURE_FACTOR * body_texture(norm)
    ink: np.ndarray = np.maximum(np.abs(grey - body_grey) - texture, 0.0)
    ink = cv2.GaussianBlur(ink, (0, 0), INK_BLUR)
    h, w = ink.shape
    ex, ey = round(EDGE * w), round(EDGE * h)
    ink[:ey, :] = 0
    ink[h - ey:, :] = 0
    ink[:, :ex] = 0
    ink[:, w - ex:] = 0
    return ink


def body_colour(norm: np.ndarray) -> np.ndarray:
    """The median colour of the band just inside the tile's edge (the digit stays clear of
    it), as float BGR."""
    median: np.ndarray = np.median(norm[_band_mask(norm.shape[:2])].reshape(-1, 3)
                                   .astype(np.float32), axis=0)
    return median


def _band_mask(shape: tuple[int, ...]) -> np.ndarray:
    """The band just inside a tile's edge where only its body shows (bool)."""
    h, w = shape[:2]
    band = np.zeros((h, w), bool)
    e0x, e0y = round(EDGE * w), round(EDGE * h)
    e1x, e1y = round(BAND * w), round(BAND * h)
    band[e0y:h - e0y, e0x:w - e0x] = True
    band[e1y:h - e1y, e1x:w - e1x] = False
    return band


def grey_of(bgr: np.ndarray | BGR) -> float:
    """The luma (ITU-R BT.601 weights) of a BGR colour, on the colour's own scale."""
    b, g, r = (float(v) for v in bgr)
    return 0.114 * b + 0.587 * g + 0.299 * r


def template_of(ink: np.ndarray) -> np.ndarray:
    """The inner part of an ink map, for matching with up to :data:`SHIFT` pixels of play."""
    return np.ascontiguousarray(ink[SHIFT:-SHIFT, SHIFT:-SHIFT])
