"""A camera of our own over a whole table with pieces that stand up from it.

Unlike :func:`camera.photograph` (a flat page), the things on this table have height: tiles a
few mm thick show a side, pawns stand up and lean away from the camera's foot. So this is a
pinhole camera in three dimensions: table coordinates in mm, X east, Y south and Z pointing
down into the table (a right-handed frame), the camera some 0.8-1.2 m above the table.

Two camera conditions: ``clean`` (a steady arm, even light, a good sensor) and ``harsh`` (a
tilted arm, a lamp to one side and its glare, a hand's shadow, a colour cast, a soft lens with
barrel distortion, a noisy sensor and strong JPEG).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .camera import FRAME_SIZE, add_glare, noise_and_jpeg

AA_SUPERSAMPLE = 4                 # polygons are filled at this scale, then averaged down


@dataclass(frozen=True)
class Condition:
    """How one kind of photo is taken: ranges drawn from per photo."""

    name: str
    tilt_deg: float                # most the optical axis leans from straight down
    roll_deg: float                # most the picture is turned against the table
    height_mm: tuple[float, float]
    fill: tuple[float, float]      # share of the frame's height the marker frame spans
    light_falloff: tuple[float, float]   # how much darker the far side of the table is
    vignetting: tuple[float, float]
    glare_spots: tuple[int, int]   # at least, at most (inclusive)
    hand_shadow: float             # chance of a hand's shadow across the table
    cast: float                    # most colour temperature shift, blue to orange
    blur_sigma: tuple[float, float]
    shot_noise: tuple[float, float]
    read_noise: tuple[float, float]
    jpeg_quality: tuple[int, int]
    barrel: float                  # most radial lens distortion (k1), either sign
    exposure: tuple[float, float]  # the gain on the whole picture; a clean shot burns nothing


CLEAN = Condition("clean", tilt_deg=6.0, roll_deg=3.0, height_mm=(900.0, 1100.0),
                  fill=(0.86, 0.94), light_falloff=(0.05, 0.15), vignetting=(0.05, 0.12),
                  glare_spots=(0, 0), hand_shadow=0.0, cast=0.04, blur_sigma=(0.4, 0.8),
                  shot_noise=(0.02, 0.06), read_noise=(0.8, 1.5), jpeg_quality=(88, 95),
                  barrel=0.0, exposure=(0.88, 0.99))
HARSH = Condition("harsh", tilt_deg=20.0, roll_deg=6.0, height_mm=(800.0, 1200.0),
                  fill=(0.8, 0.95), light_falloff=(0.25, 0.45), vignetting=(0.15, 0.3),
                  glare_spots=(1, 3), hand_shadow=0.6, cast=0.12, blur_sigma=(0.9, 1.6),
                  shot_noise=(0.1, 0.25), read_noise=(2.0, 4.0), jpeg_quality=(65, 80),
                  barrel=0.04, exposure=(0.85, 1.08))
CONDITIONS = {c.name: c for c in (CLEAN, HARSH)}


def _look_at(forward: np.ndarray, turn_rad: float) -> np.ndarray:
    """Rows: the camera's x (image right), y (image down) and z (forward) in table axes,
    image down following the table's south, turned by ``turn_rad`` about the axis."""
    z = forward / np.linalg.norm(forward)
    x = np.cross(np.array([0.0, 1.0, 0.0]), z)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    c, s = np.cos(turn_rad), np.sin(turn_rad)
    return np.stack([c * x + s * y, -s * x + c * y, z])


class TableCamera:
    """A pinhole camera posed over the table so the ``view_mm`` box fills the frame."""

    def __init__(self, rng: np.random.Generator, condition: Condition,
                 view_mm: tuple[float, float, float, float]):
        left, top, right, bottom = view_mm
        height = rng.uniform(*condition.height_mm)
        tilt = np.radians(rng.uniform(0, condition.tilt_deg))
        towards = rng.uniform(0, 2 * np.pi)
        target = np.array([rng.uniform(-30, 30), rng.uniform(-30, 30), 0.0])
        lean = height * np.tan(tilt)
        self.centre = target + np.array([lean * np.cos(towards), lean * np.sin(towards),
                                         -height])
        self.rotation = _look_at(target - self.centre,
                                 np.radians(rng.uniform(-condition.roll_deg,
                                                        condition.roll_deg)))
        self.intrinsics = np.eye(3)
        corners = np.array([[left, top, 0], [right, top, 0], [right, bottom, 0],
                            [left, bottom, 0]], float)
        sensor = self.project(corners)
        lo, hi = sensor.min(axis=0), sensor.max(axis=0)
        fw, fh = FRAME_SIZE
        scale = min(rng.uniform(*condition.fill) * fh / (hi - lo)[1], 0.97 * fw / (hi - lo)[0])
        room = np.array([fw, fh]) - (hi - lo) * scale
        offset = room * rng.uniform(0.35, 0.65, 2) - lo * scale
        self.intrinsics = np.array([[scale, 0, offset[0]], [0, scale, offset[1]], [0, 0, 1]])

    def project(self, points: np.ndarray) -> np.ndarray:
        """Frame pixels of table points (N x 3 mm; Z negative above the table)."""
        in_camera = (np.asarray(points, float) - self.centre) @ self.rotation.T
        pixels = in_camera @ self.intrinsics.T
        return pixels[:, :2] / pixels[:, 2:3]

    def plane_homography(self, height_mm: float) -> np.ndarray:
        """Table mm (X, Y) on the plane ``height_mm`` above the table -> frame pixels."""
        square = np.array([[0, 0], [100, 0], [100, 100], [0, 100]], float)
        lifted = np.column_stack([square, np.full(4, -height_mm)])
        return cv2.getPerspectiveTransform(square.astype(np.float32),
                                           self.project(lifted).astype(np.float32))


def fill_polygon(image: np.ndarray, points: np.ndarray, colour: np.ndarray | float,
                 opacity: float = 1.0) -> None:
    """Lay one colour over ``image`` (float, in place) inside a polygon of frame points,
    anti-aliased; ``image`` may be one channel (a mask) when ``colour`` is a number."""
    fh, fw = image.shape[:2]
    x0, y0 = np.floor(points.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(points.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, fw), min(y1, fh)
    if x1 <= x0 or y1 <= y0:
        return
    big = np.zeros(((y1 - y0) * AA_SUPERSAMPLE, (x1 - x0) * AA_SUPERSAMPLE), np.uint8)
    local = np.round((points - [x0, y0]) * AA_SUPERSAMPLE * 16).astype(np.int32)
    cv2.fillPoly(big, [local], 255, cv2.LINE_AA, shift=4)
    alpha = cv2.resize(big, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    alpha = alpha.astype(np.float32) * (opacity / 255)
    roi = image[y0:y1, x0:x1]
    if roi.ndim == 3:
        alpha = alpha[..., None]
    roi -= (roi - np.asarray(colour, np.float32)) * alpha


def warp_onto(image: np.ndarray, picture: np.ndarray, alpha: np.ndarray,
              to_frame: np.ndarray) -> None:
    """Lay ``picture`` (float BGR) over ``image`` where ``alpha`` (0..1) says, through the
    homography ``to_frame`` (picture pixels -> frame pixels); only its bounding box is warped."""
    fh, fw = image.shape[:2]
    h, w = alpha.shape
    corners = cv2.perspectiveTransform(
        np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64), to_frame)[0]
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 2, [fw, fh])
    if x1 <= x0 or y1 <= y0:
        return
    shifted = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float) @ to_frame
    size = (int(x1 - x0), int(y1 - y0))
    colour = cv2.warpPerspective(picture, shifted, size, flags=cv2.INTER_AREA
                                 if np.abs(np.linalg.det(to_frame[:2, :2])) < 1 else
                                 cv2.INTER_LINEAR)
    weight = cv2.warpPerspective(alpha, shifted, size, flags=cv2.INTER_LINEAR)[..., None]
    roi = image[y0:y1, x0:x1]
    roi -= (roi - colour) * weight


def _light(rng: np.random.Generator, condition: Condition) -> np.ndarray:
    """A lamp's fall-off across the frame times lens vignetting, as a gain per pixel."""
    fw, fh = FRAME_SIZE
    ys, xs = np.mgrid[0:fh, 0:fw].astype(np.float32)
    lamp_x, lamp_y = rng.uniform(-0.3, 1.3) * fw, rng.uniform(-0.3, 1.3) * fh
    spread = rng.uniform(0.7, 1.4) * fw
    lamp = np.exp(-((xs - lamp_x) ** 2 + (ys - lamp_y) ** 2) / (2 * spread ** 2))
    falloff = rng.uniform(*condition.light_falloff)
    radius2 = ((xs - fw / 2) ** 2 + (ys - fh / 2) ** 2) / ((fw / 2) ** 2 + (fh / 2) ** 2)
    vignetting = 1 - rng.uniform(*condition.vignetting) * radius2
    return ((1 - falloff + falloff * lamp) * vignetting * rng.uniform(*condition.exposure)
            ).astype(np.float32)


def _hand_shadow(image: np.ndarray, rng: np.random.Generator) -> None:
    """A player's hand and arm between the lamp and the table: a long soft dark patch
    reaching in from one edge of the frame."""
    fh, fw = image.shape[:2]
    mask = np.zeros((fh // 4, fw // 4), np.float32)
    edge = int(rng.integers(4))
    reach = rng.uniform(0.25, 0.5)
    along = rng.uniform(0.2, 0.8)
    h, w = mask.shape
    if edge in (0, 1):                  # from the top or the bottom
        x = along * w
        y_in, y_out = (0, reach * h) if edge == 0 else (h, h - reach * h)
        start, end = (x, y_in), (x + rng.uniform(-0.15, 0.15) * w, y_out)
    else:                               # from the left or the right
        y = along * h
        x_in, x_out = (0, reach * w) if edge == 2 else (w, w - reach * w)
        start, end = (x_in, y), (x_out, y + rng.uniform(-0.15, 0.15) * h)
    width = int(rng.uniform(0.05, 0.09) * w)
    cv2.line(mask, tuple(int(v) for v in start), tuple(int(v) for v in end), 1.0, width)
    cv2.circle(mask, tuple(int(v) for v in end), int(width * 0.9), 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(6, 14))
    depth = rng.uniform(0.3, 0.55)
    image *= (1 - depth * cv2.resize(mask, (fw, fh)))[..., None]


def _barrel(image: np.ndarray, k1: float) -> np.ndarray:
    fh, fw = image.shape[:2]
    ys, xs = np.mgrid[0:fh, 0:fw].astype(np.float32)
    nx, ny = (xs - fw / 2) / (fw / 2), (ys - fh / 2) / (fw / 2)
    gain = 1 + k1 * (nx * nx + ny * ny)
    return cv2.remap(image, nx * gain * (fw / 2) + fw / 2, ny * gain * (fw / 2) + fh / 2,
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def develop(scene: np.ndarray, rng: np.random.Generator, condition: Condition) -> np.ndarray:
    """What the light, lens, sensor and encoder make of the ideal scene (float BGR): the
    frame as the camera delivers it (uint8 BGR, through JPEG)."""
    image = scene * _light(rng, condition)[..., None]
    add_glare(image, rng, int(rng.integers(condition.glare_spots[0],
                                           condition.glare_spots[1] + 1)))
    if rng.random() < condition.hand_shadow:
        _hand_shadow(image, rng)
    warm = rng.uniform(-condition.cast, condition.cast)
    image *= np.array([1 - warm, 1 + rng.uniform(-0.03, 0.03), 1 + warm], np.float32)
    if condition.barrel:
        image = _barrel(image, rng.uniform(-condition.barrel, condition.barrel))
    image = cv2.GaussianBlur(image, (0, 0), rng.uniform(*condition.blur_sigma))
    return noise_and_jpeg(image, rng, condition.shot_noise, condition.read_noise,
                          condition.jpeg_quality)
