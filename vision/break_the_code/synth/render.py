"""Render Break the Code tiles on the code mat, then through seeded camera effects.

The scene is the mat seen straight down with tiles laid in its slots (row by row, A to E), each
nudged and turned a little as a hand would lay it, with a soft shadow. :func:`render_frame`
passes the scene through :func:`vision.synth.effects.apply_effects` and returns the frame with its
ground truth. Used by ``companion render code``, the tests and the benchmark.

Tiles are given as a list, not a :class:`Code`, so that a test can also lay out a set that no
box holds or that is out of rack order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.break_the_code.tiles import Tile
from vision.break_the_code.mat import SHEET_MM, SLOTS, mat_image
from vision.break_the_code.pack import CodePack
from vision.break_the_code.synth.art import STYLES, Style, draw_tile
from vision.synth.effects import DEFAULT_EFFECTS, EffectResult, apply_effects

SCENE_PX_PER_MM = 5.0
FRAME_SIZE = (1280, 960)

#: the share of a thick tile's thickness the camera sees as its side
SIDE_SEEN = (0.4, 1.0)
#: how far (mm) and how much (degrees) a hand lays a tile off its slot by default
JITTER_MM = 2.0
MAX_TURN_DEG = 4.0


@dataclass(frozen=True)
class PlacedTile:
    """Ground truth for one tile: where it lies on the mat (mm) and how it is turned."""

    tile: Tile
    slot: int
    centre_mm: tuple[float, float]
    angle_deg: float


@dataclass(frozen=True)
class CodeScene:
    image: np.ndarray
    protect: np.ndarray
    placed: tuple[PlacedTile, ...]


def _face(tile: Tile, look: Style | CodePack, px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(look, Style):
        return draw_tile(tile, look, px_per_mm=px_per_mm)
    w = round(look.tile_mm[0] * px_per_mm)
    h = round(look.tile_mm[1] * px_per_mm)
    face = cv2.resize(look.tiles[str(tile)], (w, h), interpolation=cv2.INTER_LINEAR)
    return face, np.full((h, w), 255, np.uint8)


#: the tile's shadow: its offset down and to the right (mm; the tile stands a few millimetres
#: high), its softness (Gaussian sigma, mm) and how much light it takes away at its darkest
SHADOW_OFFSET_MM = (0.9, 1.2)
SHADOW_SIGMA_MM = 0.8
SHADOW_DEPTH = 0.28


@dataclass(frozen=True)
class TileSide:
    """The side of a thick tile as the camera sees it: the face is moved this far (mm) from
    where the tile stands, and the band between is the side, of ``colour``."""

    shift_mm: tuple[float, float]
    colour: tuple[float, float, float]


def _side_alpha(mask: np.ndarray, shift_px: tuple[float, float]) -> np.ndarray:
    """The side's coverage (0..255): the face's outline swept from where the tile stands
    (``shift_px`` behind the face) up to the face."""
    steps = max(1, int(np.ceil(np.hypot(*shift_px))))
    swept = np.zeros_like(mask)
    for t in np.linspace(0.0, 1.0, steps + 1):
        move = np.array([[1, 0, t * shift_px[0]], [0, 1, t * shift_px[1]]], np.float32)
        np.maximum(swept, cv2.warpAffine(mask, move, mask.shape[::-1]), out=swept)
    return swept


def _lay_tile(canvas: np.ndarray, face: np.ndarray, mask: np.ndarray,
              centre_mm: tuple[float, float], angle: float, px_per_mm: float,
              side: TileSide | None = None) -> None:
    """Lay one tile face (turned by ``angle`` about its centre) with its soft shadow, and its
    side when it is thick, on the float canvas, in place."""
    cx, cy = centre_mm
    h, w = mask.shape
    # Work in a window around the tile only: rotate about the tile centre into it.
    reach = 3.0 + (float(np.hypot(*side.shift_mm)) if side is not None else 0.0)
    half = int(np.hypot(w, h) / 2 + reach * px_per_mm)
    x0 = max(0, round(cx * px_per_mm) - half)
    y0 = max(0, round(cy * px_per_mm) - half)
    x1 = min(canvas.shape[1], round(cx * px_per_mm) + half)
    y1 = min(canvas.shape[0], round(cy * px_per_mm) + half)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[0, 2] += cx * px_per_mm - w / 2 - x0
    m[1, 2] += cy * px_per_mm - h / 2 - y0
    size = (x1 - x0, y1 - y0)
    warped_mask = cv2.warpAffine(mask, m, size, flags=cv2.INTER_LINEAR).astype(np.float32)
    warped_face = cv2.warpAffine(face, m, size, flags=cv2.INTER_LINEAR).astype(np.float32)
    base = (0.0, 0.0) if side is None else (side.shift_mm[0] * px_per_mm,
                                             side.shift_mm[1] * px_per_mm)
    shift = np.array([[1, 0, SHADOW_OFFSET_MM[0] * px_per_mm + base[0]],
                      [0, 1, SHADOW_OFFSET_MM[1] * px_per_mm + base[1]]], np.float32)
    moved = cv2.warpAffine(warped_mask, shift, size)
    shade: np.ndarray = cv2.GaussianBlur(moved, (0, 0), SHADOW_SIGMA_MM * px_per_mm) / 255.0
    window = canvas[y0:y1, x0:x1]
    window *= (1.0 - SHADOW_DEPTH * shade)[..., None]
    if side is not None:
        side_alpha = (_side_alpha(warped_mask, base) / 255.0)[..., None]
        window[:] = window * (1 - side_alpha) + np.array(side.colour, np.float32) * side_alpha
    alpha = (warped_mask / 255.0)[..., None]
    canvas[y0:y1, x0:x1] = window * (1 - alpha) + warped_face * alpha


def render_scene(
    tiles: Sequence[Tile],
    *,
    look: Style | CodePack | None = None,
    rng: np.random.Generator | None = None,
    slots: Sequence[int] | None = None,
    jitter_mm: float = JITTER_MM,
    max_turn_deg: float = MAX_TURN_DEG,
    px_per_mm: float = SCENE_PX_PER_MM,
    upside_down: Sequence[int] = (),
) -> CodeScene:
    """The mat with ``tiles`` laid in ``slots`` (default: slots 0, 1, 2, ... in order).

    The tiles at the positions listed in ``upside_down`` (indices into ``tiles``) are laid
    turned a half, as by a player across the table.
    """
    look = look if look is not None else STYLES["demo"]
    rng = rng if rng is not None else np.random.default_rng(0)
    slots = list(slots) if slots is not None else list(range(len(tiles)))
    if len(slots) != len(tiles) or len(tiles) > len(SLOTS):
        raise ValueError(f"{len(tiles)} tiles for {len(slots)} slots (the mat has {len(SLOTS)})")
    # thick tiles only draw their side's direction, so flat looks keep their scenes per seed
    side_dir = _side_direction(rng) if isinstance(look, Style) and look.side_mm > 0 else None
    canvas = mat_image(px_per_mm=px_per_mm).astype(np.float32)
    placed: list[PlacedTile] = []
    for i, (tile, slot_index) in enumerate(zip(tiles, slots, strict=True)):
        slot = SLOTS[slot_index]
        dx, dy = (float(v) for v in rng.uniform(-jitter_mm, jitter_mm, 2))
        angle = float(rng.uniform(-max_turn_deg, max_turn_deg)) + (180.0 if i in upside_down
                                                                   else 0.0)
        cx, cy = slot.centre_mm[0] + dx, slot.centre_mm[1] + dy
        face, mask = _face(tile, look, px_per_mm)
        side = None
        if side_dir is not None and isinstance(look, Style):
            side = TileSide((side_dir[0] * look.side_mm, side_dir[1] * look.side_mm),
                            tuple(look.side_shade * float(v)
                                  for v in look.body[tile.colour.value]))  # type: ignore[arg-type]
        _lay_tile(canvas, face, mask, (cx, cy), angle, px_per_mm, side)
        placed.append(PlacedTile(tile, slot_index, (cx, cy), angle))
    protect = np.full(canvas.shape[:2], 255, np.uint8)
    # clipped in place: a clipped copy was one more float canvas (19 MB) at once
    return CodeScene(np.clip(canvas, 0, 255, out=canvas).astype(np.uint8), protect,
                     tuple(placed))


def _side_direction(rng: np.random.Generator) -> tuple[float, float]:
    """Which way the camera sees the tiles' sides (a unit vector, the same for every tile
    of a frame), and how much of the side it sees (0.4..1 of the thickness)."""
    turn = float(rng.uniform(0, 2 * np.pi))
    share = float(rng.uniform(*SIDE_SEEN))
    return share * float(np.cos(turn)), share * float(np.sin(turn))



def render_frame(
    tiles: Sequence[Tile],
    *,
    seed: int = 0,
    effects: Sequence[str] = DEFAULT_EFFECTS,
    look: Style | CodePack | None = None,
    slots: Sequence[int] | None = None,
    frame_size: tuple[int, int] = FRAME_SIZE,
    max_tilt_deg: float = 25.0,
    upside_down: Sequence[int] = (),
    jitter_mm: float = JITTER_MM,
    max_turn_deg: float = MAX_TURN_DEG,
) -> tuple[EffectResult, CodeScene]:
    """A camera frame of the tiles on the mat, and the scene behind it (seeded)."""
    rng = np.random.default_rng(seed)
    scene = render_scene(tiles, look=look, rng=rng, slots=slots, upside_down=upside_down,
                         jitter_mm=jitter_mm, max_turn_deg=max_turn_deg)
    # The scene is wider than the sheet by nothing: add a table border so the camera sees
    # the sheet's edges and some table around it.
    border = round(12 * SCENE_PX_PER_MM)
    table = (int(rng.integers(60, 110)), int(rng.integers(70, 120)), int(rng.integers(80, 140)))
    image = cv2.copyMakeBorder(scene.image, border, border, border, border, cv2.BORDER_CONSTANT,
                               value=table)
    protect = cv2.copyMakeBorder(scene.protect, border, border, border, border,
                                 cv2.BORDER_CONSTANT, value=0)
    result = apply_effects(image, rng, list(effects), frame_size=frame_size, protect=protect,
                           max_tilt_deg=max_tilt_deg)
    return result, scene


def sheet_size_px(px_per_mm: float = SCENE_PX_PER_MM) -> tuple[int, int]:
    return (math.ceil(SHEET_MM[0] * px_per_mm), math.ceil(SHEET_MM[1] * px_per_mm))
