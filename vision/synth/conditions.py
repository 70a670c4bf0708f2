"""Camera conditions past what a reader can read: for the picture check's tests and bench.

:mod:`vision.synth.effects` draws what a camera on an arm sees on a usable day; these turn a
finished frame into what a poor camera or a poor room gives: no colour, too much or too little
light, strong sensor noise, a lost focus. Each takes a strength in 0..1 (0 mild, 1 the worst
this module draws) and a seeded generator.

>>> import numpy as np
>>> frame = np.full((8, 8, 3), (40, 120, 200), np.uint8)
>>> out = apply_condition(frame, "grayscale", 1.0, np.random.default_rng(0))
>>> bool((out[..., 0] == out[..., 2]).all())
True
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

Condition = Callable[[np.ndarray, float, np.random.Generator], np.ndarray]


def _to_uint8(image: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.clip(np.rint(image), 0, 255).astype(np.uint8)
    return out


def grayscale(frame: np.ndarray, strength: float, rng: np.random.Generator) -> np.ndarray:
    """A monochrome sensor: the same grey in every channel."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    return np.repeat(gray[..., None], 3, axis=2)


def infrared(frame: np.ndarray, strength: float, rng: np.random.Generator) -> np.ndarray:
    """A NoIR camera in infrared light: one brightness, seen through a pink or green tint."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
    tint = np.array([1.0, 0.7, 1.05]) if rng.random() < 0.7 else np.array([0.85, 1.05, 0.8])
    tint = 1.0 + (tint - 1.0) * (0.5 + 0.5 * strength)
    return _to_uint8(gray[..., None] * tint[None, None, :])


def overexposed(frame: np.ndarray, strength: float, rng: np.random.Generator) -> np.ndarray:
    """Too much light or too long an exposure: everything brighter, the light parts clipped."""
    gain = 1.3 + 1.7 * strength * rng.uniform(0.8, 1.0)
    return _to_uint8(frame.astype(np.float32) * gain + 10.0 * strength)


def underexposed(frame: np.ndarray, strength: float, rng: np.random.Generator) -> np.ndarray:
    """Too little light and no gain: a dark, flat frame with the read noise of the sensor."""
    gain = 0.5 - 0.42 * strength * rng.uniform(0.8, 1.0)
    dark = frame.astype(np.float32) * gain
    return _to_uint8(dark + rng.normal(0.0, 1.5, frame.shape))


def dim_room(frame: np.ndarray, strength: float, rng: np.random.Generator) -> np.ndarray:
    """A dim room at high gain: the brightness is kept, the noise is amplified (sigma 10-35)."""
    sigma = 10.0 + 25.0 * strength * rng.uniform(0.8, 1.0)
    luma_noise = rng.normal(0.0, sigma, frame.shape[:2])[..., None]
    chroma_noise = rng.normal(0.0, sigma * 0.5, frame.shape)
    return _to_uint8(frame.astype(np.float32) + luma_noise + chroma_noise)


def out_of_focus(frame: np.ndarray, strength: float, rng: np.random.Generator) -> np.ndarray:
    """Focus lost on the board: a wide lens blur."""
    radius = 3 + int(round(9 * strength))
    kernel = np.zeros((2 * radius + 1, 2 * radius + 1), np.float32)
    cv2.circle(kernel, (radius, radius), radius, 1.0, -1)
    return cv2.filter2D(frame, -1, kernel / kernel.sum())


CONDITIONS: dict[str, Condition] = {
    "grayscale": grayscale,
    "infrared": infrared,
    "overexposed": overexposed,
    "underexposed": underexposed,
    "dim_room": dim_room,
    "out_of_focus": out_of_focus,
}


def apply_condition(frame: np.ndarray, name: str, strength: float,
                    rng: np.random.Generator) -> np.ndarray:
    """``frame`` as the condition ``name`` makes it (``strength`` 0..1)."""
    if name not in CONDITIONS:
        raise ValueError(f"unknown condition {name!r}; known: {', '.join(CONDITIONS)}")
    return CONDITIONS[name](frame, float(strength), rng)
