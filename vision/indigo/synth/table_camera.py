"""A camera over a real Indigo table: pinhole geometry with piece heights, then light, lens,
sensor and file, each at a seeded strength (the renderer's harsh conditions, issue 20).

Unlike :mod:`vision.synth.effects`, which warps one flat scene, this camera projects each
layer of the table (the markers on the table, the board, the tile tops, the gems) through the
homography of its own height, so a tilted camera sees the pieces shifted against the marker
plane as a real one does (parallax). The frame-space conditions follow in physical order: a
lamp mirrored in the tiles' varnish (glare), a hand's shadow, a fingertip over a cell, uneven
light, barrel or pincushion distortion with lateral chromatic aberration, defocus and motion
blur, sensor noise, white balance (a colour temperature the camera only half corrects),
gamma and saturation errors, and JPEG.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Conditions:
    """The strength ranges of one set of table conditions."""

    name: str
    max_tilt_deg: float
    board_fill: tuple[float, float]  # the board's share of the frame height
    kelvin: tuple[float, float]
    gamma: tuple[float, float]
    saturation: tuple[float, float]
    jpeg_quality: tuple[int, int]
    defocus_px: float  # most disc-blur radius, at 1000 px frame width
    motion_px: float  # most motion-blur length, at 1000 px frame width
    lens_k1: tuple[float, float]
    chromatic: float  # most lateral chromatic aberration (relative scale of red vs blue)
    noise_sigma: tuple[float, float]
    glare_chance: float
    shadow_chance: float
    finger_chance: float
    light_depth: tuple[float, float]


MILD = Conditions(
    name="mild", max_tilt_deg=15.0, board_fill=(0.55, 0.9), kelvin=(4200.0, 6500.0),
    gamma=(0.95, 1.05), saturation=(0.9, 1.1), jpeg_quality=(75, 95), defocus_px=0.8,
    motion_px=2.0, lens_k1=(-0.04, 0.02), chromatic=0.0005, noise_sigma=(1.5, 4.0),
    glare_chance=0.3, shadow_chance=0.3, finger_chance=0.0, light_depth=(0.1, 0.3),
)
HARSH = Conditions(
    name="harsh", max_tilt_deg=25.0, board_fill=(0.4, 0.9), kelvin=(3000.0, 7500.0),
    gamma=(0.8, 1.25), saturation=(0.7, 1.3), jpeg_quality=(45, 90), defocus_px=2.5,
    motion_px=9.0, lens_k1=(-0.08, 0.05), chromatic=0.002, noise_sigma=(2.0, 8.0),
    glare_chance=0.7, shadow_chance=0.6, finger_chance=0.3, light_depth=(0.2, 0.5),
)
#: a teach photo: taken with care, straight over the pieces, in good light
TEACH = Conditions(
    name="teach", max_tilt_deg=8.0, board_fill=(0.8, 0.9), kelvin=(4800.0, 6000.0),
    gamma=(1.0, 1.0), saturation=(1.0, 1.0), jpeg_quality=(90, 95), defocus_px=0.3,
    motion_px=0.5, lens_k1=(-0.01, 0.01), chromatic=0.0, noise_sigma=(1.0, 2.0),
    glare_chance=0.0, shadow_chance=0.0, finger_chance=0.0, light_depth=(0.05, 0.1),
)
CONDITIONS = {c.name: c for c in (MILD, HARSH, TEACH)}

#: the camera's focal length as a share of the frame width (a Pi camera: about 62 degrees
#: across)
FOCAL_SHARE = 0.83
#: the camera's white balance corrects this share of a lamp's colour (the rest stays a cast)
WB_UNCORRECTED = 0.5
#: a neutral light's colour temperature, K
NEUTRAL_K = 5500.0


@dataclass(frozen=True)
class Pose:
    """A camera looking at the table: intrinsics, rotation (world -> camera) and centre."""

    k: np.ndarray
    r: np.ndarray
    centre: np.ndarray

    def plane_homography(self, height_mm: float) -> np.ndarray:
        """Marker-frame mm (x, y) at ``height_mm`` above the table -> frame pixels.

        World axes: x right, y down the table, z into the table (so a height is -z).
        """
        r = self.r
        t = -r @ self.centre
        m = np.column_stack([r[:, 0], r[:, 1], -height_mm * r[:, 2] + t])
        h: np.ndarray = self.k @ m
        scaled: np.ndarray = h / float(h[2, 2])
        return scaled


def _rotation(tilt_deg: float, tilt_dir_deg: float, spin_deg: float) -> np.ndarray:
    spin = math.radians(spin_deg)
    rz = np.array([[math.cos(spin), -math.sin(spin), 0], [math.sin(spin), math.cos(spin), 0],
                   [0, 0, 1]])
    d, t = math.radians(tilt_dir_deg), math.radians(tilt_deg)
    axis = np.array([math.cos(d), math.sin(d), 0.0])
    kx = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    tilt = np.eye(3) + math.sin(t) * kx + (1 - math.cos(t)) * (kx @ kx)
    rotation: np.ndarray = tilt @ rz
    return rotation


def choose_pose(
    rng: np.random.Generator,
    conditions: Conditions,
    frame_size: tuple[int, int],
    target_mm: tuple[float, float],
    board_across_mm: float,
    keep_in_view_mm: np.ndarray,
) -> tuple[Pose, dict[str, float]]:
    """A seeded camera pose: tilted, turned any way, the board filling part of the frame
    height; moved back until every point of ``keep_in_view_mm`` (the markers) is seen."""
    fw, fh = frame_size
    f = FOCAL_SHARE * fw
    k = np.array([[f, 0, fw / 2], [0, f, fh / 2], [0, 0, 1]], np.float64)
    tilt = float(rng.uniform(0, conditions.max_tilt_deg))
    r = _rotation(tilt, float(rng.uniform(0, 360)), float(rng.uniform(0, 360)))
    fill = float(rng.uniform(*conditions.board_fill))
    distance = f * board_across_mm / (fill * fh)
    target = np.array([*target_mm, 0.0])
    axis = r.T @ np.array([0.0, 0.0, 1.0])
    pts = np.column_stack([keep_in_view_mm, np.ones(len(keep_in_view_mm))])
    for _ in range(40):
        pose = Pose(k, r, target - distance * axis)
        xy = cv2.perspectiveTransform(pts[:, None, :2].astype(np.float64),
                                      pose.plane_homography(0.0)).reshape(-1, 2)
        margin = 0.02 * fh
        if (xy.min(axis=0) >= margin).all() and (xy[:, 0] <= fw - margin).all() and (
            xy[:, 1] <= fh - margin
        ).all():
            break
        distance *= 1.05
    return pose, {"tilt": round(tilt, 1), "fill": round(f * board_across_mm / distance / fh, 2)}


def warp_layer(
    frame: np.ndarray, colour: np.ndarray, alpha: np.ndarray | None, h: np.ndarray
) -> np.ndarray:
    """``colour`` (over ``alpha``, or opaque) warped by ``h`` and laid over ``frame``."""
    size = (frame.shape[1], frame.shape[0])
    warped = cv2.warpPerspective(colour, h, size, flags=cv2.INTER_AREA,
                                 borderMode=cv2.BORDER_REPLICATE)
    if alpha is None:
        return warped
    a = cv2.warpPerspective(alpha, h, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    out = frame.astype(np.float32) * (1 - a[..., None]) + warped.astype(np.float32) * a[..., None]
    laid: np.ndarray = out.astype(np.uint8)
    return laid


# ---------------------------------------------------------------- frame-space conditions


#: a lamp's reflection adds up to this much light (in 8-bit units) on top of the print: far
#: more than white, so it clips at the sensor after the lens has blurred it
GLARE_RADIANCE = 900.0


def add_glare(image: np.ndarray, rng: np.random.Generator, at: list[tuple[float, float]],
              size_px: float) -> np.ndarray:
    """A lamp mirrored in the varnish: soft patches of added light, as float32 radiance (not
    clipped: the sensor clips it later, after the blur)."""
    h, w = image.shape[:2]
    glow = np.zeros((h, w), np.float32)
    for x, y in at:
        axes = (float(rng.uniform(0.3, 0.8) * size_px), float(rng.uniform(0.15, 0.45) * size_px))
        x += float(rng.uniform(-0.4, 0.4)) * size_px
        y += float(rng.uniform(-0.4, 0.4)) * size_px
        cv2.ellipse(glow, ((x, y), (2 * axes[0], 2 * axes[1]), float(rng.uniform(0, 180))),
                    float(rng.uniform(0.6, 1.0)), -1)
    glow = np.asarray(cv2.GaussianBlur(glow, (0, 0), max(1.0, 0.2 * size_px)), np.float32)
    radiance: np.ndarray = image.astype(np.float32) + (glow * GLARE_RADIANCE)[..., None]
    return radiance


def add_hand_shadow(image: np.ndarray, rng: np.random.Generator) -> None:
    """A hand and forearm's soft shadow reaching in from one side, in place."""
    h, w = image.shape[:2]
    small = np.zeros((h // 8, w // 8), np.float32)
    sh, sw = small.shape
    side = float(rng.uniform(0, 2 * math.pi))
    start = (sw / 2 + math.cos(side) * sw, sh / 2 + math.sin(side) * sh)
    reach = float(rng.uniform(0.3, 0.7))
    end = (sw / 2 + math.cos(side) * sw * (1 - reach - 0.3),
           sh / 2 + math.sin(side) * sh * (1 - reach - 0.3))
    width = int(rng.uniform(0.08, 0.16) * sh)
    cv2.line(small, (int(start[0]), int(start[1])), (int(end[0]), int(end[1])), 1.0, width)
    cv2.circle(small, (int(end[0]), int(end[1])), int(width * 1.2), 1.0, -1)
    small = np.asarray(cv2.GaussianBlur(small, (0, 0), max(1.0, width * 0.5)), np.float32)
    depth = float(rng.uniform(0.3, 0.55))
    gain = 1 - depth * cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    image[:] = np.clip(image.astype(np.float32) * gain[..., None], 0, 255).astype(np.uint8)


#: skin tones (BGR) a fingertip is drawn in
SKIN = ((120, 150, 205), (90, 120, 170), (60, 85, 125), (150, 180, 225))


def add_fingertip(image: np.ndarray, rng: np.random.Generator, tip: tuple[float, float],
                  width_px: float) -> None:
    """A finger pointing at a cell: a rounded skin-coloured bar from outside to ``tip``."""
    h, w = image.shape[:2]
    angle = float(rng.uniform(0, 2 * math.pi))
    length = 6 * width_px
    base = (tip[0] + math.cos(angle) * length, tip[1] + math.sin(angle) * length)
    skin = SKIN[int(rng.integers(len(SKIN)))]
    mask = np.zeros((h, w), np.uint8)
    cv2.line(mask, (int(tip[0]), int(tip[1])), (int(base[0]), int(base[1])), 255,
             int(width_px))
    cv2.circle(mask, (int(tip[0]), int(tip[1])), int(width_px / 2), 255, -1)
    soft = cv2.GaussianBlur(mask, (0, 0), max(1.0, width_px * 0.08)).astype(np.float32) / 255
    shade = np.array(skin, np.float32) * float(rng.uniform(0.8, 1.1))
    out = image.astype(np.float32) * (1 - soft[..., None]) + shade * soft[..., None]
    image[:] = np.clip(out, 0, 255).astype(np.uint8)


def add_uneven_light(image: np.ndarray, rng: np.random.Generator, depth: float) -> None:
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:32, 0:32].astype(np.float32) / 32
    a = float(rng.uniform(0, 2 * math.pi))
    field = 1 + depth * ((xx - 0.5) * math.cos(a) + (yy - 0.5) * math.sin(a))
    field = field - 0.8 * depth * ((xx - 0.5) ** 2 + (yy - 0.5) ** 2)
    gain = cv2.resize(field / field.max(), (w, h), interpolation=cv2.INTER_LINEAR)
    image[:] = np.clip(image.astype(np.float32) * gain[..., None], 0, 255).astype(np.uint8)


def lens_and_aberration(image: np.ndarray, k1: float, chromatic: float) -> np.ndarray:
    """Radial distortion, with the red and blue channels scaled apart (lateral CA); works on
    8-bit or float radiance alike."""
    h, w = image.shape[:2]
    norm = max(w, h) / 2
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = (xx - w / 2) / norm, (yy - h / 2) / norm
    rd2 = dx * dx + dy * dy
    # the source of each output pixel: one fixed-point step of the inverse distortion
    scale = 1 / (1 + k1 * rd2 / (1 + k1 * rd2) ** 2)
    out = np.empty_like(image)
    for channel, ca in ((0, -chromatic), (1, 0.0), (2, chromatic)):
        s = scale * (1 + ca)
        mx = (w / 2 + dx * s * norm).astype(np.float32)
        my = (h / 2 + dy * s * norm).astype(np.float32)
        out[..., channel] = cv2.remap(image[..., channel], mx, my, cv2.INTER_LINEAR,
                                      borderMode=cv2.BORDER_REPLICATE)
    return out


def blur(image: np.ndarray, rng: np.random.Generator, c: Conditions) -> tuple[np.ndarray, dict]:  # type: ignore[type-arg]
    """Defocus (disc) and motion (line) blur at seeded strengths scaled to the frame."""
    per = image.shape[1] / 1000
    radius = float(rng.uniform(0, c.defocus_px)) * per
    length = float(rng.uniform(0, c.motion_px)) * per
    if radius >= 0.5:
        r = int(math.ceil(radius))
        kernel = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
        cv2.circle(kernel, (r, r), max(1, int(round(radius))), 1.0, -1)
        image = cv2.filter2D(image, -1, kernel / kernel.sum())
    if length >= 1:
        n = int(math.ceil(length / 2))
        kernel = np.zeros((2 * n + 1, 2 * n + 1), np.float32)
        a = float(rng.uniform(0, math.pi))
        dx, dy = math.cos(a) * length / 2, math.sin(a) * length / 2
        cv2.line(kernel, (round(n - dx), round(n - dy)), (round(n + dx), round(n + dy)), 1.0, 1)
        image = cv2.filter2D(image, -1, kernel / kernel.sum())
    return image, {"defocus": round(radius / per, 2), "motion": round(length / per, 2)}


def kelvin_rgb(kelvin: float) -> np.ndarray:
    """An approximate colour of a black body at ``kelvin`` (R, G, B in 0..1)."""
    t = kelvin / 100
    r = 1.0 if t <= 66 else min(1.0, 1.292936 * (t - 60) ** -0.1332047)
    g = (0.39008 * math.log(t) - 0.631841) if t <= 66 else 1.129891 * (t - 60) ** -0.0755148
    b = 1.0 if t >= 66 else (0.0 if t <= 19 else 0.543207 * math.log(t - 10) - 1.196254)
    colour: np.ndarray = np.clip(np.array([r, g, b]), 0.05, 1.0)
    return colour


def sensor_and_file(
    image: np.ndarray, rng: np.random.Generator, c: Conditions
) -> tuple[np.ndarray, dict]:  # type: ignore[type-arg]
    """Noise, a lamp's colour half corrected, gamma and saturation errors, then JPEG."""
    img = image.astype(np.float32)
    sigma = float(rng.uniform(*c.noise_sigma))
    img += rng.standard_normal(img.shape, dtype=np.float32) * np.sqrt(sigma**2 + 0.04 * img)
    kelvin = float(rng.uniform(*c.kelvin))
    cast = kelvin_rgb(kelvin) / kelvin_rgb(NEUTRAL_K)
    # gains of at least 1, as a camera applies them to its raw values: what the sensor
    # clipped (a lamp's reflection) stays white
    gains = (cast / cast.min()) ** WB_UNCORRECTED
    img *= gains[::-1][None, None, :].astype(np.float32)
    gamma = float(rng.uniform(*c.gamma))
    img = (255 * (np.clip(img, 0, 255) / 255) ** gamma).astype(np.float32)
    sat = float(rng.uniform(*c.saturation))
    grey = img.mean(axis=2, keepdims=True)
    img = grey + (img - grey) * sat
    out = np.clip(img, 0, 255).astype(np.uint8)
    quality = int(rng.integers(c.jpeg_quality[0], c.jpeg_quality[1] + 1))
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if ok:
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
        if decoded is not None:
            out = decoded
    return out, {"noise": round(sigma, 1), "kelvin": round(kelvin), "gamma": round(gamma, 2),
                 "saturation": round(sat, 2), "jpeg": quality}
