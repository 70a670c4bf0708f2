"""The check of the picture itself, before any piece is read: shared by every reader.

A reader compares what it sees with its art pack; a picture that carries too little of the
scene (burnt-out highlights, a dark and noisy room, a grayscale or infrared camera, a board out
of focus) makes every comparison unreliable, whatever the pack. So each reader measures the
board region of its rectified image with :func:`measure_picture` and passes the measures to
:func:`check_picture`, which either refuses the frame (:class:`~vision.errors.FrameRefusedError`
with one line naming the cause and what to do) or returns a *quality* in 0..1: 1 for a picture
comfortably inside every limit, falling to 0 as one measure nears its limit. Readers lower their
confidences by :func:`confidence_factor` of that quality, so a frame that only just passes is
asked about rather than applied.

>>> import numpy as np
>>> flat_grey = np.full((64, 64, 3), 128, np.uint8)
>>> measure_picture(flat_grey).contrast
0.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from config.schema import Config, PictureConfig
from vision.errors import FrameRefusedError

#: a channel at or above this is clipped (burnt out); at or below ``DARK_LEVEL``, crushed
CLIPPED_LEVEL = 250
DARK_LEVEL = 5
#: side of the square blocks the noise is estimated in (pixels of the measured image)
NOISE_BLOCK = 16
#: the share of the quietest blocks the noise is taken from: flat paper, tile bodies, felt
NOISE_QUIET_SHARE = 0.25
#: a frame whose pieces carry colour shows pixels at least this far from grey (Lab a*b*,
#: after a grey-world balance that takes out a uniform tint such as an infrared camera's)
COLOUR_PERCENTILE = 99.0
#: the confidences of a frame at its limits are scaled by this (``confidence_factor``)
LEAST_CONFIDENCE_FACTOR = 0.8

PictureSettings = PictureConfig


def default_picture_settings() -> PictureSettings:
    """The ``[vision.picture]`` limits of the built-in configuration."""
    return Config().vision.picture


@dataclass(frozen=True)
class PictureMeasures:
    """What the picture of the board region carries, whatever is on the board.

    ``clipped``/``crushed``: shares of pixels burnt out / crushed black; ``contrast``: the
    5th-95th percentile spread of grey levels (0..255); ``noise``: the sensor noise's standard
    deviation in grey levels, estimated on the quietest blocks; ``colour``: how far from grey
    the most colourful pixels are (Lab chroma); ``focus``: fine detail relative to contrast.
    """

    clipped: float
    crushed: float
    contrast: float
    noise: float
    colour: float
    focus: float


def _noise_sigma(image: np.ndarray) -> float:
    """Immerkaer's estimate of white noise per colour channel, on the quietest blocks only.

    The operator cancels smooth shading and straight edges, so on flat paper or a tile body
    it sees the noise alone; textured blocks (printing, pieces) answer high and are left out.
    """
    kernel = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)
    response = np.abs(cv2.filter2D(image.astype(np.float32), -1, kernel))[1:-1, 1:-1]
    response = response.mean(axis=2) if response.ndim == 3 else response
    rows, cols = response.shape[0] // NOISE_BLOCK, response.shape[1] // NOISE_BLOCK
    if rows == 0 or cols == 0:
        return float(math.sqrt(math.pi / 2) * response.mean() / 6) if response.size else 0.0
    blocks = response[: rows * NOISE_BLOCK, : cols * NOISE_BLOCK]
    blocks = blocks.reshape(rows, NOISE_BLOCK, cols, NOISE_BLOCK).mean(axis=(1, 3)).ravel()
    quiet = np.sort(blocks)[: max(1, int(len(blocks) * NOISE_QUIET_SHARE))]
    return float(math.sqrt(math.pi / 2) * quiet.mean() / 6)


def _colourfulness(image: np.ndarray) -> float:
    """The chroma of the most colourful pixels after a grey-world balance."""
    pixels = image.reshape(-1, 3).astype(np.float32)
    means = pixels.mean(axis=0)
    balanced = pixels * (means.mean() / np.maximum(means, 1.0))
    lab = cv2.cvtColor(np.clip(balanced, 0, 255).astype(np.uint8).reshape(-1, 1, 3),
                       cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    chroma = np.hypot(lab[:, 1] - 128.0, lab[:, 2] - 128.0)
    return float(np.percentile(chroma, COLOUR_PERCENTILE))


def _focus(gray: np.ndarray, contrast: float) -> float:
    """Fine detail at half size (which averages most sensor noise away) per unit of contrast."""
    half = cv2.resize(gray, (max(1, gray.shape[1] // 2), max(1, gray.shape[0] // 2)),
                      interpolation=cv2.INTER_AREA)
    detail = cv2.Laplacian(half.astype(np.float32), cv2.CV_32F)
    return float(np.percentile(np.abs(detail), 99.0) / max(contrast, 1.0))


def measure_picture(image: np.ndarray, mask: np.ndarray | None = None) -> PictureMeasures:
    """Measure the board region of a BGR image (``mask`` non-zero where the board is).

    The noise and focus are measured on the bounding box of the mask, the rest on the masked
    pixels only.
    """
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    box = image
    inside = image.reshape(-1, 3)
    if mask is not None:
        ys, xs = np.nonzero(mask)
        if len(ys) == 0:
            raise ValueError("measure_picture: the mask covers no pixel")
        box = image[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
        inside = image[mask.astype(bool)]
    gray_inside = cv2.cvtColor(inside.reshape(-1, 1, 3), cv2.COLOR_BGR2GRAY).ravel()
    low, high = np.percentile(gray_inside, (5.0, 95.0))
    contrast = float(high - low)
    gray_box = cv2.cvtColor(box, cv2.COLOR_BGR2GRAY)
    return PictureMeasures(
        clipped=float(np.mean(inside.max(axis=1) >= CLIPPED_LEVEL)),
        crushed=float(np.mean(inside.max(axis=1) <= DARK_LEVEL)),
        contrast=contrast,
        noise=_noise_sigma(box),
        colour=_colourfulness(inside.reshape(-1, 1, 3)),
        focus=_focus(gray_box, contrast),
    )


@dataclass(frozen=True)
class _Limit:
    """One measure's limit: the refusal's reason and words when it is passed."""

    reason: str
    cause: str
    remedy: str


_OVEREXPOSED = _Limit("overexposed", "too bright (the pieces are burnt out)",
                      "less light or a shorter exposure, and no lamp reflected in the board")
_TOO_DARK = _Limit("too-dark", "too dark", "more light")
_FLAT = _Limit("low-contrast", "too flat (no contrast over the board)",
               "more even light, and a clean lens")
_NOISY = _Limit("noisy", "too noisy", "more light, so the camera needs less gain")
_NO_COLOUR = _Limit("no-colour", "without colour (a grayscale or infrared camera)",
                    "a colour camera, or the infrared filter back in")
_OUT_OF_FOCUS = _Limit("blurred", "out of focus on the board", "refocus, or hold the camera still")


def _shortfalls(measures: PictureMeasures, limits: PictureSettings, *,
                needs_colour: bool) -> list[tuple[_Limit, float]]:
    """Each measure's headroom: 1 at the comfortable side of its band, 0 at the limit,
    negative past it."""
    band = limits.quality_band

    def above(value: float, limit: float) -> float:  # value must stay >= limit
        return (value - limit) / max(limit * band, 1e-9)

    def below(value: float, limit: float) -> float:  # value must stay <= limit
        return (limit - value) / max(limit * band, 1e-9)

    found = [
        (_OVEREXPOSED, below(measures.clipped, limits.max_clipped)),
        (_TOO_DARK, below(measures.crushed, limits.max_crushed)),
        (_FLAT, above(measures.contrast, limits.min_contrast)),
        (_NOISY, below(measures.noise, limits.max_noise)),
        (_OUT_OF_FOCUS, above(measures.focus, limits.min_focus)),
    ]
    if needs_colour:
        found.append((_NO_COLOUR, above(measures.colour, limits.min_colour)))
    return found


def check_picture(measures: PictureMeasures, limits: PictureSettings | None = None, *,
                  needs_colour: bool) -> float:
    """Refuse a picture that carries too little of the scene; else its quality in 0..1.

    ``needs_colour``: the reader tells pieces apart by colour (gems, power cells, tiles),
    so a picture without colour is refused. Every cause found is named, with what to do:

    >>> dark = PictureMeasures(clipped=0.0, crushed=0.4, contrast=20.0, noise=30.0,
    ...                        colour=40.0, focus=1.0)
    >>> check_picture(dark, needs_colour=True)
    Traceback (most recent call last):
    ...
    vision.errors.FrameRefusedError: frame refused: the picture is too dark, too flat (no \
contrast over the board) and too noisy: more light; more even light, and a clean lens; more \
light, so the camera needs less gain
    """
    limits = limits or default_picture_settings()
    headroom = _shortfalls(measures, limits, needs_colour=needs_colour)
    failed = [limit for limit, room in headroom if room < 0]
    if failed:
        causes = [limit.cause for limit in failed]
        said = causes[0] if len(causes) == 1 else ", ".join(causes[:-1]) + " and " + causes[-1]
        remedies = list(dict.fromkeys(limit.remedy for limit in failed))
        raise FrameRefusedError(f"the picture is {said}: {'; '.join(remedies)}",
                                reason=failed[0].reason)
    return float(min(1.0, min(room for _, room in headroom)))


def confidence_factor(quality: float) -> float:
    """What a reader multiplies its confidences by: 1 for a comfortable picture, down to
    :data:`LEAST_CONFIDENCE_FACTOR` (below the app's threshold) for one at its limits."""
    return LEAST_CONFIDENCE_FACTOR + (1.0 - LEAST_CONFIDENCE_FACTOR) * max(0.0, min(1.0, quality))
