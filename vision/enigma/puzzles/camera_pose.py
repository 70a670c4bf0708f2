"""Where the camera stands over the card, from the card's homography and the lens's field of
view, and so where the top face of a piece standing on the card shows.

The card lies on the table, so the homography from the card view to the camera frame is
``K [r1 r2 t]`` up to scale: ``K`` the lens (focal length from the field of view, principal
point in the frame's middle, square pixels), ``r1 r2`` the first two columns of the camera's
turn and ``t`` its shift. With ``K`` known, the turn and shift follow, and with them the
camera's centre: its NADIR on the table (the point straight under it) and its height. A
point ``h`` above the card at ``p`` shows where the ray from the camera through it meets the
card: on the line from the nadir through ``p``, ``h / (height - h)`` of the way further out.

The card's homography alone does not fix the focal length of a camera looking nearly
straight down (session 25: 1/f^2 came out negative on half the frames), so the lens is a fact
given to it: the configured camera's field of view, or where that is not known, the range of
the cameras the appliance is used with; a prediction that differs over that range by more
than a reader can take is no prediction (:func:`top_face_shift` returns None).

>>> import numpy as np
>>> straight = np.array([[1.0, 0, 100], [0, 1.0, 50], [0, 0, 1]])  # view px -> frame px
>>> eye = camera_eye(straight, (400, 300), 90.0)
>>> round(eye.height), [round(v) for v in eye.nadir]
(200, [100, 100])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Point = tuple[float, float]

#: the horizontal fields of view of the cameras the appliance is used with (degrees): the HQ
#: camera with a 6 mm lens (55), the Camera Module 2 (62) and 3 (66), phones' main cameras up
#: to 77. A camera whose lens is not configured is taken to be any of them
FIELD_OF_VIEW_RANGE_DEG = (55.0, 77.0)


@dataclass(frozen=True)
class Eye:
    """The camera's centre over the card view: over ``nadir`` (card view px), ``height``
    card view px above the card."""

    nadir: Point
    height: float

    def raised(self, point: Point, above: float) -> Point:
        """Where a point ``above`` (card view px) over ``point`` shows in the card view."""
        k = self.height / (self.height - above)
        return (self.nadir[0] + (point[0] - self.nadir[0]) * k,
                self.nadir[1] + (point[1] - self.nadir[1]) * k)


def camera_eye(view_to_frame: np.ndarray, frame_size: tuple[int, int], hfov_deg: float
               ) -> Eye | None:
    """The camera's centre over the card view whose homography to the frame (``frame_size``
    width, height) is ``view_to_frame``, for a lens of ``hfov_deg`` horizontal field of view;
    None when the homography is no camera's (the card behind it, or degenerate)."""
    w, h = frame_size
    f = w / 2 / math.tan(math.radians(hfov_deg) / 2)
    k_inv = np.array([[1 / f, 0, -w / 2 / f], [0, 1 / f, -h / 2 / f], [0, 0, 1]])
    m = k_inv @ view_to_frame
    scale = (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1])) / 2
    if not np.isfinite(scale) or scale <= 0:
        return None
    if m[2, 2] < 0:  # the card lies in front of the camera
        m = -m
    r1, r2, t = m[:, 0] / scale, m[:, 1] / scale, m[:, 2] / scale
    turn = np.column_stack([r1, r2, np.cross(r1, r2)])
    centre = -np.linalg.solve(turn, t)  # the camera's centre in the card's own axes
    if abs(centre[2]) <= 1e-6:
        return None
    return Eye((float(centre[0]), float(centre[1])), float(abs(centre[2])))


def camera_eyes(view_to_frame: np.ndarray, frame_size: tuple[int, int],
                fields_of_view: Sequence[float] = FIELD_OF_VIEW_RANGE_DEG) -> list[Eye]:
    """The camera's centre for each of ``fields_of_view`` (the configured lens, or the ends of
    the range it may be); empty when any one gives none."""
    eyes = [camera_eye(view_to_frame, frame_size, fov) for fov in fields_of_view]
    return [e for e in eyes if e is not None] if all(e is not None for e in eyes) else []


def top_face_shift(eyes: Sequence[Eye], base: Point, above: float, tolerance: float
                   ) -> Point | None:
    """How far a top face ``above`` (card view px) over ``base`` shows off its base, the mean
    over ``eyes``; None without an eye, or when the eyes put it further apart than
    ``tolerance`` (card view px): the pose is then too unsure to judge by."""
    if not eyes:
        return None
    tops = [eye.raised(base, above) for eye in eyes]
    if max(math.dist(a, b) for a in tops for b in tops) > tolerance:
        return None
    return (sum(t[0] for t in tops) / len(tops) - base[0],
            sum(t[1] for t in tops) / len(tops) - base[1])


__all__ = ["FIELD_OF_VIEW_RANGE_DEG", "Eye", "camera_eye", "camera_eyes", "top_face_shift"]
