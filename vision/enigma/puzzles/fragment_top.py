"""The top faces of thick fragment pieces seen by a tilted camera.

A real piece is a few millimetres thick. Seen from a camera off the vertical, its top face lies
off its base, away from the camera, and its side fills the space between the two: the black
seen is the pieces' outline swept along that offset (every slice of the piece, from its base to
its top, lies a share of the offset further). The sweep widens the silhouette seen by the
offset times the outline's width across it: with 4 to 5 mm thick pieces the pieces' area read
108 to 111% of the silhouette, and a right build was "too close to call" (independent puzzle
scenes, fragment, tuning seeds 0 to 5).

A pinhole camera H over the table shows a point h above it H/(H-h) times as far from its
nadir (the table's point under the camera): each top face is its base scaled by H/(H-h) about
the nadir, so the offset grows across the card away from the nadir. Scaled about any other
centre, that map is the same scale and a shift (the offset at that centre): the top faces are
the pieces' bases scaled about the silhouette's centre by a :class:`TopMap` and moved by its
offset. Tops taken as only moved, as a single offset, came out 1 to 1.5% too wide and a right
build read coverage 94 to 96%, "too close to call" (thick pieces through the frame's own
camera, fragment wood/mild tuning seeds 0 to 11: 7 of 12 right builds solved).

The top faces are what the sweep leaves when it is undone: the places from which the whole
offset stays black (an erosion along the offset), brought back to their bases' size. Neither
offset nor scale is known (the camera's pose and the pieces' thickness are not): the pair whose
top faces fit the silhouette best is taken, up to :data:`MAX_OFFSET_MM` and within
:data:`SCALES`. Undoing the sweep only takes black away, and bringing the tops back to their
bases' size moves them at most 2% of their distance to the centre, gaps with them: a part of
the silhouette left uncovered stays uncovered, so a wrong build is never made solved by it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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
#: the scales H/(H-h) tried: pieces up to 6 mm thick under a camera 300 to 600 mm up show
#: their tops 1.008 to 1.02 times their bases' size; 1 is a camera far away
SCALES = (1.0, 1.005, 1.01, 1.015, 1.02)


@dataclass(frozen=True)
class TopMap:
    """Where a camera shows pieces' top faces: their bases scaled by ``scale`` about
    ``centre`` (pixels, x and y) and moved by ``offset`` (pixels, the move at the centre)."""

    offset: tuple[int, int]
    scale: float = 1.0
    centre: tuple[float, float] = (0.0, 0.0)

    def share(self, t: float) -> np.ndarray:
        """The affine map (2 x 3) from a base to its slice a share ``t`` of the way up."""
        s = 1.0 + t * (self.scale - 1.0)
        cx, cy = self.centre
        return np.array([[s, 0.0, cx * (1 - s) + t * self.offset[0]],
                         [0.0, s, cy * (1 - s) + t * self.offset[1]]])


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


def swept(base: np.ndarray, top_map: TopMap) -> np.ndarray:
    """What a camera sees of pieces standing on ``base`` whose top faces ``top_map`` places:
    every slice from the base to the top (:func:`swept_back` undone)."""
    dx, dy = top_map.offset
    if top_map.scale == 1.0:  # every slice moved alike: one sweep along the offset
        kernel, anchor = _line_kernel(-dx, -dy)
        out: np.ndarray = cv2.dilate(base.astype(np.uint8), kernel, anchor=anchor,
                                     borderValue=0) > 0
        return out
    h, w = base.shape
    # slices a pixel or less apart: the farthest corner moves the most
    reach = math.hypot(dx, dy) + (top_map.scale - 1.0) * math.hypot(w, h)
    seen = np.zeros((h, w), bool)
    src = base.astype(np.uint8)
    for t in np.linspace(0.0, 1.0, int(math.ceil(reach)) + 2):
        seen |= cv2.warpAffine(src, top_map.share(float(t)), (w, h),
                               flags=cv2.INTER_NEAREST) > 0
    return seen


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    inter = float(np.count_nonzero(a & b))
    return inter / max(float(np.count_nonzero(a | b)), 1.0)


def overlap(a: np.ndarray, b: np.ndarray, sx: int, sy: int) -> int:
    """How many pixels ``a`` shares with ``b`` moved by (sx, sy), zeros moved in: the count
    on the two arrays' overlapping windows, no moved copy made (the search counts thousands),
    by OpenCV on the masks' bytes (0 or 1): the same count in 60% of numpy's time."""
    h, w = a.shape
    ya, yb = slice(max(sy, 0), h + min(sy, 0)), slice(max(-sy, 0), h + min(-sy, 0))
    xa, xb = slice(max(sx, 0), w + min(sx, 0)), slice(max(-sx, 0), w + min(-sx, 0))
    part_a, part_b = a.view(np.uint8)[ya, xa], b.view(np.uint8)[yb, xb]
    if part_a.size == 0:  # moved wholly off
        return 0
    both = cv2.bitwise_and(part_a, part_b)
    return int(cv2.countNonZero(both))


def _scaled(mask: np.ndarray, scale: float, centre: tuple[float, float]) -> np.ndarray:
    """``mask`` scaled by ``scale`` about ``centre`` (pixels, x and y)."""
    if scale == 1.0:
        return mask
    h, w = mask.shape
    move = TopMap((0, 0), scale, centre).share(1.0)
    out: np.ndarray = cv2.warpAffine(mask.astype(np.uint8) * 255, move, (w, h),
                                     flags=cv2.INTER_LINEAR) >= 128
    return out


def _offsets() -> list[tuple[int, int]]:
    """The offsets tried (pixels): :data:`OFFSET_DIRECTIONS` directions x the lengths every
    :data:`OFFSET_STEP_MM` up to :data:`MAX_OFFSET_MM`."""
    lengths = np.arange(OFFSET_STEP_MM, MAX_OFFSET_MM + 1e-6, OFFSET_STEP_MM) * CARD_PX_PER_MM
    return [(int(round(length * math.cos(a))), int(round(length * math.sin(a))))
            for a in 2 * math.pi * np.arange(OFFSET_DIRECTIONS) / OFFSET_DIRECTIONS
            for length in lengths]


def _fit(top: np.ndarray, top_area: int, target: np.ndarray, target_area: int,
         shifts: set[tuple[int, int]]) -> float:
    """The IoU of ``top``, the tops found at an offset, with ``target`` aligned anywhere
    along the sweep (``shifts``, :func:`_shifts_along`), the best. A shift keeps a target's
    area: each IoU needs only the overlap counted."""
    inter = max(overlap(top, target, sx, sy) for sx, sy in shifts)
    return inter / max(top_area + target_area - inter, 1)


def _shifts_along(offset: tuple[int, int]) -> set[tuple[int, int]]:
    """The shifts that align a target at each place along the sweep (:data:`ALONG`) of
    ``offset``: each once (along a short sweep two places may round to one shift, and each
    count is the same)."""
    dx, dy = offset
    return {(-int(round(t * dx)), -int(round(t * dy))) for t in ALONG}


def _best_map(crop_b: np.ndarray, crop_t: np.ndarray, centre: tuple[float, float]
              ) -> tuple[TopMap, np.ndarray]:
    """The map whose top faces (still at the tops' size) best fit ``crop_t``, and those
    faces; the black as it is when no map fits better. Of several as good, the first in the
    order offsets x :data:`SCALES`.

    Branch and bound, exact: tops of area a can fit a target of area b at most min(a, b) /
    max(a, b) (the IoU of one inside the other). Most offsets leave tops far smaller or
    larger than the target (a millimetre too long or short changes the area by ~3%), so
    they are counted for their area only, and the rest tried best bound first until no
    bound reaches the best fit found (the full search counted 4800 overlaps a frame)."""
    scaled = [_scaled(crop_t, k, centre) for k in SCALES]
    # the search is made on the box that holds the black and every target alone: an
    # erosion reads nothing but zeros past the black, and a count nothing but zeros past
    # either mask, so each top face and count is the same as on the whole crop, on less of
    # it (the crop keeps a sweep's reach round them)
    y0, y1, x0, x1 = _box_of([crop_b, *scaled])
    held = np.s_[y0:y1, x0:x1]
    targets = [(k, t[held], int(np.count_nonzero(t)))
               for k, t in zip(SCALES, scaled, strict=True)]
    best, best_top = _best_map_in(crop_b[held], crop_t[held], targets, centre)
    whole = np.zeros_like(crop_b)
    whole[held] = best_top
    return best, whole


def _box_of(masks: list[np.ndarray]) -> tuple[int, int, int, int]:
    """The rows and columns (y0, y1, x0, x1) that hold every set pixel of ``masks`` (one
    shape); an empty box when none is set."""
    rows = np.logical_or.reduce([m.any(axis=1) for m in masks])
    cols = np.logical_or.reduce([m.any(axis=0) for m in masks])
    if not rows.any():
        return 0, 0, 0, 0
    ys, xs = np.flatnonzero(rows), np.flatnonzero(cols)
    return int(ys[0]), int(ys[-1]) + 1, int(xs[0]), int(xs[-1]) + 1


def _best_map_in(crop_b: np.ndarray, crop_t: np.ndarray,
                 targets: list[tuple[float, np.ndarray, int]], centre: tuple[float, float]
                 ) -> tuple[TopMap, np.ndarray]:
    """:func:`_best_map` given the ``targets`` (scale, the target scaled, its area)."""
    # the black as it is wins a tie (index -1): a map must fit better
    best, best_key, best_top = TopMap((0, 0)), (_iou(crop_b, crop_t), 1), crop_b
    offsets = _offsets()
    areas = [int(np.count_nonzero(swept_back(crop_b, *offset))) for offset in offsets]
    bounds = [[min(a, b) / max(a, b, 1) for _, _, b in targets] for a in areas]
    for i in sorted(range(len(areas)), key=lambda i: -max(bounds[i])):
        if max(bounds[i]) < best_key[0]:
            break
        offset = offsets[i]
        top, shifts = swept_back(crop_b, *offset), _shifts_along(offset)
        for j, (k, target, target_area) in enumerate(targets):
            if bounds[i][j] < best_key[0]:
                continue
            key = (_fit(top, areas[i], target, target_area, shifts), -(i * len(SCALES) + j))
            if key > best_key:
                best, best_key, best_top = TopMap(offset, k, centre), key, top
    return best, best_top


def top_faces(black: np.ndarray, target: np.ndarray) -> tuple[np.ndarray, TopMap]:
    """The pieces' top faces in ``black``, the pieces seen, brought back to their bases'
    place and size, and the :class:`TopMap` undone: the map whose top faces best fit
    ``target``, the silhouette aligned to the black seen somewhere along the sweep
    (:data:`ALONG`), scaled about its centre. No map fits better than the black as it is:
    ``black`` and a zero offset."""
    ys, xs = np.nonzero(black | target)
    if ys.size == 0:
        return black, TopMap((0, 0))
    reach = int(math.ceil(MAX_OFFSET_MM * CARD_PX_PER_MM)) + 2
    y0, x0 = max(0, int(ys.min()) - reach), max(0, int(xs.min()) - reach)
    y1, x1 = int(ys.max()) + reach + 1, int(xs.max()) + reach + 1
    crop_b, crop_t = black[y0:y1, x0:x1], target[y0:y1, x0:x1]
    ty, tx = np.nonzero(crop_t)
    centre = (float(tx.mean()), float(ty.mean())) if tx.size else (0.0, 0.0)
    found, top = _best_map(crop_b, crop_t, centre)
    out = np.zeros_like(black)
    out[y0:y1, x0:x1] = _scaled(top, 1.0 / found.scale, centre)
    return out, TopMap(found.offset, found.scale, (centre[0] + x0, centre[1] + y0))


__all__ = ["ALONG", "MAX_OFFSET_MM", "SCALES", "TopMap", "overlap", "swept", "swept_back",
           "top_faces"]
