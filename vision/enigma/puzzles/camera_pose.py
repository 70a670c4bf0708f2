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
#: a homography is a centred camera's when K^-1 H's columns are at right angles and of one
#: length within this (cosine, share of their length): the tall tuning renders, whose
#: camera is one (lens distortion and the card's corners found to a pixel), lie at
#: 0.0000-0.0004 at their own lens
LENS_MISFIT = 0.002


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


def _lens_inverse(frame_size: tuple[int, int], hfov_deg: float) -> np.ndarray:
    """``K^-1`` for a lens of ``hfov_deg``, its principal point in the frame's middle."""
    w, h = frame_size
    f = w / 2 / math.tan(math.radians(hfov_deg) / 2)
    return np.array([[1 / f, 0, -w / 2 / f], [0, 1 / f, -h / 2 / f], [0, 0, 1]])


def camera_eye(view_to_frame: np.ndarray, frame_size: tuple[int, int], hfov_deg: float
               ) -> Eye | None:
    """The camera's centre over the card view whose homography to the frame (``frame_size``
    width, height) is ``view_to_frame``, for a lens of ``hfov_deg`` horizontal field of view;
    None when the homography is no camera's (the card behind it, or degenerate)."""
    return eye_through(_lens_inverse(frame_size, hfov_deg), view_to_frame)


def eye_through(lens_inverse: np.ndarray, view_to_frame: np.ndarray) -> Eye | None:
    """The camera's centre over the card view for the lens whose ``K^-1`` is
    ``lens_inverse`` (any principal point); None when the homography is no camera's."""
    m = lens_inverse @ view_to_frame
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


def lens_misfit(view_to_frame: np.ndarray, frame_size: tuple[int, int], hfov_deg: float
                ) -> float:
    """How far the homography is from any camera with a lens of ``hfov_deg`` and its principal
    point in the frame's middle: ``K^-1 H``'s first two columns are a turn's, at right angles
    and of one length; the larger of their angle's cosine and their lengths' difference (share
    of their mean). 0 for such a camera's own homography."""
    m = _lens_inverse(frame_size, hfov_deg) @ view_to_frame
    n1, n2 = float(np.linalg.norm(m[:, 0])), float(np.linalg.norm(m[:, 1]))
    if not (np.isfinite(n1) and np.isfinite(n2)) or min(n1, n2) <= 0:
        return math.inf
    return max(abs(float(m[:, 0] @ m[:, 1])) / (n1 * n2), abs(n1 - n2) / ((n1 + n2) / 2))


def fitting_lenses(view_to_frame: np.ndarray, frame_size: tuple[int, int],
                   fields_of_view: Sequence[float] = FIELD_OF_VIEW_RANGE_DEG
                   ) -> tuple[float, float] | None:
    """The narrowest and widest lens, whole degrees within the ``fields_of_view`` range, that
    with its principal point in the frame's middle makes the homography a camera's within
    :data:`LENS_MISFIT`; None when none does. A frame whose principal point lies elsewhere (a
    cropped or re-centred picture) or whose lens lies outside the range gives a pose that is
    no camera's: its top faces would be put where none shows. A tilted camera's homography
    fixes its lens (tuning renders tilted 3.5 degrees and more: the misfit's least within a
    degree of the true field of view), so the range narrows to it; looking straight down,
    every lens fits and the range stays whole."""
    lo, hi = min(fields_of_view), max(fields_of_view)
    steps = max(1, int(math.ceil(hi - lo)))
    grid = [lo + (hi - lo) * i / steps for i in range(steps + 1)]
    fits = [fov for fov in grid if lens_misfit(view_to_frame, frame_size, fov) <= LENS_MISFIT]
    return (fits[0], fits[-1]) if fits else None


def camera_eyes(view_to_frame: np.ndarray, frame_size: tuple[int, int],
                fields_of_view: Sequence[float] = FIELD_OF_VIEW_RANGE_DEG) -> list[Eye]:
    """The camera's centre for the narrowest and the widest lens of ``fields_of_view`` (the
    configured lens, or the range it may be) that fit the homography
    (:func:`fitting_lenses`); empty when none fits or either gives no centre."""
    lenses = fitting_lenses(view_to_frame, frame_size, fields_of_view)
    if lenses is None:
        return []
    eyes = [camera_eye(view_to_frame, frame_size, fov) for fov in lenses]
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


__all__ = ["FIELD_OF_VIEW_RANGE_DEG", "LENS_MISFIT", "Eye", "camera_eye", "camera_eyes",
           "eye_through", "fitting_lenses", "lens_misfit", "top_face_shift"]
