"""The Indigo renderer: draw any engine state with any art pack, then apply camera effects.

This is the reader's test bed and the demo's camera. :func:`render_scene` draws the table top
down (markers, rim, chips, cells, tiles, gems) in the marker frame; :func:`render_frame` adds
seeded camera effects and returns the frame with its ground truth in the read format
(:func:`truth_of`), the same JSON that ``companion read indigo`` prints.

For the UI demo::

    camera = rendered_camera(lambda: session_state, pack=pack, settings=settings, seed=7)
    with camera:
        frame = camera.read()          # BGR, 1280x720 by default
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from companion.indigo import CELLS, CENTRE, CORNER_BY_CELL, CORNERS
from companion.indigo.geometry import Cell
from companion.indigo.state import IndigoState
from vision.camera import RenderedCamera
from vision.indigo.board import (
    BoardGeometry,
    cell_xy,
    centre_stock_spots,
    chip_spaces,
    point_xy,
    rim_polygon,
)
from vision.indigo.pack import IndigoPack
from vision.indigo.settings import DEFAULT_SETTINGS, IndigoSettings
from vision.indigo.view import BoardView, truth_of
from vision.markers import paste_layout
from vision.synth.effects import DEFAULT_EFFECTS, EffectResult, apply_effects

#: scene resolution: pixels per cell radius (the camera frame is scaled from this)
SCENE_CELL_PX = 30.0


# ---------------------------------------------------------------- drawing


@lru_cache(maxsize=256)
def _hex_mask(size: int) -> np.ndarray:
    mask = np.zeros((size, size), np.uint8)
    c = (size - 1) / 2
    pts = np.array(
        [
            [
                c + size / 2 * math.cos(math.radians(-90 + 60 * i)),
                c + size / 2 * math.sin(math.radians(-90 + 60 * i)),
            ]
            for i in range(6)
        ]
    )
    cv2.fillPoly(mask, [np.round(pts * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    return mask


def place_cell_image(
    canvas: np.ndarray,
    image: np.ndarray,
    centre: tuple[float, float],
    radius_px: float,
    angle_deg: float,
) -> None:
    """Paste a pack hexagon image centred at ``centre``, turned ``angle_deg`` clockwise."""
    src = image.shape[0]
    side = int(math.ceil(radius_px * 2)) + 4
    x0 = int(math.floor(centre[0] - side / 2))
    y0 = int(math.floor(centre[1] - side / 2))
    scale = 2 * radius_px / src
    m = cv2.getRotationMatrix2D((src / 2, src / 2), -angle_deg, scale)
    m[0, 2] += centre[0] - x0 - src / 2
    m[1, 2] += centre[1] - y0 - src / 2
    patch = cv2.warpAffine(image, m, (side, side), flags=cv2.INTER_AREA)
    alpha = cv2.warpAffine(_hex_mask(src), m, (side, side), flags=cv2.INTER_LINEAR)
    h, w = canvas.shape[:2]
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(w, x0 + side), min(h, y0 + side)
    if xa >= xb or ya >= yb:
        return
    a = alpha[ya - y0 : yb - y0, xa - x0 : xb - x0, None].astype(np.float32) / 255
    region = canvas[ya:yb, xa:xb].astype(np.float32)
    p = patch[ya - y0 : yb - y0, xa - x0 : xb - x0].astype(np.float32)
    canvas[ya:yb, xa:xb] = (p * a + region * (1 - a)).astype(np.uint8)


def draw_disc(
    canvas: np.ndarray, centre: tuple[float, float], radius: float, colour: Any
) -> None:
    """A glass gem or chip: filled disc, darker rim, small highlight."""
    s = 4
    c = (int(round(centre[0] * 16)), int(round(centre[1] * 16)))
    r = int(round(radius * 16))
    dark = tuple(int(v * 0.65) for v in colour)
    cv2.circle(canvas, c, r, dark, -1, cv2.LINE_AA, s)
    cv2.circle(canvas, c, int(r * 0.82), tuple(int(v) for v in colour), -1, cv2.LINE_AA, s)
    hl = (int(c[0] - r * 0.3), int(c[1] - r * 0.3))
    light = tuple(min(255, int(v * 0.5 + 128)) for v in colour)
    cv2.circle(canvas, hl, max(16, int(r * 0.22)), light, -1, cv2.LINE_AA, s)


@dataclass(frozen=True)
class Scene:
    image: np.ndarray
    frame_to_scene: np.ndarray  # marker-frame mm -> scene px
    board_to_scene: np.ndarray  # board units -> scene px
    protect: np.ndarray  # board and markers (clutter stays off)


def scene_frame(geometry: BoardGeometry, cell_px: float, *, margin_markers: float
                ) -> tuple[float, tuple[float, float], tuple[int, int], np.ndarray]:
    """The straight-down scene round the marker layout, ``margin_markers`` marker sizes past
    it: (px per mm, its corner in marker-frame mm, (width, height) px, marker frame -> scene
    px)."""
    layout = geometry.layout
    px_per_mm = cell_px / geometry.cell_radius_mm
    xs = [c[0] for c in layout.centres_mm]
    ys = [c[1] for c in layout.centres_mm]
    margin = layout.size_mm * margin_markers
    x0, y0 = min(xs) - margin, min(ys) - margin
    width = int(round((max(xs) - min(xs) + 2 * margin) * px_per_mm))
    height = int(round((max(ys) - min(ys) + 2 * margin) * px_per_mm))
    frame_to_scene = np.array(
        [[px_per_mm, 0, -x0 * px_per_mm], [0, px_per_mm, -y0 * px_per_mm], [0, 0, 1]], np.float64
    )
    return px_per_mm, (x0, y0), (width, height), frame_to_scene


def render_scene(
    view: BoardView,
    pack: IndigoPack,
    geometry: BoardGeometry,
    *,
    cell_px: float = SCENE_CELL_PX,
) -> Scene:
    """The table seen straight down, in marker-frame coordinates scaled to ``cell_px``."""
    layout = geometry.layout
    px_per_mm, (x0, y0), (width, height), frame_to_scene = scene_frame(
        geometry, cell_px, margin_markers=1.5)
    board_to_scene = frame_to_scene @ geometry.board_to_frame()
    canvas = np.empty((height, width, 3), np.uint8)
    canvas[:] = pack.table
    protect = np.zeros((height, width), np.uint8)
    rim = _to_scene(rim_polygon(), board_to_scene)
    cv2.fillPoly(canvas, [np.round(rim * 16).astype(np.int32)], pack.rim, cv2.LINE_AA, 4)
    cv2.fillPoly(protect, [np.round(rim).astype(np.int32)], 255)
    _draw_chips(canvas, view, pack, board_to_scene, cell_px)
    _draw_cells(canvas, view, pack, board_to_scene, cell_px, geometry.rotation_deg)
    _draw_gems(canvas, view, pack, board_to_scene, cell_px)
    paste_layout(canvas, layout, origin_mm=(x0, y0), px_per_mm=px_per_mm, protect=protect,
                 quiet_zone=0.3)
    return Scene(canvas, frame_to_scene, board_to_scene, protect)


def _to_scene(pts: np.ndarray, board_to_scene: np.ndarray) -> np.ndarray:
    """Board-unit points as scene pixels."""
    p = np.asarray(pts, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(p, board_to_scene).reshape(-1, 2)


def _draw_chips(
    canvas: np.ndarray,
    view: BoardView,
    pack: IndigoPack,
    board_to_scene: np.ndarray,
    r_px: float,
) -> None:
    """The chip spaces on the rim, and the view's chips on them."""
    for gate, slot, xy in chip_spaces():
        centre = _to_scene(np.array([xy]), board_to_scene)[0]
        draw_disc(canvas, centre, pack.chip_size * 1.15 * r_px, pack.chip_space)
        if view.chips is not None:
            player = view.chips[gate][slot]
            names = list(pack.chips)
            if player < len(names):
                draw_disc(canvas, centre, pack.chip_size * r_px, pack.chips[names[player]])


def _draw_cells(
    canvas: np.ndarray,
    view: BoardView,
    pack: IndigoPack,
    board_to_scene: np.ndarray,
    r_px: float,
    angle: float,
) -> None:
    """Every cell: the treasure tiles, the view's route tiles, the empty cells."""
    for cell in CELLS:
        centre = _to_scene(np.array([cell_xy(cell)]), board_to_scene)[0]
        if cell == CENTRE:
            place_cell_image(canvas, pack.centre, centre, r_px, angle)
        elif cell in CORNER_BY_CELL:
            turn = (CORNER_BY_CELL[cell].arrow_edge - 3) * 60
            place_cell_image(canvas, pack.corner, centre, r_px, angle + turn)
        elif cell in view.tiles:
            tile = view.tiles[cell]
            place_cell_image(
                canvas, pack.tiles[tile.kind], centre, r_px, angle + 60 * tile.rotation
            )
        else:
            place_cell_image(canvas, pack.empty, centre, r_px, angle)


def _draw_gems(
    canvas: np.ndarray,
    view: BoardView,
    pack: IndigoPack,
    board_to_scene: np.ndarray,
    r_px: float,
) -> None:
    """The gems resting on edge points, then those left on the centre tile."""
    gem_r = pack.gem_size * r_px
    for point, gem in view.gems.items():
        centre = _to_scene(np.array([point_xy(point)]), board_to_scene)[0]
        draw_disc(canvas, centre, gem_r, pack.gems[gem.value])
    spots = centre_stock_spots()
    for gem, spot in zip(view.centre, spots, strict=False):
        centre = _to_scene(np.array([spot]), board_to_scene)[0]
        draw_disc(canvas, centre, gem_r, pack.gems[gem.value])


@dataclass(frozen=True)
class RenderedFrame:
    image: np.ndarray
    truth: dict[str, Any]
    effects: EffectResult
    scene: Scene


def render_frame(
    view: BoardView | IndigoState,
    pack: IndigoPack,
    *,
    settings: IndigoSettings = DEFAULT_SETTINGS,
    seed: int = 0,
    effects: Sequence[str] = DEFAULT_EFFECTS,
    frame_size: tuple[int, int] = (1280, 720),
    max_tilt_deg: float = 30.0,
    cell_px: float | None = None,
) -> RenderedFrame:
    """Render a state or view as a camera frame with seeded effects, plus its truth."""
    if isinstance(view, IndigoState):
        view = BoardView.of_state(view)
    if cell_px is None:
        # enough scene resolution that the camera does not magnify it much
        cell_px = max(12.0, min(SCENE_CELL_PX * 1.5, frame_size[1] / 26))
    scene = render_scene(view, pack, settings.geometry, cell_px=cell_px)
    result = apply_effects(
        scene.image,
        np.random.default_rng(seed),
        list(effects),
        frame_size=frame_size,
        protect=scene.protect,
        max_tilt_deg=max_tilt_deg,
    )
    return RenderedFrame(result.image, truth_of(view, pack), result, scene)


def rendered_camera(
    current_state: Callable[[], IndigoState | BoardView],
    *,
    pack: IndigoPack,
    settings: IndigoSettings = DEFAULT_SETTINGS,
    seed: int = 0,
    effects: Sequence[str] = DEFAULT_EFFECTS,
    frame_size: tuple[int, int] = (1280, 720),
) -> RenderedCamera:
    """A camera source that renders ``current_state()`` on every read (the demo's camera).

    The seed advances with every frame so the noise moves like a real sensor's, while a run
    stays reproducible.
    """
    counter = {"n": 0}

    def render() -> np.ndarray:
        counter["n"] += 1
        return render_frame(
            current_state(),
            pack,
            settings=settings,
            seed=seed + counter["n"],
            effects=effects,
            frame_size=frame_size,
        ).image

    return RenderedCamera(render, name="rendered-indigo")


def corner_cells() -> list[Cell]:
    return [c.cell for c in CORNERS]
