"""Questions the reader asked on clean tuning tables of the independent scenes
(bench/independent_scenes; the held-apart range starts at 70000) about tiles it read right,
and the rules that now settle them, each with the picture's own evidence:

- an opening read present with a share of channel near the threshold (a window wider than
  the table's thin channels), where a channel of the tile's own runs to the opening and ends
  there: a channel ends only at a cell or an opening, so the stroke is the evidence the
  share was not (table 0 clean, square [0, 1], E0; table 14 clean, square [-1, 0], W2);
- a patch of bare tile closed in all round by channels (or a channel and a category icon),
  away from every cell, was read as a white pawn on a cell hidden under it, the cell's
  colour taken from the channels' blurred rims: a cell invented, and asked about. Its middle
  lies nearer bare tile than white, and no pixel of a cell's colour lies round it, or a pawn
  stands sure on a cell of the tile already (the rules put one networker on a tile, with
  the tile): independent table 5 clean, square [1, -2], and table 28 clean, square [0, 3],
  beside a black pawn on its yellow cell. (The patches in a category icon's corner on
  any-tile tables, their core mixed with the icon's colour nearer white, are still asked.)
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from companion.enigma.tiles import Port
from vision.enigma.openings import settled_by_own_stroke
from vision.enigma.reader import read_enigma
from vision.enigma.settings import DEFAULT_SETTINGS

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.enigma_judge import read_key  # noqa: E402
from independent_scenes.enigma_table import enigma_scene, truth_of  # noqa: E402

E0, W2, N1 = Port("E", 0), Port("W", 2), Port("N", 1)


def test_a_present_opening_a_stroke_of_the_tile_ends_at_is_settled():
    margins = {E0: 0.83, W2: 0.6, N1: 0.5}
    # E0 present and ended: settled; W2 present but no stroke ends there; N1 ended but
    # read absent (an absence near the threshold is no stroke's end)
    assert settled_by_own_stroke(margins, {E0, W2}, {E0, N1}) == {W2: 0.6, N1: 0.5}


def test_nothing_ended_settles_nothing():
    margins = {E0: 0.83}
    assert settled_by_own_stroke(margins, {E0}, set()) == margins


@pytest.mark.parametrize("seed,square,port", [(0, (0, 1), E0), (14, (-1, 0), W2)])
def test_an_opening_near_the_threshold_its_own_stroke_ends_at_is_not_asked(
        seed, square, port, demo_pack):
    frame, table = enigma_scene(seed, "clean")
    truth_tiles, _ = truth_of(table)
    read = read_enigma(frame, demo_pack)
    tile = read.tiles[square]
    as_json = {tuple(t["at"]): t for t in read.to_json()["tiles"]}
    assert read_key(as_json[square]) == truth_tiles[square]
    assert port in tile.tile.ports
    assert tile.openings is not None and port in tile.openings.ended
    assert tile.confidence >= DEFAULT_SETTINGS.min_confidence, tile
    assert not any(f"[{square[0]}, {square[1]}]" in q for q in read.questions)


HIDDEN = "a cell hidden by a networker was read from the ring around it"


def test_bare_tile_closed_in_by_channels_beside_a_pawn_is_no_second_pawn(demo_pack):
    # table 28 clean, square [0, 3]: a black pawn on its yellow cell, and a patch of tile
    # between three channels read as a white pawn on a yellow cell hidden under it
    frame, table = enigma_scene(28, "clean")
    truth_tiles, truth_networkers = truth_of(table)
    read = read_enigma(frame, demo_pack)
    tile = read.tiles[(0, 3)]
    as_json = {tuple(t["at"]): t for t in read.to_json()["tiles"]}
    assert read_key(as_json[(0, 3)]) == truth_tiles[(0, 3)]
    assert HIDDEN not in tile.problems
    seen = {(n.colour, dict(tile.tile.cells)[n.cell]) for n in read.networkers if n.at == (0, 3)}
    assert seen == {(player, cell) for at, player, cell in truth_networkers if at == (0, 3)}


def test_bare_tile_closed_in_by_channels_with_no_cell_colour_round_it_is_no_pawn(demo_pack):
    # table 5 clean, square [1, -2]: a triangle of tile between three channels, no pixel of a
    # cell's colour round it, read as a white pawn on a red cell (a fourth cell, invented)
    frame, table = enigma_scene(5, "clean")
    truth_tiles, _ = truth_of(table)
    read = read_enigma(frame, demo_pack)
    as_json = {tuple(t["at"]): t for t in read.to_json()["tiles"]}
    assert read_key(as_json[(1, -2)]) == truth_tiles[(1, -2)]
    assert HIDDEN not in read.tiles[(1, -2)].problems
