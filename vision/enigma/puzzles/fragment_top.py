"""The top faces of thick fragment pieces seen by a tilted camera.

A real piece is a few millimetres thick. Seen from a camera off the vertical, its top face lies
off its base, away from the camera, and its side fills the space between the two: the black
seen is the pieces' outline swept along that offset (every slice of the piece, from its base to
its top, lies a share of the offset further). The sweep widens the silhouette seen by the
offset times the outline's width across it: with 4 to 5 mm thick pieces the pieces' area read
108 to 111% of the silhouette, and a right build was "too close to call" (independent puzzle
scenes, fragment, tuning seeds 0 to 5).

The top faces are what the sweep leaves when it is undone: the places from which the whole
offset stays black (an erosion along the offset). The offset is not known (the camera's tilt
and the pieces' thickness are not): the one whose top faces fit the silhouette best is taken,
up to :data:`MAX_OFFSET_MM`. Undoing the sweep only takes black away, never adds it: a part of
the silhouette left uncovered stays uncovered, so a wrong build is never made solved by it.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.enigma.mat import CARD_PX_PER_MM

#: the largest offset of a top face off its base: pieces up to 6 mm thick under a camera
#: tilted up to 27 degrees over them (tan 0.5)
MAX_OFFSET_MM = 3.0
#: the offsets tried: this many directions ...
OFFSET_DIRECTIONS = 24
#: ... and lengths every this many mm up to :data:`MAX_OFFSET_MM`
OFFSET_STEP_MM = 0.375
#: where along the sweep the silhouette may have been aligned (share of the offset)
ALONG = (0.0, 0.25, 0.5, 0.75, 1.0)


def _line_kernel(dx: int, dy: int) -> tuple[np.ndarray, tuple[int, int]]:
    """A kernel holding the segment from its anchor to (dx, dy), and that anchor."""
    w, h = abs(dx) + 1, abs(dy) + 1
    kernel = np.zeros((h, w), np.uint8)
    ax, ay = (0 if dx >= 0 else w - 1), (0 if dy >= 0 else h - 1)
    cv2.line(kernel, (ax, ay), (ax + dx, ay + dy), 1, 1)
    return kernel, (ax, ay)


def swept_back(black: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """Where the whole offset (dx, dy) from a pixel stays ``black``: the top faces, at their
    bases, when ``black`` is their outline swept by (dx, dy)."""
    kernel, anchor = _line_kernel(dx, dy)
    out: np.ndarray = cv2.erode(black.astype(np.uint8), kernel, anchor=anchor,
                                borderValue=0) > 0
    return out


def swept(top: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """``top`` (faces at their bases) swept by the offset (dx, dy): what a camera sees of
    pieces whose top faces lie (dx, dy) off their bases (:func:`swept_back` undone)."""
    kernel, anchor = _line_kernel(-dx, -dy)
    out: np.ndarray = cv2.dilate(top.astype(np.uint8), kernel, anchor=anchor,
                                 borderValue=0) > 0
    return out


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    inter = float(np.count_nonzero(a & b))
    return inter / max(float(np.count_nonzero(a | b)), 1.0)


def _shifted(mask: np.ndarray, dx: int, dy: int) -> np.ndarray:
    out: np.ndarray = np.roll(np.roll(mask, dy, axis=0), dx, axis=1)
    return out


def top_faces(black: np.ndarray, target: np.ndarray) -> tuple[np.ndarray, tuple[int, int]]:
    """The pieces' top faces (at their bases) in ``black``, the pieces seen, and the offset
    (pixels) undone: the offset whose top faces best fit ``target``, the silhouette aligned to
    the black seen somewhere along the sweep (:data:`ALONG`). No offset fits better than the
    black as it is: ``black`` and (0, 0)."""
    ys, xs = np.nonzero(black | target)
    if ys.size == 0:
        return black, (0, 0)
    reach = int(math.ceil(MAX_OFFSET_MM * CARD_PX_PER_MM)) + 2
    y0, x0 = max(0, int(ys.min()) - reach), max(0, int(xs.min()) - reach)
    y1, x1 = int(ys.max()) + reach + 1, int(xs.max()) + reach + 1
    crop_b, crop_t = black[y0:y1, x0:x1], target[y0:y1, x0:x1]
    best, best_iou = (0, 0), _iou(crop_b, crop_t)
    best_top = crop_b
    lengths = np.arange(OFFSET_STEP_MM, MAX_OFFSET_MM + 1e-6, OFFSET_STEP_MM) * CARD_PX_PER_MM
    for k in range(OFFSET_DIRECTIONS):
        a = 2 * math.pi * k / OFFSET_DIRECTIONS
        for length in lengths:
            dx, dy = int(round(length * math.cos(a))), int(round(length * math.sin(a)))
            top = swept_back(crop_b, dx, dy)
            for t in ALONG:
                iou = _iou(top, _shifted(crop_t, -int(round(t * dx)), -int(round(t * dy))))
                if iou > best_iou:
                    best, best_iou, best_top = (dx, dy), iou, top
    out = np.zeros_like(black)
    out[y0:y1, x0:x1] = best_top
    return out, best


__all__ = ["MAX_OFFSET_MM", "swept", "swept_back", "top_faces"]
