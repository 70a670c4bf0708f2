"""An opening by a cell: the stub between a cell's rim and the side is a stroke too short for
its colour to tell it from the rim's blur (vision.enigma.openings.stub_cells); its dark
stroke, or the neighbour's clear read of the mirrored opening (vision.enigma.mirror), says
whether it is there."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from companion.enigma.tiles import Port
from vision.enigma.cells import Cell
from vision.enigma.openings import stub_cells
from vision.enigma.reader import read_enigma

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.enigma_judge import read_key  # noqa: E402
from independent_scenes.enigma_table import enigma_scene, truth_of  # noqa: E402

P, RC, CW = 64, 7.04, 5.12
FRACTIONS = (0.25, 0.5, 0.75)
E0 = Port("E", 0)  # at y = 16 on the east side


def _cell(x: float, y: float) -> Cell:
    return Cell((x, y), "blue", 1.0)


def test_the_one_cell_whose_rim_lies_by_the_side_is_the_stubs():
    # rims 1, 6 and 12 pixels in from the east side, straight in from E0
    assert stub_cells([_cell(56, 16)], {E0}, FRACTIONS, P, RC, CW) == {E0: 0}
    assert stub_cells([_cell(20, 40), _cell(51, 17)], {E0}, FRACTIONS, P, RC, CW) == {E0: 1}
    assert stub_cells([_cell(45, 16)], {E0}, FRACTIONS, P, RC, CW) == {}
    # off to the side of the stub's line by more than its half width and a radius
    assert stub_cells([_cell(56, 30)], {E0}, FRACTIONS, P, RC, CW) == {}
    # two cells by the side there: which one a stub joins is not the geometry's to say
    assert stub_cells([_cell(56, 11), _cell(56, 22)], {E0}, FRACTIONS, P, RC, CW) == {}


@pytest.mark.parametrize("seed,at,port", [(0, (-4, 0), "W1"), (11, (1, 1), "E2")])
def test_a_stub_by_a_cell_its_dark_stroke_shows_is_read(seed, at, port, demo_pack):
    # tuning clean tables: no tile beside that side, the stub's colour lost in the cell's
    # rim, its dark stroke plain: read present. It may be asked, or settled by the tile's
    # own evidence: a stub running into a cell by the side is the tile's own channel ending
    # at the opening (session 31; on the Pi floor's pixels table 11's [1, 1] is so settled)
    frame, table = enigma_scene(seed, "clean")
    truth, _ = truth_of(table)
    read = read_enigma(frame, demo_pack)
    tile = read.tiles[at]
    assert read_key(tile.to_json()) == truth[at]
    assert any(q.side == port[0] and q.position == int(port[1:]) for q in tile.tile.ports)


def test_a_networkers_shadow_by_the_side_is_no_stub(demo_pack):
    # tuning clean table 17, [-1, -2]: a white pawn on a yellow cell by the east side, its
    # shadow dark across E0 where no opening is; the tile is read as it is (and asked)
    frame, table = enigma_scene(17, "clean")
    truth, _ = truth_of(table)
    read = read_enigma(frame, demo_pack)
    assert read_key(read.tiles[(-1, -2)].to_json()) == truth[(-1, -2)]
