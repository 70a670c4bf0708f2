"""A pack taught from photos of tiles laid a little turned stores each tile picture turned onto
its paths (issue 20: on tuning boards the teach photos' hands, up to 2.6 degrees, stayed in
the taught pictures; a tile laid a hand's turn the other way then fitted the other
three-path pattern upright, and tile 0 and tile 1 were asked as each other)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from indigo_scenes import laid_by_hand

from companion.indigo import ROUTE_CELLS, Tile
from companion.indigo.geometry import Cell
from vision.indigo.board import cell_xy
from vision.indigo.model import TEMPLATE_BLUR, canonical_size, pack_model, to_canonical, to_gray
from vision.indigo.pack import IndigoPack, load_indigo_pack
from vision.indigo.settings import DEFAULT_SETTINGS
from vision.indigo.synth.teach_photo import render_teach_photo
from vision.indigo.teach import teach
from vision.indigo.tiles import read_tiles

#: every tile is laid on its teach page this many degrees turned (clockwise) ...
TAUGHT_TURN_DEG = 3.0
#: ... and on the board a hand's turn the other way
LAID_TURN_DEG = -5.0


def _board(pack: IndigoPack, tiles: dict[Cell, Tile]) -> np.ndarray:
    """The straightened board's grey (blurred as the reader blurs it): ``tiles`` drawn from
    ``pack`` turned by LAID_TURN_DEG on their cells, every other route cell empty."""
    cell_px = DEFAULT_SETTINGS.cell_px
    canvas = np.zeros((canonical_size(cell_px), canonical_size(cell_px), 3), np.float32)
    side = 4 * cell_px + 1
    yy, xx = np.mgrid[:side, :side]
    inside = ((xx - (side - 1) / 2) ** 2 + (yy - (side - 1) / 2) ** 2) <= (0.97 * cell_px) ** 2
    for cell in ROUTE_CELLS:
        tile = tiles.get(cell)
        image = pack.empty if tile is None else pack.tiles[tile.kind]
        turn = 0.0 if tile is None else 60 * tile.rotation + LAID_TURN_DEG
        patch = laid_by_hand(image, cell_px, side, turn, 0.0, 0.0)
        x, y = (int(round(v)) for v in to_canonical(cell_xy(cell), cell_px))
        canvas[y - side // 2 : y + side // 2 + 1, x - side // 2 : x + side // 2 + 1][inside] = \
            patch[inside]
    board = to_gray(np.clip(canvas, 0, 255).astype(np.uint8))
    return cv2.GaussianBlur(board, (0, 0), TEMPLATE_BLUR)


@pytest.fixture(scope="module")
def taught_from_turned_photos() -> IndigoPack:
    demo = load_indigo_pack()
    photos = [render_teach_photo(demo, kind, seed=60 + kind, tile_turn_deg=TAUGHT_TURN_DEG)
              for kind in range(5)]
    return teach(photos, None)


def test_tiles_taught_turned_read_tile_0_and_1_right_and_sure(
        taught_from_turned_photos: IndigoPack) -> None:
    """Tiles 0 and 1 at every rotation, laid 8 degrees off the teach photos' hands: each read
    as itself and sure (taught with the hand's turn kept, tile 1 at rotations 2 and 5 was
    read at 0.6-0.8, asked)."""
    demo, taught = load_indigo_pack(), taught_from_turned_photos
    placed = [Tile(kind, rotation) for kind in (0, 1) for rotation in range(6)]
    tiles = dict(zip(ROUTE_CELLS[::2], placed, strict=False))
    model = pack_model(taught, DEFAULT_SETTINGS.cell_px)
    read = read_tiles(_board(demo, tiles), [], model, DEFAULT_SETTINGS, taught.gem_size)
    for cell, tile in tiles.items():
        got = read[cell]
        assert got.tile is not None and got.tile.same_pattern(tile), (cell, tile, got)
        assert got.confidence >= DEFAULT_SETTINGS.min_confidence, (cell, tile, got)
    for cell in ROUTE_CELLS:
        if cell not in tiles:
            assert read[cell].tile is None or read[cell].confidence < \
                DEFAULT_SETTINGS.min_confidence, (cell, read[cell])
