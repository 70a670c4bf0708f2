"""The Indigo board reader: one camera frame -> the engine's types, each with a confidence.

``read_indigo(frame, pack, cfg) -> IndigoRead``. Small stages, chained:

1. :func:`~vision.markers.locate` finds the four table markers and checks the homography;
2. :func:`rectify` warps the frame onto the board (board units, ``cell_px`` per cell radius)
   using the calibration in config;
3. :func:`check_sharpness` and :func:`check_board` refuse a blurred frame or one that shows no
   Indigo board (compared with the pack's treasure tiles);
4. :func:`balance_colours` removes the colour cast using the pack's rim colour;
5. :func:`read_gems`, :func:`read_tiles`, :func:`read_chips` classify against the pack:
   gems and chips by colour model, tiles by comparing each cell with the pack's tile images in
   every rotation (and the empty cell);
6. :func:`name_gems` turns gem spots into edge points by which side holds a tile, and raises
   questions where a gem sits where the rules say none can rest.

Nothing about any particular art is coded here: every reference comes from the pack.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from companion.indigo import CENTRE, CHIPS, CORNER_BY_CELL, ROUTE_CELLS, Gem, Tile
from companion.indigo.geometry import Cell, EdgePoint, neighbour, opposite
from companion.indigo.tiles import all_patterns
from vision.art_pack import IndigoPack
from vision.errors import FrameRefusedError, UnreadableImageError
from vision.indigo_board import (
    RIM_APOTHEM,
    RIM_RADIUS,
    BoardGeometry,
    _get,
    cell_xy,
    checks_from_config,
    chip_spaces,
    gem_spots,
    geometry_from_config,
    point_xy,
    rim_polygon,
    table_layout,
)
from vision.indigo_render import BoardView, gem_location, tile_entry
from vision.markers import MarkerChecks, MarkerLayout, PlaneFit, locate

EMPTY = None  # the class of an empty route cell


@dataclass(frozen=True)
class ReaderSettings:
    """Thresholds of the reader. Defaults here; ``settings_from_config`` reads config."""

    cell_px: int = 16  # canonical resolution: pixels per cell radius
    min_confidence: float = 0.85  # below: a question, not applied
    blur_min_variance: float = 40.0  # Laplacian variance of the rectified board
    board_min_score: float = 0.35  # mean treasure-tile likeness; below: not an Indigo board
    gem_min_fraction: float = 0.35  # share of a gem spot in a gem colour to call it a gem
    margin_full_confidence: float = 0.45  # relative distance margin that gives confidence 1
    blur_min_edge: float = 0.12  # without markers: weaker edges than this mean "blurred"


def settings_from_config(cfg: Any = None) -> ReaderSettings:
    d = ReaderSettings()
    return ReaderSettings(
        cell_px=int(_get(cfg, "vision.indigo.read_cell_px", d.cell_px)),
        min_confidence=float(_get(cfg, "vision.min_confidence", d.min_confidence)),
        blur_min_variance=float(_get(cfg, "vision.blur_min_variance", d.blur_min_variance)),
        board_min_score=float(_get(cfg, "vision.indigo.board_min_score", d.board_min_score)),
        gem_min_fraction=float(_get(cfg, "vision.indigo.gem_min_fraction", d.gem_min_fraction)),
        margin_full_confidence=float(
            _get(cfg, "vision.indigo.margin_full_confidence", d.margin_full_confidence)
        ),
        blur_min_edge=float(_get(cfg, "vision.indigo.blur_min_edge", d.blur_min_edge)),
    )


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class CellRead:
    """A route cell: ``tile`` None means empty. ``alternatives``: next best (tile, score)."""

    cell: Cell
    tile: Tile | None
    confidence: float
    alternatives: tuple[tuple[Tile | None, float], ...] = ()


@dataclass(frozen=True)
class GemRead:
    """A gem: at an edge ``point`` (a corner's unmoved amber is its arrow point), or centre."""

    gem: Gem
    point: EdgePoint | None
    confidence: float

    @property
    def at(self) -> dict[str, Any]:
        return {"centre": True} if self.point is None else gem_location(self.point)


@dataclass(frozen=True)
class ChipRead:
    gate: int
    slot: int
    player: int | None  # index of the pack's chip colour, None: empty chip space
    colour: str | None
    confidence: float


@dataclass
class IndigoRead:
    """What one frame shows, in the engine's types, with confidences and questions."""

    cells: dict[Cell, CellRead]
    gems: list[GemRead]
    chips: list[ChipRead]
    questions: list[str] = field(default_factory=list)
    fit: PlaneFit | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)
    rectified: np.ndarray | None = field(default=None, repr=False)

    @property
    def tiles(self) -> dict[Cell, Tile]:
        return {c: r.tile for c, r in self.cells.items() if r.tile is not None}

    @property
    def confidence(self) -> float:
        values = [r.confidence for r in self.cells.values()] + [g.confidence for g in self.gems]
        return min(values) if values else 1.0

    def chip_layout(self) -> tuple[tuple[int, int], ...] | None:
        """Per gateway the two chips as player indices, or None when a space reads empty."""
        pairs: dict[int, list[int]] = {}
        for chip in self.chips:
            if chip.player is None:
                return None
            pairs.setdefault(chip.gate, [0, 0])[chip.slot] = chip.player
        if len(pairs) != 6:
            return None
        return tuple((pairs[g][0], pairs[g][1]) for g in range(6))

    def layout(self) -> tuple[str, int] | None:
        """The ownership layout the chips show and the turn (gateways) it is seen at.

        ``("3p", 0)`` is the rules chart as the record's frame has it; a turn of ``k`` means
        the chips match only when gateway g is read as g + k (the board is turned against the
        calibration, or the chips were set out turned). None: no layout matches.
        """
        pairs = self.chip_layout()
        if pairs is None:
            return None
        for name, chart in CHIPS.items():
            for turn in range(6):
                if all(sorted(pairs[(g + turn) % 6]) == sorted(chart[g]) for g in range(6)):
                    return (name, turn)
        return None

    def view(self) -> BoardView:
        """The best reading as a view (what the renderer draws; questions not resolved)."""
        gems = {g.point: g.gem for g in self.gems if g.point is not None}
        centre = tuple(sorted((g.gem for g in self.gems if g.point is None), key=_centre_order))
        return BoardView(tiles=self.tiles, gems=gems, centre=centre, chips=self.chip_layout())

    def to_json(self, pack: IndigoPack | None = None) -> dict[str, Any]:
        tiles = [
            tile_entry(c, r.tile, r.confidence)
            for c, r in sorted(self.cells.items())
            if r.tile is not None
        ]
        gems = [
            {"gem": g.gem.value, "at": g.at, "confidence": round(g.confidence, 4)}
            for g in sorted(self.gems, key=_gem_key)
        ]
        out: dict[str, Any] = {
            "game": "indigo",
            "tiles": tiles,
            "gems": gems,
            "questions": list(self.questions),
            "empty_cells": [
                {"cell": [c[0], c[1]], "confidence": round(r.confidence, 4)}
                for c, r in sorted(self.cells.items())
                if r.tile is None and r.confidence < 1.0
            ],
            "layout": _layout_json(self.layout()),
            "chips": [
                {
                    "gate": ch.gate,
                    "slot": ch.slot,
                    "player": ch.player,
                    "colour": ch.colour,
                    "confidence": round(ch.confidence, 4),
                }
                for ch in self.chips
            ],
        }
        return out


def _layout_json(found: tuple[str, int] | None) -> dict[str, Any] | None:
    return None if found is None else {"name": found[0], "turn": found[1]}


def _centre_order(gem: Gem) -> int:
    return 0 if gem is Gem.EMERALD else 1


def _gem_key(g: GemRead) -> tuple[int, Any]:
    return (1, ()) if g.point is None else (0, g.point)


# ---------------------------------------------------------------- stage 1-2: rectify


def canonical_size(cell_px: int) -> int:
    return int(math.ceil(2 * (RIM_RADIUS + 0.2) * cell_px))


def board_to_canonical(cell_px: int) -> np.ndarray:
    off = canonical_size(cell_px) / 2
    return np.array([[cell_px, 0, off], [0, cell_px, off], [0, 0, 1]], np.float64)


def to_canonical(xy: tuple[float, float], cell_px: int) -> tuple[float, float]:
    off = canonical_size(cell_px) / 2
    return (xy[0] * cell_px + off, xy[1] * cell_px + off)


def rectify(frame: np.ndarray, fit: PlaneFit, geometry: BoardGeometry, cell_px: int) -> np.ndarray:
    """The board seen straight down: centre in the middle, ``cell_px`` pixels per cell radius."""
    frame_to_board = np.linalg.inv(geometry.board_to_frame())
    h = board_to_canonical(cell_px) @ frame_to_board @ fit.image_to_plane
    size = canonical_size(cell_px)
    return cv2.warpPerspective(frame, h, (size, size), flags=cv2.INTER_AREA)


# ---------------------------------------------------------------- templates from the pack


def _circle_mask(size: int, radius: float) -> np.ndarray:
    c = (size - 1) / 2
    yy, xx = np.mgrid[0:size, 0:size]
    return ((xx - c) ** 2 + (yy - c) ** 2) <= radius**2  # type: ignore[no-any-return]


def _patch_from_pack(image: np.ndarray, turn_deg: float, size: int, cell_px: int) -> np.ndarray:
    """A pack image scaled to ``cell_px`` per radius, turned clockwise, centred in ``size``."""
    src = image.shape[0]
    m = cv2.getRotationMatrix2D((src / 2, src / 2), -turn_deg, 2 * cell_px / src)
    m[0, 2] += (size - 1) / 2 - src / 2
    m[1, 2] += (size - 1) / 2 - src / 2
    return cv2.warpAffine(image, m, (size, size), flags=cv2.INTER_AREA)


@dataclass(frozen=True)
class PackModel:
    """Everything the reader compares with, prepared once per pack and resolution."""

    cell_px: int
    patch: int
    mask: np.ndarray  # bool (patch, patch): pixels compared
    classes: tuple[Tile | None, ...]  # 15 patterns + EMPTY
    templates: np.ndarray  # (classes, D) normalised grey
    std_floor: float
    treasure: dict[str, np.ndarray]  # normalised centre and corner (arrow edge 3) templates
    gem_lab: dict[str, np.ndarray]
    gem_tol: dict[str, float]
    palette: np.ndarray  # (n, 3) Lab colours of everything that is not a gem
    chip_lab: np.ndarray  # (chips + 1, 3): pack chip colours then the empty space
    chip_names: tuple[str, ...]
    rim_bgr: np.ndarray
    centre_image: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((1, 1, 3)))
    #: derived arrays (centre art labels, gem pixels), kept with the model they belong to: a
    #: cache keyed by ``id(model)`` handed a new model, whose id a dead one had, the dead
    #: model's centre art (a gem masked out in a full test run)
    cache: dict[tuple[str, int], np.ndarray] = field(
        repr=False, compare=False, default_factory=dict
    )

    def centre_art_labels(self, size: int) -> np.ndarray:
        """Gem labels of the pack's own centre tile: colours of the art, not gems (dilated)."""
        key = ("centre", size)
        cache = self.cache
        if key not in cache:
            img = _patch_from_pack(self.centre_image, 0, size, self.cell_px)
            labels = gem_label_map(colour_features(img), self)
            cache[key] = cv2.dilate(labels, np.ones((3, 3), np.uint8))
        return cache[key]


#: colour features: chromaticity (shading-invariant) scaled by CHROMA, plus log brightness
#: scaled by BRIGHTNESS (a shadow halves brightness but keeps the chromaticity)
CHROMA = 200.0
BRIGHTNESS = 14.0


def colour_features(bgr: np.ndarray) -> np.ndarray:
    """(..., 3) BGR -> (..., 3) features: b and r chromaticity, log brightness."""
    img = np.asarray(bgr, np.float32) + 1.0
    total = img.sum(axis=-1)
    out = np.empty(img.shape, np.float32)
    out[..., 0] = CHROMA * img[..., 0] / total
    out[..., 1] = CHROMA * img[..., 2] / total
    out[..., 2] = BRIGHTNESS * np.log(total)
    return out


def _lab(bgr: np.ndarray) -> np.ndarray:
    """Colour features of a list of BGR colours (named for where they are used)."""
    return colour_features(np.asarray(bgr, np.float32).reshape(-1, 3))


def _colour_distance(lab: np.ndarray, target: np.ndarray) -> np.ndarray:
    d = lab - target
    return np.sqrt((d * d).sum(axis=-1))  # type: ignore[no-any-return]


def _normalise(values: np.ndarray, floor: float) -> np.ndarray:
    mean = values.mean(axis=-1, keepdims=True)
    std = values.std(axis=-1, keepdims=True)
    return (values - mean) / np.maximum(std, floor)  # type: ignore[no-any-return]


def _gray(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)


#: prepared models by (pack id, resolution); the pack is kept with its model so that an id
#: reused by a new pack object never finds the old pack's model
_MODELS: dict[tuple[int, int], tuple[IndigoPack, PackModel]] = {}
_MAX_MODELS = 8


def pack_model(pack: IndigoPack, cell_px: int) -> PackModel:
    key = (id(pack), cell_px)
    cached = _MODELS.get(key)
    if cached is not None and cached[0] is pack:
        return cached[1]
    patch = 2 * int(math.ceil(0.9 * cell_px)) + 1
    mask = _circle_mask(patch, 0.8 * cell_px)
    classes: list[Tile | None] = list(all_patterns()) + [EMPTY]
    rows = []
    for cls in classes:
        if cls is None:
            img = _patch_from_pack(pack.empty, 0, patch, cell_px)
        else:
            img = _patch_from_pack(pack.tiles[cls.kind], 60 * cls.rotation, patch, cell_px)
        rows.append(cv2.GaussianBlur(_gray(img), (0, 0), 0.8)[mask])
    raw = np.array(rows, np.float32)
    tile_std = float(np.median(raw[:-1].std(axis=1)))
    floor = max(4.0, 0.25 * tile_std)
    templates = _normalise(raw, floor)
    treasure = {
        "centre": _normalise(_gray(_patch_from_pack(pack.centre, 0, patch, cell_px))[mask], floor),
        "corner": _normalise(_gray(_patch_from_pack(pack.corner, 0, patch, cell_px))[mask], floor),
    }
    # colour models: each gem's tolerance is half its distance to the nearest other colour
    # the pack shows (tile art, board, other gems), so that any pack sets its own thresholds
    palette = _pack_palette(pack)
    gem_lab = {name: _lab(np.array(c))[0] for name, c in pack.gems.items()}
    gem_tol = {}
    for name, lab in gem_lab.items():
        others = [v for k, v in gem_lab.items() if k != name] + list(palette)
        dist = min(float(_colour_distance(o[None], lab)[0]) for o in others)
        gem_tol[name] = max(6.0, 1.5 * dist)
    names = tuple(pack.chips)
    chip_lab = _lab(np.array([pack.chips[n] for n in names] + [pack.chip_space]))
    model = PackModel(
        cell_px=cell_px,
        patch=patch,
        mask=mask,
        classes=tuple(classes),
        templates=templates,
        std_floor=floor,
        treasure=treasure,
        gem_lab=gem_lab,
        gem_tol=gem_tol,
        palette=np.array(palette, np.float32),
        chip_lab=chip_lab,
        chip_names=names,
        rim_bgr=np.array(pack.rim, np.float32),
        centre_image=pack.centre,
    )
    if len(_MODELS) >= _MAX_MODELS:
        _MODELS.pop(next(iter(_MODELS)))
    _MODELS[key] = (pack, model)
    return model


def _pack_palette(pack: IndigoPack, k: int = 4) -> list[np.ndarray]:
    """Dominant Lab colours of the pack's cell images (what a gem must not be taken for)."""
    samples = []
    for img in [*pack.tiles.values(), pack.empty, pack.centre, pack.corner]:
        small = cv2.resize(img, (32, 32), interpolation=cv2.INTER_AREA)
        inner = small[_circle_mask(32, 13)]
        samples.append(inner.reshape(-1, 3))
    pixels = np.vstack(samples).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    _, _, centres = cv2.kmeans(pixels, 6, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    out = [_lab(np.clip(c, 0, 255))[0] for c in centres]
    out.append(_lab(np.array(pack.rim))[0])
    return out


# ---------------------------------------------------------------- stage 3-4: checks, colour


def _field_mask(size: int, cell_px: int) -> np.ndarray:
    mask = np.zeros((size, size), np.uint8)
    r = RIM_APOTHEM * 0.8 * cell_px
    cv2.circle(mask, (size // 2, size // 2), int(r), 255, -1)
    return mask > 0


def edge_strength(frame: np.ndarray) -> float:
    """Strongest edges of a frame relative to its contrast (a sharp frame: about 0.3..0.7)."""
    g = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3) / 8
    mag = np.sqrt(gx * gx + gy * gy)
    lo, hi = np.percentile(g, [1, 99])
    return float(np.percentile(mag, 99.9) / max(float(hi - lo), 1.0))


def check_sharpness(canon: np.ndarray, settings: ReaderSettings) -> float:
    """Laplacian variance of the board; refuses a frame too blurred to read."""
    gray = cv2.cvtColor(canon, cv2.COLOR_BGR2GRAY)
    lap = cv2.Laplacian(gray, cv2.CV_32F)
    value = float(lap[_field_mask(gray.shape[0], settings.cell_px)].var())
    if value < settings.blur_min_variance:
        raise FrameRefusedError(
            f"the board is too blurred to read (sharpness {value:.0f}, needs "
            f"{settings.blur_min_variance:.0f}): hold the camera still and refocus",
            reason="blurred",
        )
    return value


def _cell_patch(gray: np.ndarray, cell: Cell, model: PackModel) -> np.ndarray:
    x, y = to_canonical(cell_xy(cell), model.cell_px)
    return cv2.getRectSubPix(gray, (model.patch, model.patch), (x, y))


def check_board(gray: np.ndarray, model: PackModel, settings: ReaderSettings) -> float:
    """Likeness of the seven treasure cells to the pack's treasure tiles; refuses a non-board."""
    scores = []
    centre = _normalise(_cell_patch(gray, CENTRE, model)[model.mask], model.std_floor)
    scores.append(float(np.mean(centre * model.treasure["centre"])))
    size = model.patch
    c = (size - 1) / 2
    for corner in CORNER_BY_CELL.values():
        patch = _cell_patch(gray, corner.cell, model)
        turn = (corner.arrow_edge - 3) * 60
        # undo the corner's turn so it lines up with the pack's (0,-4) drawing
        m = cv2.getRotationMatrix2D((c, c), turn, 1.0)
        back = cv2.warpAffine(patch, m, (size, size), flags=cv2.INTER_LINEAR)
        vec = _normalise(back[model.mask], model.std_floor)
        scores.append(float(np.mean(vec * model.treasure["corner"])))
    score = float(np.mean(scores))
    if score < settings.board_min_score:
        raise FrameRefusedError(
            f"no Indigo board inside the markers (treasure tiles match {score:.2f}, needs "
            f"{settings.board_min_score:.2f}): wrong game, or the board moved (recalibrate)",
            reason="wrong-game",
        )
    return score


def balance_colours(canon: np.ndarray, model: PackModel, cell_px: int) -> np.ndarray:
    """Per-channel gains that make the board rim the pack's rim colour (removes colour cast)."""
    size = canon.shape[0]
    ring = np.zeros((size, size), np.uint8)
    poly = (rim_polygon() * 0.985 * cell_px + size / 2).astype(np.int32)
    cv2.fillPoly(ring, [poly], 255)
    cv2.circle(ring, (size // 2, size // 2), int(8.0 * cell_px), 0, -1)
    for _, _, xy in chip_spaces():
        x, y = to_canonical(xy, cell_px)
        cv2.circle(ring, (int(x), int(y)), int(0.7 * cell_px), 0, -1)
    pixels = canon[ring > 0]
    if len(pixels) < 50:
        return canon
    measured = np.median(pixels, axis=0).astype(np.float32)
    gains = model.rim_bgr / np.maximum(measured, 1.0)
    gains = np.clip(gains, 0.4, 2.5)
    return np.clip(canon.astype(np.float32) * gains, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------- stage 5: gems, tiles, chips


def _disc_pixels(lab: np.ndarray, xy: tuple[float, float], radius: float) -> np.ndarray:
    x, y = xy
    r = int(math.ceil(radius))
    xi, yi = int(round(x)), int(round(y))
    block = lab[yi - r : yi + r + 1, xi - r : xi + r + 1]
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    inside = (xx + xi - x) ** 2 + (yy + yi - y) ** 2 <= radius**2
    return block[inside[: block.shape[0], : block.shape[1]]]


@dataclass(frozen=True)
class GemSpot:
    gem: Gem
    point: EdgePoint | None  # None: on the centre tile
    confidence: float


GEM_NAMES = ("amber", "emerald", "sapphire")
#: radius of the disc sampled at a gem spot, as a share of the gem radius
GEM_SAMPLE = 0.7


def gem_label_map(
    lab: np.ndarray, model: PackModel, *, where: np.ndarray | None = None
) -> np.ndarray:
    """Per pixel: 0 not a gem, 1 + index in GEM_NAMES for a gem colour.

    A pixel is a gem colour when that gem is its nearest colour among the gems and the
    pack's other colours (tile art, board, rim), and lies within the gem's tolerance.
    ``where`` (flat pixel indices) limits the work to the pixels the reader looks at; the
    others stay 0.
    """
    flat = lab.reshape(-1, 3)
    pixels = flat if where is None else flat[where]
    gems = np.array([model.gem_lab[n] for n in GEM_NAMES], np.float32)
    colours = np.vstack([gems, model.palette]).astype(np.float32)
    # squared distances to every colour at once: |p|^2 - 2 p.c + |c|^2
    d2 = (
        (pixels * pixels).sum(axis=1, keepdims=True)
        - 2.0 * pixels @ colours.T
        + (colours * colours).sum(axis=1)[None, :]
    )
    gem_d2 = d2[:, : len(GEM_NAMES)]
    bg_d2 = d2[:, len(GEM_NAMES) :].min(axis=1)
    best = np.argmin(gem_d2, axis=1)
    d_best = gem_d2[np.arange(len(best)), best]
    tol = np.array([model.gem_tol[n] for n in GEM_NAMES], np.float32)[best]
    values = np.where((d_best < bg_d2) & (d_best < tol * tol), best + 1, 0).astype(np.uint8)
    if where is None:
        return values.reshape(lab.shape[:2])
    labels = np.zeros(flat.shape[0], np.uint8)
    labels[where] = values
    return labels.reshape(lab.shape[:2])


def gem_pixels(model: PackModel, gem_size: float) -> np.ndarray:
    """Flat indices of the canonical pixels the gem reading looks at (spots and centre)."""
    key = ("gem-pixels", round(gem_size * 1000))
    cache = model.cache
    if key not in cache:
        size = canonical_size(model.cell_px)
        mask = np.zeros((size, size), np.uint8)
        gem_r = gem_size * model.cell_px
        for _, xy in gem_spots():
            x, y = to_canonical(xy, model.cell_px)
            cv2.circle(mask, (int(round(x)), int(round(y))), int(math.ceil(1.5 * gem_r)) + 1, 1, -1)
        x, y = to_canonical(cell_xy(CENTRE), model.cell_px)
        r = int(model.cell_px) + 2
        mask[int(y) - r : int(y) + r + 1, int(x) - r : int(x) + r + 1] = 1
        cache[key] = np.flatnonzero(mask)
    return cache[key]


@lru_cache(maxsize=64)
def _disc_offsets(radius: float) -> tuple[int, np.ndarray]:
    r = int(math.ceil(radius))
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    return r, (xx * xx + yy * yy) <= radius * radius


def _disc_labels(labels: np.ndarray, xy: tuple[float, float], radius: float) -> np.ndarray:
    """The values of ``labels`` in a disc (centred on the nearest pixel)."""
    r, inside = _disc_offsets(round(radius, 2))
    xi, yi = int(round(xy[0])), int(round(xy[1]))
    block = labels[yi - r : yi + r + 1, xi - r : xi + r + 1]
    return block[inside[: block.shape[0], : block.shape[1]]]


def read_gems(
    labels: np.ndarray, pack: IndigoPack, model: PackModel, settings: ReaderSettings
) -> list[GemSpot]:
    """Gems on edge spots and on the centre tile, from the gem label map."""
    cell_px = model.cell_px
    radius = max(1.5, GEM_SAMPLE * pack.gem_size * cell_px)
    found: list[GemSpot] = []
    for point, xy in gem_spots():
        values = _disc_labels(labels, to_canonical(xy, cell_px), radius)
        if values.size == 0:
            continue
        counts = np.bincount(values, minlength=4)[1:] / values.size
        best = int(np.argmax(counts))
        frac = float(counts[best])
        if frac < settings.gem_min_fraction * 0.5:
            continue
        conf = _fraction_confidence(frac, settings.gem_min_fraction)
        found.append(GemSpot(Gem(GEM_NAMES[best]), point, conf))
    found.extend(_read_centre(labels, pack, model, share=_gem_share(labels, found, pack, model)))
    return found


def _gem_share(
    labels: np.ndarray, spots: list[GemSpot], pack: IndigoPack, model: PackModel
) -> dict[str, float]:
    """Per gem colour, how much of one gem disc reads as that colour in this frame, measured
    on the gems resting alone on edge spots; colours without such a gem are left out."""
    gem_r = pack.gem_size * model.cell_px
    shares: dict[str, list[float]] = {}
    for spot in spots:
        if spot.point is None or spot.confidence < 0.9:
            continue
        x, y = to_canonical(point_xy(spot.point), model.cell_px)
        values = _disc_labels(labels, (x, y), 1.4 * gem_r)
        code = GEM_NAMES.index(spot.gem.value) + 1
        shares.setdefault(spot.gem.value, []).append(
            float((values == code).sum()) / (math.pi * gem_r**2)
        )
    return {name: float(np.median(v)) for name, v in shares.items()}


def _fraction_confidence(frac: float, threshold: float) -> float:
    """1 well above the threshold, 0.5 at it, 0 at half of it."""
    return float(np.clip(0.5 + (frac - threshold) / threshold, 0.0, 1.0))


def _count_discs(mask: np.ndarray, gem_r: float) -> int:
    """Number of gem-sized discs in a mask: peaks of the distance to the background."""
    if not mask.any():
        return 0
    dist = cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 3)
    peaks = (dist >= 0.55 * gem_r) & (dist >= cv2.dilate(dist, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-dist[ys, xs])
    kept: list[tuple[int, int]] = []
    for k in order:
        y, x = int(ys[k]), int(xs[k])
        if all((x - kx) ** 2 + (y - ky) ** 2 >= (1.1 * gem_r) ** 2 for kx, ky in kept):
            kept.append((x, y))
    return len(kept)


#: radii of the discs :func:`_cover_count` lays, in gem radii (a gem's colour region shrinks
#: a little at its rim when the frame is soft): a count is trusted only when it stays the
#: same for every one of them, so a count that a 10 % different gem size would change is
#: borderline (chosen on a sweep of 400 scenes x 2 packs, checked on 200 others)
COVER_RADII = (0.9, 1.0)
#: a disc laid by :func:`_cover_count` must cover this share of new gem pixels to count
COVER_MIN_SHARE = 0.5


@lru_cache(maxsize=16)
def _disc_kernel(radius: float) -> np.ndarray:
    r = int(math.ceil(radius))
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    return ((xx * xx + yy * yy) <= radius * radius).astype(np.float32)


def _cover_count(mask: np.ndarray, radius: float) -> int:
    """Number of gem discs that cover a blob, laid greedily where each covers most.

    A second, independent count of touching gems: the distance-transform peaks of
    :func:`_count_discs` split one soft, elongated gem in two or merge two that blur into one
    neck; laying whole discs fails in other ways. When the two counts differ the blob is
    borderline and the count is asked.
    """
    kernel = _disc_kernel(round(radius, 2))
    full = float(kernel.sum())
    left = mask.astype(np.float32)
    inside = cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 3) >= 0.5 * radius
    count = 0
    for _ in range(12):  # more than the six gems a centre tile holds
        cover = cv2.filter2D(left, -1, kernel, borderType=cv2.BORDER_CONSTANT)
        cover[~inside] = 0
        y, x = np.unravel_index(int(np.argmax(cover)), cover.shape)
        if float(cover[y, x]) < COVER_MIN_SHARE * full:
            break
        count += 1
        cv2.circle(left, (int(x), int(y)), int(round(radius)), 0, -1)
    return count


def _read_centre(
    labels: np.ndarray, pack: IndigoPack, model: PackModel, *, share: dict[str, float] | None = None
) -> list[GemSpot]:
    """Count the gems of each colour on the centre tile (peaks of gem-coloured blobs).

    The stock is always the last gems of emerald x5, sapphire: a count that breaks that
    order gets a low confidence, and so does a count the blob area disagrees with, or one
    where laying whole gem discs over a blob gives another number than its peaks (touching
    gems in a soft frame: the count is borderline, so it is asked).
    """
    cell_px = model.cell_px
    x, y = to_canonical(cell_xy(CENTRE), cell_px)
    r = int(0.9 * cell_px)
    block = labels[int(y) - r : int(y) + r + 1, int(x) - r : int(x) + r + 1]
    disc = _circle_mask(block.shape[0], r) & (model.centre_art_labels(2 * r + 1) == 0)
    gem_r = pack.gem_size * cell_px
    gem_area = math.pi * gem_r**2
    counts: dict[str, tuple[int, float]] = {}
    blobs: list[tuple[str, float, int]] = []  # (colour, area, peaks) of every blob
    for index, name in enumerate(GEM_NAMES):
        hit = (block == index + 1) & disc
        opened = cv2.morphologyEx(hit.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        n, comp, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
        borderline = False
        for k in range(1, n):
            blob = comp == k
            peaks = _count_discs(blob, gem_r)
            if peaks:
                blobs.append((name, float(stats[k, cv2.CC_STAT_AREA]), peaks))
                borderline |= any(_cover_count(blob, f * gem_r) != peaks for f in COVER_RADII)
        count = sum(p for c, _, p in blobs if c == name)
        area = float(hit.sum()) / gem_area
        measured = (share or {}).get(name)
        if measured is not None:
            # the blob area must say the same count as the peaks, at this frame's gem share
            agrees = int(round(area / max(measured, 0.2))) == count
        else:
            seen = area / max(count, 1)
            agrees = count == 0 or GEM_SHARE_RANGE[0] <= seen <= GEM_SHARE_RANGE[1]
        counts[name] = (count, 1.0 if agrees and not borderline else 0.5)
    # gems that touch (or blur together) make one blob: its area, in units of the typical
    # single-gem blob of this frame, must say the same number of gems as its peaks
    singles = [a for _, a, p in blobs if p == 1]
    unit = float(np.median(singles)) if singles else None
    for name, area, peaks in blobs:
        if unit is not None:
            doubtful = abs(area / unit - peaks) > 0.45
        else:
            # several gems in one blob and nothing to measure one gem by: ask
            doubtful = peaks > 1 and (share or {}).get(name) is None
        if doubtful:
            counts[name] = (counts[name][0], min(counts[name][1], 0.5))
    emeralds, sapphires = counts["emerald"][0], counts["sapphire"][0]
    order_ok = sapphires <= 1 and emeralds <= 5 and (emeralds == 0 or sapphires == 1)
    out: list[GemSpot] = []
    for name, (count, conf) in counts.items():
        if name == "amber" and count:
            conf = min(conf, 0.3)  # no amber ever lies on the centre
        elif not order_ok:
            conf = min(conf, 0.5)
        out.extend(GemSpot(Gem(name), None, conf) for _ in range(min(count, 6)))
    return out


#: a counted centre gem covers this range of one gem disc's area in its colour
GEM_SHARE_RANGE = (0.55, 1.25)


def read_tiles(
    gray: np.ndarray,
    gem_spots_found: list[GemSpot],
    model: PackModel,
    settings: ReaderSettings,
    gem_size: float,
) -> dict[Cell, CellRead]:
    """Compare every route cell with every pattern and the empty cell (gems masked out)."""
    cell_px = model.cell_px
    half = model.patch // 2
    # per cell weights: 1 inside the compared disc, 0 under a gem
    gem_at: dict[Cell, list[int]] = {}
    for spot in gem_spots_found:
        if spot.point is None:
            continue
        cell, edge = spot.point
        gem_at.setdefault(cell, []).append(edge)
        other = neighbour(cell, edge)
        gem_at.setdefault(other, []).append(opposite(edge))
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1].astype(np.float32)
    patches = []
    weights = []
    for cell in ROUTE_CELLS:
        patches.append(_cell_patch(gray, cell, model)[model.mask])
        w = np.ones(model.patch * model.patch, np.float32).reshape(model.patch, model.patch)
        for edge in gem_at.get(cell, []):
            ang = math.radians(240 + 60 * edge)
            gx = math.cos(ang) * math.sqrt(3) / 2 * cell_px
            gy = math.sin(ang) * math.sqrt(3) / 2 * cell_px
            w[(xx - gx) ** 2 + (yy - gy) ** 2 <= (gem_size * 1.45 * cell_px) ** 2] = 0
        weights.append(w[model.mask])
    p = np.array(patches, np.float32)
    w = np.array(weights, np.float32)
    wsum = np.maximum(w.sum(axis=1, keepdims=True), 1.0)
    mean = (p * w).sum(axis=1, keepdims=True) / wsum
    var = ((p - mean) ** 2 * w).sum(axis=1, keepdims=True) / wsum
    pn = (p - mean) / np.maximum(np.sqrt(var), model.std_floor)
    t = model.templates
    # weighted squared distance to every class, vectorised: sum w (p - t)^2 / sum w
    dist = ((w * pn * pn).sum(axis=1, keepdims=True) - 2 * (w * pn) @ t.T + w @ (t * t).T) / wsum
    out: dict[Cell, CellRead] = {}
    order = np.argsort(dist, axis=1)
    for i, cell in enumerate(ROUTE_CELLS):
        best, second = order[i, 0], order[i, 1]
        d1, d2 = float(dist[i, best]), float(dist[i, second])
        margin = (d2 - d1) / max(d2, 1e-6)
        conf = float(np.clip(margin / settings.margin_full_confidence, 0.0, 1.0))
        alts = tuple((model.classes[j], round(float(dist[i, j]), 4)) for j in order[i, 1:4])
        out[cell] = CellRead(cell, model.classes[best], conf, alts)
    return out


def read_chips(lab: np.ndarray, pack: IndigoPack, model: PackModel) -> list[ChipRead]:
    radius = max(1.5, 0.6 * pack.chip_size * model.cell_px)
    out = []
    for gate, slot, xy in chip_spaces():
        pixels = _disc_pixels(lab, to_canonical(xy, model.cell_px), radius)
        colour = np.median(pixels, axis=0)
        d = _colour_distance(model.chip_lab, colour)
        order = np.argsort(d)
        d1, d2 = float(d[order[0]]), float(d[order[1]])
        conf = float(np.clip((d2 - d1) / max(d2, 1e-6) / 0.5, 0.0, 1.0))
        idx = int(order[0])
        if idx == len(model.chip_names):
            out.append(ChipRead(gate, slot, None, None, conf))
        else:
            out.append(ChipRead(gate, slot, idx, model.chip_names[idx], conf))
    return out


# ---------------------------------------------------------------- stage 6: naming, questions


def _fmt_tile(tile: Tile | None) -> str:
    return "empty" if tile is None else f"T{tile.kind} rot {tile.rotation}"


def name_gems(
    spots: list[GemSpot], cells: dict[Cell, CellRead], settings: ReaderSettings
) -> tuple[list[GemRead], list[str]]:
    """Name each gem's edge point by which side holds a tile; question the impossible."""
    filled = {c for c, r in cells.items() if r.tile is not None}
    gems: list[GemRead] = []
    questions: list[str] = []
    for spot in spots:
        if spot.point is None:
            gems.append(GemRead(spot.gem, None, spot.confidence))
            continue
        a, edge = spot.point
        b = neighbour(a, edge)
        sides = [(a, edge), (b, opposite(edge))]
        holders = []
        for cell, e in sides:
            other = neighbour(cell, e)
            corner = CORNER_BY_CELL.get(cell)
            holds = cell in filled or (
                corner is not None and (e == corner.arrow_edge or corner.uturn_other(e) is not None)
            )
            if holds and other not in filled:
                holders.append((cell, e))
        conf = spot.confidence
        if len(holders) == 1:
            gems.append(GemRead(spot.gem, holders[0], conf))
            continue
        where = f"between cells ({a[0]},{a[1]}) and ({b[0]},{b[1]})"
        if not holders:
            questions.append(
                f"{spot.gem.value} {where}: a gem cannot rest there (it faces a tile or lies "
                "on empty cells); was a move not finished?"
            )
            point = (a, edge) if a in filled else (b, opposite(edge))
        else:
            point = holders[0]
        gems.append(GemRead(spot.gem, point, min(conf, 0.5)))
    centre = [g for g in gems if g.point is None]
    if any(g.confidence < settings.min_confidence for g in centre):
        counts = {name: sum(1 for g in centre if g.gem.value == name) for name in GEM_NAMES}
        said = ", ".join(f"{n} {name}" for name, n in counts.items() if n) or "none"
        questions.append(f"centre: {said}? please count the gems on the centre tile")
    for g in gems:
        if g.confidence < settings.min_confidence and g.point is not None:
            loc = g.at
            text = (
                f"corner ({loc['corner'][0]},{loc['corner'][1]})"
                if "corner" in loc
                else f"cell ({loc['cell'][0]},{loc['cell'][1]}) edge {loc['edge']}"
            )
            questions.append(f"{text}: is there {with_article(g.gem.value)} gem?")
    return gems, questions


def with_article(word: str) -> str:
    """``"an amber"``, ``"a sapphire"``: the indefinite article a question needs."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def cell_questions(cells: dict[Cell, CellRead], settings: ReaderSettings) -> list[str]:
    out = []
    for cell, r in sorted(cells.items()):
        if r.confidence >= settings.min_confidence:
            continue
        alt = next((t for t, _ in r.alternatives if t != r.tile and not _same(t, r.tile)), None)
        out.append(f"cell ({cell[0]},{cell[1]}): {_fmt_tile(r.tile)} or {_fmt_tile(alt)}?")
    return out


def chip_questions(chips: list[ChipRead], settings: ReaderSettings) -> list[str]:
    """Chips read with low confidence, and a chip layout that matches no rules chart."""
    out = [
        f"gateway {c.gate} chip {c.slot}: {c.colour or 'empty'}?"
        for c in chips
        if c.confidence < settings.min_confidence
    ]
    read = IndigoRead(cells={}, gems=[], chips=chips)
    if not out and read.chip_layout() is not None:
        found = read.layout()
        if found is None:
            out.append("the chips match no ownership layout (2p, 3p, 3p-alt, 4p): check them")
        elif found[1] != 0:
            out.append(
                f"the chips show layout {found[0]} turned by {found[1]} gateway(s): "
                "recalibrate the board's rotation or set the chips out as the chart shows"
            )
    return out


def _same(a: Tile | None, b: Tile | None) -> bool:
    if a is None or b is None:
        return a is b
    return a.same_pattern(b)


# ---------------------------------------------------------------- the reader


#: a frame whose grey levels (1st to 99th percentile) span less than this shows nothing at all
#: (lens cap on, light off, a black or white frame): "no board", never "blurred"
BLANK_MAX_CONTRAST = 16.0


def frame_contrast(frame: np.ndarray) -> float:
    """Spread of the grey levels, 1st to 99th percentile (0 for a one-colour frame)."""
    g = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    lo, hi = np.percentile(g, [1, 99])
    return float(hi - lo)


def other_table_layouts(cfg: Any = None) -> dict[str, MarkerLayout]:
    """The table-marker layouts of the other games that lay ids 0-3 around their table.

    Only Enigma does today; its layout comes from ``[vision.enigma]`` (the same keys its
    reader uses), so a table laid out for Enigma is named as such.
    """
    frame = _get(cfg, "vision.enigma.marker_frame_mm", (760.0, 640.0))
    return {
        "Enigma": table_layout(
            frame_mm=(float(frame[0]), float(frame[1])),
            marker_size_mm=float(_get(cfg, "vision.enigma.marker_size_mm", 40.0)),
            dictionary_name=str(_get(cfg, "vision.marker_dictionary", "DICT_4X4_50")),
        )
    }


def explain_refusal(
    exc: FrameRefusedError,
    frame: np.ndarray,
    cfg: Any,
    settings: ReaderSettings,
    checks: MarkerChecks,
) -> FrameRefusedError | None:
    """A clearer refusal than the marker stage's, or None to keep it.

    - no markers in a blank frame: "no board found (no markers)", not "blurred";
    - no markers in a frame with contrast but only weak edges: "blurred";
    - the table markers found but not where Indigo's layout puts them, and they fit another
      game's table layout: "wrong-game" naming that game.
    """
    if exc.reason == "no-markers":
        contrast = frame_contrast(frame)
        if contrast < BLANK_MAX_CONTRAST:
            return FrameRefusedError(
                f"no board found (no markers): the frame is almost one colour (grey levels "
                f"span {contrast:.0f} of 255): is the lens covered or the light off?",
                reason="no-markers",
            )
        strength = edge_strength(frame)
        if strength < settings.blur_min_edge:
            return FrameRefusedError(
                f"the frame is too blurred to find the board markers (edge strength "
                f"{strength:.2f}, needs {settings.blur_min_edge:.2f}): hold still and refocus",
                reason="blurred",
            )
        return None
    if exc.reason == "bad-homography":
        for game, layout in other_table_layouts(cfg).items():
            try:
                locate(frame, layout, checks=checks)
            except FrameRefusedError:
                continue
            return FrameRefusedError(
                f"not an Indigo board (wrong game): the table markers are laid out for {game} "
                f"({layout.size_mm:g} mm markers), not around the Indigo board",
                reason="wrong-game",
            )
    return None


def _check_frame(frame: Any) -> np.ndarray:
    if not isinstance(frame, np.ndarray) or frame.size == 0:
        raise UnreadableImageError("the frame is not an image")
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim != 3 or frame.shape[2] not in (3, 4):
        raise UnreadableImageError(f"the frame has shape {frame.shape}, expected HxWx3 BGR")
    if frame.shape[2] == 4:
        frame = np.ascontiguousarray(frame[:, :, :3])
    if frame.dtype != np.uint8:
        raise UnreadableImageError(f"the frame has dtype {frame.dtype}, expected uint8")
    return frame


def read_indigo(
    frame: np.ndarray,
    pack: IndigoPack,
    cfg: Any = None,
    *,
    geometry: BoardGeometry | None = None,
    settings: ReaderSettings | None = None,
    checks: MarkerChecks | None = None,
    keep_rectified: bool = False,
) -> IndigoRead:
    """Read an Indigo board from one BGR frame.

    Raises FrameRefusedError (exit 4) for a frame without the board markers, a bad
    homography, a blurred frame or one that shows no Indigo board; UnreadableImageError
    (exit 2) for something that is not an image.
    """
    t0 = time.perf_counter()
    frame = _check_frame(frame)
    geo = geometry or geometry_from_config(cfg)
    st = settings or settings_from_config(cfg)
    marker_checks = checks or checks_from_config(cfg)
    try:
        fit = locate(frame, geo.layout, checks=marker_checks)
    except FrameRefusedError as exc:
        better = explain_refusal(exc, frame, cfg, st, marker_checks)
        if better is not None:
            raise better from exc
        raise
    t1 = time.perf_counter()
    canon = rectify(frame, fit, geo, st.cell_px)
    check_sharpness(canon, st)
    model = pack_model(pack, st.cell_px)
    gray0 = _gray(canon)
    check_board(gray0, model, st)
    balanced = balance_colours(canon, model, st.cell_px)
    lab = colour_features(balanced)
    gray = cv2.GaussianBlur(_gray(balanced), (0, 0), 0.8)
    t2 = time.perf_counter()
    labels = gem_label_map(lab, model, where=gem_pixels(model, pack.gem_size))
    spots = read_gems(labels, pack, model, st)
    cells = read_tiles(gray, spots, model, st, pack.gem_size)
    chips = read_chips(lab, pack, model)
    gems, gem_questions = name_gems(spots, cells, st)
    questions = cell_questions(cells, st) + gem_questions + chip_questions(chips, st)
    t3 = time.perf_counter()
    return IndigoRead(
        cells=cells,
        gems=gems,
        chips=chips,
        questions=questions,
        fit=fit,
        timings_ms={
            "locate": (t1 - t0) * 1000,
            "rectify": (t2 - t1) * 1000,
            "classify": (t3 - t2) * 1000,
            "total": (t3 - t0) * 1000,
        },
        rectified=balanced if keep_rectified else None,
    )
