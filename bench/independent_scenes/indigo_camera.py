"""A camera over the Indigo table: a pinhole some 70-100 cm up, turned and tilted, that sees
each layer of the table at its own height (markers on the table, the board 2 mm up, tiles and
chips 2 mm more, the gems' tops 6 mm above the tiles), then a room's light and a sensor.

Two conditions: ``mild`` (a steady arm, a small tilt, a daylight lamp) and ``harsh`` (the camera
turned any way and tilted up to 25 degrees, a warm lamp from 3000 K, its glare clipping on the
tiles' varnish, a hand's shadow, sometimes a fingertip over a cell, gamma and saturation off,
defocus and motion blur, barrel or pincushion distortion with colour fringes, strong noise,
JPEG down to quality 45).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .camera import FRAME_SIZE, table_texture
from .indigo_board import (
    CANVAS_HALF_MM,
    CANVAS_PX_PER_MM,
    CELL_RADIUS_MM,
    MARKER_FRAME_MM,
    MARKER_MARGIN_MM,
    MARKER_SIZE_MM,
    Layers,
)

BOARD_MM = 2.0                      # the board's cardboard on the table
TILE_MM = 2.0                       # a tile (and a chip) on the board
GEM_MM = 6.0                        # a gem's top above the tile it rests on
MARKER_PX_PER_MM = 6.0
METERED_PERCENTILE = 97.0
SKIN_BGR = (118.0, 148.0, 196.0)
ARUCO = cv2.aruco.DICT_4X4_50
#: the table markers' ids, clockwise from the top left
MARKER_IDS = (0, 1, 2, 3)


@dataclass(frozen=True)
class Condition:
    """Ranges one frame's camera and room are drawn from."""

    tilt_deg: tuple[float, float]
    turn_deg: float                 # the camera turned about its axis, up to this either way
    fill: tuple[float, float]       # share of the frame's limiting side the markers span
    temperature_k: tuple[float, float]
    white_balance: tuple[float, float]  # how much of the lamp's cast the camera takes out
    metered: tuple[float, float]    # where auto exposure puts the board's bright end
    exposure: tuple[float, float]   # exposure error left after metering
    gamma: tuple[float, float]
    saturation: tuple[float, float]
    glare: tuple[int, int]          # patches, inclusive range
    glare_peak: tuple[float, float]
    hand_shadow: float              # chance of a hand's shadow over the board
    fingertip: float                # chance of a fingertip over one cell
    defocus: tuple[float, float]    # Gaussian sigma, px at 1000 px width
    motion: float                   # chance of a shake ...
    motion_px: float                # ... up to this long, px at 1000 px width
    lens_k: float                   # radial distortion up to this either way
    fringe: float                   # lateral chromatic aberration, a share of the radius
    shot_noise: tuple[float, float]
    read_noise: tuple[float, float]
    jpeg: tuple[int, int]


CONDITIONS = {
    "mild": Condition(tilt_deg=(0.0, 12.0), turn_deg=12.0, fill=(0.72, 0.95),
                      temperature_k=(4800.0, 6800.0), white_balance=(0.8, 0.95),
                      metered=(200.0, 235.0), exposure=(0.97, 1.03), gamma=(0.96, 1.04),
                      saturation=(0.92, 1.08),
                      glare=(0, 1), glare_peak=(25.0, 70.0), hand_shadow=0.15, fingertip=0.0,
                      defocus=(0.3, 0.6), motion=0.0, motion_px=0.0, lens_k=0.02, fringe=0.0,
                      shot_noise=(0.02, 0.1), read_noise=(1.0, 2.5), jpeg=(80, 95)),
    "harsh": Condition(tilt_deg=(8.0, 25.0), turn_deg=180.0, fill=(0.7, 0.95),
                       temperature_k=(3000.0, 7500.0), white_balance=(0.5, 0.9),
                       metered=(185.0, 250.0), exposure=(0.85, 1.1), gamma=(0.8, 1.25),
                       saturation=(0.75, 1.3),
                       glare=(1, 2), glare_peak=(140.0, 320.0), hand_shadow=0.7,
                       fingertip=0.3, defocus=(0.3, 1.25), motion=0.35, motion_px=9.0,
                       lens_k=0.07, fringe=0.003, shot_noise=(0.05, 0.4),
                       read_noise=(2.0, 6.0), jpeg=(45, 75)),
}


def _turn_about(axis: np.ndarray, degrees: float) -> np.ndarray:
    matrix, _ = cv2.Rodrigues(axis.astype(np.float64) * np.radians(degrees))
    return matrix


class Pinhole:
    """World millimetres (x right, y down the table, z *down*, so heights are negative z)
    to frame pixels, framed so the markers fill part of the frame."""

    def __init__(self, cond: Condition, rng: np.random.Generator) -> None:
        yaw = rng.uniform(-cond.turn_deg, cond.turn_deg)
        lean = rng.uniform(0, 2 * np.pi)
        tilt = _turn_about(np.array([np.cos(lean), np.sin(lean), 0.0]),
                           rng.uniform(*cond.tilt_deg))
        self.rot = _turn_about(np.array([0.0, 0.0, 1.0]), yaw) @ tilt
        forward = self.rot.T @ np.array([0.0, 0.0, 1.0])
        target = np.array([*rng.uniform(-30, 30, 2), -BOARD_MM])
        height = rng.uniform(700.0, 1000.0)
        self.centre = target - forward * (target[2] + height) / forward[2]
        self.scale, self.offset = 1.0, np.zeros(2)
        fw, fh = FRAME_SIZE
        mx, my = (np.array(MARKER_FRAME_MM) + MARKER_SIZE_MM) / 2 + MARKER_MARGIN_MM
        outer = self.project(np.array([[-mx, -my], [mx, -my], [mx, my], [-mx, my]]), 0.0)
        lo, hi = outer.min(axis=0), outer.max(axis=0)
        self.scale = rng.uniform(*cond.fill) * min(fw / (hi - lo)[0], fh / (hi - lo)[1])
        room = np.array([fw, fh]) - (hi - lo) * self.scale
        self.offset = room * rng.uniform(0.25, 0.75, 2) - lo * self.scale

    def project(self, points_mm: np.ndarray, height_mm: float) -> np.ndarray:
        world = np.column_stack([points_mm, np.full(len(points_mm), -height_mm)])
        seen = (world - self.centre) @ self.rot.T
        return seen[:, :2] / seen[:, 2:3] * self.scale + self.offset

    def plane_homography(self, to_mm: np.ndarray, size: tuple[int, int],
                         height_mm: float) -> np.ndarray:
        """Homography from a canvas of ``size`` (px) whose affine ``to_mm`` gives millimetres,
        lying at ``height_mm``, to the frame."""
        w, h = size
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
        mm = corners @ to_mm[:, :2].T + to_mm[:, 2]
        return cv2.getPerspectiveTransform(corners.astype(np.float32),
                                           self.project(mm, height_mm).astype(np.float32))


def _over(frame: np.ndarray, layer: np.ndarray, homography: np.ndarray) -> None:
    """Lay a BGRA canvas, seen through ``homography``, over the frame (in place); only the
    part of the frame the canvas falls on is touched."""
    fh, fw = frame.shape[:2]
    h, w = layer.shape[:2]
    corners = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64)
    seen = cv2.perspectiveTransform(corners, homography)[0]
    x0, y0 = np.clip(np.floor(seen.min(axis=0)).astype(int) - 1, 0, [fw, fh])
    x1, y1 = np.clip(np.ceil(seen.max(axis=0)).astype(int) + 1, 0, [fw, fh])
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    patch = cv2.warpPerspective(layer, shift @ homography, (int(x1 - x0), int(y1 - y0)),
                                flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                borderValue=(0, 0, 0, 0))
    alpha = patch[..., 3:4] / 255.0
    roi = frame[y0:y1, x0:x1]
    roi *= 1 - alpha
    roi += patch[..., :3] * alpha


def _marker_sheet(marker_id: int) -> np.ndarray:
    """One printed marker on its white paper, BGRA at ``MARKER_PX_PER_MM``."""
    side = int(MARKER_SIZE_MM * MARKER_PX_PER_MM)
    margin = int(MARKER_MARGIN_MM * MARKER_PX_PER_MM)
    code = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(ARUCO), marker_id,
                                         side)
    paper = cv2.copyMakeBorder(code, margin, margin, margin, margin, cv2.BORDER_CONSTANT,
                               value=255)
    sheet = np.dstack([paper, paper, paper, np.full_like(paper, 255)]).astype(np.float32)
    sheet[..., :3] = sheet[..., :3] * 0.93 + 8     # paper is not a perfect white
    return sheet


def lay_table(layers: Layers, camera: Pinhole, rng: np.random.Generator) -> np.ndarray:
    """The table, the markers and the three layers as the camera sees them (float BGR)."""
    frame = table_texture(rng)
    half_w, half_h = np.array(MARKER_FRAME_MM) / 2
    centres = ((-half_w, -half_h), (half_w, -half_h), (half_w, half_h), (-half_w, half_h))
    for marker_id, (cx, cy) in zip(MARKER_IDS, centres, strict=True):
        sheet = _marker_sheet(marker_id)
        reach = MARKER_SIZE_MM / 2 + MARKER_MARGIN_MM
        to_mm = np.array([[1 / MARKER_PX_PER_MM, 0, cx - reach],
                          [0, 1 / MARKER_PX_PER_MM, cy - reach]])
        _over(frame, sheet, camera.plane_homography(to_mm, sheet.shape[1::-1], 0.0))
    side = layers.board.shape[0]
    to_mm = np.array([[1 / CANVAS_PX_PER_MM, 0, -CANVAS_HALF_MM],
                      [0, 1 / CANVAS_PX_PER_MM, -CANVAS_HALF_MM]])
    for layer, height in ((layers.board, BOARD_MM), (layers.pieces, BOARD_MM + TILE_MM),
                          (layers.gems, BOARD_MM + TILE_MM + GEM_MM)):
        _over(frame, layer, camera.plane_homography(to_mm, (side, side), height))
    return frame


def auto_exposure(frame: np.ndarray, outline: np.ndarray, cond: Condition,
                  rng: np.random.Generator) -> None:
    """Scale the light so the board's bright end lands where the camera's metering puts it
    (before glare: a small bright patch hardly moves a camera's metering)."""
    mask = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(outline).astype(np.int32)], 1)
    bright = float(np.percentile(frame.max(axis=2)[mask > 0], METERED_PERCENTILE))
    frame *= rng.uniform(*cond.metered) / max(bright, 1.0)


def _capsule(shape: tuple[int, int], start: np.ndarray, end: np.ndarray,
             width: float) -> np.ndarray:
    mask = np.zeros(shape, np.float32)
    cv2.line(mask, tuple(int(v) for v in start), tuple(int(v) for v in end), 1.0,
             max(1, int(width)), cv2.LINE_AA)
    return mask


def _from_an_edge(point: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    fw, fh = FRAME_SIZE
    side = int(rng.integers(4))
    along = rng.uniform(0.2, 0.8)
    return np.array([(along * fw, -200), (fw + 200, along * fh), (along * fw, fh + 200),
                     (-200, along * fh)][side])


def hand_shadow(frame: np.ndarray, board_px: np.ndarray, rng: np.random.Generator) -> None:
    """A forearm's soft shadow reaching in from an edge of the frame towards the board."""
    tip = board_px + rng.normal(0, 120, 2)
    arm = _capsule(frame.shape[:2], _from_an_edge(tip, rng), tip, rng.uniform(140, 260))
    arm = cv2.GaussianBlur(arm, (0, 0), rng.uniform(30, 70))
    frame *= (1 - rng.uniform(0.35, 0.6) * arm)[..., None]


def fingertip(frame: np.ndarray, tip: np.ndarray, cell_px: float,
              rng: np.random.Generator) -> None:
    """A finger reaching in from an edge, its tip over one cell, lit from above."""
    width = cell_px * rng.uniform(0.9, 1.2)
    finger = _capsule(frame.shape[:2], _from_an_edge(tip, rng), tip, width)
    cv2.circle(finger, tuple(int(v) for v in tip), int(width / 2), 1.0, -1, cv2.LINE_AA)
    finger = cv2.GaussianBlur(finger, (0, 0), 2.0)
    shading = cv2.GaussianBlur(finger, (0, 0), width / 4)  # rounder, so lighter in the middle
    skin = np.array(SKIN_BGR, np.float32) * (0.6 + 0.5 * shading[..., None])
    frame *= 1 - finger[..., None]
    frame += skin * finger[..., None]


def glare(frame: np.ndarray, board_px: np.ndarray, reach_px: float, cond: Condition,
          rng: np.random.Generator) -> None:
    """The lamp mirrored in the tiles' varnish: bright patches that may clip."""
    fh, fw = frame.shape[:2]
    for _ in range(int(rng.integers(cond.glare[0], cond.glare[1] + 1))):
        cx, cy = board_px + rng.uniform(-1, 1, 2) * reach_px * 0.7
        sx, sy = rng.uniform(0.3, 1.2, 2) * reach_px * 0.12
        x0, x1 = int(max(cx - 4 * sx, 0)), int(min(cx + 4 * sx, fw))
        y0, y1 = int(max(cy - 4 * sy, 0)), int(min(cy + 4 * sy, fh))
        if x1 <= x0 or y1 <= y0:
            continue
        ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        spot = np.exp(-((xs - cx) ** 2 / (2 * sx ** 2) + (ys - cy) ** 2 / (2 * sy ** 2)))
        frame[y0:y1, x0:x1] += rng.uniform(*cond.glare_peak) * spot[..., None]


def cell_px_in_frame(camera: Pinhole) -> float:
    centre, side = camera.project(np.array([[0.0, 0.0], [CELL_RADIUS_MM, 0.0]]), BOARD_MM)
    return float(np.linalg.norm(side - centre))
