"""Our own table tops for the puzzle scenes: painted wood, felt and a patterned cloth.

Each is drawn straight in the frame (float BGR) from a few seeded numbers; nothing here knows
what lies on the table. Colours are ours, chosen as tables are: some close to a piece's colour
(green felt, a red-checked cloth), which a reader must live with.
"""

from __future__ import annotations

import cv2
import numpy as np

from .camera import FRAME_SIZE
from .tabletop_camera import TableCamera

SURFACES = ("painted wood", "felt", "cloth")
PAINTS = ([70, 110, 150], [150, 150, 140], [60, 60, 70], [120, 90, 60], [200, 205, 210])
FELTS = ([40, 100, 30], [90, 50, 25], [45, 45, 50], [40, 40, 110])
CLOTHS = (([220, 220, 225], [50, 50, 160]), ([225, 225, 225], [130, 80, 30]),
          ([170, 200, 215], [60, 90, 110]))


def _smooth_noise(rng, cells: tuple[int, int], size: tuple[int, int]) -> np.ndarray:
    return cv2.resize(rng.normal(0, 1, cells).astype(np.float32), size,
                      interpolation=cv2.INTER_CUBIC)


def _table_coords(camera: TableCamera) -> tuple[np.ndarray, np.ndarray]:
    """Table mm (X, Y) under every frame pixel, from the table plane's homography."""
    fw, fh = FRAME_SIZE
    to_table = np.linalg.inv(camera.plane_homography(0.0))
    ys, xs = np.mgrid[0:fh, 0:fw].astype(np.float32)
    w = to_table[2, 0] * xs + to_table[2, 1] * ys + to_table[2, 2]
    tx = (to_table[0, 0] * xs + to_table[0, 1] * ys + to_table[0, 2]) / w
    ty = (to_table[1, 0] * xs + to_table[1, 1] * ys + to_table[1, 2]) / w
    return tx, ty


def painted_wood(camera: TableCamera, rng) -> np.ndarray:
    """Planks 90-140 mm wide with dark seams, a painted colour, brush streaks along them."""
    fw, fh = FRAME_SIZE
    tx, ty = _table_coords(camera)
    turn = rng.uniform(0, np.pi)
    along = tx * np.cos(turn) + ty * np.sin(turn)
    across = -tx * np.sin(turn) + ty * np.cos(turn)
    plank = rng.uniform(90, 140)
    seam = np.abs(((across + rng.uniform(0, plank)) % plank) - plank / 2) > plank / 2 - 1.2
    streak = np.sin(across * rng.uniform(0.8, 1.6) + 3 * np.sin(along / 40.0)) * 0.03
    paint = np.array(PAINTS[int(rng.integers(len(PAINTS)))], np.float32) * rng.uniform(0.9, 1.1)
    shade = 1 + streak + 0.05 * _smooth_noise(rng, (5, 8), (fw, fh)) - 0.45 * seam
    return paint[None, None, :] * shade[..., None]


def felt(camera: TableCamera, rng) -> np.ndarray:
    """A card-table felt: one colour, fine fibres and a soft nap."""
    fw, fh = FRAME_SIZE
    colour = np.array(FELTS[int(rng.integers(len(FELTS)))], np.float32) * rng.uniform(0.85, 1.15)
    fibres = cv2.GaussianBlur(rng.normal(0, 1, (fh, fw)).astype(np.float32), (0, 0), 1.2)
    nap = _smooth_noise(rng, (8, 14), (fw, fh))
    return colour[None, None, :] * (1 + 0.10 * fibres + 0.04 * nap)[..., None]


def cloth(camera: TableCamera, rng) -> np.ndarray:
    """A woven cloth with a check (gingham) on the table's own lines, and folds."""
    fw, fh = FRAME_SIZE
    tx, ty = _table_coords(camera)
    ground, thread = (np.array(c, np.float32) for c in CLOTHS[int(rng.integers(len(CLOTHS)))])
    pitch = rng.uniform(12, 30)
    turn = rng.uniform(-0.3, 0.3)
    u = tx * np.cos(turn) + ty * np.sin(turn)
    v = -tx * np.sin(turn) + ty * np.cos(turn)
    band_u = (np.sin(u * 2 * np.pi / pitch) > 0).astype(np.float32)
    band_v = (np.sin(v * 2 * np.pi / pitch) > 0).astype(np.float32)
    share = (0.45 * band_u + 0.45 * band_v)[..., None]
    threads = np.sin(u * 2 * np.pi / 0.8) * np.sin(v * 2 * np.pi / 0.8)
    weave = 1 + 0.05 * threads[..., None]
    folds = 1 + 0.06 * _smooth_noise(rng, (4, 7), (fw, fh))[..., None]
    image = (ground * (1 - share) + thread * share) * weave * folds
    return cv2.GaussianBlur(image, (0, 0), 0.6)


def table_top(surface: str, camera: TableCamera, rng) -> np.ndarray:
    draw = {"painted wood": painted_wood, "felt": felt, "cloth": cloth}[surface]
    return np.clip(draw(camera, rng), 0, 255).astype(np.float32)
