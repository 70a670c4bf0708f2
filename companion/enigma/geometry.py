"""Plane polygons for the fragment puzzle: area, convexity, rigid moves and clipping.

Pure Python, exact up to float rounding. Polygons are sequences of (x, y) vertices, either
orientation. Clipping is Sutherland-Hodgman against a *convex* clip polygon; the subject may
be any simple polygon (concave silhouettes included): the clipped result can contain
zero-width bridges, which carry no area, so its area is the exact intersection area.

>>> square = [(0, 0), (2, 0), (2, 2), (0, 2)]
>>> intersection_area(square, [(1, 1), (3, 1), (3, 3), (1, 3)])
1.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Point = tuple[float, float]
Polygon = tuple[Point, ...]

EPS = 1e-9


def signed_area(polygon: Sequence[Point]) -> float:
    """Shoelace area: positive when the vertices turn counter-clockwise (y up)."""
    total = 0.0
    n = len(polygon)
    for i in range(n):
        x1, y1 = polygon[i]
        x2, y2 = polygon[(i + 1) % n]
        total += x1 * y2 - x2 * y1
    return total / 2.0


def area(polygon: Sequence[Point]) -> float:
    return abs(signed_area(polygon))


def oriented(polygon: Sequence[Point]) -> Polygon:
    """The polygon with counter-clockwise (positive-area) vertex order."""
    points = tuple((float(x), float(y)) for x, y in polygon)
    return points if signed_area(points) >= 0 else points[::-1]


def is_convex(polygon: Sequence[Point]) -> bool:
    """True when every turn goes the same way (collinear vertices allowed)."""
    n = len(polygon)
    if n < 3:
        return False
    sign = 0
    for i in range(n):
        ax, ay = polygon[i]
        bx, by = polygon[(i + 1) % n]
        cx, cy = polygon[(i + 2) % n]
        cross = (bx - ax) * (cy - by) - (by - ay) * (cx - bx)
        if abs(cross) <= EPS:
            continue
        turn = 1 if cross > 0 else -1
        if sign == 0:
            sign = turn
        elif turn != sign:
            return False
    return sign != 0


def transform(
    polygon: Sequence[Point], *, rotation: float = 0.0, mirror: bool = False,
    offset: Point = (0.0, 0.0),
) -> Polygon:
    """Mirror (x -> -x) if asked, then rotate by ``rotation`` degrees about the origin, then
    move by ``offset``. With y growing downward (image coordinates) a positive angle turns
    clockwise on the screen. Multiples of 90 degrees are exact."""
    quarter = rotation / 90.0
    cos: float
    sin: float
    if quarter == int(quarter):
        cos, sin = ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))[int(quarter) % 4]
    else:
        radians = math.radians(rotation)
        cos, sin = math.cos(radians), math.sin(radians)
    dx, dy = offset
    moved = []
    for x, y in polygon:
        if mirror:
            x = -x
        moved.append((x * cos - y * sin + dx, x * sin + y * cos + dy))
    return tuple(moved)


def clip(subject: Sequence[Point], clipper: Sequence[Point]) -> Polygon:
    """``subject`` clipped to the convex ``clipper`` (Sutherland-Hodgman)."""
    output: list[Point] = [(float(x), float(y)) for x, y in subject]
    edges = oriented(clipper)
    n = len(edges)
    for i in range(n):
        if not output:
            break
        ax, ay = edges[i]
        bx, by = edges[(i + 1) % n]

        def inside(p: Point, ax: float = ax, ay: float = ay, bx: float = bx,
                   by: float = by) -> bool:
            return (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax) >= -EPS

        def crossing(p: Point, q: Point, ax: float = ax, ay: float = ay, bx: float = bx,
                     by: float = by) -> Point:
            ex, ey = bx - ax, by - ay
            dp = ex * (p[1] - ay) - ey * (p[0] - ax)
            dq = ex * (q[1] - ay) - ey * (q[0] - ax)
            t = dp / (dp - dq)
            return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)

        current, output = output, []
        for j, point in enumerate(current):
            previous = current[j - 1]
            if inside(point):
                if not inside(previous):
                    output.append(crossing(previous, point))
                output.append(point)
            elif inside(previous):
                output.append(crossing(previous, point))
    return tuple(output)


def intersection_area(subject: Sequence[Point], convex: Sequence[Point]) -> float:
    """Area of ``subject`` (any simple polygon) inside the convex polygon ``convex``."""
    clipped = clip(subject, convex)
    return area(clipped) if len(clipped) >= 3 else 0.0


def triangulate(polygon: Sequence[Point]) -> list[Polygon]:
    """Split a simple polygon into triangles (ear clipping); a convex one stays whole."""
    points = list(oriented(polygon))
    if is_convex(points):
        return [tuple(points)]
    triangles: list[Polygon] = []
    guard = 0
    while len(points) > 3 and guard < 10_000:
        guard += 1
        n = len(points)
        for i in range(n):
            a, b, c = points[i - 1], points[i], points[(i + 1) % n]
            cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
            if cross <= EPS:
                continue  # a reflex or flat corner is not an ear
            if any(_in_triangle(p, a, b, c) for p in points if p not in (a, b, c)):
                continue
            triangles.append((a, b, c))
            del points[i]
            break
        else:
            break  # degenerate input: keep what is left as one piece
    if len(points) >= 3:
        triangles.append(tuple(points))
    return triangles


def _in_triangle(p: Point, a: Point, b: Point, c: Point) -> bool:
    def side(u: Point, v: Point) -> float:
        return (v[0] - u[0]) * (p[1] - u[1]) - (v[1] - u[1]) * (p[0] - u[0])

    return side(a, b) > EPS and side(b, c) > EPS and side(c, a) > EPS


def overlap_area(first: Sequence[Point], second: Sequence[Point]) -> float:
    """Area shared by two simple polygons (the second is split into convex parts)."""
    return sum(intersection_area(first, part) for part in triangulate(second))


def bounds(polygons: Sequence[Sequence[Point]]) -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) over all the polygons' vertices."""
    xs = [x for poly in polygons for x, _ in poly]
    ys = [y for poly in polygons for _, y in poly]
    return min(xs), min(ys), max(xs), max(ys)


__all__ = [
    "Point",
    "Polygon",
    "area",
    "bounds",
    "clip",
    "intersection_area",
    "is_convex",
    "oriented",
    "overlap_area",
    "signed_area",
    "transform",
    "triangulate",
]
