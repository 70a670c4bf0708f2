"""A pinhole camera over a scene drawn top-down: the homography that turns the scene into the
camera's frame, and, from the same pose, where a point standing above the table shows.

A scene is drawn as the table seen straight down (one scene pixel per unit of the table). A
real camera on an arm sees the table through a lens of some field of view, from some height,
tilted and turned; a point ``h`` above the table lands in its picture where the ray from the
camera's centre through that point meets the table. That table point lies on the line from
the NADIR (the point straight under the camera, where vertical lines meet) through the
point's foot, ``h / (height - h)`` of the way further out. So a piece standing on the table is
drawn in the scene as its top face enlarged about the nadir and moved away from it, and the
scene then goes through the camera's homography: the picture is that of the real camera.

>>> import numpy as np
>>> camera = draw_pinhole(np.random.default_rng(4), (640, 360), max_tilt_deg=20.0)
>>> view = camera.view((300, 200))
>>> view.eye.height > 0
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Point = tuple[float, float]

#: horizontal fields of view of the cameras the appliance is used with: the Camera Module 2
#: (62 degrees) and 3 (66), the wide Module 3 cropped, the HQ camera with a 6 mm lens (55)
#: and phones' main cameras (65-77)
FIELD_OF_VIEW_DEG = (55.0, 77.0)
#: how much of the frame the scene fills at most (its wider side, seen by the camera)
FILL = (0.85, 0.98)


@dataclass(frozen=True)
class Viewpoint:
    """Where a camera's centre stands over a table drawn top-down: over ``nadir``, ``height``
    above the table (both in the drawing's units)."""

    nadir: Point
    height: float

    def scale(self, above: float) -> float:
        """How much larger a shape ``above`` over the table shows than one on it."""
        return self.height / (self.height - above)

    def raised(self, point: Point, above: float) -> Point:
        """Where the table shows a point ``above`` over ``point``: on the ray from the camera
        through it, away from the nadir, the more the higher it stands."""
        k = self.scale(above)
        return (self.nadir[0] + (point[0] - self.nadir[0]) * k,
                self.nadir[1] + (point[1] - self.nadir[1]) * k)


@dataclass(frozen=True)
class PinholeView:
    """A pinhole camera placed over one scene: ``homography`` maps scene pixels on the table
    to frame pixels, ``eye`` is the camera's centre over the scene (scene pixels) and
    ``projection`` maps scene points (x, y, z; z < 0 above the table) to the frame."""

    homography: np.ndarray
    eye: Viewpoint
    projection: np.ndarray


@dataclass(frozen=True)
class Pinhole:
    """A camera of ``hfov_deg`` horizontal field of view (principal point in the frame's
    middle, square pixels) aimed at the scene's middle, tilted ``tilt_deg`` from straight
    down towards ``tilt_dir_deg``, turned ``spin_deg``, as far from the scene as makes the
    scene fill ``fill`` of the frame."""

    frame_size: tuple[int, int]
    hfov_deg: float
    tilt_deg: float
    tilt_dir_deg: float
    spin_deg: float
    fill: float

    @property
    def focal_px(self) -> float:
        return self.frame_size[0] / 2 / math.tan(math.radians(self.hfov_deg) / 2)

    def _turn(self) -> np.ndarray:
        """Scene axes (x right, y down, z into the table) to the camera's axes."""
        t, d = math.radians(self.tilt_deg), math.radians(self.tilt_dir_deg)
        axis = np.array([math.cos(d), math.sin(d), 0.0])  # the tilt's axis, in the table
        k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
        tilt = np.eye(3) + math.sin(t) * k + (1 - math.cos(t)) * (k @ k)
        c, s = math.cos(math.radians(self.spin_deg)), math.sin(math.radians(self.spin_deg))
        spin = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
        turned: np.ndarray = tilt @ spin
        return turned

    def _projection(self, scene_size: tuple[int, int], distance: float) -> np.ndarray:
        fw, fh = self.frame_size
        intrinsics = np.array([[self.focal_px, 0, fw / 2], [0, self.focal_px, fh / 2],
                               [0, 0, 1]])
        turn = self._turn()
        middle = np.array([scene_size[0] / 2, scene_size[1] / 2, 0.0])
        shift = -turn @ middle + np.array([0.0, 0.0, distance])
        projection: np.ndarray = intrinsics @ np.column_stack([turn, shift])
        return projection

    def _extent(self, scene_size: tuple[int, int], distance: float) -> float:
        """The share of the frame the scene's corners reach out to (inf: behind the camera)."""
        w, h = scene_size
        corners = np.array([[0, 0, 0, 1], [w, 0, 0, 1], [w, h, 0, 1], [0, h, 0, 1]], float)
        seen = corners @ self._projection(scene_size, distance).T
        if np.any(seen[:, 2] <= 0):
            return math.inf
        fw, fh = self.frame_size
        x = np.abs(seen[:, 0] / seen[:, 2] - fw / 2) / (fw / 2)
        y = np.abs(seen[:, 1] / seen[:, 2] - fh / 2) / (fh / 2)
        return float(max(x.max(), y.max()))

    def view(self, scene_size: tuple[int, int]) -> PinholeView:
        """The camera over a scene of ``scene_size`` (width, height) pixels."""
        near, far = 0.05 * max(scene_size), 50.0 * max(scene_size)
        for _ in range(60):  # the scene shrinks in the frame as the camera backs away
            mid = (near + far) / 2
            near, far = (mid, far) if self._extent(scene_size, mid) > self.fill else (near, mid)
        projection = self._projection(scene_size, far)
        turn = self._turn()
        middle = np.array([scene_size[0] / 2, scene_size[1] / 2, 0.0])
        centre = middle - far * turn[2]  # where the camera's axes put it: turn @ (c - m) = -D z
        homography = projection[:, [0, 1, 3]]
        return PinholeView(homography=homography / homography[2, 2],
                           eye=Viewpoint((float(centre[0]), float(centre[1])), float(-centre[2])),
                           projection=projection)


def draw_pinhole(rng: np.random.Generator, frame_size: tuple[int, int], *,
                 max_tilt_deg: float) -> Pinhole:
    """A camera drawn from ``rng``: a lens in :data:`FIELD_OF_VIEW_DEG`, tilted up to
    ``max_tilt_deg`` in any direction, turned up to 12 degrees, the scene filling
    :data:`FILL` of the frame."""
    return Pinhole(frame_size=frame_size,
                   hfov_deg=float(rng.uniform(*FIELD_OF_VIEW_DEG)),
                   tilt_deg=float(rng.uniform(0, max_tilt_deg)),
                   tilt_dir_deg=float(rng.uniform(0, 360)),
                   spin_deg=float(rng.uniform(-12, 12)),
                   fill=float(rng.uniform(*FILL)))


__all__ = ["FIELD_OF_VIEW_DEG", "FILL", "Pinhole", "PinholeView", "Viewpoint", "draw_pinhole"]
