"""A Second Chance sheet filled in by a player, photographed.

The player drew a start tile of 8 squares over the centre, then puzzle tiles of 1 to 7
squares anywhere on the empty squares (rules digest, §3 and §5), each as its outline along the
grid lines and then its squares shaded: hatched, cross-hatched, scribbled, coloured in or
crossed, with a pencil, ballpoint pens or coloured pencils. Sometimes a drop-out's bonus 1 is
written in an empty square, and sometimes an erased mark is left faintly in an empty square.
The truth is the set of filled squares, (row, col) from 0 with row 0 at the top.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .camera import photograph
from .printed import PX_PER_MM, SHEET_CELL_PX, cell_corner_px, sheet_page

A5_PORTRAIT_MM = (148.0, 210.0)
GRID = 9
CENTRE = (4, 4)
START_SIZE = 8
PUZZLE_TILES = (2, 15)             # how many puzzle tiles a sheet shows (at the end, exclusive)
BONUS_CHANCE = 0.15
ERASURE_CHANCE = 0.3

Cell = tuple[int, int]


@dataclass(frozen=True)
class Pen:
    colour: tuple[float, float, float]   # BGR of the ink or lead
    opacity: float                       # how much of the paper's light one stroke takes
    width_mm: float
    grainy: bool                         # pencils leave paper grain showing through


PENCIL = Pen((70, 70, 75), 0.75, 0.45, True)
BALLPOINTS = (Pen((150, 55, 25), 0.85, 0.4, False), Pen((35, 30, 30), 0.9, 0.4, False),
              Pen((40, 40, 190), 0.85, 0.4, False), Pen((60, 120, 40), 0.85, 0.45, False))
COLOURED_PENCILS = tuple(Pen(c, 0.6, 0.6, True) for c in (
    (40, 40, 200), (200, 120, 30), (40, 160, 60), (30, 170, 230), (160, 60, 150),
    (50, 90, 140), (200, 200, 60)))


def _neighbours(cell: Cell) -> list[Cell]:
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < GRID and 0 <= c + dc < GRID]


def grow_tile(seed_cell: Cell, size: int, taken: set[Cell],
              rng: np.random.Generator) -> list[Cell]:
    """A connected set of up to ``size`` empty cells grown from ``seed_cell``."""
    tile = [seed_cell]
    while len(tile) < size:
        frontier = sorted({n for cell in tile for n in _neighbours(cell)
                           if n not in taken and n not in tile})
        if not frontier:
            break
        tile.append(frontier[int(rng.integers(len(frontier)))])
    return tile


def fill_sheet(rng: np.random.Generator) -> list[list[Cell]]:
    """The tiles on the sheet: the start tile first (over the centre), then puzzle tiles."""
    start = grow_tile(CENTRE, START_SIZE, set(), rng)
    while len(start) < START_SIZE:      # cannot happen on an empty grid; kept for clarity
        start = grow_tile(CENTRE, START_SIZE, set(), rng)
    tiles, taken = [start], set(start)
    for _ in range(int(rng.integers(*PUZZLE_TILES))):
        empty = [(r, c) for r in range(GRID) for c in range(GRID) if (r, c) not in taken]
        if not empty:
            break
        seed_cell = empty[int(rng.integers(len(empty)))]
        tile = grow_tile(seed_cell, int(rng.integers(1, 8)), taken, rng)
        tiles.append(tile)
        taken.update(tile)
    return tiles


def _wobbly(p0: np.ndarray, p1: np.ndarray, wobble_px: float,
            rng: np.random.Generator) -> np.ndarray:
    """Points of a hand-drawn line from p0 to p1: a slow sideways drift, no ruler."""
    length = float(np.linalg.norm(p1 - p0))
    steps = max(2, int(length / (2 * PX_PER_MM)))
    t = np.linspace(0, 1, steps)[:, None]
    normal = np.array([-(p1 - p0)[1], (p1 - p0)[0]]) / max(length, 1e-6)
    drift = np.cumsum(rng.normal(0, wobble_px / 2, steps))
    drift -= np.linspace(drift[0], drift[-1], steps) * rng.uniform(0.5, 1.0)
    return p0 + (p1 - p0) * t + normal * drift[:, None]


def _draw(coverage: np.ndarray, points: np.ndarray, width_px: float) -> None:
    cv2.polylines(coverage, [np.round(points * 4).astype(np.int32)], False, 1.0,
                  max(1, int(round(width_px))), cv2.LINE_AA, shift=2)


def _tile_mask(tile: list[Cell], shape: tuple[int, int], inset_px: float) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    for r, c in tile:
        (x0, y0), (x1, y1) = cell_corner_px(r, c), cell_corner_px(r + 1, c + 1)
        cv2.rectangle(mask, (int(x0), int(y0)), (int(x1), int(y1)), 255, -1)
    size = int(abs(inset_px)) * 2 + 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    mask = cv2.erode(mask, kernel) if inset_px > 0 else cv2.dilate(mask, kernel)
    return mask.astype(np.float32) / 255


def _outline(coverage: np.ndarray, tile: list[Cell], pen: Pen, rng) -> None:
    """Each side of the tile that borders no cell of the tile, drawn along the printed line."""
    cells = set(tile)
    inset = rng.uniform(-0.2, 0.7) * PX_PER_MM   # on the printed line or just inside it
    for r, c in tile:
        for (dr, dc), (a, b) in (((-1, 0), ((0, 0), (0, 1))), ((1, 0), ((1, 0), (1, 1))),
                                 ((0, -1), ((0, 0), (1, 0))), ((0, 1), ((0, 1), (1, 1)))):
            if (r + dr, c + dc) in cells:
                continue
            p0 = np.array(cell_corner_px(r + a[0], c + a[1]))
            p1 = np.array(cell_corner_px(r + b[0], c + b[1]))
            inward = -np.array([dc, dr], float) * inset
            along = (p1 - p0) / np.linalg.norm(p1 - p0)
            p0 = p0 + inward - along * rng.uniform(-0.5, 1.0) * PX_PER_MM
            p1 = p1 + inward + along * rng.uniform(-0.5, 1.0) * PX_PER_MM
            _draw(coverage, _wobbly(p0, p1, 0.3 * PX_PER_MM, rng), pen.width_mm * PX_PER_MM)


def _hatch_lines(tile: list[Cell], angle: float, spacing_px: float) -> list[np.ndarray]:
    """Parallel lines at ``angle`` across the tile's bounding box, in order across it."""
    corners = np.array([cell_corner_px(r + dr, c + dc) for r, c in tile
                        for dr in (0, 1) for dc in (0, 1)])
    centre = (corners.min(axis=0) + corners.max(axis=0)) / 2
    reach = float(np.linalg.norm(corners.max(axis=0) - corners.min(axis=0))) / 2 + spacing_px
    direction = np.array([np.cos(angle), np.sin(angle)])
    normal = np.array([-direction[1], direction[0]])
    offsets = np.arange(-reach, reach, spacing_px)
    return [np.stack([centre + normal * o - direction * reach,
                      centre + normal * o + direction * reach]) for o in offsets]


SHADING = ("hatch", "cross-hatch", "scribble", "colour in", "crosses")


def _shade(coverage: np.ndarray, tile: list[Cell], style: str, pen: Pen, rng) -> None:
    """Mark the tile's squares; strokes end near the outline, a little short or over it."""
    layer = np.zeros_like(coverage)
    width = pen.width_mm * PX_PER_MM
    angle = rng.uniform(0, np.pi)
    if style in ("hatch", "cross-hatch", "colour in"):
        spacing = (rng.uniform(0.5, 0.9) if style == "colour in" else rng.uniform(1.3, 3.2))
        for line in _hatch_lines(tile, angle, spacing * PX_PER_MM):
            _draw(layer, _wobbly(line[0], line[1], 0.3 * PX_PER_MM, rng), width)
        if style == "cross-hatch":
            turn = angle + rng.uniform(0.35, 0.65) * np.pi
            for line in _hatch_lines(tile, turn, spacing * PX_PER_MM):
                _draw(layer, _wobbly(line[0], line[1], 0.3 * PX_PER_MM, rng), width)
    elif style == "scribble":
        lines = _hatch_lines(tile, angle, rng.uniform(1.5, 3.0) * PX_PER_MM)
        zigzag = [line if i % 2 == 0 else line[::-1] for i, line in enumerate(lines)]
        path = np.concatenate(zigzag) + rng.normal(0, 0.8 * PX_PER_MM, (2 * len(zigzag), 2))
        _draw(layer, path, width)
    else:  # a cross in each square, corner to corner
        for r, c in tile:
            inset = rng.uniform(1.5, 3.0) * PX_PER_MM
            (x0, y0), (x1, y1) = cell_corner_px(r, c), cell_corner_px(r + 1, c + 1)
            for a, b in (((x0, y0), (x1, y1)), ((x1, y0), (x0, y1))):
                p0, p1 = np.array(a), np.array(b)
                toward = (p1 - p0) / np.linalg.norm(p1 - p0) * inset
                _draw(layer, _wobbly(p0 + toward, p1 - toward, 0.4 * PX_PER_MM, rng), width)
    inset = rng.uniform(-0.4, 1.4) * PX_PER_MM
    np.maximum(coverage, layer * _tile_mask(tile, coverage.shape, inset), out=coverage)


def paper_grain(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """How much lead the paper's tooth takes, per pixel (one paper per sheet)."""
    grain = rng.uniform(0.45, 1.0, shape).astype(np.float32)
    return cv2.GaussianBlur(grain, (0, 0), 0.8)


def _ink(page: np.ndarray, coverage: np.ndarray, pen: Pen, rng: np.random.Generator,
         grain: np.ndarray) -> None:
    """Darken the paper under the strokes by the pen's colour (inks multiply)."""
    amount = coverage * pen.opacity * rng.uniform(0.8, 1.05)
    if pen.grainy:
        amount *= grain
    absorb = 1 - np.array(pen.colour, np.float32) / 255
    page *= 1 - np.clip(amount, 0, 1)[..., None] * absorb


def _bonus_one(page: np.ndarray, cell: Cell, pen: Pen, rng: np.random.Generator,
               grain: np.ndarray) -> None:
    """The drop-out bonus: a handwritten 1 in an empty square."""
    mark = np.zeros(page.shape[:2], np.uint8)
    (x0, y0) = cell_corner_px(*cell)
    height = rng.uniform(0.5, 0.75) * SHEET_CELL_PX
    font = cv2.FONT_HERSHEY_SCRIPT_SIMPLEX if rng.random() < 0.5 else cv2.FONT_HERSHEY_SIMPLEX
    scale = height / cv2.getTextSize("1", font, 1.0, 3)[0][1]
    (tw, th), _ = cv2.getTextSize("1", font, scale, 3)
    origin = (int(x0 + (SHEET_CELL_PX - tw) / 2 + rng.normal(0, 3)),
              int(y0 + (SHEET_CELL_PX + th) / 2 + rng.normal(0, 3)))
    cv2.putText(mark, "1", origin, font, scale, 255, max(3, int(pen.width_mm * PX_PER_MM)),
                cv2.LINE_AA)
    _ink(page, mark.astype(np.float32) / 255, pen, rng, grain)


def _erasure(page: np.ndarray, cell: Cell, rng: np.random.Generator) -> None:
    """What a rubber leaves of a mark: a faint grey smear, most of the graphite gone."""
    smear = np.zeros(page.shape[:2], np.float32)
    (x0, y0), (x1, y1) = cell_corner_px(*cell), cell_corner_px(cell[0] + 1, cell[1] + 1)
    for line in _hatch_lines([cell], rng.uniform(0, np.pi), rng.uniform(1.5, 3) * PX_PER_MM):
        _draw(smear, _wobbly(line[0], line[1], 0.3 * PX_PER_MM, rng), 0.4 * PX_PER_MM)
    inside = np.zeros_like(smear)
    inside[int(y0) + 8:int(y1) - 8, int(x0) + 8:int(x1) - 8] = 1
    smear = cv2.GaussianBlur(smear * inside, (0, 0), 1.5) * rng.uniform(0.05, 0.14)
    page *= 1 - smear[..., None] * (1 - np.array(PENCIL.colour, np.float32) / 255)


def _player_kit(rng: np.random.Generator) -> dict:
    """What one player draws with and how they like to shade."""
    kind = str(rng.choice(["pencil", "pen", "colour"]))
    return {"kind": kind, "favourite": str(rng.choice(SHADING)),
            "main_pen": BALLPOINTS[int(rng.integers(len(BALLPOINTS)))],
            "dark_outline": rng.random() < 0.5}


def _pens_for_tile(kit: dict, rng: np.random.Generator) -> tuple[Pen, Pen]:
    """The pen of the tile's outline and the pen of its shading."""
    if kit["kind"] == "pencil":
        return PENCIL, PENCIL
    if kit["kind"] == "pen":
        pen = kit["main_pen"] if rng.random() < 0.7 else \
            BALLPOINTS[int(rng.integers(len(BALLPOINTS)))]
        return pen, pen
    shade = COLOURED_PENCILS[int(rng.integers(len(COLOURED_PENCILS)))]
    return (PENCIL if kit["dark_outline"] else shade), shade


def draw_sheet(tiles: list[list[Cell]], rng: np.random.Generator) -> tuple[np.ndarray, set[Cell]]:
    """The printed sheet (float BGR) with the tiles drawn, and every filled square."""
    page = sheet_page().astype(np.float32)
    kit = _player_kit(rng)
    grain = paper_grain(page.shape[:2], rng)
    for tile in tiles:
        outline_pen, shade_pen = _pens_for_tile(kit, rng)
        style = kit["favourite"] if rng.random() < 0.6 else str(rng.choice(SHADING))
        outline = np.zeros(page.shape[:2], np.float32)
        _outline(outline, tile, outline_pen, rng)
        _ink(page, outline, outline_pen, rng, grain)
        shading = np.zeros_like(outline)
        _shade(shading, tile, style, shade_pen, rng)
        _ink(page, shading, shade_pen, rng, grain)
    filled = {cell for tile in tiles for cell in tile}
    empty = [(r, c) for r in range(GRID) for c in range(GRID) if (r, c) not in filled]
    rng.shuffle(empty)
    if empty and rng.random() < BONUS_CHANCE:
        bonus = tuple(int(v) for v in empty.pop())
        _bonus_one(page, bonus, _pens_for_tile(kit, rng)[0], rng, grain)
        filled.add(bonus)
    if empty and rng.random() < ERASURE_CHANCE:
        _erasure(page, tuple(int(v) for v in empty.pop()), rng)
    return page, filled


def latest_drawing(filled: set[Cell], tiles: list[list[Cell]]) -> set[Cell]:
    """The squares drawn last: the bonus 1 (written after every tile) or else the last tile."""
    bonus = filled - {cell for tile in tiles for cell in tile}
    return bonus if bonus else set(tiles[-1])


def grid_outline(page_to_frame: np.ndarray) -> np.ndarray:
    """The printed grid's outer frame in the frame (image points)."""
    corners = np.array([[cell_corner_px(0, 0), cell_corner_px(0, GRID),
                         cell_corner_px(GRID, GRID), cell_corner_px(GRID, 0)]], np.float64)
    return cv2.perspectiveTransform(corners, page_to_frame)[0]


def sheet_scene_with_outline(seed: int):
    rng = np.random.default_rng([seed, 0x5C2])
    tiles = fill_sheet(rng)
    page, filled = draw_sheet(tiles, rng)
    frame, page_to_frame = photograph(np.clip(page, 0, 255).astype(np.uint8), A5_PORTRAIT_MM,
                                      rng)
    return frame, filled, tiles, grid_outline(page_to_frame)


def sheet_scene(seed: int) -> tuple[np.ndarray, set[Cell], list[list[Cell]]]:
    """A photo of a filled-in sheet, the filled squares (the bonus 1 included) and the tiles
    (start tile first, as lists of (row, col))."""
    frame, filled, tiles, _ = sheet_scene_with_outline(seed)
    return frame, filled, tiles
