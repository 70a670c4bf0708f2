"""A camera of our own over a table: a printed page lying on a table, photographed.

A pinhole camera some 40-60 cm above the table looks down with a little tilt; then the light
(a lamp off to one side, lens vignetting, glare), the sensor (colour cast, noise) and the
encoder (blur, JPEG) do what they do. Nothing here knows what is printed on the page.
"""

from __future__ import annotations

import cv2
import numpy as np

FRAME_SIZE = (2304, 1296)          # width, height of the Pi camera's stills mode
CAMERA_HEIGHT_MM = (380.0, 620.0)
TILT_DEG = 18.0                    # most the optical axis leans from straight down
ROLL_DEG = 4.0
PAGE_YAW_DEG = 7.0                 # how crooked the page lies on the table
PAGE_FILL = (0.62, 0.9)            # share of the frame's limiting side the page spans
JPEG_QUALITY = (70, 95)


def rotation(pitch: float, roll: float, yaw: float) -> np.ndarray:
    rx, ry, rz = np.radians([pitch, roll, yaw])
    cx, sx, cy, sy, cz, sz = np.cos(rx), np.sin(rx), np.cos(ry), np.sin(ry), np.cos(rz), np.sin(rz)
    about_x = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    about_y = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    about_z = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return about_z @ about_y @ about_x


def _project_page(page_size_mm: tuple[float, float], rng: np.random.Generator) -> np.ndarray:
    """Where the page's corners fall on the sensor (arbitrary units, before framing)."""
    w, h = page_size_mm
    corners = np.array([[-w / 2, -h / 2, 0], [w / 2, -h / 2, 0], [w / 2, h / 2, 0],
                        [-w / 2, h / 2, 0]], dtype=float)
    yaw = np.radians(rng.uniform(-PAGE_YAW_DEG, PAGE_YAW_DEG))
    turn = np.array([[np.cos(yaw), -np.sin(yaw), 0], [np.sin(yaw), np.cos(yaw), 0], [0, 0, 1]])
    corners = corners @ turn.T + np.array([*rng.uniform(-25, 25, 2), 0])
    # the camera looks down at the table from its height; image x follows the page's x and
    # image y the page's y when it looks straight down, then it is tilted and rolled
    rot = rotation(rng.uniform(-TILT_DEG, TILT_DEG), rng.uniform(-TILT_DEG / 2, TILT_DEG / 2),
                    rng.uniform(-ROLL_DEG, ROLL_DEG))
    height = rng.uniform(*CAMERA_HEIGHT_MM)
    towards = np.stack([corners[:, 0], corners[:, 1], height - corners[:, 2]], axis=1)
    in_camera = towards @ rot.T
    return in_camera[:, :2] / in_camera[:, 2:3]


def _frame_points(sensor: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Scale and shift the projected corners so the page fills part of the frame."""
    fw, fh = FRAME_SIZE
    lo, hi = sensor.min(axis=0), sensor.max(axis=0)
    scale = rng.uniform(*PAGE_FILL) * min(fw / (hi - lo)[0], fh / (hi - lo)[1])
    placed = (sensor - lo) * scale
    span = placed.max(axis=0)
    room = np.array([fw, fh]) - span
    offset = room * rng.uniform(0.2, 0.8, 2)
    return (placed + offset).astype(np.float32)


def table_texture(rng: np.random.Generator, base_bgr: np.ndarray | None = None) -> np.ndarray:
    """A wooden or cloth table top: a base colour (one of ours unless ``base_bgr``), slow
    blotches and a grain."""
    fw, fh = FRAME_SIZE
    base = np.array(rng.choice([[60, 95, 140], [45, 70, 105], [110, 110, 105], [150, 160, 170],
                                [40, 40, 45]]) if base_bgr is None else base_bgr,
                    dtype=np.float32)
    blotch = cv2.resize(rng.normal(0, 1, (6, 10)).astype(np.float32), (fw, fh),
                        interpolation=cv2.INTER_CUBIC)
    grain = cv2.resize(rng.normal(0, 1, (fh // 4, 12)).astype(np.float32), (fw, fh),
                       interpolation=cv2.INTER_LINEAR)
    shade = 1 + 0.08 * blotch + 0.06 * grain
    return np.clip(base[None, None, :] * shade[..., None], 0, 255).astype(np.float32)


def lighting_gain(rng: np.random.Generator) -> np.ndarray:
    """Uneven lamp light times lens vignetting, as a gain per pixel."""
    fw, fh = FRAME_SIZE
    ys, xs = np.mgrid[0:fh, 0:fw].astype(np.float32)
    lamp_x, lamp_y = rng.uniform(-0.3, 1.3) * fw, rng.uniform(-0.3, 1.3) * fh
    spread = rng.uniform(0.6, 1.4) * fw
    lamp = np.exp(-((xs - lamp_x) ** 2 + (ys - lamp_y) ** 2) / (2 * spread ** 2))
    falloff = rng.uniform(0.15, 0.45)        # how much darker the far side of the table is
    gain = (1 - falloff) + falloff * lamp
    radius2 = ((xs - fw / 2) ** 2 + (ys - fh / 2) ** 2) / ((fw / 2) ** 2 + (fh / 2) ** 2)
    vignetting = 1 - rng.uniform(0.1, 0.35) * radius2
    return (gain * vignetting * rng.uniform(0.85, 1.1)).astype(np.float32)


def add_glare(image: np.ndarray, rng: np.random.Generator, spots: int) -> None:
    """Add soft specular spots (a lamp reflected in glossy card or tiles)."""
    fh, fw = image.shape[:2]
    for _ in range(spots):
        cx, cy = rng.uniform(0.15, 0.85) * fw, rng.uniform(0.15, 0.85) * fh
        sx, sy = rng.uniform(15, 70), rng.uniform(15, 70)
        x0, x1 = int(max(cx - 4 * sx, 0)), int(min(cx + 4 * sx, fw))
        y0, y1 = int(max(cy - 4 * sy, 0)), int(min(cy + 4 * sy, fh))
        ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        spot = np.exp(-((xs - cx) ** 2 / (2 * sx ** 2) + (ys - cy) ** 2 / (2 * sy ** 2)))
        image[y0:y1, x0:x1] += rng.uniform(30, 110) * spot[..., None]


def noise_and_jpeg(image: np.ndarray, rng: np.random.Generator,
                   shot_noise: tuple[float, float], read_noise: tuple[float, float],
                   jpeg_quality: tuple[int, int]) -> np.ndarray:
    """The sensor's shot and read noise on light (float BGR), then the camera's JPEG: the
    frame it hands over (uint8 BGR)."""
    noise_sd = np.sqrt(rng.uniform(*shot_noise) * np.clip(image, 0, 255)
                       + rng.uniform(*read_noise) ** 2)
    image = image + rng.standard_normal(image.shape, dtype=np.float32) * noise_sd
    quality = int(rng.integers(jpeg_quality[0], jpeg_quality[1] + 1))
    ok, jpeg = cv2.imencode(".jpg", np.clip(image, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def _sensor(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Colour cast, optics blur, shot and read noise, then JPEG."""
    warm = rng.uniform(-0.12, 0.12)           # lamp colour temperature, blue-orange
    image *= np.array([1 - warm, 1 + rng.uniform(-0.04, 0.04), 1 + warm], dtype=np.float32)
    sigma = rng.uniform(0.4, 1.8)
    image = cv2.GaussianBlur(image, (0, 0), sigma)
    if rng.random() < 0.25:                   # a hand-held shake: a short motion streak
        length = int(rng.integers(3, 8))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5),
                                       rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, turn, (length, length))
        image = cv2.filter2D(image, -1, kernel / max(kernel.sum(), 1e-6))
    shot = rng.uniform(0.02, 0.25)
    read = rng.uniform(1.0, 4.0)
    noise_sd = np.sqrt(shot * np.clip(image, 0, 255) + read ** 2)
    image = image + rng.standard_normal(image.shape, dtype=np.float32) * noise_sd
    ok, jpeg = cv2.imencode(".jpg", np.clip(image, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(*JPEG_QUALITY))])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def photograph(page: np.ndarray, page_size_mm: tuple[float, float],
               rng: np.random.Generator, glare_spots: int | None = None,
               ) -> tuple[np.ndarray, np.ndarray]:
    """A photo of ``page`` lying on a table; returns the frame and the page-to-frame homography."""
    fw, fh = FRAME_SIZE
    corners = _frame_points(_project_page(page_size_mm, rng), rng)
    ph, pw = page.shape[:2]
    # shrink the page first so the warp does not alias its fine print
    shrink = min(1.0, 1.3 * float(np.linalg.norm(corners[1] - corners[0])) / pw)
    small = cv2.resize(page, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    src = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float32)
    warp = cv2.getPerspectiveTransform(src, corners)
    paper = cv2.warpPerspective(small.astype(np.float32), warp, (fw, fh), flags=cv2.INTER_LINEAR)
    cover = cv2.warpPerspective(np.ones((sh, sw), np.float32), warp, (fw, fh))[..., None]
    image = table_texture(rng) * (1 - cover) + paper * cover
    image *= lighting_gain(rng)[..., None]
    spots = int(rng.integers(0, 3)) if glare_spots is None else glare_spots
    add_glare(image, rng, spots)
    frame = _sensor(image, rng)
    page_to_frame = warp @ np.diag([sw / pw, sh / ph, 1.0])
    return frame, page_to_frame.astype(np.float64)
