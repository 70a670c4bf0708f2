"""Where the camera stands over the card when the frame's principal point is not known: a
cropped picture, or a camera aimed off the middle of what it frames and its picture cut to
the mat, has its principal point far from the frame's middle, and
:mod:`vision.enigma.puzzles.camera_pose` then finds no lens that fits the card's homography.

A lens of square pixels has ``K = [[f, 0, u], [0, f, v], [0, 0, 1]]``, and the homography
``H = K [r1 r2 t]`` holds ``h1' w h2 = 0`` and ``h1' w h1 = h2' w h2`` for ``w = K^-T K^-1``
(``h1``, ``h2`` its first two columns): ``w = [[1, 0, a], [0, 1, b], [a, b, c]]`` with
``a = -u``, ``b = -v``, ``c = f^2 + u^2 + v^2``, so the two are linear in ``(a, b, c)``. Two
equations in three unknowns leave a line of solutions: for each focal length, at most two
principal points (where ``c - a^2 - b^2 = f^2`` meets the line), one of them far beyond any
picture. So the card fixes the principal point for each lens, and the lens stays as unsure
as it is with a centred one: the pose is a family of eyes, one per field of view, among
which the pieces themselves choose (:mod:`vision.enigma.puzzles.angular_tall`).

A camera looking nearly straight down tells its principal point from the card's small
perspective only roughly; a principal point found beyond :data:`PRINCIPAL_REACH` is no
camera's, and then there is no eye for that lens.

>>> import numpy as np
>>> f, u, v = 1000.0, 1000.0, 600.0  # 70 degrees across 1400 px, 360 px off the middle
>>> K = np.array([[f, 0, u], [0, f, v], [0, 0, 1]])
>>> tilt = np.radians(20)
>>> turn = np.array([[1, 0, 0], [0, np.cos(tilt), -np.sin(tilt)], [0, np.sin(tilt), np.cos(tilt)]])
>>> centre = np.array([100.0, -150.0, -900.0])  # 900 px over the card, z down
>>> t = -turn @ centre
>>> H = K @ np.column_stack([turn[:, 0], turn[:, 1], t])
>>> [eye] = off_centre_eyes(H, (1400, 800), (70.0,))
>>> round(eye.height), [round(c) for c in eye.nadir]
(900, [100, -150])
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from vision.enigma.puzzles.camera_pose import Eye, eye_through

#: the fields of view (horizontal, degrees, of the frame as given) an off-centre camera's
#: pose is tried with: from the widest lens the appliance is used with (77) down to a
#: picture cropped to about half its width (40)
OFF_CENTRE_FIELDS_DEG = tuple(40.0 + 3.0 * i for i in range(13))
#: a principal point further than this share of the frame's width from its middle is no
#: camera's: a picture cropped to half its width keeps it within half a width
PRINCIPAL_REACH = 0.6


def _conic_line(view_to_frame: np.ndarray, frame_size: tuple[int, int]
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The homography in frame units (the frame's middle at 0, its width 1), and the line of
    ``(a, b, c)`` that make it a square-pixelled camera's: a point on it and its direction;
    None when the two conditions are one (the card seen without perspective)."""
    w, h = frame_size
    to_unit = np.array([[1 / w, 0, -0.5], [0, 1 / w, -h / 2 / w], [0, 0, 1]])
    m = to_unit @ view_to_frame
    m = m / np.linalg.norm(m[:, :2])  # the card's axes, not its place, set the scale
    (h11, h12, _), (h21, h22, _), (h31, h32, _) = m
    rows = np.array([[h11 * h32 + h31 * h12, h21 * h32 + h31 * h22, h31 * h32],
                     [2 * (h11 * h31 - h12 * h32), 2 * (h21 * h31 - h22 * h32),
                      h31 ** 2 - h32 ** 2]])
    rhs = -np.array([h11 * h12 + h21 * h22, h11 ** 2 + h21 ** 2 - h12 ** 2 - h22 ** 2])
    sizes = np.linalg.norm(rows, axis=1)
    if sizes.min() < 1e-12:
        return None
    rows, rhs = rows / sizes[:, None], rhs / sizes
    direction = np.cross(rows[0], rows[1])
    if np.linalg.norm(direction[:2]) < 1e-9:
        return None
    point = np.linalg.lstsq(rows, rhs, rcond=None)[0]
    return m, point, direction / np.linalg.norm(direction)


def principal_points(view_to_frame: np.ndarray, frame_size: tuple[int, int], hfov_deg: float
                     ) -> list[tuple[float, float]]:
    """The principal points (frame px) that with a lens of ``hfov_deg`` make the homography
    a square-pixelled camera's, nearest the frame's middle first; empty when none does."""
    w, h = frame_size
    line = _conic_line(view_to_frame, frame_size)
    if line is None:
        return []
    _, p, d = line
    f = 0.5 / math.tan(math.radians(hfov_deg) / 2)  # frame widths
    # c - a^2 - b^2 = f^2 along p + s d: a quadratic in s
    qa = -(d[0] ** 2 + d[1] ** 2)
    qb = d[2] - 2 * (p[0] * d[0] + p[1] * d[1])
    qc = p[2] - p[0] ** 2 - p[1] ** 2 - f * f
    disc = qb * qb - 4 * qa * qc
    if disc < 0:
        return []
    roots = [(-qb + sign * math.sqrt(disc)) / (2 * qa) for sign in (1.0, -1.0)]
    points = [(-(p[0] + s * d[0]), -(p[1] + s * d[1])) for s in roots]
    points.sort(key=lambda q: math.hypot(*q))
    return [(w / 2 + x * w, h / 2 + y * w) for x, y in points]


def off_centre_eyes(view_to_frame: np.ndarray, frame_size: tuple[int, int],
                    fields_of_view: Sequence[float] = OFF_CENTRE_FIELDS_DEG) -> list[Eye]:
    """The camera's centre over the card view for each lens of ``fields_of_view``, its
    principal point the one the homography fixes (:func:`principal_points`) within
    :data:`PRINCIPAL_REACH` of the frame's middle; lenses without one give no eye."""
    w, h = frame_size
    eyes = []
    for fov in fields_of_view:
        points = principal_points(view_to_frame, frame_size, fov)
        if not points:
            continue
        u, v = points[0]
        if math.hypot(u - w / 2, v - h / 2) > PRINCIPAL_REACH * w:
            continue
        f = w / 2 / math.tan(math.radians(fov) / 2)
        inverse = np.array([[1 / f, 0, -u / f], [0, 1 / f, -v / f], [0, 0, 1]])
        if (eye := eye_through(inverse, view_to_frame)) is not None:
            eyes.append(eye)
    return eyes


__all__ = ["OFF_CENTRE_FIELDS_DEG", "PRINCIPAL_REACH", "off_centre_eyes", "principal_points"]
