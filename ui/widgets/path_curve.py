"""An Indigo tile's path drawn as a curve, with as many segments as its length on screen needs.

Kivy's ``Line(bezier=...)`` cuts every curve into 180 segments (``bezier_precision``) and, with
a width over one pixel, makes triangles and a round joint for each: about 170 KB of vertex data
per curve, kept by Kivy and again by the GL driver while the curve is drawn. A full Indigo
board has some 160 such paths, each 30 to 80 px long: 28 MB to draw segments of a third of a
pixel. One segment per few pixels looks the same.
"""

from __future__ import annotations

import math

from kivy.graphics import Line

#: the length on screen of one straight piece of a curve: below what the eye sees as a corner
#: on a line a few pixels wide
SEGMENT_PX = 3.0
#: a curve of a tiny tile (a zoomed-out picture) still bends
MIN_SEGMENTS = 6


def segments_for(points: list[float]) -> int:
    """How many straight pieces a quadratic curve through ``points`` (x0, y0, x1, y1, x2, y2:
    its ends and control point) needs to look smooth: its control polygon's length in pixels,
    which is never shorter than the curve, over :data:`SEGMENT_PX`."""
    x0, y0, x1, y1, x2, y2 = points
    length = math.dist((x0, y0), (x1, y1)) + math.dist((x1, y1), (x2, y2))
    return max(MIN_SEGMENTS, math.ceil(length / SEGMENT_PX))


def path_curve(points: list[float], width: float) -> Line:
    """A ``Line`` along the quadratic curve ``points`` (ends and control point), in the
    canvas being built."""
    return Line(bezier=points, bezier_precision=segments_for(points), width=width)
