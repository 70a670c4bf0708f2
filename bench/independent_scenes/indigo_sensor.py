"""What the camera's sensor, lens and encoder do to the light of the Indigo table: the lamp's
colour left over after white balance, exposure, gamma and saturation errors, defocus and a
shake, radial distortion with lateral colour fringes, shot and read noise, and JPEG."""

from __future__ import annotations

import cv2
import numpy as np

from .camera import noise_and_jpeg
from .indigo_camera import Condition

DAYLIGHT_K = 6500.0


def lamp_gains(kelvin: float) -> np.ndarray:
    """Per-channel (BGR) gains of a lamp of ``kelvin`` against daylight: a rough fit of a black
    body's colour, warm lamps strong in red and weak in blue."""
    warmth = (DAYLIGHT_K - kelvin) / 3500.0          # +1 at 3000 K, about -0.29 at 7500 K
    return np.array([1 - 0.42 * warmth, 1 - 0.1 * warmth, 1 + 0.3 * warmth], np.float32)


def _tone(image: np.ndarray, cond: Condition, rng: np.random.Generator) -> np.ndarray:
    gains = lamp_gains(rng.uniform(*cond.temperature_k))
    # auto white balance takes most of the cast out, never all of it
    gains = gains ** (1 - rng.uniform(*cond.white_balance))
    image = image * (gains / gains.mean() * rng.uniform(*cond.exposure))
    image = 255 * (np.clip(image, 0, 255) / 255) ** rng.uniform(*cond.gamma)
    grey = image.mean(axis=2, keepdims=True)
    return grey + (image - grey) * rng.uniform(*cond.saturation)


def _blur(image: np.ndarray, cond: Condition, rng: np.random.Generator) -> np.ndarray:
    per_1000 = image.shape[1] / 1000.0
    image = cv2.GaussianBlur(image, (0, 0), rng.uniform(*cond.defocus) * per_1000)
    if rng.random() < cond.motion:
        length = max(2, int(rng.uniform(2, cond.motion_px) * per_1000))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0
        turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2),
                                       rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, turn, (length, length))
        image = cv2.filter2D(image, -1, kernel / max(float(kernel.sum()), 1e-6))
    return image


def _lens(image: np.ndarray, cond: Condition, rng: np.random.Generator) -> np.ndarray:
    """Barrel (k > 0) or pincushion (k < 0) distortion; red and blue scaled a little apart."""
    h, w = image.shape[:2]
    k = rng.uniform(-cond.lens_k, cond.lens_k)
    fringe = rng.uniform(-cond.fringe, cond.fringe)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy, norm = w / 2, h / 2, float(np.hypot(w / 2, h / 2))
    r2 = ((xs - cx) ** 2 + (ys - cy) ** 2) / norm ** 2
    out = np.empty_like(image)
    for channel, extra in ((0, -fringe), (1, 0.0), (2, fringe)):
        stretch = (1 + k * r2 + extra).astype(np.float32)
        out[..., channel] = cv2.remap(image[..., channel], (cx + (xs - cx) * stretch),
                                      (cy + (ys - cy) * stretch), cv2.INTER_LINEAR,
                                      borderMode=cv2.BORDER_REFLECT)
    return out


def expose(image: np.ndarray, cond: Condition, rng: np.random.Generator) -> np.ndarray:
    """Light on the sensor (float BGR) to the JPEG frame the camera hands over (uint8 BGR)."""
    image = _tone(image, cond, rng)
    image = _blur(image.astype(np.float32), cond, rng)
    image = _lens(image, cond, rng)
    return noise_and_jpeg(image, rng, cond.shot_noise, cond.read_noise, cond.jpeg)
