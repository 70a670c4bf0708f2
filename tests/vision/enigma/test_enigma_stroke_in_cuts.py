"""A short stroke between two close cells lost between the cuts made round each (tuning
any-tile 34004 harsh, square [1, 0]: three cells in a column, the stroke between the two blue
ones left about 2 px between the channel cuts and the cells' blurred outlines labelled icon
ink across it, so neither a piece nor the corridor joined them; read sure as two networks).
Such a stroke is asked about unless the tile's links join its cells anyway."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.enigma.harsh_any_tile import assert_right_or_asked
from vision.enigma.cells import Cell, disc
from vision.enigma.colours import colour_model
from vision.enigma.near_cells import near_cell_links, settle_near_cells
from vision.enigma.pack import EnigmaPack
from vision.enigma.patch_labels import PatchLabels
from vision.enigma.tile_doubts import TileDoubts

P = 64
BROKEN = "a channel between two cells is broken: joined or not?"


def _class_of(pack: EnigmaPack, kind: str) -> int:
    return colour_model(pack).kinds.index(kind)


def _two_cells(pack: EnigmaPack, apart_rc: float, stroke: bool) -> tuple[PatchLabels,
                                                                       list[Cell]]:
    """Two blue cells ``apart_rc`` radii apart in a column, their outlines a ring of icon
    ink 1.5 px wide (the blur's colour on the harsh tile), and when ``stroke`` a channel
    drawn between them under the outlines."""
    model = colour_model(pack)
    rc, cw = pack.cell_radius * P, pack.channel_width * P
    top = (32.0, 24.0)
    bottom = (32.0, 24.0 + apart_rc * rc)
    labels = np.full((P, P), _class_of(pack, "tile"), np.int32)
    if stroke:
        xs = np.arange(P)
        band = np.abs(xs - 32.0) <= cw / 2
        labels[int(top[1]):int(bottom[1]) + 1, band] = _class_of(pack, "channel")
    for c in (top, bottom):
        ring = disc((P, P), c, rc + 1.5) & ~disc((P, P), c, rc)
        labels[ring] = _class_of(pack, "icon")
        labels[disc((P, P), c, rc)] = _class_of(pack, "cell")
    named = PatchLabels(np.zeros((P, P, 3), np.float32), labels, labels, model,
                        labels != _class_of(pack, "tile"))
    return named, [Cell(top, "blue", 1.0), Cell(bottom, "blue", 1.0)]


def _problems(pack: EnigmaPack, apart_rc: float, stroke: bool) -> list[str]:
    named, cells = _two_cells(pack, apart_rc, stroke)
    rc, cw = pack.cell_radius * P, pack.channel_width * P
    near = near_cell_links(named, cells, ["a", "b"], rc, cw)
    doubts = TileDoubts()
    settle_near_cells(near, list(near.links), cells, ["a", "b"],
                      named.dark & ~named.of_kind("icon"), rc, doubts)
    return doubts.problems


def test_a_stroke_lost_between_close_cuts_is_asked_about(demo_pack) -> None:
    """The stroke between two cells 2.85 radii apart (34004's): the cuts leave 1.7 px."""
    problems = _problems(demo_pack, 2.85, stroke=True)
    assert BROKEN in problems


def test_close_cells_with_bare_tile_between_are_not_asked_about(demo_pack) -> None:
    assert _problems(demo_pack, 2.85, stroke=False) == []


@pytest.mark.parametrize("seed,at", [(34004, (1, 0))])
def test_the_stroke_lost_in_the_cuts_on_a_harsh_table_is_asked_about(demo_pack, seed, at
                                                                     ) -> None:
    assert_right_or_asked(demo_pack, seed, at)
