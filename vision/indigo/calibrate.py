"""Calibration: where the Indigo board lies between the four table markers.

The markers are laid around the board once; ``companion calibrate indigo FRAME`` measures the
board's centre, size and turn in the marker frame and prints the ``[vision.indigo]`` lines to
put in the config. How: straighten the marker plane, remove the colour cast using the white
paper around the markers, find the board's rim by the art pack's rim colour, and fit a
hexagon to its outline (centre, circumradius, angle modulo 60 degrees).
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from vision.errors import FrameRefusedError
from vision.indigo.board import BoardGeometry
from vision.indigo.model import GAIN_RANGE, colour_distance, colour_features, features_of_colours
from vision.indigo.pack import IndigoPack
from vision.indigo.settings import DEFAULT_SETTINGS, IndigoSettings
from vision.markers import locate

#: pixels per millimetre of the straightened plane used to measure the board
CALIBRATION_PX_PER_MM = 1.0
#: paper white the markers' margins are taken to be
PAPER = 235.0
#: the paper is sampled this far from each marker's centre, in marker sides (the white margin
#: beside the printed square)
PAPER_SAMPLE = 0.65
#: a rim-coloured pixel lies within this share of the rim-to-table colour distance of the rim
#: colour, and never less than RIM_TOL_MIN feature units
RIM_TOL_SHARE = 0.5
RIM_TOL_MIN = 8.0
#: a rim region smaller than this share of the marker rectangle is not the board
MIN_BOARD_SHARE = 0.05
#: the outline is simplified to within this share of its length before its sides are measured
OUTLINE_TOLERANCE = 0.02


def _paper_gains(
    top: np.ndarray, geometry: BoardGeometry, origin: tuple[float, float]
) -> np.ndarray:
    layout = geometry.layout
    s = layout.size_mm * CALIBRATION_PX_PER_MM
    samples = []
    for cx, cy in layout.centres_mm:
        x = (cx - origin[0]) * CALIBRATION_PX_PER_MM
        y = (cy - origin[1]) * CALIBRATION_PX_PER_MM
        for dx, dy in ((PAPER_SAMPLE, 0), (-PAPER_SAMPLE, 0), (0, PAPER_SAMPLE),
                       (0, -PAPER_SAMPLE)):
            px, py = int(x + dx * s), int(y + dy * s)
            if 0 <= px < top.shape[1] and 0 <= py < top.shape[0]:
                samples.append(top[py, px])
    if not samples:
        return np.ones(3, np.float32)
    white = np.median(np.array(samples, np.float32), axis=0)
    return np.clip(PAPER / np.maximum(white, 1.0), *GAIN_RANGE)


def calibrate(
    frame: np.ndarray, pack: IndigoPack, *, settings: IndigoSettings = DEFAULT_SETTINGS
) -> BoardGeometry:
    """Measure the board pose in the marker frame; FrameRefusedError when no board is found."""
    geometry = settings.geometry
    fit = locate(frame, geometry.layout, checks=settings.checks)
    xs = [c[0] for c in geometry.layout.centres_mm]
    ys = [c[1] for c in geometry.layout.centres_mm]
    origin = (min(xs), min(ys))
    size = (max(xs) - min(xs), max(ys) - min(ys))
    top = fit.warp(frame, px_per_mm=CALIBRATION_PX_PER_MM, origin_mm=origin, size_mm=size)
    balanced = np.clip(top.astype(np.float32) * _paper_gains(top, geometry, origin), 0, 255)
    hull = _rim_hull(_rim_mask(balanced, pack), size)
    (cx, cy), radius_px, rotation = _hexagon_pose(hull)
    return replace(
        geometry,
        centre_mm=(
            cx / CALIBRATION_PX_PER_MM + origin[0],
            cy / CALIBRATION_PX_PER_MM + origin[1],
        ),
        radius_mm=radius_px / CALIBRATION_PX_PER_MM,
        rotation_deg=rotation,
    )


def _rim_mask(balanced: np.ndarray, pack: IndigoPack) -> np.ndarray:
    """Pixels nearer the pack's rim colour than the tolerance the rim and table colours allow."""
    features = colour_features(balanced)
    rim = features_of_colours(np.array(pack.rim))[0]
    table = features_of_colours(np.array(pack.table))[0]
    tol = max(RIM_TOL_MIN, RIM_TOL_SHARE * float(colour_distance(rim[None], table)[0]))
    rim_like = (colour_distance(features, rim) < tol).astype(np.uint8)
    mask: np.ndarray = cv2.morphologyEx(rim_like, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    return mask


def _rim_hull(mask: np.ndarray, size: tuple[float, float]) -> np.ndarray:
    """The convex hull of the largest rim-coloured region; refuses a frame without one."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n < 2:
        raise FrameRefusedError(
            "no board rim of the art pack's colour between the markers", reason="no-board"
        )
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    contours, _ = cv2.findContours(
        (labels == biggest).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    outline = max(contours, key=cv2.contourArea)
    hull: np.ndarray = cv2.convexHull(outline).reshape(-1, 2).astype(np.float64)
    area = cv2.contourArea(hull.astype(np.float32))
    if area < MIN_BOARD_SHARE * size[0] * size[1] * CALIBRATION_PX_PER_MM**2:
        raise FrameRefusedError(
            "the board rim found between the markers is too small", reason="no-board"
        )
    return hull


def _hexagon_pose(hull: np.ndarray) -> tuple[tuple[float, float], float, float]:
    """Centre (pixels), circumradius (pixels) and turn (degrees) of a hexagonal outline."""
    area = cv2.contourArea(hull.astype(np.float32))
    moments = cv2.moments(hull.astype(np.float32))
    cx, cy = moments["m10"] / moments["m00"], moments["m01"] / moments["m00"]
    # a regular hexagon of circumradius c has area (3 sqrt 3 / 2) c^2
    radius_px = math.sqrt(area / (1.5 * math.sqrt(3)))
    # turn: the outline's direction histogram repeats every 60 degrees
    poly = cv2.approxPolyDP(
        hull.astype(np.float32),
        OUTLINE_TOLERANCE * cv2.arcLength(hull.astype(np.float32), True),
        True,
    ).reshape(-1, 2)
    angles = [math.atan2(y - cy, x - cx) for x, y in poly]
    vec = sum(complex(math.cos(6 * a), math.sin(6 * a)) for a in angles)
    rotation = math.degrees(math.atan2(vec.imag, vec.real)) / 6
    return (cx, cy), radius_px, rotation


def calibration_toml(geometry: BoardGeometry) -> str:
    """The ``[vision.indigo]`` lines for a config override file."""
    x, y = geometry.centre_mm
    return (
        "[vision.indigo]\n"
        f"board_center_mm = [{x:.1f}, {y:.1f}]\n"
        f"board_radius_mm = {geometry.radius_mm:.1f}\n"
        f"rotation_deg = {geometry.rotation_deg:.2f}\n"
    )


def write_calibration(path: Path, geometry: BoardGeometry) -> None:
    """Store the calibration in a config override file, keeping everything else in it.

    The three keys of ``[vision.indigo]`` are replaced (or added); other sections and keys,
    and comments, stay as they are.
    """
    lines = calibration_toml(geometry).splitlines()[1:]
    keys = {line.split("=")[0].strip(): line for line in lines}
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    out: list[str] = []
    in_section = False
    seen_section = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            if in_section:
                out.extend(keys.pop(k) for k in list(keys))
            in_section = stripped == "[vision.indigo]"
            seen_section = seen_section or in_section
        elif in_section and "=" in stripped and stripped.split("=")[0].strip() in keys:
            out.append(keys.pop(stripped.split("=")[0].strip()))
            continue
        out.append(line)
    if in_section:
        out.extend(keys.pop(k) for k in list(keys))
    if not seen_section:
        if out and out[-1].strip():
            out.append("")
        out.append("[vision.indigo]")
        out.extend(keys.values())
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
