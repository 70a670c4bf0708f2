"""Curves (an Indigo tile's paths, rings round a cell) drawn with as many segments as their
length on screen needs.

Kivy cuts every ``Line(bezier=...)`` into 180 segments (``bezier_precision``) and every
``Line(circle=...)`` into one segment per 2 degrees and, with a width over one pixel, makes
triangles and a round joint for each: about 170 KB of vertex data per curve, kept by Kivy and
again by the GL driver while the curve is drawn. A full Indigo board has some 160 paths, each
30 to 80 px long: 28 MB to draw segments of a third of a pixel. One segment per few pixels
looks the same.
"""

from __future__ import annotations

import math

from kivy.graphics import Line

#: the length on screen of one straight piece of a curve: below what the eye sees as a corner
#: on a line a few pixels wide
SEGMENT_PX = 3.0
#: a small curve (a tile in the picker, a ring round a dot) still bends
MIN_SEGMENTS = 6


def segments_for(length_px: float) -> int:
    """How many straight pieces a curve ``length_px`` long on screen needs to look smooth."""
    return max(MIN_SEGMENTS, math.ceil(length_px / SEGMENT_PX))


def path_curve(points: list[float], width: float) -> Line:
    """A ``Line`` along the quadratic curve ``points`` (x0, y0, x1, y1, x2, y2: its ends and
    control point), in the canvas being built. Its control polygon, never shorter than the
    curve, stands for its length."""
    x0, y0, x1, y1, x2, y2 = points
    length = math.dist((x0, y0), (x1, y1)) + math.dist((x1, y1), (x2, y2))
    return Line(bezier=points, bezier_precision=segments_for(length), width=width)


def circle_line(x: float, y: float, radius: float, width: float, *,
                degrees: tuple[float, float] = (0.0, 360.0)) -> Line:
    """A ``Line`` round the circle at (x, y), from ``degrees[0]`` to ``degrees[1]`` (Kivy's
    angles: clockwise from the top), in the canvas being built."""
    start, end = degrees
    length = 2 * math.pi * radius * abs(end - start) / 360.0
    # Kivy adds one segment to the count it is given
    return Line(circle=(x, y, radius, start, end, segments_for(length) - 1), width=width)
