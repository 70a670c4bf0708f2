"""An Indigo table as a camera really sees it (issue 20): the renderer's harsh test bed.

:func:`render_table_frame` draws any board view with any art pack's tiles on a printed board
in the real board's colours (deep-blue cells, an orange rim with gold chip spaces), with what
hands and light do to it:

- tiles laid by hand (offsets of up to 2 mm, turns of up to 5 degrees, gaps between them),
  standing ``TILE_MM`` above the board, itself ``BOARD_MM`` above the table and its markers;
- faceted glossy gems (:mod:`vision.indigo.synth.gems`) in their real, darker colours, resting
  on edges with some jitter, and the centre stock as a heap of touching gems anywhere on the
  centre tile;
- a camera (:mod:`vision.indigo.synth.table_camera`) that projects every layer at its own
  height, then glare, a hand's shadow, a fingertip, white balance, lens, blur, noise and JPEG.

The truth is the view itself (:func:`~vision.indigo.view.truth_of`); ``log`` says what the
conditions were, and which cells a finger or a glare patch covers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.indigo import CELLS, CENTRE, CORNER_BY_CELL
from companion.indigo.state import IndigoState
from vision.art_pack import BGR, parse_colour
from vision.indigo.board import cell_xy, chip_spaces, point_xy, rim_polygon
from vision.indigo.pack import IndigoPack
from vision.indigo.settings import DEFAULT_SETTINGS, IndigoSettings
from vision.indigo.synth.gems import REAL_GEM_BODY, draw_gem, draw_gem_shadow, gem_look
from vision.indigo.synth.render import draw_disc, place_cell_image, scene_frame
from vision.indigo.synth.table_camera import (
    HARSH,
    Conditions,
    add_fingertip,
    add_glare,
    add_hand_shadow,
    add_uneven_light,
    blur,
    choose_pose,
    lens_and_aberration,
    sensor_and_file,
    warp_layer,
)
from vision.indigo.view import BoardView, truth_of
from vision.markers import paste_layout

#: heights above the table, mm: the board's cardboard, a tile on it, a gem's middle on a tile
BOARD_MM = 2.0
TILE_MM = 2.2
GEM_MID_MM = 3.0
#: a hand-placed tile: most offset (mm) and turn (degrees); tiles are this share of a cell
HAND_OFFSET_MM = 2.0
HAND_TURN_DEG = 5.0
TILE_SCALE = 0.96
#: a resting gem lies this far off its edge point, along and across the edge (cell radii)
GEM_JITTER = (0.15, 0.08)
#: the centre heap: gems lie within this radius of the centre (cell radii), at least this
#: share of a gem diameter apart (they touch and overlap a little)
HEAP_RADIUS = 0.55
HEAP_MIN_APART = 0.8


@dataclass(frozen=True)
class PrintedBoard:
    """The board's printed look under the tiles: empty cells, rim, chip spaces."""

    name: str
    cell: BGR
    cell_line: BGR
    rim: BGR
    chip_space: BGR


#: the real board's colours: deep-blue cells with a lighter outline, an orange gateway rim
REAL_BOARD = PrintedBoard(
    name="real",
    cell=parse_colour("#1a2656"),
    cell_line=parse_colour("#3b4f8c"),
    rim=parse_colour("#e07a1f"),
    chip_space=parse_colour("#c8962c"),
)


def printed_cell(board: PrintedBoard, size: int = 128) -> np.ndarray:
    """An empty cell of the printed board (pointy-top hexagon inscribed in a square)."""
    img = np.full((size, size, 3), board.cell, np.uint8)
    c = size / 2
    for scale, width in ((0.97, max(1, size // 40)), (0.82, max(1, size // 90))):
        pts = np.array([[c + scale * c * math.cos(math.radians(-90 + 60 * i)),
                         c + scale * c * math.sin(math.radians(-90 + 60 * i))] for i in range(6)])
        cv2.polylines(img, [pts.astype(np.int32)], True, board.cell_line, width, cv2.LINE_AA)
    return img


@dataclass(frozen=True)
class TableFrame:
    image: np.ndarray
    truth: dict[str, Any]
    log: dict[str, Any]


@dataclass
class _Layers:
    px_per_mm: float
    origin_mm: tuple[float, float]
    board_to_scene: np.ndarray
    cell_px: float
    table: np.ndarray
    board: np.ndarray
    board_alpha: np.ndarray
    tiles: np.ndarray
    tiles_alpha: np.ndarray
    gems: np.ndarray
    gems_alpha: np.ndarray


def _scene_point(xy: tuple[float, float], layers: _Layers) -> tuple[float, float]:
    p = layers.board_to_scene @ np.array([xy[0], xy[1], 1.0])
    return (float(p[0] / p[2]), float(p[1] / p[2]))


def _new_layers(pack: IndigoPack, settings: IndigoSettings, cell_px: float) -> _Layers:
    geometry = settings.geometry
    px_per_mm, (x0, y0), (width, height), to_scene = scene_frame(
        geometry, cell_px, margin_markers=1.2)
    table = np.empty((height, width, 3), np.uint8)
    table[:] = pack.table
    paste_layout(table, geometry.layout, origin_mm=(x0, y0), px_per_mm=px_per_mm, quiet_zone=0.3)
    zeros = np.zeros((height, width), np.uint8)
    return _Layers(px_per_mm, (x0, y0), to_scene @ geometry.board_to_frame(), cell_px, table,
                   table.copy(), zeros.copy(), table.copy(), zeros.copy(), table.copy(),
                   zeros.copy())


def _draw_board(layers: _Layers, view: BoardView, pack: IndigoPack, board: PrintedBoard,
                angle: float) -> None:
    rim = np.array([_scene_point(tuple(p), layers) for p in rim_polygon()])
    pts = np.round(rim * 16).astype(np.int32)
    cv2.fillPoly(layers.board, [pts], board.rim, cv2.LINE_AA, 4)
    cv2.fillPoly(layers.board_alpha, [pts], 255, cv2.LINE_AA, 4)
    r = layers.cell_px
    cell_image = printed_cell(board)
    for cell in CELLS:
        place_cell_image(layers.board, cell_image, _scene_point(cell_xy(cell), layers), r, angle)
    names = list(pack.chips)
    for gate, slot, xy in chip_spaces():
        centre = _scene_point(xy, layers)
        draw_disc(layers.board, centre, pack.chip_size * 1.15 * r, board.chip_space)
        if view.chips is not None and view.chips[gate][slot] < len(names):
            colour = pack.chips[names[view.chips[gate][slot]]]
            draw_disc(layers.board, centre, pack.chip_size * r, colour)


def _draw_tiles(layers: _Layers, view: BoardView, pack: IndigoPack, angle: float,
                rng: np.random.Generator, cell_radius_mm: float) -> None:
    r = layers.cell_px
    for cell in CELLS:
        if cell == CENTRE:
            image, turn = pack.centre, 0.0
        elif cell in CORNER_BY_CELL:
            image, turn = pack.corner, (CORNER_BY_CELL[cell].arrow_edge - 3) * 60.0
        elif cell in view.tiles:
            tile = view.tiles[cell]
            image, turn = pack.tiles[tile.kind], 60.0 * tile.rotation
        else:
            continue
        off = rng.uniform(-1, 1, 2) * HAND_OFFSET_MM * layers.px_per_mm
        x, y = _scene_point(cell_xy(cell), layers)
        centre = (x + float(off[0]), y + float(off[1]))
        hand = float(rng.uniform(-HAND_TURN_DEG, HAND_TURN_DEG))
        place_cell_image(layers.tiles, image, centre, r * TILE_SCALE, angle + turn + hand)
        pts = [(centre[0] + r * TILE_SCALE * math.cos(math.radians(-90 + 60 * i + angle + hand)),
                centre[1] + r * TILE_SCALE * math.sin(math.radians(-90 + 60 * i + angle + hand)))
               for i in range(6)]
        cv2.fillPoly(layers.tiles_alpha, [np.round(np.array(pts) * 16).astype(np.int32)], 255,
                     cv2.LINE_AA, 4)
    del cell_radius_mm


def _heap(rng: np.random.Generator, count: int, gem_size: float) -> list[tuple[float, float]]:
    """Where ``count`` centre gems lie, in board units: a heap, touching, anywhere."""
    out: list[tuple[float, float]] = []
    reach = HEAP_RADIUS - gem_size * 0.3
    for _ in range(count):
        best = None
        for _try in range(60):
            a, d = rng.uniform(0, 2 * math.pi), reach * math.sqrt(rng.uniform(0, 1))
            p = (d * math.cos(a), d * math.sin(a))
            if all(math.dist(p, q) >= HEAP_MIN_APART * 2 * gem_size for q in out):
                best = p
                break
        if best is None:  # no room left: on top of the others, a little off
            best = (float(rng.uniform(-reach, reach)), float(rng.uniform(-reach, reach)))
        out.append(best)
    return out


def _gem_places(view: BoardView, pack: IndigoPack,
                rng: np.random.Generator) -> list[tuple[str, tuple[float, float]]]:
    out = []
    for point, gem in view.gems.items():
        x, y = point_xy(point)
        ex, ey = cell_xy(point[0])
        # along the edge (perpendicular to the cell-to-edge direction) and across it
        nx, ny = x - ex, y - ey
        norm = math.hypot(nx, ny) or 1.0
        nx, ny = nx / norm, ny / norm
        along, across = rng.uniform(-1, 1) * GEM_JITTER[0], rng.uniform(-1, 1) * GEM_JITTER[1]
        out.append((gem.value, (x - ny * along + nx * across, y + nx * along + ny * across)))
    cx, cy = cell_xy(CENTRE)
    for gem, (hx, hy) in zip(view.centre, _heap(rng, len(view.centre), pack.gem_size),
                             strict=True):
        out.append((gem.value, (cx + hx, cy + hy)))
    return out


def _draw_gems(layers: _Layers, view: BoardView, pack: IndigoPack, rng: np.random.Generator,
               bodies: dict[str, BGR]) -> None:
    gem_r = pack.gem_size * layers.cell_px
    light_dir = float(rng.uniform(0, 2 * math.pi))
    for name, xy in _gem_places(view, pack, rng):
        centre = _scene_point(xy, layers)
        draw_gem_shadow(layers.tiles, centre, gem_r, light_dir)
        look = gem_look(bodies[name], rng)
        draw_gem(layers.gems, layers.gems_alpha, centre, gem_r * float(rng.uniform(0.92, 1.08)),
                 look)


def render_table_frame(
    view: BoardView | IndigoState,
    pack: IndigoPack,
    *,
    settings: IndigoSettings = DEFAULT_SETTINGS,
    seed: int = 0,
    conditions: Conditions = HARSH,
    frame_size: tuple[int, int] = (2304, 1296),
    board: PrintedBoard = REAL_BOARD,
    gem_bodies: dict[str, BGR] | None = None,
) -> TableFrame:
    """A seeded camera frame of the table under ``conditions``, with its truth and log."""
    if isinstance(view, IndigoState):
        view = BoardView.of_state(view)
    rng = np.random.default_rng(seed)
    geometry = settings.geometry
    board_across = 2 * geometry.radius_mm
    cell_px = 1.3 * conditions.board_fill[1] * frame_size[1] / (2 * 10.2)
    layers = _new_layers(pack, settings, cell_px)
    _draw_board(layers, view, pack, board, geometry.rotation_deg)
    _draw_tiles(layers, view, pack, geometry.rotation_deg, rng, geometry.cell_radius_mm)
    _draw_gems(layers, view, pack, rng, gem_bodies or REAL_GEM_BODY)
    half = geometry.layout.size_mm / 2
    markers = np.array([[x + sx * half, y + sy * half]
                        for x, y in geometry.layout.centres_mm for sx in (-1, 1) for sy in (-1, 1)])
    pose, log = choose_pose(rng, conditions, frame_size, geometry.centre_mm, board_across, markers)
    s, (x0, y0) = layers.px_per_mm, layers.origin_mm
    from_scene = np.linalg.inv(np.array([[s, 0, -x0 * s], [0, s, -y0 * s], [0, 0, 1]]))
    frame = np.zeros((frame_size[1], frame_size[0], 3), np.uint8)
    frame = warp_layer(frame, layers.table, None, pose.plane_homography(0.0) @ from_scene)
    gem_mm = BOARD_MM + TILE_MM + GEM_MID_MM
    for colour, alpha, height in ((layers.board, layers.board_alpha, BOARD_MM),
                                  (layers.tiles, layers.tiles_alpha, BOARD_MM + TILE_MM),
                                  (layers.gems, layers.gems_alpha, gem_mm)):
        frame = warp_layer(frame, colour, alpha, pose.plane_homography(height) @ from_scene)
    radiance, conditions_log = _frame_conditions(frame, rng, conditions, view, pose, geometry)
    log.update(conditions_log)
    frame, lens_log = _optics(radiance, rng, conditions)
    log.update(lens_log)
    return TableFrame(frame, truth_of(view, pack), log)


def _cell_in_frame(cell: tuple[int, int], pose: Any, geometry: Any) -> tuple[float, float]:
    p = pose.plane_homography(BOARD_MM + TILE_MM) @ geometry.board_to_frame() @ np.array(
        [*cell_xy(cell), 1.0])
    return (float(p[0] / p[2]), float(p[1] / p[2]))


def _frame_conditions(frame: np.ndarray, rng: np.random.Generator, c: Conditions,
                      view: BoardView, pose: Any, geometry: Any
                      ) -> tuple[np.ndarray, dict[str, Any]]:
    """A hand's shadow, a fingertip, uneven light (in place) and glare: the light reaching
    the lens as float32 radiance, and what was done."""
    log: dict[str, Any] = {}
    a = np.array(_cell_in_frame((0, 0), pose, geometry))
    b = np.array(_cell_in_frame((1, 0), pose, geometry))
    cell_px = float(np.linalg.norm(a - b)) / math.sqrt(3)
    cells = sorted(view.tiles) or [CENTRE]
    if rng.uniform() < c.shadow_chance:
        add_hand_shadow(frame, rng)
        log["hand_shadow"] = True
    if rng.uniform() < c.finger_chance:
        pick = cells[int(rng.integers(len(cells)))]
        add_fingertip(frame, rng, _cell_in_frame(pick, pose, geometry), 0.9 * cell_px)
        log["finger"] = list(pick)
    add_uneven_light(frame, rng, float(rng.uniform(*c.light_depth)))
    # a lamp's reflection is far brighter than the lit table: it clips whatever the falloff
    if rng.uniform() < c.glare_chance:
        picks = [cells[int(rng.integers(len(cells)))] for _ in range(int(rng.integers(1, 3)))]
        log["glare"] = [list(p) for p in picks]
        return add_glare(frame, rng, [_cell_in_frame(p, pose, geometry) for p in picks],
                         cell_px), log
    return frame.astype(np.float32), log


def _optics(frame: np.ndarray, rng: np.random.Generator,
            c: Conditions) -> tuple[np.ndarray, dict[str, Any]]:
    k1 = float(rng.uniform(*c.lens_k1))
    ca = float(rng.uniform(-c.chromatic, c.chromatic))
    frame = lens_and_aberration(frame, k1, ca)
    frame, blur_log = blur(frame, rng, c)
    frame, sensor_log = sensor_and_file(frame, rng, c)
    return frame, {"k1": round(k1, 3), "chromatic": round(ca, 4), **blur_log, **sensor_log}
