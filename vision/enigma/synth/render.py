"""The Enigma table renderer: draw the table a record reaches, then apply camera effects.

The reader's test bed and the demo's camera. The table lies in the frame of the four table
markers (ids 0..3, millimetres, origin in the middle of the rectangle their centres form);
the start tile lies near the middle (:class:`~vision.enigma.geometry.TableGeometry`), every
tile on the grid it anchors, each with a small hand-placement jitter. Networkers stand on
their cells.

:func:`truth_of` gives what a perfect reader prints (``companion read enigma``): tiles as
seen (rotation applied, cells named a, b, c in reading order) and networkers by player
colour.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.enigma.catalogue import Catalogue
from companion.enigma.game import EnigmaState
from companion.enigma.tiles import Pos, Tile, format_tile
from vision.enigma.geometry import TableGeometry, table_geometry
from vision.enigma.layout import layout_tile, seen_positions, seen_tile, spacing_for, turn_point
from vision.enigma.pack import EnigmaPack
from vision.enigma.settings import DEFAULT_TABLE, TableSettings
from vision.enigma.synth.art import draw_networker, tile_face
from vision.markers import paste_layout
from vision.synth.effects import DEFAULT_EFFECTS, EffectResult, apply_effects
from vision.warp import warp_affine

# ---------------------------------------------------------------------------- the view


@dataclass(frozen=True)
class PlacedView:
    """A tile on the table: its own conduit side, rotation, and category (for the icon)."""

    tile: Tile
    rotation: int = 0
    category: str | None = None


@dataclass(frozen=True)
class TableView:
    """What lies on the table: tiles by square and networkers (square, own cell id, colour)."""

    tiles: Mapping[Pos, PlacedView]
    networkers: tuple[tuple[Pos, str, str], ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of_state(
        cls,
        state: EnigmaState,
        pack: EnigmaPack,
        *,
        catalogue: Catalogue | None = None,
        colours: Mapping[str, str] | None = None,
        categories: Mapping[Pos, str] | None = None,
    ) -> TableView:
        """The table of an engine state; players take the pack's networker colours in seat
        order unless ``colours`` maps them. A tile's category (its icon) comes from
        ``categories``, else from the catalogue when all its matches share one category."""
        names = list(pack.networkers)
        player_colour = dict(colours or {})
        for i, player in enumerate(state.players):
            player_colour.setdefault(player, names[i % len(names)])
        tiles: dict[Pos, PlacedView] = {}
        for at, placed in state.board.tiles.items():
            category = (categories or {}).get(at)
            if category is None and catalogue is not None and at != (0, 0):
                kinds = {entry.category for entry, _ in catalogue.matches(placed.tile)}
                if len(kinds) == 1:
                    category = kinds.pop()
            tiles[at] = PlacedView(placed.tile, placed.rotation, category)
        nets = tuple(
            (n.at, n.cell, player_colour[n.player])
            for n in sorted(state.board.networkers(), key=lambda n: (n.at[1], n.at[0], n.cell))
        )
        return cls(tiles, nets, {"start": state.options.start})


def truth_of(view: TableView, pack: EnigmaPack) -> dict[str, Any]:
    """The read-format JSON of a view (confidence 1.0 everywhere)."""
    tiles = []
    names_at: dict[Pos, dict[str, str]] = {}
    for at, placed in sorted(view.tiles.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        seen, names = seen_tile(placed.tile, placed.rotation, pack.ports,
                                  spacing=spacing_for(pack))
        names_at[at] = names
        entry: dict[str, Any] = {"at": [at[0], at[1]], **format_tile(seen), "confidence": 1.0}
        if placed.category is not None and pack.icons:
            entry["category"] = placed.category
        tiles.append(entry)
    networkers = [
        {"at": [at[0], at[1]], "cell": names_at[at][cell], "colour": colour, "confidence": 1.0}
        for at, cell, colour in view.networkers
    ]
    return {"game": "enigma", "tiles": tiles, "networkers": networkers, "questions": []}


# ---------------------------------------------------------------------------- drawing


@dataclass(frozen=True)
class Scene:
    image: np.ndarray
    frame_to_scene: np.ndarray  # marker-frame mm -> scene px
    protect: np.ndarray
    start_mm: tuple[float, float]  # centre of the start tile in the marker frame


def _paste_rotated(
    canvas: np.ndarray,
    face: np.ndarray,
    centre: tuple[float, float],
    side_px: float,
    angle_deg: float,
) -> np.ndarray:
    """Paste a square face centred at ``centre`` (scene px), turned ``angle_deg`` clockwise;
    returns the 2x3 map from face pixels to scene pixels."""
    src = face.shape[0]
    pad = int(math.ceil(side_px * 0.75)) + 2
    x0, y0 = int(centre[0]) - pad, int(centre[1]) - pad
    size = 2 * pad
    m = cv2.getRotationMatrix2D((src / 2, src / 2), -angle_deg, side_px / src)
    m[0, 2] += centre[0] - x0 - src / 2
    m[1, 2] += centre[1] - y0 - src / 2
    patch = warp_affine(face, m, (size, size))
    alpha = warp_affine(np.full((src, src), 255, np.uint8), m, (size, size))
    h, w = canvas.shape[:2]
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(w, x0 + size), min(h, y0 + size)
    if xa < xb and ya < yb:
        a = alpha[ya - y0 : yb - y0, xa - x0 : xb - x0, None].astype(np.float32) / 255
        region = canvas[ya:yb, xa:xb].astype(np.float32)
        p = patch[ya - y0 : yb - y0, xa - x0 : xb - x0].astype(np.float32)
        canvas[ya:yb, xa:xb] = (p * a + region * (1 - a)).astype(np.uint8)
    full = np.vstack([m, [0, 0, 1]])
    shift = np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], np.float64)
    face_to_canvas: np.ndarray = (shift @ full)[:2]
    return face_to_canvas


def _is_pack_start(tile: Tile, pack: EnigmaPack) -> bool:
    return format_tile(tile) == format_tile(pack.start_conduit)


def start_tile_face(tile: Tile, pack: EnigmaPack, side: int) -> np.ndarray:
    """A start tile other than the pack's (a record's ``options.start``): its conduit side in
    the pack's tile style, marked as the start tile by the pack's start star (its size and
    shape) on the bare tile, under the channels and cells."""
    face = tile_face(tile, pack, side)
    bare = np.linalg.norm(face.astype(np.float32) - np.array(pack.colour("tile"), np.float32),
                          axis=-1) < 40
    star = face.copy()
    points = [(0.5 + (0.2 if k % 2 == 0 else 0.09) * math.cos(math.pi * k / 8),
               0.5 + (0.2 if k % 2 == 0 else 0.09) * math.sin(math.pi * k / 8))
              for k in range(16)]
    cv2.fillPoly(star, [np.round(np.array(points) * side * 16).astype(np.int32)],
                 pack.colour("icon"), cv2.LINE_AA, 4)
    cv2.circle(star, (round(side * 8), round(side * 8)), round(side * 0.06 * 16),
               pack.colour("tile"), -1, cv2.LINE_AA, 4)
    face[bare] = star[bare]
    return face


def _scene_box(view: TableView, geometry: TableGeometry, start_offset_mm: tuple[float, float]
               ) -> tuple[float, float, float, float]:
    """The marker-frame rectangle (mm) to draw: the markers with a margin, and the whole
    table, also where it reaches past the markers (the camera then frames it all; the reader
    asks about tiles past the markers)."""
    layout = geometry.layout
    xs = [c[0] for c in layout.centres_mm]
    ys = [c[1] for c in layout.centres_mm]
    margin = layout.size_mm * 1.5
    t = geometry.tile_mm
    tx = [start_offset_mm[0] + at[0] * t for at in view.tiles] or [0.0]
    ty = [start_offset_mm[1] + at[1] * t for at in view.tiles] or [0.0]
    x0 = min(min(xs) - margin, min(tx) - 0.75 * t)
    y0 = min(min(ys) - margin, min(ty) - 0.75 * t)
    x1 = max(max(xs) + margin, max(tx) + 0.75 * t)
    y1 = max(max(ys) + margin, max(ty) + 0.75 * t)
    return x0, y0, x1, y1


def _face(at: Pos, placed: PlacedView, pack: EnigmaPack, face_px: int,
          rng: np.random.Generator) -> np.ndarray:
    """A tile's face as placed (turned by its rotation): the pack's start face for the
    pack's start tile, a drawn start face for another start tile, else the drawn tile."""
    if at == (0, 0) and _is_pack_start(placed.tile, pack):
        return cv2.resize(pack.start, (face_px, face_px), interpolation=cv2.INTER_AREA)
    if at == (0, 0):
        face = start_tile_face(placed.tile, pack, face_px)
    else:
        face = tile_face(placed.tile, pack, face_px, category=placed.category,
                         seed=int(rng.integers(1 << 30)))
    return np.ascontiguousarray(np.rot90(face, k=-placed.rotation))


def _draw_networkers(canvas: np.ndarray, view: TableView, pack: EnigmaPack,
                     cell_maps: dict[Pos, np.ndarray], face_px: int, side_px: float) -> None:
    """Each networker on its cell (``cell_maps``: face pixels -> scene pixels per tile)."""
    for at, cell, colour in view.networkers:
        placed = view.tiles[at]
        spot = layout_tile(placed.tile, pack.ports, spacing=spacing_for(pack)).cells[cell]
        u, v = turn_point(spot, placed.rotation)
        m = cell_maps[at]
        px = m @ np.array([u * face_px, v * face_px, 1.0])
        draw_networker(
            canvas,
            (float(px[0]), float(px[1])),
            pack.networker_radius * side_px,
            pack.networkers[colour],
        )


#: a tile's hand-placement jitter on the table: offset (mm) and turn (degrees), at most
JITTER_MM, JITTER_DEG = 0.6, 0.8


@dataclass(frozen=True)
class _SceneBox:
    """Where the scene lies: its size in pixels, its pixel (0, 0) in the marker frame, the
    start tile's centre (mm) and the map from marker-frame mm to scene pixels."""

    size: tuple[int, int]  # width, height
    origin_mm: tuple[float, float]
    start_mm: tuple[float, float]
    frame_to_scene: np.ndarray


def _scene_place(view: TableView, geometry: TableGeometry, px_per_mm: float,
                 rng: np.random.Generator, start_offset_mm: tuple[float, float] | None
                 ) -> _SceneBox:
    """The scene's box; the start tile's offset is drawn from ``rng`` unless given."""
    t = geometry.tile_mm
    if start_offset_mm is None:
        start_offset_mm = (float(rng.uniform(-0.4, 0.4) * t), float(rng.uniform(-0.4, 0.4) * t))
    x0, y0, x1, y1 = _scene_box(view, geometry, start_offset_mm)
    width = int(round((x1 - x0) * px_per_mm))
    height = int(round((y1 - y0) * px_per_mm))
    frame_to_scene = np.array(
        [[px_per_mm, 0, -x0 * px_per_mm], [0, px_per_mm, -y0 * px_per_mm], [0, 0, 1]], np.float64
    )
    return _SceneBox((width, height), (x0, y0), start_offset_mm, frame_to_scene)


def _draw_table(
    view: TableView,
    pack: EnigmaPack,
    geometry: TableGeometry,
    box: _SceneBox,
    *,
    px_per_mm: float,
    rng: np.random.Generator,
    jitter: tuple[float, float],
    protect: np.ndarray | None,
) -> np.ndarray:
    """The scene's pixels. The tiles and markers are marked on ``protect`` when one is given:
    the mask only the clutter effect reads, it changes no pixel of the scene."""
    (width, height), (x0, y0), start_offset_mm = box.size, box.origin_mm, box.start_mm
    jitter_mm, jitter_deg = jitter
    t = geometry.tile_mm
    canvas = np.empty((height, width, 3), np.uint8)
    canvas[:] = pack.colour("table")
    side_px = t * px_per_mm
    face_px = max(48, int(round(side_px)))
    cell_maps: dict[Pos, np.ndarray] = {}
    for at, placed in sorted(view.tiles.items()):
        cx_mm = start_offset_mm[0] + at[0] * t + float(rng.uniform(-jitter_mm, jitter_mm))
        cy_mm = start_offset_mm[1] + at[1] * t + float(rng.uniform(-jitter_mm, jitter_mm))
        angle = float(rng.uniform(-jitter_deg, jitter_deg))
        centre = ((cx_mm - x0) * px_per_mm, (cy_mm - y0) * px_per_mm)
        face = _face(at, placed, pack, face_px, rng)
        cell_maps[at] = _paste_rotated(canvas, face, centre, side_px, angle)
        if protect is not None:
            half = int(side_px * 0.75)
            protect[
                max(0, int(centre[1]) - half) : int(centre[1]) + half,
                max(0, int(centre[0]) - half) : int(centre[0]) + half,
            ] = 255
    _draw_networkers(canvas, view, pack, cell_maps, face_px, side_px)
    paste_layout(canvas, geometry.layout, origin_mm=(x0, y0), px_per_mm=px_per_mm,
                 protect=protect)
    return canvas


def render_scene(
    view: TableView,
    pack: EnigmaPack,
    geometry: TableGeometry,
    *,
    px_per_mm: float = 2.0,
    seed: int = 0,
    start_offset_mm: tuple[float, float] | None = None,
    jitter_mm: float = JITTER_MM,
    jitter_deg: float = JITTER_DEG,
) -> Scene:
    """The table seen straight down, in marker-frame coordinates scaled by ``px_per_mm``."""
    rng = np.random.default_rng(seed)
    box = _scene_place(view, geometry, px_per_mm, rng, start_offset_mm)
    protect = np.zeros((box.size[1], box.size[0]), np.uint8)
    canvas = _draw_table(view, pack, geometry, box, px_per_mm=px_per_mm, rng=rng,
                         jitter=(jitter_mm, jitter_deg), protect=protect)
    return Scene(canvas, box.frame_to_scene, protect, box.start_mm)


@dataclass(frozen=True)
class RenderedFrame:
    image: np.ndarray
    truth: dict[str, Any]
    effects: EffectResult
    scene: Scene
    #: per tile, where each seen cell lies on it (tile units): to score reads by position
    cell_xy: dict[Pos, dict[str, tuple[float, float]]] = field(default_factory=dict)


def _camera_px_per_mm(geo: TableGeometry, frame_size: tuple[int, int]) -> float:
    """About 1.3x the camera's own resolution, so the camera does not magnify the scene."""
    frame_w, frame_h = geo.frame_mm[0] + 4 * geo.layout.size_mm, geo.frame_mm[1]
    return max(1.0, 1.3 * min(frame_size[0] / frame_w, frame_size[1] / frame_h))


def _through_camera(image: np.ndarray, protect: np.ndarray | None, seed: int,
                    effects: Sequence[str], frame_size: tuple[int, int], max_tilt_deg: float,
                    *, overwrite_scene: bool = False) -> EffectResult:
    """The scene as the camera sees it, with the effects of ``seed`` (drawn over ``image``
    when ``overwrite_scene``: its caller keeps no scene)."""
    return apply_effects(image, np.random.default_rng(seed + 7919), list(effects),
                         frame_size=frame_size, protect=protect, max_tilt_deg=max_tilt_deg,
                         overwrite_scene=overwrite_scene)


def render_frame(
    view: TableView,
    pack: EnigmaPack,
    *,
    table: TableSettings = DEFAULT_TABLE,
    geometry: TableGeometry | None = None,
    seed: int = 0,
    effects: Sequence[str] = DEFAULT_EFFECTS,
    frame_size: tuple[int, int] = (1280, 720),
    max_tilt_deg: float = 25.0,
    px_per_mm: float | None = None,
) -> RenderedFrame:
    """Render a view as a camera frame with seeded effects, plus its truth. The table lies
    where ``table`` says, unless ``geometry`` is given."""
    geo = geometry or table_geometry(table, pack)
    if px_per_mm is None:
        px_per_mm = _camera_px_per_mm(geo, frame_size)
    scene = render_scene(view, pack, geo, px_per_mm=px_per_mm, seed=seed)
    result = _through_camera(scene.image, scene.protect, seed, effects, frame_size, max_tilt_deg)
    cell_xy = {at: seen_positions(placed.tile, placed.rotation, pack.ports,
                                     spacing=spacing_for(pack))
               for at, placed in view.tiles.items()}
    return RenderedFrame(result.image, truth_of(view, pack), result, scene, cell_xy)


def render_camera_image(
    view: TableView,
    pack: EnigmaPack,
    *,
    table: TableSettings = DEFAULT_TABLE,
    seed: int = 0,
    effects: Sequence[str] = DEFAULT_EFFECTS,
    frame_size: tuple[int, int] = (1280, 720),
    max_tilt_deg: float = 25.0,
) -> np.ndarray:
    """The camera frame alone (the demo camera's): the pixels of :func:`render_frame`'s
    image to the bit, without its truth, scene or effect log. The pieces' mask is drawn only
    when an effect reads it (clutter), so the camera effects, the high of the render, do not
    run beside a mask nobody uses (1.4 MB at 1280x720); nothing of the scene is returned."""
    geo = table_geometry(table, pack)
    px_per_mm = _camera_px_per_mm(geo, frame_size)
    rng = np.random.default_rng(seed)
    box = _scene_place(view, geo, px_per_mm, rng, None)
    protect = np.zeros((box.size[1], box.size[0]), np.uint8) if "clutter" in effects else None
    image = _draw_table(view, pack, geo, box, px_per_mm=px_per_mm, rng=rng,
                        jitter=(JITTER_MM, JITTER_DEG), protect=protect)
    # nothing of the scene is returned: the effects draw over it rather than beside it
    return _through_camera(image, protect, seed, effects, frame_size, max_tilt_deg,
                           overwrite_scene=True).image


__all__ = [
    "JITTER_DEG",
    "JITTER_MM",
    "PlacedView",
    "RenderedFrame",
    "Scene",
    "TableView",
    "render_camera_image",
    "render_frame",
    "render_scene",
    "start_tile_face",
    "truth_of",
]
