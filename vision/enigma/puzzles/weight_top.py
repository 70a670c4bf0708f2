"""Tall weights seen by a tilted camera: where their top faces lie off their bases.

A real weight is a short metal cylinder. Seen from a camera off the vertical, its top face (the
bright face and the darker turned rim) lies off its base, away from the point of the table
right under the camera (the nadir), by its height times its distance from the nadir over the
camera's height less its own; its side fills the space between the two. The card's outline,
with the mat's, gives the table plane in the frame (``frame_to_view``), and with the lens's
axis through the middle of the frame and a usual lens, where the camera stands over that
plane (:func:`camera_over_card`). A weight is then judged at its top face only along the one
line its height can move it (:func:`tops_along`), never in any direction: session 21 judged
each place again at its brightest face in any direction, and a weight partly under another
then passed as whole in 9 of 48 drawn shadowless scenes.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from vision.enigma.puzzles.cards import Point


def draw_swept(mask: np.ndarray, centre: Point, sweep: Point, radius: float, value: int
               ) -> None:
    """Fill the disc of ``radius`` at ``centre`` swept by ``sweep`` (pixels) with ``value``."""
    steps = max(1, int(math.ceil(math.hypot(*sweep))))
    for t in np.linspace(0.0, 1.0, steps + 1):
        c = (int(round(centre[0] + t * sweep[0])), int(round(centre[1] + t * sweep[1])))
        cv2.circle(mask, c, int(round(radius)), value, -1)


#: a card's lean is looked for in this many directions, a pixel at a time up to this share of
#: the radius (the peak of a flat weight's picture lies between a tall one's top face and its
#: base, so its top face lies at most about half its sweep off)
LEAN_DIRECTIONS, MAX_LEAN = 24, 0.5
#: a lean is the card's only when at least this many places show whole with it (one alone
#: could be a weight partly under another), more than without it
LEAN_WEIGHTS = 2


def fit_lean(places: list[Point], is_whole: Callable[[Point], bool], wr: float
             ) -> Point | None:
    """The one shift (px) from the sieve's places to their top faces that makes the most of
    them show whole (``is_whole``), the shortest of those; None when no shift makes
    :data:`LEAN_WEIGHTS` whole and more than no shift does."""
    flat = sum(is_whole(p) for p in places)
    best: tuple[int, float, Point] = (max(flat + 1, LEAN_WEIGHTS) - 1, 0.0, (0.0, 0.0))
    for k in range(LEAN_DIRECTIONS):
        a = 2 * math.pi * k / LEAN_DIRECTIONS
        u = (math.cos(a), math.sin(a))
        for s in range(1, int(MAX_LEAN * wr) + 1):
            n = sum(is_whole((p[0] + s * u[0], p[1] + s * u[1])) for p in places)
            if n > best[0] or (n == best[0] and best[1] > 0 and s < best[1]):
                best = (n, float(s), (s * u[0], s * u[1]))
    return best[2] if best[1] > 0 else None


__all__ = ["LEAN_WEIGHTS", "MAX_LEAN", "draw_swept", "fit_lean"]
