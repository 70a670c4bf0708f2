"""A drawn sheet as a phone photographs it, or as a flat-bed scanner scans it.

Conditions (:data:`CONDITIONS`):

- ``scan``: flat, 300 dots per inch, nearly straight, a little scanner noise;
- ``mild``: a phone over a wooden or cloth table, tilted up to 12 degrees, the paper a little
  curled, a faint shadow, a small colour cast, light noise, good JPEG;
- ``harsh``: tilted up to 25 degrees, the paper curled or bent, the soft shadow of a hand or
  phone over part of the sheet, a strong colour cast, noise and rough JPEG.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth.effects import camera_homography

CONDITIONS = ("scan", "mild", "harsh")
SCAN_PX_PER_MM = 300 / 25.4
PHOTO_PX_PER_MM = 5.0
PHOTO_FRAME = (1600, 1200)


@dataclass(frozen=True)
class Condition:
    """How strong each part of a photograph is, as ranges drawn from per picture."""

    tilt_deg: float
    curl: float                        # the lifted edge's rise, a share of the sheet's width
    shadow: tuple[float, float]        # darkness at the shadow's core
    cast: float                        # per-channel gain spread
    noise: tuple[float, float]         # read noise sigma
    jpeg: tuple[int, int]


PHOTO_CONDITIONS = {
    "mild": Condition(12.0, 0.015, (0.0, 0.15), 0.06, (1.0, 3.0), (80, 96)),
    "harsh": Condition(25.0, 0.04, (0.25, 0.55), 0.18, (3.0, 7.0), (55, 80)),
}


def table(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A wooden table (grain streaks) or a cloth (a fine weave), float BGR."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if rng.random() < 0.5:
        base = np.array([rng.uniform(40, 90), rng.uniform(80, 130), rng.uniform(120, 180)])
        turn = rng.uniform(-0.3, 0.3)
        u = yy * math.cos(turn) + xx * math.sin(turn)
        wave = np.sin(u / rng.uniform(3, 9) + 2.5 * np.sin(xx / rng.uniform(60, 200)))
        shade = 1 + 0.12 * wave + 0.05 * np.sin(u / 1.7)
    else:
        base = rng.uniform(50, 200, 3)
        period = rng.uniform(2.0, 4.0)
        shade = 1 + 0.08 * np.sin(xx / period) * np.sin(yy / period)
    out: np.ndarray = (base[None, None, :] * shade[..., None]).astype(np.float32)
    return out


def soft_shadow(shape: tuple[int, int], rng: np.random.Generator,
                darkness: tuple[float, float]) -> np.ndarray:
    """The gain (<= 1) under a hand's or phone's soft shadow reaching in from one side."""
    h, w = shape
    small_w = 96
    small_h = max(8, round(small_w * h / w))
    mask = np.zeros((small_h, small_w), np.float32)
    side = int(rng.integers(4))
    reach = rng.uniform(0.25, 0.6)
    centre = np.array([rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8)])
    centre[side % 2] = (reach - 0.5 if side < 2 else 1.5 - reach)
    axes = (rng.uniform(0.35, 0.7) * small_w, rng.uniform(0.2, 0.45) * small_h)
    cv2.ellipse(mask, ((float(centre[0] * small_w), float(centre[1] * small_h)),
                       (float(axes[0] * 2), float(axes[1] * 2)), float(rng.uniform(0, 180))),
                1.0, -1)
    blurred = cv2.GaussianBlur(mask, (0, 0), rng.uniform(3, 8))
    full = cv2.resize(blurred, (w, h), interpolation=cv2.INTER_LINEAR)
    gain: np.ndarray = 1 - full * rng.uniform(*darkness)
    return gain


def curl(sheet: np.ndarray, rng: np.random.Generator, amount: float) -> np.ndarray:
    """One edge of the paper lifted: the squares there lean away (squeezed, displaced) and the
    slope catches less light."""
    h, w = sheet.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    horizontal = rng.random() < 0.5
    u = (xx / w) if horizontal else (yy / h)
    if rng.random() < 0.5:
        u = 1 - u
    start = rng.uniform(0.4, 0.7)
    lift = np.clip((u - start) / (1 - start), 0, 1) ** 2 * amount * rng.uniform(0.5, 1.0)
    shift = lift * (w if horizontal else h)
    sideways = rng.uniform(-0.3, 0.3) * shift
    map_x = xx + (shift if horizontal else sideways)
    map_y = yy + (sideways if horizontal else shift)
    bent = cv2.remap(sheet, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    slope = np.gradient(lift, axis=1 if horizontal else 0) * (w if horizontal else h)
    light = 1 - np.clip(slope, 0, 1) * rng.uniform(0.1, 0.35)
    lit: np.ndarray = bent * light[..., None]
    return lit


def _sensor(image: np.ndarray, rng: np.random.Generator, cond: Condition) -> np.ndarray:
    gains = 1 + rng.uniform(-cond.cast, cond.cast, 3)
    image = image * (gains / gains.max() * rng.uniform(0.85, 1.05))
    image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.4, 1.2))
    sigma = np.sqrt(rng.uniform(*cond.noise) ** 2 + 0.04 * np.clip(image, 0, 255))
    image = image + rng.standard_normal(image.shape, dtype=np.float32) * sigma
    return _jpeg(np.clip(image, 0, 255).astype(np.uint8), int(rng.integers(*cond.jpeg)))


def _jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
    return image if decoded is None else decoded


def photograph(sheet: np.ndarray, condition: str, rng: np.random.Generator) -> np.ndarray:
    """The photographed (``mild``, ``harsh``) or scanned (``scan``) sheet, BGR uint8."""
    if condition == "scan":
        return scan(sheet, rng)
    cond = PHOTO_CONDITIONS[condition]
    paper = curl(sheet.astype(np.float32), rng, cond.curl)
    h, w = paper.shape[:2]
    pad_y, pad_x = int(h * 0.12), int(w * 0.18)
    scene = table((h + 2 * pad_y, w + 2 * pad_x), rng)
    scene[pad_y:pad_y + h, pad_x:pad_x + w] = paper
    scene *= soft_shadow(scene.shape[:2], rng, cond.shadow)[..., None]
    sh, sw = scene.shape[:2]
    homography = camera_homography((sw, sh), PHOTO_FRAME, tilt_deg=rng.uniform(0, cond.tilt_deg),
                                   tilt_dir_deg=rng.uniform(0, 360),
                                   spin_deg=rng.uniform(-15, 15), fill=rng.uniform(0.9, 1.05))
    frame = cv2.warpPerspective(scene, homography, PHOTO_FRAME, flags=cv2.INTER_AREA,
                                borderMode=cv2.BORDER_REPLICATE)
    return _sensor(frame, rng, cond)


def scan(sheet: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A flat-bed scan: the page nearly straight on the white lid, a little noise."""
    h, w = sheet.shape[:2]
    pad = int(0.02 * w)
    lid = np.full((h + 2 * pad, w + 2 * pad, 3), rng.uniform(235, 252), np.float32)
    lid[pad:pad + h, pad:pad + w] = sheet
    turn = cv2.getRotationMatrix2D((lid.shape[1] / 2, lid.shape[0] / 2), rng.uniform(-1.5, 1.5),
                                   1.0)
    lid = cv2.warpAffine(lid, turn, (lid.shape[1], lid.shape[0]), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
    noisy = lid + np.asarray(rng.normal(0, rng.uniform(0.5, 2.0), lid.shape), np.float32)
    return _jpeg(np.clip(noisy, 0, 255).astype(np.uint8), int(rng.integers(88, 97)))
