"""A cell a lamp's reflection washes out wholly (issue 20): the glare mask leaves less than a
tenth of its disc, and no pattern is left to compare. Before, its answer was whichever class
fitted the few pixels left best (tile 0 unturned when none were left), asked: most such
cells of the independent tuning boards were empty cells read as a tile. It is now read as
the empty cell, still asked, unless the read past the glare made it sure."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from indigo_scenes import laid_by_hand, read_independent_board

from companion.indigo import ROUTE_CELLS, Tile
from companion.indigo.geometry import Cell
from vision.indigo.board import cell_xy
from vision.indigo.glare import clipped_mask, glare_mask
from vision.indigo.model import TEMPLATE_BLUR, canonical_size, pack_model, to_canonical, to_gray
from vision.indigo.pack import load_indigo_pack
from vision.indigo.read_types import CellRead
from vision.indigo.settings import DEFAULT_SETTINGS
from vision.indigo.tiles import NOTHING_LEFT, read_tiles

SURE = DEFAULT_SETTINGS.min_confidence
#: cells burnt white: this many of the route cells, the lamp's white spread this many cell
#: radii beyond each (a Gaussian's sigma) so the washed rim round it is taken too
BURNT_CELLS = 8
LAMP_SIGMA = 0.6


def _board(seed: int, tiles: bool) -> tuple[np.ndarray, dict[Cell, Tile | None], set[Cell]]:
    """The straightened board (BGR, as the reader rectifies it): every route cell empty, or
    holding a seeded demo tile; a lamp's white burnt over BURNT_CELLS seeded cells, washing
    the print round them. The truth, and the burnt cells."""
    pack = load_indigo_pack()
    cell_px = DEFAULT_SETTINGS.cell_px
    size = canonical_size(cell_px)
    canvas = np.zeros((size, size, 3), np.float32)
    side = 4 * cell_px + 1
    yy, xx = np.mgrid[:side, :side]
    inside = ((xx - (side - 1) / 2) ** 2 + (yy - (side - 1) / 2) ** 2) <= (0.97 * cell_px) ** 2
    rng = np.random.default_rng(seed)
    truth: dict[Cell, Tile | None] = {}
    for cell in ROUTE_CELLS:
        tile = Tile(int(rng.integers(5)), int(rng.integers(6))) if tiles else None
        image = pack.empty if tile is None else pack.tiles[tile.kind]
        patch = laid_by_hand(image, cell_px, side, 0.0 if tile is None else 60 * tile.rotation,
                             0.0, 0.0)
        x, y = (int(round(v)) for v in to_canonical(cell_xy(cell), cell_px))
        square = (slice(y - side // 2, y + side // 2 + 1), slice(x - side // 2, x + side // 2 + 1))
        canvas[square][inside] = patch[inside]
        truth[cell] = tile
    burnt = {ROUTE_CELLS[i] for i in rng.choice(len(ROUTE_CELLS), BURNT_CELLS, replace=False)}
    yy, xx = np.mgrid[:size, :size].astype(np.float32)
    white = np.zeros((size, size), np.float32)
    for cell in burnt:
        x, y = to_canonical(cell_xy(cell), cell_px)
        far = np.hypot(xx - x, yy - y) - cell_px
        white = np.maximum(white, np.where(far <= 0, 255.0, 255.0 * np.exp(
            -np.maximum(far, 0) ** 2 / (2 * (LAMP_SIGMA * cell_px) ** 2))))
    canvas += white[:, :, None]
    return np.clip(canvas, 0, 255).astype(np.uint8), truth, burnt


def _read(seed: int, tiles: bool) -> tuple[dict[Cell, CellRead], dict[Cell, Tile | None],
                                           set[Cell], np.ndarray]:
    pack = load_indigo_pack()
    canon, truth, burnt = _board(seed, tiles)
    gray = cv2.GaussianBlur(to_gray(canon), (0, 0), TEMPLATE_BLUR)
    model = pack_model(pack, DEFAULT_SETTINGS.cell_px)
    glare = glare_mask(canon, DEFAULT_SETTINGS.cell_px)
    read = read_tiles(gray, [], model, DEFAULT_SETTINGS, pack.gem_size, glare=glare,
                      clipped=clipped_mask(canon))
    return read, truth, burnt, glare


def _left(glare: np.ndarray, cell: Cell) -> float:
    """The share of a cell's compared disc the glare mask leaves (near enough: the disc of
    0.8 cell radii round its middle)."""
    cell_px = DEFAULT_SETTINGS.cell_px
    x, y = to_canonical(cell_xy(cell), cell_px)
    yy, xx = np.mgrid[:glare.shape[0], :glare.shape[1]]
    disc = np.hypot(xx - x, yy - y) <= 0.8 * cell_px
    return float((~glare[disc]).mean())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_empty_cell_washed_out_wholly_is_read_empty_and_asked(seed: int) -> None:
    """Before, each burnt empty cell was read as tile 0 unturned (all classes fit a white
    disc alike), asked: the question offered two tiles, neither what lies there."""
    read, _truth, burnt, glare = _read(seed, tiles=False)
    washed = [c for c in burnt if _left(glare, c) < NOTHING_LEFT / 2]
    assert len(washed) >= BURNT_CELLS // 2
    assert [(c, read[c].tile) for c in washed if read[c].tile is not None] == []
    assert all(read[c].confidence < SURE for c in washed)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_tile_washed_out_wholly_is_never_read_surely(seed: int) -> None:
    """A tile under the same white is no more seen than the empty cell: asked, whatever is
    offered (read empty, it is no silent wrong read)."""
    read, truth, burnt, glare = _read(seed, tiles=True)
    washed = [c for c in burnt if _left(glare, c) < NOTHING_LEFT / 2]
    assert washed
    assert [(c, truth[c], read[c]) for c in washed if read[c].confidence >= SURE] == []


@pytest.fixture(scope="module")
def demo_1012() -> tuple[dict, dict]:
    """Tuning board 1012, harsh, demo look, read as the app reads it: (the read, the truth's
    tiles)."""
    truth, out = read_independent_board(1012)
    return out, truth.tiles


def test_an_empty_cell_under_a_lamp_on_a_tuning_board_is_read_empty_and_asked(
        demo_1012: tuple[dict, dict]) -> None:
    """Cell (-3,4) lies wholly under the lamp (nothing of its disc left by the glare mask):
    read as tile 3 at 0.06 before ("cell (-3,4): T3 rot 1 or T2 rot 1?"), it is empty."""
    out, truth = demo_1012
    assert truth.get((-3, 4)) is None
    assert not [t for t in out["tiles"] if t["cell"] == [-3, 4]]
    unsure = [e for e in out["empty_cells"] if e["cell"] == [-3, 4]]
    assert len(unsure) == 1 and unsure[0]["confidence"] < SURE
    assert any(q.startswith("cell (-3,4):") for q in out["questions"])


def test_every_cell_under_glare_keeps_its_sure_reads(demo_1012: tuple[dict, dict]) -> None:
    """Only unsure cells change: no tile is read wrong and sure on that board."""
    out, truth = demo_1012
    wrong_sure = [t["cell"] for t in out["tiles"] if t["confidence"] >= SURE
                  and tuple(sorted(tuple(sorted(p)) for p in t["paths"]))
                  != truth.get(tuple(t["cell"]))]
    assert wrong_sure == []
