"""One cell carries one pawn: a pawn judged on a cell where another player colour's core
lies as near its colour is doubted, never sure; bare tile beside a cell passes for a white
pawn's core (vision.enigma.networkers._rival_core)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from vision.enigma.reader import read_enigma
from vision.enigma.settings import DEFAULT_SETTINGS

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.enigma_table import enigma_scene  # noqa: E402


@pytest.mark.parametrize(("seed", "at"), [(25035, (2, 0))])
def test_a_pawn_judged_on_the_tile_beside_its_cell_is_never_sure(demo_pack, seed, at):
    # tuning independent table 25035 (harsh), tile [2, 0]: a black pawn on a blue cell; the
    # place judged best for a pawn was bare tile beside the cell (1.2 cell radii off its
    # middle), taken for a white pawn, sure, and the tile asked nothing; the black pawn's
    # core lay in the same search
    frame, table = enigma_scene(seed, "harsh")
    read = read_enigma(frame, demo_pack)
    colours = {table.player_colours[n.player] for n in table.state.board.occupied.values()
               if n.at == at}
    assert colours  # the table has a pawn there
    read_here = [n for n in read.networkers if n.at == at]
    asked = [q for q in read.questions if q.startswith(f"tile [{at[0]}, {at[1]}]")]
    right = {n.colour for n in read_here} == colours
    doubted = any(n.confidence < DEFAULT_SETTINGS.min_confidence for n in read_here)
    assert right or doubted or asked
