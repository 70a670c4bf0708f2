"""Tiles under a lamp's reflection (issue 20: "the paths were still visible by eye"): the
reflection adds white to the print, clipped to white in its middle and washing the print out
round it. The glare mask takes the washed rim too, and a tile it leaves little of was asked
or read as another pattern; read from what the clipped core leaves, each pixel against the
levels round it, most such tiles are read surely, and none wrongly so."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from indigo_scenes import laid_by_hand

from companion.indigo import ROUTE_CELLS, Tile
from companion.indigo.geometry import Cell
from vision.indigo.board import cell_xy
from vision.indigo.glare import clipped_mask, glare_mask
from vision.indigo.model import TEMPLATE_BLUR, canonical_size, pack_model, to_canonical, to_gray
from vision.indigo.pack import load_indigo_pack
from vision.indigo.read_types import CellRead
from vision.indigo.settings import DEFAULT_SETTINGS
from vision.indigo.tiles import read_tiles

SURE = DEFAULT_SETTINGS.min_confidence
#: the reflection over each tile: its middle's distance from the cell's middle and its
#: spread (a Gaussian's sigma), in cell radii, and the white it adds at its middle (grey
#: levels): the glare mask takes about half to two thirds of a disc, a tenth to a fifth of
#: it clipped
LAMP_OFF = (0.2, 0.6)
LAMP_SIGMA = (0.3, 0.45)
LAMP_PEAK = (60.0, 140.0)
#: a hand's offset (canonical pixels) and turn (degrees), small: the test is the glare
HAND_PX = 1.0
HAND_DEG = 3.0


def _lamp_lit_board(seed: int) -> tuple[np.ndarray, dict[Cell, Tile]]:
    """The straightened board (BGR, as the reader rectifies it): every route cell with a
    seeded demo tile laid by hand and a lamp's reflection added over part of it, clipped at
    white; the tiles."""
    pack = load_indigo_pack()
    cell_px = DEFAULT_SETTINGS.cell_px
    canvas = np.zeros((canonical_size(cell_px), canonical_size(cell_px), 3), np.float32)
    side = 4 * cell_px + 1
    yy, xx = np.mgrid[:side, :side].astype(np.float32)
    mid = (side - 1) / 2
    rng = np.random.default_rng(seed)
    truth: dict[Cell, Tile] = {}
    for cell in ROUTE_CELLS:
        tile = Tile(int(rng.integers(5)), int(rng.integers(6)))
        angle, off = rng.uniform(0, 2 * math.pi), rng.uniform(0, HAND_PX)
        dx, dy = off * math.cos(angle), off * math.sin(angle)
        patch = laid_by_hand(pack.tiles[tile.kind], cell_px, side,
                             60 * tile.rotation + rng.uniform(-HAND_DEG, HAND_DEG), dx, dy)
        inside = ((xx - mid - dx) ** 2 + (yy - mid - dy) ** 2) <= (0.97 * cell_px) ** 2
        towards, far = rng.uniform(0, 2 * math.pi), rng.uniform(*LAMP_OFF) * cell_px
        sigma = rng.uniform(*LAMP_SIGMA) * cell_px
        lamp = rng.uniform(*LAMP_PEAK) * np.exp(
            -((xx - mid - far * math.cos(towards)) ** 2
              + (yy - mid - far * math.sin(towards)) ** 2) / (2 * sigma * sigma))
        x, y = (int(round(v)) for v in to_canonical(cell_xy(cell), cell_px))
        square = (slice(y - side // 2, y + side // 2 + 1), slice(x - side // 2, x + side // 2 + 1))
        canvas[square][inside] = patch[inside] + lamp[inside][:, None]
        truth[cell] = tile
    return np.clip(canvas, 0, 255).astype(np.uint8), truth


def _read(seed: int, past_glare: bool) -> tuple[dict[Cell, CellRead], dict[Cell, Tile]]:
    pack = load_indigo_pack()
    canon, truth = _lamp_lit_board(seed)
    gray = cv2.GaussianBlur(to_gray(canon), (0, 0), TEMPLATE_BLUR)
    model = pack_model(pack, DEFAULT_SETTINGS.cell_px)
    read = read_tiles(gray, [], model, DEFAULT_SETTINGS, pack.gem_size,
                      glare=glare_mask(canon, DEFAULT_SETTINGS.cell_px),
                      clipped=clipped_mask(canon) if past_glare else None)
    return read, truth


def _right(read: CellRead, tile: Tile) -> bool:
    return read.tile is not None and read.tile.same_pattern(tile)


def _sure_right(read: dict[Cell, CellRead], truth: dict[Cell, Tile]) -> int:
    return sum(_right(read[c], t) and read[c].confidence >= SURE for c, t in truth.items())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_most_tiles_under_a_lamps_reflection_are_read_surely(seed: int) -> None:
    """Compared only outside the glare mask, 1-2 of the 54 tiles of these boards were read
    right and sure (most asked, many as another pattern); read from what the clipped core
    leaves, 28-34 (26-36 on seeds 1-20)."""
    read, truth = _read(seed, past_glare=True)
    assert _sure_right(read, truth) >= 20


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_no_tile_under_a_lamps_reflection_is_read_wrong_surely(seed: int) -> None:
    """Seed 4, cell (2, -1): tile 0 with 44% of its disc under the glare mask fitted tile 3
    at 0.86 there; the read from what the clipped core leaves names tile 0, so it is asked.
    No other tile of seeds 1-20 was read wrong and sure."""
    read, truth = _read(seed, past_glare=True)
    wrong_sure = [(c, t, read[c]) for c, t in truth.items()
                  if not _right(read[c], t) and read[c].confidence >= SURE]
    assert wrong_sure == []


def test_the_clipped_core_is_only_the_white_pixels_grown_a_little() -> None:
    """The glare mask takes the washed rim round a reflection; the clipped mask only what is
    burnt white, so a tile the glare mask leaves little of still shows its paths."""
    canon, _ = _lamp_lit_board(1)
    glare, clipped = glare_mask(canon, DEFAULT_SETTINGS.cell_px), clipped_mask(canon)
    assert clipped.sum() < glare.sum() / 2
    assert not (clipped & ~glare).any()
