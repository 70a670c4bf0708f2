"""Whether a channel piece may hold two channels crossing, rather than channels joined.

Channels are continuous strokes. Two channels that cross each run straight on through the
point where they meet, so the four arms leaving that point pair up into two straight lines,
on every circle round it.
Channels that join at a hub (the start tile's crossroads, a branch) need not: where no
meeting of the piece shows two such straight pairs, the piece is one network, joined, and
nothing is asked. Where one does, the picture cannot tell a crossing from a crossroads (the
rules' start tile joins its four arms; a crossing of two networks looks the same) and the
reader asks (:func:`vision.enigma.tile.finish_tile`).

>>> import cv2
>>> x = np.zeros((64, 64), np.uint8)
>>> _ = cv2.line(x, (8, 8), (56, 56), 1, 5); _ = cv2.line(x, (8, 56), (56, 8), 1, 5)
>>> may_cross(x.astype(bool), 5.0)
True
>>> y = np.zeros((64, 64), np.uint8)
>>> for end in ((58, 32), (49, 52), (15, 52), (23, 8)):
...     _ = cv2.line(y, (32, 32), end, 1, 5)
>>> may_cross(y.astype(bool), 5.0)
False
"""

from __future__ import annotations

import itertools
import math

import cv2
import numpy as np

from vision.enigma.skeleton import skeletonize

#: where strokes meet is found as the skeleton's points with three arms or more crossing a
#: circle this many channel widths round them
MEETING_RADIUS = 2.0
#: the arms of a meeting are read where they cross circles this many channel widths round
#: its middle (three circles: two strokes crossing at the shallowest angle a tile draws, 35
#: degrees, are apart only on the outer ones; near a side the outer ones leave the tile)
ARM_RADII = (2.0, 3.0, 4.0)
#: two arms run straight on through a meeting when they leave it within this many degrees
#: of opposite ways (what blur, the pixel grid and a gentle bend leave of a straight line:
#: drawn crossings at 35 to 90 degrees, blurred, a 20 degree bend near some, are all found)
STRAIGHT_DEG = 25.0
#: a run along a circle narrower than this many channel widths is the jagged edge of a
#: stroke on the pixel grid, not an arm
MIN_ARM = 0.5


def _on_circles(piece: np.ndarray, xs: np.ndarray, ys: np.ndarray, radius: float, cw: float
                ) -> tuple[np.ndarray, np.ndarray]:
    """The circle of ``radius`` round each point (xs, ys), sampled every half pixel: the
    angles, and per point whether each sample lies on an arm of ``piece`` (runs narrower
    than :data:`MIN_ARM` channel widths left out)."""
    n = max(64, int(4 * math.pi * radius))
    angles = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
    cx = np.round(xs[:, None] + radius * np.cos(angles)[None, :]).astype(int)
    cy = np.round(ys[:, None] + radius * np.sin(angles)[None, :]).astype(int)
    inside = (cx >= 0) & (cy >= 0) & (cx < piece.shape[1]) & (cy < piece.shape[0])
    on = np.zeros(cx.shape, bool)
    on[inside] = piece[cy[inside], cx[inside]]
    k = max(1, int(round(MIN_ARM * cw * n / (2 * math.pi * radius))))
    full = on.copy()  # an opening along the circle: runs of k samples or more kept
    for j in range(1, k):
        full &= np.roll(on, -j, axis=1)
    arms = full.copy()
    for j in range(1, k):
        arms |= np.roll(full, j, axis=1)
    return angles, arms


def _arm_counts(piece: np.ndarray, xs: np.ndarray, ys: np.ndarray, radius: float, cw: float
                ) -> np.ndarray:
    """Per point (xs, ys), how many arms of ``piece`` the circle of ``radius`` round it
    crosses."""
    _, arms = _on_circles(piece, xs, ys, radius, cw)
    counts: np.ndarray = (arms & ~np.roll(arms, 1, axis=1)).sum(axis=1)
    return counts


def _arm_angles(piece: np.ndarray, cx: float, cy: float, radius: float, cw: float
                ) -> list[float]:
    """The directions (radians) of the arms of ``piece`` crossing the circle of ``radius``
    round (cx, cy): the middle of each arm along the circle."""
    angles, arms = _on_circles(piece, np.array([cx]), np.array([cy]), radius, cw)
    on = arms[0]
    if on.all() or not on.any():
        return []
    start = int(np.argmin(on))  # a point off the piece: no run wraps round the start
    on, angles = np.roll(on, -start), np.roll(angles, -start)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], on.astype(np.int8), [0]))))
    return [math.atan2(float(np.sin(angles[a:b]).mean()), float(np.cos(angles[a:b]).mean()))
            for a, b in zip(edges[::2], edges[1::2], strict=True)]


def _off_straight(a: float, b: float) -> float:
    """How many degrees two arms' directions are from opposite ways."""
    return 180.0 - math.degrees(abs((a - b + math.pi) % (2 * math.pi) - math.pi))


def _two_straight_pairs(angles: list[float]) -> bool:
    """Whether four of the arms pair up into two lines each running straight on."""
    for i, j, k, m in itertools.permutations(range(len(angles)), 4):
        if i < j and k < m and i < k and max(_off_straight(angles[i], angles[j]),
                                              _off_straight(angles[k], angles[m])) \
                <= STRAIGHT_DEG:
            return True
    return False


def may_cross(piece: np.ndarray, cw: float, skeleton: np.ndarray | None = None) -> bool:
    """Whether some meeting of strokes in ``piece`` (a boolean mask; ``cw``: the channel
    width in pixels; ``skeleton``: its skeleton, when made already) has four arms or more,
    two pairs of them running straight on at every distance from it, as two channels
    crossing there would (:func:`_straight_at_every_radius`)."""
    sk = skeletonize(piece) if skeleton is None else skeleton
    ys, xs = np.nonzero(sk)
    if xs.size == 0:
        return False
    meets = _arm_counts(piece, xs, ys, MEETING_RADIUS * cw, cw) >= 3
    if not meets.any():
        return False
    marks = np.zeros(piece.shape, np.uint8)
    marks[ys[meets], xs[meets]] = 1
    _, meeting = cv2.connectedComponents(cv2.dilate(marks, np.ones((3, 3), np.uint8)))
    of_point = meeting[ys[meets], xs[meets]]
    for label in np.unique(of_point):
        px, py = xs[meets][of_point == label], ys[meets][of_point == label]
        if _straight_at_every_radius(piece, float(px.mean()), float(py.mean()), cw):
            return True
    return False


def _straight_at_every_radius(piece: np.ndarray, cx: float, cy: float, cw: float) -> bool:
    """Whether two pairs of the arms leaving the meeting at (cx, cy) run straight on at
    every circle of :data:`ARM_RADII` where four arms or more are seen apart (at one at
    least). A crossing continues straight: two straight channels are straight at every
    distance from where they cross (drawn crossings, blurred, 35 to 90 degrees: 11 degrees
    off straight at most on any circle). Channels bending into a hub may line up on one
    circle by chance and not on the next (clean tuning 0-19, session 30: 11 of the 17 hubs
    asked so were 26 to 98 degrees off on another circle); only the picture that stays
    straight is asked."""
    seen = False
    for extra in ARM_RADII:
        angles = _arm_angles(piece, cx, cy, extra * cw, cw)
        if len(angles) < 4:
            continue  # arms merged, or one left the tile: this circle tells nothing
        if not _two_straight_pairs(angles):
            return False
        seen = True
    return seen


__all__ = ["may_cross"]
