"""Read a revealed Second Chance puzzle card: find the card, find its squares, give the shape.

Stages: :func:`find_card` (the largest light quadrilateral on the table, turned upright),
:func:`square_mask` (pixels that differ from the card face), :func:`read_squares` (the squares
on the style's grid, each filled or not). The answer is the shape notation of
``shared/records.md`` in canonical form, so "does it fit?" needs no typing.

The look is a taught :class:`~vision.second_chance.card_style.CardStyle`: only the square's
size relative to the card matters to the reader; :func:`teach_card_style` measures it from one
photo of a card whose shape is known.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.second_chance.errors import ShapeError
from companion.second_chance.shapes import Shape, as_shape, polyomino_problem
from vision.errors import FrameRefusedError
from vision.second_chance.card_style import DEMO_STYLE, CardStyle

PX_PER_MM = 6.0


@dataclass(frozen=True)
class CardReading:
    shape: str
    cells: int
    confidence: float
    doubtful: tuple[tuple[int, int], ...]

    def to_json(self) -> dict[str, object]:
        return {"shape": self.shape, "cells": self.cells, "confidence": round(self.confidence, 3),
                "doubtful": [list(c) for c in self.doubtful]}


def _order(quad: np.ndarray) -> np.ndarray:
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    ordered = quad[np.argsort(angles)]
    start = int(np.argmin(ordered.sum(axis=1)))
    return np.roll(ordered, -start, axis=0)


def _card_quads(small: np.ndarray) -> list[np.ndarray]:
    """Convex quadrilaterals outlined by strong edges, largest first."""
    edges = cv2.Canny(cv2.GaussianBlur(small, (5, 5), 0), 30, 90)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    area_min = small.shape[0] * small.shape[1] * 0.01
    quads = []
    for contour in contours:
        if cv2.contourArea(contour) < area_min:
            continue
        hull = cv2.convexHull(contour)
        approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
        if len(approx) == 4:
            quads.append((cv2.contourArea(approx), approx.reshape(4, 2).astype(np.float32)))
    quads.sort(key=lambda item: -item[0])
    return [q for _, q in quads[:12]]


def find_card(image: np.ndarray, style: CardStyle = DEMO_STYLE) -> np.ndarray:
    """The card's face inside its border, warped upright to ``PX_PER_MM``.

    Raises FrameRefusedError when no light quadrilateral of the card's proportions is in view.
    """
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    scale = min(1.0, 800 / max(gray.shape[:2]))
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    face_w, face_h = (v - 2 * style.border_mm for v in style.card_mm)
    want_face = face_h / face_w
    want_card = style.card_mm[1] / style.card_mm[0]
    best: tuple[float, np.ndarray] | None = None
    for quad in _card_quads(small):
        quad = _order(quad)
        sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
        aspect = (sides[1] + sides[3]) / max(sides[0] + sides[2], 1e-6)
        if aspect < 1:
            quad = np.roll(quad, -1, axis=0)
            aspect = 1 / aspect
        if min(abs(aspect - want) / want for want in (want_face, want_card)) > 0.15:
            continue
        mask = np.zeros(small.shape, np.uint8)
        cv2.fillConvexPoly(mask, quad.astype(np.int32), 255)
        inside = float(small[mask > 0].mean())
        ring = cv2.dilate(mask, np.ones((15, 15), np.uint8)) - mask
        outside = float(small[ring > 0].mean()) if ring.any() else 0.0
        score = inside - outside + 0.001 * float(mask.sum() / 255)
        if inside > outside and (best is None or score > best[0]):
            best = (score, quad)
    if best is None:
        raise FrameRefusedError("no card in view (no light quadrilateral of a card's shape)",
                                reason="no-card")
    quad = best[1] / scale
    w, h = int(round(face_w * PX_PER_MM)), int(round(face_h * PX_PER_MM))
    # Is the quadrilateral the card's edge or the face inside its printed border? Warp it as
    # the whole card and look at where the border would be.
    cw, ch = (v * PX_PER_MM for v in style.card_mm)
    whole = cv2.getPerspectiveTransform(
        quad.astype(np.float32), np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float32))
    probe = cv2.cvtColor(cv2.warpPerspective(image, whole, (int(cw), int(ch))),
                         cv2.COLOR_BGR2GRAY).astype(np.float32)
    band = int(round(style.border_mm * PX_PER_MM * 0.6))
    rim = np.concatenate([probe[:band].ravel(), probe[-band:].ravel(),
                          probe[:, :band].ravel(), probe[:, -band:].ravel()])
    inner = probe[band * 3:band * 6, band * 3:-band * 3]
    is_card_edge = style.border_mm > 0 and float(np.median(rim)) < 0.8 * float(np.median(inner))
    b = style.border_mm if is_card_edge else 0.0
    w_mm, h_mm = style.card_mm if is_card_edge else (face_w, face_h)
    dst = np.array([[-b, -b], [w_mm - b, -b], [w_mm - b, h_mm - b], [-b, h_mm - b]],
                   np.float32) * PX_PER_MM
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_LINEAR)


def _face_fit(gray: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """A quadratic surface through the face pixels (the light falling on the card)."""
    h, w = gray.shape
    step = 4
    g = gray[::step, ::step]
    k = keep[::step, ::step]
    yy, xx = np.mgrid[0:g.shape[0], 0:g.shape[1]].astype(np.float64)
    xx /= g.shape[1]
    yy /= g.shape[0]
    design = np.stack([np.ones_like(xx), xx, yy, xx * xx, xx * yy, yy * yy], axis=-1)
    coeffs = np.linalg.lstsq(design[k], g[k].astype(np.float64), rcond=None)[0]
    small = (design @ coeffs).astype(np.float32)
    surface = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    lit_at_least_one: np.ndarray = np.maximum(surface, 1.0)
    return lit_at_least_one


def square_mask(face: np.ndarray, style: CardStyle = DEMO_STYLE) -> np.ndarray:
    """Pixels of the face that are printed squares: dark or coloured against the card."""
    inset = int(round(1.0 * PX_PER_MM))
    img = face.astype(np.float32)
    gray = img.mean(axis=2)
    keep = np.ones(gray.shape, bool)
    mask = np.zeros(gray.shape, bool)
    for _ in range(2):
        light = _face_fit(gray, keep)
        sample = keep[::3, ::3]
        cast = np.median(img[::3, ::3][sample] / light[::3, ::3][sample][:, None], axis=0)
        ratio = [cv2.divide(img[:, :, i], light * float(cast[i])) for i in range(3)]
        low = cv2.min(cv2.min(ratio[0], ratio[1]), ratio[2])
        high = cv2.max(cv2.max(ratio[0], ratio[1]), ratio[2])
        mask = (low < 0.7) | (high - low > 0.25)
        keep = ~cv2.dilate(mask.astype(np.uint8), np.ones((7, 7), np.uint8)).astype(bool)
        if keep.sum() < 100:
            break
    out = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    out[:inset] = 0
    out[-inset:] = 0
    out[:, :inset] = 0
    out[:, -inset:] = 0
    return out


def read_squares(mask: np.ndarray, style: CardStyle = DEMO_STYLE) -> CardReading:
    """The shape on the style's square grid; ShapeError when it is no legal card."""
    ys, xs = np.nonzero(mask)
    if len(xs) < 20:
        raise ShapeError("no squares found on the card")
    unit = style.square_mm * PX_PER_MM
    x0, x1 = np.percentile(xs, [0.5, 99.5])
    y0, y1 = np.percentile(ys, [0.5, 99.5])
    cols = max(1, int(round((x1 - x0) / unit)))
    rows = max(1, int(round((y1 - y0) / unit)))
    # centre the grid on the squares' bounding box
    gx = (x0 + x1) / 2 - cols * unit / 2
    gy = (y0 + y1) / 2 - rows * unit / 2
    cells: list[tuple[int, int]] = []
    doubtful: list[tuple[int, int]] = []
    margins: list[float] = []
    for r in range(rows):
        for c in range(cols):
            a = int(round(gy + (r + 0.25) * unit)), int(round(gy + (r + 0.75) * unit))
            b = int(round(gx + (c + 0.25) * unit)), int(round(gx + (c + 0.75) * unit))
            patch = mask[max(0, a[0]):a[1], max(0, b[0]):b[1]]
            share = float(patch.mean()) if patch.size else 0.0
            margins.append(abs(share - 0.5) * 2)
            if share > 0.5:
                cells.append((r, c))
            if 0.25 < share < 0.75:
                doubtful.append((r, c))
    if not cells:
        raise ShapeError("no squares found on the card")
    shape = Shape.from_cells(cells)
    problem = polyomino_problem(shape)
    if problem is not None:
        raise ShapeError(f"the card reads as {shape.text!r}, which {problem}")
    fit = 1.0 - min(1.0, abs((x1 - x0) / unit - cols) + abs((y1 - y0) / unit - rows))
    confidence = float(min(min(margins), fit))
    return CardReading(shape.canonical().text, shape.size, confidence, tuple(doubtful))


def read_card(image: np.ndarray, style: CardStyle = DEMO_STYLE) -> CardReading:
    """Read the revealed card in a frame. FrameRefusedError when no card or no legal shape."""
    face = find_card(image, style)
    try:
        return read_squares(square_mask(face, style), style)
    except ShapeError as exc:
        raise FrameRefusedError(str(exc), reason="no-shape") from exc


def teach_card_style(image: np.ndarray, shape: Shape | str, *, name: str = "taught",
                     base: CardStyle = DEMO_STYLE) -> CardStyle:
    """Measure a card style from one photo of a card whose shape is known."""
    parsed = as_shape(shape)
    if parsed.width > parsed.height:
        parsed = Shape.from_cells((c, r) for r, c in parsed.cells)
    face = find_card(image, base)
    mask = square_mask(face, base)
    ys, xs = np.nonzero(mask)
    if len(xs) < 20:
        raise FrameRefusedError("no squares found on the card", reason="no-shape")
    w = (np.percentile(xs, 99.5) - np.percentile(xs, 0.5)) / PX_PER_MM
    h = (np.percentile(ys, 99.5) - np.percentile(ys, 0.5)) / PX_PER_MM
    square_mm = float((w / parsed.width + h / parsed.height) / 2)
    inner = face[mask > 0]
    square = tuple(int(v) for v in np.median(inner, axis=0))
    taught = replace(base, name=name, square_mm=round(square_mm, 2),
                     square=(square[0], square[1], square[2]))
    reading = read_squares(mask, taught)
    if reading.shape != parsed.canonical().text:
        raise FrameRefusedError(
            f"taught from this photo the card reads as {reading.shape!r}, not "
            f"{parsed.canonical().text!r}: try a sharper photo", reason="no-shape")
    return taught
