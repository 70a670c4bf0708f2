"""A blue pawn hiding its cell but for a rim that names no colour (bench/independent_scenes
harsh tuning tables at 30-45 tiles, 5000 [0, 2] and 5009 [-3, 3]: blue pawns on red cells;
the held-apart range starts at 70000): the cell finder reads the pawn itself as a cell of
its own colour, blue, and the pawn on it is sure. Nothing round the pawn confirms a blue
cell, so the cell's colour is doubted and the tile asked, never given sure
(:func:`vision.enigma.networkers.read_networkers`); a blue cell's own rim round its blue
pawn names blue by its hue and stays sure.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.enigma.tiles import Port, Tile
from vision.enigma.cells import Cell
from vision.enigma.colours import colour_features, colour_model
from vision.enigma.layout import layout_tile, spacing_for
from vision.enigma.networkers import HIDDEN_CELL_CONFIDENCE, read_networkers
from vision.enigma.synth.art import draw_networker, tile_face

P = 64  # the reader's pixels per tile


def _blue_pawn_on(pack, colour: str, pawn_scale: float):
    """A 64 px tile with one ``colour`` cell, a blue pawn ``pawn_scale`` times the pack's
    pawn radius on it (a pawn standing tall covers more of its cell), lightly blurred; the
    cell as a finder that took the pawn for the cell reads it."""
    tile = Tile.make({"a": colour}, [(Port("N", 1), "a")])
    face = tile_face(tile, pack, P)
    x, y = layout_tile(tile, pack.ports, spacing=spacing_for(pack)).cells["a"]
    draw_networker(face, (x * P, y * P), pack.networker_radius * P * pawn_scale,
                   pack.networkers["blue"])
    patch = cv2.GaussianBlur(face, (3, 3), 0.7)
    model = colour_model(pack)
    feats = colour_features(patch.astype(np.float32))
    cells, _, _ = read_networkers([Cell((x * P, y * P), "blue", 1.0)], feats,
                                  model.labels(feats), model, pack)
    return cells


@pytest.mark.parametrize(("pack_name", "colour", "pawn_scale"), [
    ("demo", "red", 1.6), ("ink", "yellow", 2.0)])
def test_a_blue_pawn_hiding_its_cell_leaves_the_cell_read_blue_doubted(
        packs, pack_name: str, colour: str, pawn_scale: float) -> None:
    # the pawn covers the cell but for a rim too thin to name a colour (before: the cell
    # blue and sure, the pawn sure: a tile and a networker wrong without a question)
    [cell] = _blue_pawn_on(packs[pack_name], colour, pawn_scale)
    assert cell.networker == "blue" and cell.net_confidence >= 0.85
    assert cell.colour == "blue" and cell.confidence <= HIDDEN_CELL_CONFIDENCE


@pytest.mark.parametrize("pack_name", ["demo", "ink"])
def test_a_blue_pawn_on_a_blue_cell_stays_sure(packs, pack_name: str) -> None:
    # the blue ring round the pawn confirms the cell's colour by its hue
    [cell] = _blue_pawn_on(packs[pack_name], "blue", 1.0)
    assert (cell.colour, cell.networker) == ("blue", "blue")
    assert cell.confidence >= 0.85 and cell.net_confidence >= 0.85
