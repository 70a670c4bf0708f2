"""The angular structure as real cubes with height, as the scene's camera sees it on the table.

The check reads the mat through the markers' homography, which is right for the table's plane
only. A cube 12 mm tall is not in that plane: seen from a camera at height ``H`` whose nadir
(the point straight below it) lies at ``N`` on the table, a point ``z`` above the table at
``P`` lands on the table's image at ``N + (P - N) * H / (H - z)``
(:meth:`~vision.synth.pinhole.Viewpoint.raised`). So each top face lies off its base, away
from the nadir, and a little larger; the sides that face the camera fill the sweep between
the two, shaded by the lamp; and the lamp casts the structure's shadow on the table. A flat
top view (:func:`~vision.enigma.synth.puzzles.draw_structure` without a height) shows none of
this.

Drawn straight down in the mat's millimetres, for the frame's own pinhole camera
(:mod:`vision.synth.pinhole`), whose centre over the layer the scene gives: the camera
effects then see the whole scene through that same camera.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.enigma import puzzle_angular as angular
from vision.enigma.pack import EnigmaPack
from vision.synth.pinhole import Viewpoint

#: the shadow's length per millimetre of height, and how much it darkens the table
SHADOW_LEAN, SHADOW_DEPTH = (0.3, 0.9), 0.45
#: a side face's brightness: the ambient share, and what the lamp adds to a side facing it
SIDE_AMBIENT, SIDE_LIT = 0.5, 0.3

Vec = tuple[float, float]
SIDES = ((0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0))  # outward normals N, E, S, W


@dataclass(frozen=True)
class CubeCamera:
    """The scene's camera over the structure (``eye``: mm, in the structure layer's frame)
    and the lamp: its azimuth (the way the shadow falls) and the shadow's length per mm of
    height."""
    eye: Viewpoint
    sun: float
    shadow_lean: float

    def project(self, x: float, y: float, z: float) -> Vec:
        """Where the point ``z`` mm above the table at (x, y) shows on the table's image."""
        return self.eye.raised((x, y), z)


def structure_side_px(cubes: Mapping[str, Sequence[angular.Cube]], pack: EnigmaPack,
                      s: float) -> int:
    """The side (pixels) of the square layer :func:`draw_cubes` draws ``cubes`` on: the
    structure's footprint and three cubes round it, room for the tops and the shadow."""
    side = float(pack.sizes["cube_mm"])
    xs = [x for cs in cubes.values() for x, _, _ in cs]
    ys = [y for cs in cubes.values() for _, y, _ in cs]
    cols, rows = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    return int(round((max(rows, cols) + 6) * side * s))


def _fill(img: np.ndarray, pts_mm: Sequence[Vec], s: float, colour: tuple[int, ...]) -> None:
    pts = np.array([[round(x * s * 16), round(y * s * 16)] for x, y in pts_mm], np.int32)
    cv2.fillPoly(img, [pts], colour, cv2.LINE_AA, 4)


def _shade(bgr: tuple[int, int, int], gain: float) -> tuple[int, int, int, int]:
    b, g, r = (min(255, int(round(v * gain))) for v in bgr)
    return (b, g, r, 255)


def _shadow(img: np.ndarray, footprints: list[tuple[float, float, float, float]],
            cam: CubeCamera, s: float, side: float) -> None:
    """The lamp's soft shadow of each column (x, y, base, top in mm) on the table: the hull
    of its footprint and the footprint shifted by its height along the shadow's way."""
    mask = np.zeros(img.shape[:2], np.float32)
    ux, uy = math.cos(cam.sun), math.sin(cam.sun)
    for x, y, _, top in footprints:
        reach = top * cam.shadow_lean
        square = [(x, y), (x + side, y), (x + side, y + side), (x, y + side)]
        pts = square + [(px + ux * reach, py + uy * reach) for px, py in square]
        hull = cv2.convexHull(np.round(np.array(pts) * s * 16).astype(np.int32))
        cv2.fillConvexPoly(mask, hull, 1.0, cv2.LINE_AA, 4)
    soft = cv2.GaussianBlur(mask, (0, 0), max(1.0, 0.08 * side * s))
    img[..., 3] = np.maximum(img[..., 3], (255 * SHADOW_DEPTH * soft).astype(np.uint8))


def _faces(x: float, y: float, z0: float, z1: float, side: float, cam: CubeCamera,
           open_sides: Sequence[bool]) -> list[tuple[list[Vec], tuple[float, float] | None]]:
    """A cube's faces the camera sees, as table-image polygons: the sides facing the camera's
    nadir (with their outward normal), then the top (normal None)."""
    corners = [(x, y), (x + side, y), (x + side, y + side), (x, y + side)]
    faces: list[tuple[list[Vec], tuple[float, float] | None]] = []
    for n, (nx, ny) in enumerate(SIDES):
        a, b = corners[n], corners[(n + 1) % 4]
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        nadir = cam.eye.nadir
        facing = (nadir[0] - mid[0]) * nx + (nadir[1] - mid[1]) * ny > 0
        if facing and open_sides[n]:
            faces.append(([cam.project(*a, z0), cam.project(*b, z0), cam.project(*b, z1),
                           cam.project(*a, z1)], (nx, ny)))
    faces.append(([cam.project(px, py, z1) for px, py in corners], None))
    return faces


def draw_cubes(cubes: Mapping[str, Sequence[angular.Cube]], pack: EnigmaPack, s: float, *,
               height_mm: float, eye: Viewpoint, rng: random.Random) -> np.ndarray:
    """The structure's cubes ``height_mm`` tall, each ``cube_mm`` a side, as the camera at
    ``eye`` (mm in this layer) sees them on the table (BGRA, :func:`structure_side_px` wide,
    transparent round it, its footprint in the middle)."""
    side = float(pack.sizes["cube_mm"])
    all_cubes = {(x, y, z): piece for piece, cs in cubes.items() for x, y, z in cs}
    xs = [x for x, _, _ in all_cubes]
    ys = [y for _, y, _ in all_cubes]
    cols, rows = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    size = structure_side_px(cubes, pack, s)
    img = np.zeros((size, size, 4), np.uint8)
    x0, y0 = size / s / 2 - cols * side / 2, size / s / 2 - rows * side / 2
    cam = CubeCamera(eye, rng.uniform(0, 2 * math.pi), rng.uniform(*SHADOW_LEAN))

    def place(x: int, y: int) -> Vec:
        return (x0 + (x - min(xs)) * side, y0 + (y - min(ys)) * side)

    columns: dict[tuple[int, int], int] = {}
    for x, y, z in all_cubes:
        columns[(x, y)] = max(columns.get((x, y), -1), z)
    _shadow(img, [(*place(x, y), 0.0, (z + 1) * height_mm) for (x, y), z in columns.items()],
            cam, s, side)
    sun = (math.cos(cam.sun + math.pi), math.sin(cam.sun + math.pi))  # towards the lamp

    def far_first(c: tuple[int, int, int]) -> tuple[float, int]:
        px, py = place(c[0], c[1])
        return (-math.hypot(px + side / 2 - eye.nadir[0], py + side / 2 - eye.nadir[1]), c[2])

    for x, y, z in sorted(all_cubes, key=far_first):
        colour = pack.angular[all_cubes[(x, y, z)]]
        gain = rng.uniform(0.96, 1.04)
        open_sides = [(x + int(nx), y + int(ny), z) not in all_cubes for nx, ny in SIDES]
        for poly, normal in _faces(*place(x, y), z * height_mm, (z + 1) * height_mm, side,
                                   cam, open_sides):
            if normal is None and (x, y, z + 1) in all_cubes:
                continue  # a cube on it hides its top
            lit = 1.0 if normal is None else \
                SIDE_AMBIENT + SIDE_LIT * max(0.0, normal[0] * sun[0] + normal[1] * sun[1])
            _fill(img, poly, s, _shade(colour, gain * lit))
    return img


__all__ = ["CubeCamera", "draw_cubes", "structure_side_px"]
