"""The top faces of tall weights seen by a tilted camera.

A real weight is a short metal cylinder, 2.5 to 3.5 mm tall for 5 mm across. Seen from a camera
off the vertical, its top face (the bright face and the darker turned rim) lies off its base,
away from the camera, and its side fills the space between the two: the metal seen is the top
face swept back towards the camera. The weight check, which knew flat discs, read that side as
the crescent of a weight lying partly under the top one, and the correlation with a flat
weight's picture peaked between the top face and the base, where the rim did not show whole
(independent puzzle scenes, weight, tuning seeds 0 to 5: right builds "cannot tell: a weight
does not show whole" in 15 of 18 frames; weights 0.3 mm tall: 5 of 6 solved, against 2 of 6).

The top face is the weight: it is found where a face is brightest against its rim
(:func:`top_face`). Its side is a known sweep: one offset for the whole card (the camera's tilt
and the weights' height are the same for all of them), the longest, up to
:data:`MAX_SWEEP`, along which every whole weight shows metal (:func:`sweep_offset`).
Metal within that sweep is the weight's own side (:func:`own_shapes`); metal beyond it is still a
crescent. The sweep is at most 0.7 of a radius, a weight lying partly under another lies
0.8 radii off or more and shows its own side beyond it too, so it is still asked about.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.enigma.puzzles.cards import Point

#: the longest sweep of a top face off its base (share of the weight's radius): weights up to
#: 3.5 mm tall (5 mm across) under a camera leaning up to tan 0.5 over them
MAX_SWEEP = 0.7
#: the sweeps tried: this many directions, lengths every this share of the radius
SWEEP_DIRECTIONS, SWEEP_STEP = 24, 0.1
#: a sweep is the weights' side when this share of its band (beyond the top face) is metal
#: round every whole weight; weights beside it and the card's edge are left out of the band
SWEEP_METAL = 0.8
#: the face (share of the radius from the centre) and the rim's ring whose contrast finds a
#: top face
TOP_FACE, TOP_RIM = 0.6, (0.84, 1.0)


def _contrast_kernel(wr: float) -> np.ndarray:
    """A kernel whose correlation with the levels is the face's mean less the rim's mean."""
    half = int(math.ceil(TOP_RIM[1] * wr))
    yy, xx = np.mgrid[-half:half + 1, -half:half + 1].astype(np.float32)
    d = np.hypot(xx, yy) / wr
    face = (d <= TOP_FACE).astype(np.float32)
    rim = ((d >= TOP_RIM[0]) & (d <= TOP_RIM[1])).astype(np.float32)
    out: np.ndarray = face / face.sum() - rim / rim.sum()
    return out


def top_face(level: np.ndarray, at: Point, wr: float) -> Point:
    """The centre of the top face near ``at`` (within :data:`MAX_SWEEP` radii): where the
    face is brightest against its rim. A flat weight's is where it lies; a tall one's lies
    off the middle of the metal seen, away from the camera."""
    kernel = _contrast_kernel(wr)
    half = kernel.shape[0] // 2
    reach = int(math.ceil(MAX_SWEEP * wr))
    x, y = int(round(at[0])), int(round(at[1]))
    h, w = level.shape
    x0, y0 = x - reach - half, y - reach - half
    x1, y1 = x + reach + half + 1, y + reach + half + 1
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return at
    score = cv2.filter2D(level[y0:y1, x0:x1].astype(np.float32), -1, kernel,
                         borderType=cv2.BORDER_REPLICATE)[half:-half, half:-half]
    yy, xx = np.mgrid[-reach:reach + 1, -reach:reach + 1]
    score[np.hypot(xx, yy) > reach] = -np.inf
    py, px = np.unravel_index(int(np.argmax(score)), score.shape)
    return float(x - reach + px), float(y - reach + py)


def draw_swept(mask: np.ndarray, centre: Point, sweep: Point, radius: float, value: int
               ) -> None:
    """Fill the disc of ``radius`` at ``centre`` swept by ``sweep`` (pixels) with ``value``."""
    steps = max(1, int(math.ceil(math.hypot(*sweep))))
    for t in np.linspace(0.0, 1.0, steps + 1):
        c = (int(round(centre[0] + t * sweep[0])), int(round(centre[1] + t * sweep[1])))
        cv2.circle(mask, c, int(round(radius)), value, -1)


def swept_disc(shape: tuple[int, int], centre: Point, sweep: Point, radius: float
               ) -> np.ndarray:
    """The disc of ``radius`` at ``centre`` swept by ``sweep`` (pixels): a weight's top face
    and its side down to its base."""
    mask = np.zeros(shape, np.uint8)
    draw_swept(mask, centre, sweep, radius, 1)
    out: np.ndarray = mask > 0
    return out


def own_shapes(shape: tuple[int, int], centres: Sequence[Point], sweep: Point, radius: float
               ) -> np.ndarray:
    """The metal the whole weights at ``centres`` explain: each top face swept by ``sweep``."""
    out = np.zeros(shape, bool)
    for c in centres:
        out |= swept_disc(shape, c, sweep, radius)
    return out


@dataclass(frozen=True)
class Surround:
    """What lies round one whole weight: ``metal`` (darker than the card by a share of its
    face's depth), ``known`` (on the card, off the other weights), and its top face's centre
    in that patch."""

    metal: np.ndarray
    known: np.ndarray
    centre: Point


def surround(metal: np.ndarray, known: np.ndarray, centre: Point, wr: float, own: float, *,
             longest: float = MAX_SWEEP) -> Surround | None:
    """The patch round ``centre`` a sweep up to ``longest`` radii can reach; None at the
    picture's edge."""
    reach = int(math.ceil((longest + own) * wr)) + 2
    x, y = int(round(centre[0])), int(round(centre[1]))
    h, w = metal.shape
    if x - reach < 0 or y - reach < 0 or x + reach >= w or y + reach >= h:
        return None
    box = (slice(y - reach, y + reach + 1), slice(x - reach, x + reach + 1))
    return Surround(metal[box], known[box], (centre[0] - x + reach, centre[1] - y + reach))


def _band_share(round_: Surround, sweep: Point, radius: float) -> float | None:
    """The share of the band a sweep adds beyond the top face that is metal; None when too
    little of it can be seen."""
    band = swept_disc(round_.metal.shape, round_.centre, sweep, radius)
    top = np.zeros(band.shape, np.uint8)
    cv2.circle(top, (int(round(round_.centre[0])), int(round(round_.centre[1]))),
               int(round(radius)), 1, -1)
    band &= (top == 0) & round_.known
    n = int(np.count_nonzero(band))
    if n < 0.1 * radius * radius:
        return None
    return float(np.count_nonzero(round_.metal & band)) / n


def sweep_offset(rounds: Sequence[Surround], radius: float, wr: float, *,
                 longest: float = MAX_SWEEP) -> Point:
    """The sweep from the whole weights' top faces towards their bases, in pixels: the
    longest (up to ``longest`` radii ``wr``) along which every one of them shows
    metal round it (:data:`SWEEP_METAL` of the band beyond a disc of ``radius``, where it can
    be seen). (0, 0) when no sweep shows: flat weights, or no weight."""
    best: tuple[float, float, Point] = (0.0, 0.0, (0.0, 0.0))
    if not rounds:
        return best[2]
    lengths = np.arange(SWEEP_STEP, longest + 1e-6, SWEEP_STEP) * wr
    for k in range(SWEEP_DIRECTIONS):
        a = 2 * math.pi * k / SWEEP_DIRECTIONS
        for length in lengths:
            v = (float(length * math.cos(a)), float(length * math.sin(a)))
            shares = [_band_share(r, v, radius) for r in rounds]
            seen = [s for s in shares if s is not None]
            if not seen or min(seen) < SWEEP_METAL:
                break  # a longer sweep this way shows no more metal
            key = (float(length), float(np.mean(seen)), v)
            if key[:2] > best[:2]:
                best = key
    return best[2]


__all__ = ["MAX_SWEEP", "SWEEP_STEP", "Surround", "draw_swept", "own_shapes", "surround",
           "sweep_offset", "swept_disc", "top_face"]
