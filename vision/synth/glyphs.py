"""Digits drawn from the project's own strokes, the same on every OpenCV the appliance runs.

``cv2.putText`` is no good for test art: OpenCV 5 replaced the Hershey stroke fonts by outline
fonts of another design (a slashed zero, other widths), so a tile drawn on the Pi's OpenCV 4.10
and one drawn on a desktop's 5.x were different looks, and a pack drawn on one did not fit the
tiles drawn on the other. These digits are polylines in a unit box, rasterised without
anti-aliasing at :data:`SUPERSAMPLE` times the size and averaged down, which both versions do
alike.

>>> import numpy as np
>>> canvas = np.zeros((40, 30), np.uint8)
>>> draw_digit_mask(canvas, 8, (5, 4, 20, 32), thickness_px=3)
>>> bool(canvas[4:36, 5:25].any()) and not canvas[:, :4].any()
True
"""

from __future__ import annotations

import math

import cv2
import numpy as np

#: the strokes are drawn this many times larger, then averaged down (smooth edges without
#: OpenCV's anti-aliasing, which differs between versions)
SUPERSAMPLE = 4
#: points per full turn of an arc
ARC_POINTS = 48

Stroke = np.ndarray  # (n, 2) points in the unit box, x right, y down


def _arc(cx: float, cy: float, rx: float, ry: float, start_deg: float, end_deg: float
         ) -> Stroke:
    """Points of an elliptic arc; angles clockwise from the right (y points down)."""
    n = max(2, int(abs(end_deg - start_deg) / 360 * ARC_POINTS) + 1)
    angles = np.radians(np.linspace(start_deg, end_deg, n))
    return np.stack([cx + rx * np.cos(angles), cy + ry * np.sin(angles)], axis=1)


def _line(*points: tuple[float, float]) -> Stroke:
    return np.array(points, np.float64)


def _six() -> list[Stroke]:
    hook = _arc(0.62, 0.66, 0.5, 0.66, 262, 180)
    loop = _arc(0.5, 0.68, 0.4, 0.3, 180, 540)
    return [np.concatenate([hook, loop])]


def digit_strokes(number: int) -> list[Stroke]:
    """The strokes of one digit in the unit box."""
    if number == 9:
        return [1.0 - s for s in _six()]
    shapes: dict[int, list[Stroke]] = {
        0: [_arc(0.5, 0.5, 0.42, 0.5, 0, 360)],
        1: [_line((0.22, 0.22), (0.58, 0.0), (0.58, 1.0))],
        2: [np.concatenate([_arc(0.5, 0.28, 0.42, 0.28, 195, 380),
                            _line((0.05, 1.0), (0.95, 1.0))])],
        3: [np.concatenate([_arc(0.5, 0.26, 0.38, 0.26, 200, 450),
                            _arc(0.5, 0.74, 0.44, 0.26, 270, 520)])],
        4: [_line((0.72, 1.0), (0.72, 0.0), (0.04, 0.7), (0.98, 0.7))],
        5: [np.concatenate([_line((0.88, 0.0), (0.18, 0.0), (0.12, 0.45)),
                            _arc(0.5, 0.68, 0.42, 0.32, 215, 520)])],
        6: _six(),
        7: [_line((0.04, 0.0), (0.96, 0.0), (0.38, 1.0))],
        8: [_arc(0.5, 0.25, 0.35, 0.25, 0, 360), _arc(0.5, 0.73, 0.42, 0.27, 0, 360)],
    }
    return shapes[number]


def draw_digit_mask(mask: np.ndarray, number: int, box: tuple[int, int, int, int], *,
                    thickness_px: float, slant: float = 0.0, serifs: bool = False) -> None:
    """Draw ``number`` into the uint8 ``mask`` (255 = ink) inside ``box`` (x, y, w, h) of
    the glyph's body; the stroke's own width lies half outside the box. ``slant`` leans the
    top to the right by that share of the height; ``serifs`` adds foot and head bars."""
    x, y, w, h = box
    strokes = digit_strokes(number)
    if serifs:
        strokes = strokes + _serifs(number)
    s = SUPERSAMPLE
    pad = int(math.ceil(thickness_px)) + 1
    big = np.zeros(((h + 2 * pad) * s, (w + 2 * pad) * s), np.uint8)
    for stroke in strokes:
        px = (stroke[:, 0] * w + slant * (1.0 - stroke[:, 1]) * h + pad) * s
        py = (stroke[:, 1] * h + pad) * s
        points = np.round(np.stack([px, py], axis=1)).astype(np.int32)
        cv2.polylines(big, [points], False, 255, max(1, round(thickness_px * s)), cv2.LINE_8)
    small = cv2.resize(big, (w + 2 * pad, h + 2 * pad), interpolation=cv2.INTER_AREA)
    top, left = y - pad, x - pad
    region = mask[max(0, top): top + small.shape[0], max(0, left): left + small.shape[1]]
    piece = small[max(0, -top): max(0, -top) + region.shape[0],
                  max(0, -left): max(0, -left) + region.shape[1]]
    np.maximum(region, piece, out=region)


def _serifs(number: int) -> list[Stroke]:
    """Bars at the foot of the 1 and 4 and the head of the 7: a second type face."""
    extra = {1: [_line((0.3, 1.0), (0.86, 1.0))], 4: [_line((0.52, 1.0), (0.92, 1.0))],
             7: [_line((0.04, 0.0), (0.04, 0.14))]}
    return extra.get(number, [])
