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
from numpy.lib.stride_tricks import sliding_window_view

from config.schema import Config, PictureConfig
from vision.errors import FrameRefusedError

#: a channel at or above this is clipped (burnt out); at or below ``DARK_LEVEL``, crushed
CLIPPED_LEVEL = 250
DARK_LEVEL = 5
#: side of the square blocks the noise is estimated in (pixels of the measured image)
NOISE_BLOCK = 16
#: the share of the quietest blocks the noise is taken from: flat paper, tile bodies, felt
NOISE_QUIET_SHARE = 0.25
#: how many blocks the noise is estimated on, at most
NOISE_BLOCKS = 400
#: how many of the region's pixels its levels and colours are measured on, at most
SAMPLED_PIXELS = 200_000
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
    the most colourful pixels are (Lab chroma; 0.0 where not measured, see
    :func:`measure_picture`); ``focus``: fine detail relative to contrast.
    """

    clipped: float
    crushed: float
    contrast: float
    noise: float
    colour: float
    focus: float


def noise_block_origins(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Top-left corners of up to :data:`NOISE_BLOCKS` blocks on a regular grid, each lying
    wholly inside ``mask``."""
    rows, cols = mask.shape
    side = NOISE_BLOCK + 2
    if rows < side or cols < side:
        return np.zeros(0, int), np.zeros(0, int)
    step = max(side, int(math.sqrt((rows - side) * (cols - side) / NOISE_BLOCKS)))
    grid_y, grid_x = np.meshgrid(np.arange(0, rows - side + 1, step),
                                 np.arange(0, cols - side + 1, step), indexing="ij")
    ys, xs = grid_y.ravel(), grid_x.ravel()
    inside = (mask[ys, xs] > 0) & (mask[ys + side - 1, xs + side - 1] > 0) \
        & (mask[ys, xs + side - 1] > 0) & (mask[ys + side - 1, xs] > 0)
    return ys[inside], xs[inside]


#: Immerkaer's noise operator, [1 -2 1] down times [1 -2 1] across, each channel on its own
#: (across, a pixel's neighbours in the same channel lie a whole pixel of channels away)
_IMMERKAER_DOWN = np.array([1, -2, 1], np.float32)


def _immerkaer_across(channels: int) -> np.ndarray:
    kernel = np.zeros(2 * channels + 1, np.float32)
    kernel[0], kernel[channels], kernel[-1] = 1, -2, 1
    return kernel


def noise_sigma(image: np.ndarray, mask: np.ndarray) -> float:
    """Immerkaer's estimate of white noise per colour channel, on the quietest blocks only.

    The operator cancels smooth shading and straight edges, so on flat paper or a tile body
    it sees the noise alone; textured blocks (printing, pieces) answer high and are left out.
    It needs the pixels as the sensor gave them, so it runs on whole-resolution blocks, a few
    hundred of them on a grid over the region.
    """
    ys, xs = noise_block_origins(mask)
    if len(ys) == 0:
        return 0.0
    side = NOISE_BLOCK + 2
    channels = image.shape[2] if image.ndim == 3 else 1
    # each block as side rows of interleaved channels, stacked: (blocks * side, side * channels)
    # (whole rows of bytes are copied, not single pixels), filtered straight from the bytes
    rows = image.reshape(image.shape[0], -1)
    blocks = sliding_window_view(rows, (side, side * channels))[ys, xs * channels]
    # the operator's sums are of whole numbers below 4096: exact in int16, in any order
    response = cv2.sepFilter2D(blocks.reshape(-1, side * channels), cv2.CV_16S,
                               _immerkaer_across(channels), _IMMERKAER_DOWN,
                               borderType=cv2.BORDER_REPLICATE)
    inner = response.reshape(len(ys), side, -1)[:, 1:-1, channels:-channels]
    sums = np.abs(inner).reshape(len(ys), -1).sum(axis=1, dtype=np.int64)
    # the float32 mean numpy gave of the float32 responses: their sum is exact (below 2**24),
    # the one division rounds alike
    per_block = sums.astype(np.float32) / np.float32(inner[0].size)
    quiet = np.sort(per_block)[: max(1, int(len(per_block) * NOISE_QUIET_SHARE))]
    return float(math.sqrt(math.pi / 2) * quiet.mean() / 6)


def _colourfulness(pixels: np.ndarray) -> float:
    """The chroma of the most colourful pixels (an (n, 3) BGR array) after a grey-world
    balance."""
    # cv2.mean sums the channels as numpy's mean does (exact integer sums over the count),
    # without numpy's slow reduction over a short last axis
    means = np.array(cv2.mean(pixels.reshape(-1, 1, 3))[:3])
    gains = (means.mean() / np.maximum(means, 1.0)).astype(np.float32)
    # the balance of every level of each channel, in float32 as a pixel's would be, looked up
    # per pixel: no float copy of the pixels
    levels = np.arange(256, dtype=np.float32)[:, None]
    balance = np.clip(levels * gains, 0, 255).astype(np.uint8).reshape(256, 1, 3)
    width = 512
    rows = -(-len(pixels) // width)
    padded = np.zeros((rows * width, 3), np.uint8)
    padded[: len(pixels)] = pixels
    balanced = cv2.LUT(padded.reshape(rows, width, 3), balance)
    lab = cv2.cvtColor(balanced, cv2.COLOR_BGR2LAB).reshape(-1, 3)[: len(pixels)]
    squares = (np.arange(256, dtype=np.int32) - 128) ** 2
    chroma2 = squares[lab[:, 1]] + squares[lab[:, 2]]
    k = min(len(chroma2) - 1, int(len(chroma2) * COLOUR_PERCENTILE / 100.0))
    # the k-th smallest, as np.partition gives it, from the histogram of the whole squares
    below = np.cumsum(np.bincount(chroma2))
    return float(math.sqrt(float(np.searchsorted(below, k, side="right"))))


def _focus(gray: np.ndarray, contrast: float) -> float:
    """Fine detail at half size (which averages most sensor noise away) per unit of contrast."""
    half = cv2.resize(gray, (max(1, gray.shape[1] // 2), max(1, gray.shape[0] // 2)),
                      interpolation=cv2.INTER_AREA)
    step = max(1, int(math.ceil(math.sqrt(half.size / SAMPLED_PIXELS))))
    wholes = laplacian_every_step(half, step) if step > 1 else \
        np.abs(cv2.Laplacian(half.astype(np.float32), cv2.CV_32F)).astype(np.int32).ravel()
    return float(np.float32(whole_percentiles(wholes, (99.0,))[0]) / max(contrast, 1.0))


def laplacian_every_step(gray: np.ndarray, step: int) -> np.ndarray:
    """``abs(cv2.Laplacian(gray))[::step, ::step]`` (OpenCV's 3 x 3 aperture, its default
    border), flattened as int32, computed at the kept pixels only (a scan's board keeps one
    pixel in nine). Exact: the Laplacian of whole grey levels is a whole number below 1021
    (its kernel's weights are whole too), the same in int32 as in OpenCV's float32."""
    rows, cols = gray.shape[:2]
    padded = cv2.copyMakeBorder(gray, 1, 1, 1, 1, cv2.BORDER_REFLECT_101)

    def kept(down: int, across: int) -> np.ndarray:
        return padded[1 + down: rows + 1 + down: step,
                      1 + across: cols + 1 + across: step].astype(np.int32)

    laplacian = kept(-1, 0) + kept(1, 0) + kept(0, -1) + kept(0, 1) - 4 * kept(0, 0)
    wholes: np.ndarray = np.abs(laplacian).ravel()
    return wholes


def _sample_step(shape: tuple[int, ...]) -> int:
    """Every how many rows and columns the region is sampled, so that at most
    :data:`SAMPLED_PIXELS` are kept (levels and colours need no more)."""
    return max(1, int(math.ceil(math.sqrt(shape[0] * shape[1] / SAMPLED_PIXELS))))


def every_step(image: np.ndarray, step: int) -> np.ndarray:
    """``image[::step, ::step]`` (contiguous for a step above 1): each kept pixel picked by
    OpenCV's nearest-pixel warp, whose whole-number map lands on it exactly, five times
    faster than numpy's copy of a strided view of three-channel pixels."""
    if step == 1 or image.size == 0:
        return image[::step, ::step]
    rows, cols = -(-image.shape[0] // step), -(-image.shape[1] // step)
    picks = np.array([[step, 0.0, 0.0], [0.0, step, 0.0]])
    kept = cv2.warpAffine(image, picks, (cols, rows),
                          flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP)
    # a single channel comes back as a plane
    return kept.reshape((rows, cols, *image.shape[2:]))


def whole_percentiles(values: np.ndarray, percents: tuple[float, ...]) -> list[float]:
    """``np.percentile(values, percents)`` of whole non-negative ``values`` (grey levels;
    linear method, the same arithmetic), from their histogram: no sort of the pixels, a
    tenth of the time."""
    below = np.cumsum(np.bincount(values))
    last = len(values) - 1
    found = []
    for percent in percents:
        virtual = np.true_divide(percent, 100) * last
        previous = int(np.floor(virtual))
        gamma = virtual - previous
        # the value at a sorted position: the first level with more values below it
        low = float(np.searchsorted(below, previous, side="right"))
        high = float(np.searchsorted(below, min(previous + 1, last), side="right"))
        diff = high - low
        found.append(high - diff * (1 - gamma) if gamma >= 0.5 else low + diff * gamma)
    return found


def measure_picture(image: np.ndarray, mask: np.ndarray | None = None, *,
                    colour: bool = True, gray: np.ndarray | None = None) -> PictureMeasures:
    """Measure the board region of a BGR image (``mask`` non-zero where the board is).

    Levels, contrast and colour are measured on the masked pixels, the noise on blocks wholly
    inside the mask, the focus on the mask's bounding box. ``colour=False``: for a reader
    that checks the picture with ``needs_colour=False``, the colour is not measured (0.0, as
    a grey picture's: refused were it ever asked for; 3-6 ms of a sheet's read). ``gray``: the
    image's grey (``cv2.COLOR_BGR2GRAY``), when the caller has it already (a reader that found
    its markers in the frame's grey): not converted twice.
    """
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if mask is None:
        mask = np.ones(image.shape[:2], np.uint8)
    # OpenCV bounds the non-zero pixels of an 8-bit plane: no full-size comparison for the
    # readers' uint8 masks, nor a pass of its own to find an empty one
    nonzero = mask.view(np.uint8) if mask.dtype in (np.uint8, np.bool_) else \
        (mask != 0).view(np.uint8)
    left, top, width, height = cv2.boundingRect(nonzero)
    if width == 0 or height == 0:
        raise ValueError("measure_picture: the mask covers no pixel")
    bottom, right = top + height, left + width
    box, box_mask = image[top:bottom, left:right], mask[top:bottom, left:right]
    # one grey conversion of the box, for the focus and, sampled, for the levels (a pixel's
    # grey is the same whichever array it is converted in); the sampled pixels' grey and
    # brightest channel are kept as planes, and only the colour needs the pixels themselves
    gray = cv2.cvtColor(box, cv2.COLOR_BGR2GRAY) if gray is None else \
        gray[top:bottom, left:right]
    step = _sample_step(box.shape)
    sampled_inside = (box_mask[::step, ::step] > 0).ravel()
    gray_inside = np.ascontiguousarray(gray[::step, ::step]).ravel()[sampled_inside]
    low, high = whole_percentiles(gray_inside, (5.0, 95.0))
    contrast = float(high - low)
    # numpy reduces a short last axis slowly: the channels' maximum taken pairwise instead
    kept = box[::step, ::step]
    brightest = np.maximum(np.maximum(kept[:, :, 0], kept[:, :, 1]), kept[:, :, 2]).ravel()[
        sampled_inside]
    return PictureMeasures(
        clipped=float(np.mean(brightest >= CLIPPED_LEVEL)),
        crushed=float(np.mean(brightest <= DARK_LEVEL)),
        contrast=contrast,
        noise=noise_sigma(box, box_mask),
        colour=_colourfulness(every_step(box, step).reshape(-1, 3).compress(
            sampled_inside, axis=0)) if colour else 0.0,
        focus=_focus(gray, contrast),
    )


def measure_inside(image: np.ndarray, outline: np.ndarray, *, colour: bool = True,
                   gray: np.ndarray | None = None) -> PictureMeasures | None:
    """:func:`measure_picture` of ``image`` inside ``outline`` (image points), or None where
    the outline covers no pixel of it. Measured on the image cut to the outline's box: the
    same measures as on the whole image with its mask (the box is moved by an even number of
    pixels, so the outline's points round alike), without a mask the size of the image.
    ``colour`` and ``gray`` (of the whole image): as :func:`measure_picture`'s."""
    h, w = image.shape[:2]
    x0 = max(0, int(np.floor(outline[:, 0].min())) - 2) // 2 * 2
    y0 = max(0, int(np.floor(outline[:, 1].min())) - 2) // 2 * 2
    x1 = min(w, int(np.ceil(outline[:, 0].max())) + 2)
    y1 = min(h, int(np.ceil(outline[:, 1].max())) + 2)
    part = image[y0:max(y0 + 1, y1), x0:max(x0 + 1, x1)]
    if part.size == 0:  # the outline lies wholly past the image's right or bottom
        return None
    mask = region_mask(part.shape, outline - (x0, y0))
    part_gray = None if gray is None else gray[y0:max(y0 + 1, y1), x0:max(x0 + 1, x1)]
    return measure_picture(part, mask, colour=colour, gray=part_gray) if mask.any() else None


def region_mask(shape: tuple[int, ...], polygon: np.ndarray) -> np.ndarray:
    """A mask of ``shape[:2]``, non-zero inside ``polygon`` (image points, any float array
    of shape (n, 2)): the board region a reader's homography puts in the frame."""
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(np.asarray(polygon, np.float64)).astype(np.int32)], 1)
    return mask


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

    >>> dark = PictureMeasures(clipped=0.0, crushed=0.4, contrast=12.0, noise=30.0,
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
