"""Tiles laid by hand with a lamp's clipped reflection over part of each (issue 20): a tile
whose pattern the unshifted comparison already reads, and which a hand's offset only blurs,
is read surely once shifted; a tile whose best class changes when shifted is still asked
(independent tuning seed 1036 harsh, scans: a tile a fifth under glare read as another turn
of its pattern at 0.94 once shifted)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from indigo_scenes import laid_by_hand

from companion.indigo import ROUTE_CELLS, Tile
from companion.indigo.geometry import Cell
from vision.indigo.board import cell_xy
from vision.indigo.model import TEMPLATE_BLUR, canonical_size, pack_model, to_canonical, to_gray
from vision.indigo.pack import load_indigo_pack
from vision.indigo.read_types import CellRead
from vision.indigo.settings import DEFAULT_SETTINGS
from vision.indigo.tiles import read_tiles

SURE = DEFAULT_SETTINGS.min_confidence
#: a hand's offset, in canonical pixels (16 per cell radius of 24.5 mm: 1.5-3 mm) ...
OFFSET_PX = (1.0, 2.0)
#: ... and turn, in degrees
TURN_DEG = 5.0
#: the reflection's clipped patch: its radius and its middle's distance from the cell's
#: middle, in cell radii (a patch over one side of the tile, a tenth to a fifth of it)
GLARE_RADIUS = (0.25, 0.45)
GLARE_OFF = (0.5, 0.9)


def _glared_board(seed: int) -> tuple[np.ndarray, np.ndarray, dict[Cell, Tile]]:
    """The straightened board's grey (blurred as the reader blurs it), every route cell with a
    seeded tile laid a hand's offset and turn off and a clipped white patch over one side of
    it; the glare mask; the tiles."""
    pack = load_indigo_pack()
    cell_px = DEFAULT_SETTINGS.cell_px
    canvas = np.zeros((canonical_size(cell_px), canonical_size(cell_px), 3), np.float32)
    glare = np.zeros(canvas.shape[:2], bool)
    side = 4 * cell_px + 1
    yy, xx = np.mgrid[:side, :side]
    mid = (side - 1) / 2
    rng = np.random.default_rng(seed)
    truth: dict[Cell, Tile] = {}
    for cell in ROUTE_CELLS:
        tile = Tile(int(rng.integers(5)), int(rng.integers(6)))
        angle, off = rng.uniform(0, 2 * math.pi), rng.uniform(*OFFSET_PX)
        dx, dy = off * math.cos(angle), off * math.sin(angle)
        turn = float(rng.uniform(-TURN_DEG, TURN_DEG))
        patch = laid_by_hand(pack.tiles[tile.kind], cell_px, side, 60 * tile.rotation + turn,
                             dx, dy)
        inside = ((xx - mid - dx) ** 2 + (yy - mid - dy) ** 2) <= (0.97 * cell_px) ** 2
        x, y = (int(round(v)) for v in to_canonical(cell_xy(cell), cell_px))
        square = (slice(y - side // 2, y + side // 2 + 1), slice(x - side // 2, x + side // 2 + 1))
        canvas[square][inside] = patch[inside]
        towards, far = rng.uniform(0, 2 * math.pi), rng.uniform(*GLARE_OFF) * cell_px
        radius = rng.uniform(*GLARE_RADIUS) * cell_px
        spot = ((xx - mid - far * math.cos(towards)) ** 2
                + (yy - mid - far * math.sin(towards)) ** 2) <= radius ** 2
        canvas[square][spot] = 255.0
        glare[square] |= spot
        truth[cell] = tile
    board = to_gray(np.clip(canvas, 0, 255).astype(np.uint8))
    return cv2.GaussianBlur(board, (0, 0), TEMPLATE_BLUR), glare, truth


def _read(seed: int) -> tuple[dict[Cell, CellRead], dict[Cell, Tile]]:
    pack = load_indigo_pack()
    gray, glare, truth = _glared_board(seed)
    model = pack_model(pack, DEFAULT_SETTINGS.cell_px)
    return read_tiles(gray, [], model, DEFAULT_SETTINGS, pack.gem_size, glare=glare), truth


def _right(read: CellRead, tile: Tile) -> bool:
    return read.tile is not None and read.tile.same_pattern(tile)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_most_tiles_laid_off_under_a_clipped_patch_are_read_surely(seed: int) -> None:
    """Before, a cell with glare in it was sure only upright and unshifted: 22-29 of the 54
    tiles of these boards were read right and sure (40-42 now). A shift that keeps the
    unshifted comparison's class only takes the hand's offset away."""
    read, truth = _read(seed)
    sure_right = sum(_right(read[c], t) and read[c].confidence >= SURE for c, t in truth.items())
    assert sure_right >= 35  # about two thirds


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_tile_under_a_clipped_patch_is_read_wrong_surely(seed: int) -> None:
    """Tiles whose best class changes once shifted are among these (seed 2: cell (-4, 1),
    tile 0 read as tile 3 at 0.91 shifted and posed): they are asked."""
    read, truth = _read(seed)
    wrong_sure = [(c, t, read[c]) for c, t in truth.items()
                  if not _right(read[c], t) and read[c].confidence >= SURE]
    assert wrong_sure == []
