"""Solid puzzle pieces standing on the table or the card, drawn through our camera.

A piece is an upright prism: a footprint (table mm, X east, Y south), the height it stands on
and its own height. Its shadow falls away from the lamp; the sides the camera sees are shaded
by how they face the lamp; the top is a flat colour or a picture (a conduit piece's channel).
Weights are short metal cylinders with a darker turned rim and a lamp's highlight on the face.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .tabletop_camera import TableCamera, fill_polygon, warp_onto


@dataclass
class Solid:
    """One upright prism: footprint (N x 2 table mm, clockwise on the table), base and top
    heights (mm above the table), colours of its top and of its sides."""

    footprint: np.ndarray
    base: float
    height: float
    top: np.ndarray
    side: np.ndarray
    picture: tuple[np.ndarray, np.ndarray] | None = None   # (image, picture px -> table mm)
    rim: float = 0.0               # metal: share of the radius turned darker at the top edge
    shine: float = 0.0             # a lamp's highlight on the top face (0..1)
    extra: dict = field(default_factory=dict)

    @property
    def middle(self) -> np.ndarray:
        return np.append(self.footprint.mean(axis=0), -(self.base + self.height / 2))


def lifted(points_mm: np.ndarray, height: float) -> np.ndarray:
    return np.column_stack([points_mm, np.full(len(points_mm), -height)])


def disc(centre, radius: float, corners: int = 28) -> np.ndarray:
    turns = np.linspace(0, 2 * np.pi, corners, endpoint=False)
    return np.asarray(centre, float) + radius * np.column_stack([np.cos(turns), np.sin(turns)])


def cast_shadows(image: np.ndarray, camera: TableCamera, solids: list[Solid], lamp: np.ndarray,
                 depth: float) -> None:
    """Darken where the solids keep the lamp off whatever lies below them (soft)."""
    shadow = np.zeros(image.shape[:2], np.float32)
    for solid in solids:
        for step in np.linspace(0.0, 1.0, 5):
            moved = solid.footprint + lamp * (solid.height * step + 0.3)
            fill_polygon(shadow, camera.project(lifted(moved, solid.base)), 1.0)
    blur = 1.5 + 0.4 * max(s.height for s in solids) if solids else 1.5
    image *= (1 - depth * np.clip(cv2.GaussianBlur(shadow, (0, 0), blur), 0, 1))[..., None]


def _side_shade(outward: np.ndarray, lamp: np.ndarray) -> float:
    """Lambert-like shade of a vertical face: faces towards the lamp are lighter."""
    towards_lamp = -lamp / max(float(np.linalg.norm(lamp)), 1e-6)
    return 0.55 + 0.35 * float(np.clip(outward @ towards_lamp, -1, 1))


def draw_solid(image: np.ndarray, camera: TableCamera, solid: Solid, lamp: np.ndarray) -> None:
    """The sides the camera sees, then the top."""
    base = camera.project(lifted(solid.footprint, solid.base))
    top = camera.project(lifted(solid.footprint, solid.base + solid.height))
    eye = camera.centre[:2]
    n = len(solid.footprint)
    centroid = solid.footprint.mean(axis=0)
    for i in range(n):
        j = (i + 1) % n
        a, b = solid.footprint[i], solid.footprint[j]
        edge = b - a
        outward = np.array([edge[1], -edge[0]]) / max(float(np.linalg.norm(edge)), 1e-9)
        if outward @ ((a + b) / 2 - centroid) < 0:
            outward = -outward
        if outward @ (eye - (a + b) / 2) <= 0:
            continue                   # faces away from the camera
        quad = np.array([base[i], base[j], top[j], top[i]])
        fill_polygon(image, quad, solid.side * _side_shade(outward, lamp))
    if solid.picture is not None:
        picture, to_table = solid.picture
        h, w = picture.shape[:2]
        warp_onto(image, picture, np.ones((h, w), np.float32),
                  camera.plane_homography(solid.base + solid.height) @ to_table)
        return
    fill_polygon(image, top, solid.top)
    if solid.rim:
        middle = solid.footprint.mean(axis=0)
        inner = middle + (solid.footprint - middle) * (1 - solid.rim)
        face = camera.project(lifted(inner, solid.base + solid.height))
        fill_polygon(image, face, np.clip(solid.top * 1.28 + 8, 0, 255))
    if solid.shine:
        middle = solid.footprint.mean(axis=0)
        radius = float(np.linalg.norm(solid.footprint[0] - middle))
        spot = middle - lamp / max(float(np.linalg.norm(lamp)), 1e-6) * radius * 0.3
        fill_polygon(image, camera.project(lifted(disc(spot, radius * 0.28, 16),
                                                  solid.base + solid.height)),
                     np.full(3, 255.0), opacity=solid.shine)


def draw_solids(image: np.ndarray, camera: TableCamera, solids: list[Solid],
                lamp: np.ndarray) -> None:
    """Farthest from the camera first (a cube under another is farther than the one on it),
    so nearer pieces hide them."""
    def order(solid: Solid) -> float:
        return -float(np.linalg.norm(solid.middle - camera.centre))

    for solid in sorted(solids, key=order):
        draw_solid(image, camera, solid, lamp)


def weight(centre, rng: np.random.Generator, on: float, shine: float) -> Solid:
    """A metal weight: 5 mm across, 2.5-3.5 mm tall, lying where a hand put it."""
    metal = np.array([128, 126, 122], float) * rng.uniform(0.9, 1.1) + rng.uniform(-5, 5, 3)
    return Solid(disc(centre, rng.uniform(2.45, 2.55)), on, rng.uniform(2.5, 3.5),
                 top=metal * 0.72, side=metal * 0.8, rim=rng.uniform(0.18, 0.26),
                 shine=shine)


def turn_about(points: np.ndarray, middle: np.ndarray, degrees: float) -> np.ndarray:
    a = np.radians(degrees)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return (points - middle) @ rot.T + middle


CONDUIT_PIECE_MM = 14.2            # a card cell is 14.8 mm; the pieces leave a little play
CONDUIT_PX_PER_MM = 10.0
CHANNEL_MM, KNOB_MM = 3.2, 4.8


def conduit_top(openings: frozenset[str], rng: np.random.Generator) -> np.ndarray:
    """The face of a conduit piece: light wood, a brown channel from the middle to each
    opening, a round knob in the middle."""
    side = int(round(CONDUIT_PIECE_MM * CONDUIT_PX_PER_MM))
    wood = np.array([150, 190, 215], float) * rng.uniform(0.92, 1.05)
    face = np.empty((side, side, 3), np.float32)
    face[:] = wood
    grain = cv2.resize(rng.normal(0, 1, (side // 6, 3)).astype(np.float32), (side, side))
    face *= (1 + 0.04 * grain)[..., None]
    brown = (np.array([35, 80, 130], float) + rng.uniform(-8, 8, 3)).tolist()
    mid, half = side / 2, CHANNEL_MM * CONDUIT_PX_PER_MM / 2
    ends = {"N": (mid, 0), "S": (mid, side), "E": (side, mid), "W": (0, mid)}
    for opening in openings:
        x, y = ends[opening]
        x0, x1 = sorted((mid, x))
        y0, y1 = sorted((mid, y))
        cv2.rectangle(face, (int(x0 - half * (x0 == x1)), int(y0 - half * (y0 == y1))),
                      (int(x1 + half * (x0 == x1)), int(y1 + half * (y0 == y1))), brown, -1)
    cv2.circle(face, (int(mid), int(mid)), int(KNOB_MM * CONDUIT_PX_PER_MM / 2), brown, -1,
               cv2.LINE_AA)
    return face
