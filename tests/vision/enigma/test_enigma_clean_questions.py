"""Questions the reader asked on clean tuning tables of the independent scenes
(bench/independent_scenes; the held-apart range starts at 70000) about tiles it read right,
and the rules that now settle them, each with the picture's own evidence:

- a patch of bare tile closed in all round by channels (or a channel and a category icon),
  away from every cell, was read as a white pawn on a cell hidden under it, the cell's
  colour taken from the channels' blurred rims: a cell invented, and asked about. Its middle
  lies nearer bare tile than white, and no pixel of a cell's colour lies round it, or a pawn
  stands sure on a cell of the tile already (the rules put one networker on a tile, with
  the tile): independent table 5 clean, square [1, -2], and table 28 clean, square [0, 3],
  beside a black pawn on its yellow cell. (The patches in a category icon's corner on
  any-tile tables, their core mixed with the icon's colour nearer white, are still asked.)

An opening read present near the threshold where a channel of the tile's own ends at it was
settled by that stroke for a while (session 22) and taken back: on independent table 5003
harsh, square [0, -1], the questions it took away were the only ones on a tile whose N1 was
lost surely, so the tile went wrong without a question. It is settled now (session 23) only
where, besides, a dark stroke crosses the whole band at the opening and every position the
tile reads absent shows no channel pixel and no dark stroke at all (5003's lost N1 leaves a
trace of 0.045 in its window): independent table 0 clean, square [0, 1], E0, a share of a
third of its window (the table's channels are thinner than the pack's window expects).
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion.enigma.tiles import Port
from vision.enigma.openings import FULL_DARK_STROKE, settled_by_own_evidence
from vision.enigma.reader import read_enigma

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.enigma_judge import read_and_judge, read_key  # noqa: E402
from independent_scenes.enigma_table import enigma_scene, truth_of  # noqa: E402


def test_an_opening_lost_surely_keeps_its_tiles_question_from_another_opening() -> None:
    # independent 5003 harsh, square [0, -1]: N1 lost at confidence 1.0, the tile asked only
    # about a present opening's share near the threshold; settling that opening by the
    # tile's own stroke ending at it took the tile's last question away
    frame, table = enigma_scene(5003, "harsh")
    score = read_and_judge(frame, *truth_of(table))
    assert not score.refused
    assert score.silent_wrong == 0, score.wrong


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


E0, N1, S2 = Port("E", 0), Port("N", 1), Port("S", 2)


def test_an_opening_near_the_threshold_is_settled_only_by_all_of_the_tiles_own_evidence():
    # E0 present near the threshold; S2 present and clear; N1 read absent
    margins, present = {E0: 0.83}, {E0, S2}
    clean = {E0: (0.33, 1.0), S2: (0.4, 1.0), N1: (0.0, 0.0)}
    assert settled_by_own_evidence(margins, present, {E0, S2}, set(), clean) == {E0}
    # no channel of the tile's own ends at it, or a problem names it
    assert settled_by_own_evidence(margins, present, {S2}, set(), clean) == set()
    assert settled_by_own_evidence(margins, present, {E0, S2}, {E0}, clean) == set()
    # the dark stroke does not cross the whole band there
    faint = {**clean, E0: (0.33, FULL_DARK_STROKE - 0.1)}
    assert settled_by_own_evidence(margins, present, {E0, S2}, set(), faint) == set()
    # a trace of channel, or of a dark stroke, where the tile reads no opening
    for trace in ((0.045, 0.0), (0.0, 0.2)):
        traced = {**clean, N1: trace}
        assert settled_by_own_evidence(margins, present, {E0, S2}, set(), traced) == set()


def test_an_opening_of_a_thin_channel_is_not_asked_about_when_the_tile_settles_it(demo_pack):
    # table 0 clean, square [0, 1]: E0 drawn a third of its window wide, no tile beside it
    # east: asked "is it read right? (confidence 0.83)" before, every opening read right
    frame, table = enigma_scene(0, "clean")
    truth_tiles, _ = truth_of(table)
    read = read_enigma(frame, demo_pack)
    as_json = {tuple(t["at"]): t for t in read.to_json()["tiles"]}
    assert read_key(as_json[(0, 1)]) == truth_tiles[(0, 1)]
    assert not any(q.startswith("tile [0, 1]") for q in read.questions), read.questions
