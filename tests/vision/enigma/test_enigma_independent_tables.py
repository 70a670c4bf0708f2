"""The reader on tables it was not drawn for: the independent scenes (bench/independent_scenes,
written from the docs alone), on seeds of the range tuned on (the held-apart range starts at
70000). Each seed here once showed a tile read wrong without a question:

- 1001: a lone cell beside another network's bend, 2.5 mm off, was read as joined to it;
- 1007: a blue pawn standing on a yellow cell was read as a blue cell, the yellow rim round
  the pawn notwithstanding (square [1, 1]); and a cell right at the east side, its stub to
  the opening a pixel or two long, was read with no opening there (square [2, 0]);
- 60002 (harsh): a cell touching the west side at W0, its stub to the opening blurred into
  the cell's colour, was read with no opening there (square [-4, 1]);
- 60003 (harsh): a green pawn standing on a red cell hid all but a sliver of it, and the tile
  was read with no cell there (square [0, 1]);
- 60005 (harsh): a white pawn hid its yellow cell, and the channel stopping at it, beside the
  west side but at no opening, was taken for one leaving the tile (square [2, 0]);
- 1018 (clean) and 1023 (harsh): a white pawn standing tall hid all but an arc of its cell,
  and the pawn's pale halo was taken for bare tile: the channels met at no cell (squares
  [1, -1] and [-1, 0]);
- 1018 (harsh): a white pawn on a yellow cell, blurred to tile's colour but for its
  middle, left only a broken ring of the cell and no blob of a player colour (square [1, 0]);
- 56 and 90 (harsh): a black pawn seen from the side hid all but a sliver of its red (blue)
  cell, and the pawn itself passed for the channels' ink: the tile was read sure without
  the cell (squares [-2, 3] and [0, -1]); and on 56 a white pawn where three channels meet
  hid its yellow cell but for a broken rim, read as a bare junction (square [-1, 3], silent
  on OpenCV 4.10);
- 1016 and 1040 (harsh): an empty square of cloth, taken for a tile, was read as a tile with
  nothing drawn on it (squares [-1, 3] and [-2, -1]);
- 103 (harsh): a cell whose rim lies less than a channel's width in from the west side at
  W0, its stub there blurred into the rim and the gap beside the tile, was read with no
  opening there, beside a neighbour asked about something else (square [-1, 1]).
- 1012, 1015 and 1024 (harsh): the yellow rims of a brown channel blurred into the cream
  tile, where channels meet or run side by side, were read as a yellow cell (squares
  [-3, 1]; [-1, 0], a white pawn read on it, the networkers silently wrong too; [1, -3] and
  [2, -3]).
- 2019 (harsh): a channel of another network ran past a yellow cell under a green pawn, its
  side within the cell's cut under blur, and was read joined to the cell (square [-1, 1]).
- 3036 (harsh): a cell beside the east side, its stub to E2 meeting its rim off the stub's
  middle line, was read with no opening at E2 (square [1, 2]).
- 5027 (harsh): a white pawn on a blue cell left no blob of white and only a crescent of
  its cell, open where a channel meets it: the tile was read sure with one cell of two, and
  the networkers silently wrong (square [2, 0]).
- 6003 (harsh): a lone cell, its blue paled by the light, was labelled in the category
  icons' colour, a filled disc a cell wide, and the tile read sure without it (square
  [2, 1]).

And some showed networkers read wrong without a question:

- 60009 (clean): patches of bare tile closed in by channels beside a cell were read as white
  pawns standing a little off the cell's middle (squares [1, 0] and [3, -1]);
- 60010 (clean): the same beside a blue cell, with the patch's middle a shade whiter than the
  tile round it (square [0, -2]).
- 79 (harsh): a black pawn seen from the side hid the middle of its yellow cell, which was
  read where its visible arc lies, beside the pawn; the pawn's body passed for channel ink
  and the cell was read empty for sure (square [-2, -1]).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from vision.enigma.reader import read_enigma

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.enigma_judge import read_and_judge, read_key  # noqa: E402
from independent_scenes.enigma_table import enigma_scene, truth_of  # noqa: E402

from tests.vision.scene_stack import SCENES_AS_FOUND  # noqa: E402


@pytest.mark.parametrize("seed,condition", [(1001, "clean"), (1007, "clean"),
                                            (60002, "harsh"), (60003, "harsh"),
                                            (60005, "harsh"), (1018, "clean"),
                                            (1023, "harsh"), (1016, "harsh"),
                                            (1040, "harsh"), (1018, "harsh"),
                                            (56, "harsh"),
                                            (90, "harsh"), (103, "harsh"),
                                            (1012, "harsh"), (1015, "harsh"),
                                            (1024, "harsh"), (2019, "harsh"),
                                            (3036, "harsh"), (5027, "harsh"),
                                            (6003, "harsh")])
def test_no_tile_of_an_independent_table_is_read_wrong_without_a_question(seed, condition):
    frame, table = enigma_scene(seed, condition)
    score = read_and_judge(frame, *truth_of(table))
    assert not score.refused
    assert score.silent_wrong == 0, score.wrong


def test_a_pale_pawn_hiding_its_cell_where_channels_meet_is_asked_about(demo_pack):
    # table 56 harsh, square [-1, 3]: a white pawn stands on the yellow cell where three
    # channels meet and hides it but for a broken rim; blur left only part of the pawn
    # white. Read as a bare junction with nothing asked (on OpenCV 4.10; on 5.x only an
    # opening's margin happened to ask about it)
    frame, table = enigma_scene(56, "harsh")
    read = read_enigma(frame, demo_pack)
    assert any("networker" in problem for problem in read.tiles[(-1, 3)].problems)


@pytest.mark.parametrize("seed,condition", [(60009, "clean"), (60010, "clean"),
                                            (79, "harsh"), (1015, "harsh"),
                                            (5027, "harsh")])
def test_no_networker_of_an_independent_table_is_read_wrong_without_a_question(seed,
                                                                               condition):
    frame, table = enigma_scene(seed, condition)
    score = read_and_judge(frame, *truth_of(table))
    assert not score.refused
    assert not score.networkers_silent_wrong


def test_a_pawn_seen_from_the_side_on_a_cell_the_finder_missed_gives_its_cell(demo_pack):
    # table 4 clean, square [2, 1]: a white pawn stands on a blue cell the cell finder
    # missed; its side, seen leaning off its foot, pulls the middle of its blob a pixel off
    # the place its cell's ring surrounds all round. Only asked as "is a cell hidden?",
    # read with no cell; the cell is read from the ring round the foot: doubted, or sure
    # when the arc its ring shows beside the pawn places it (s30-enigmaring), and then
    # read right
    frame, table = enigma_scene(4, "clean")
    read = read_enigma(frame, demo_pack)
    tile = read.tiles[(2, 1)]
    assert dict(tile.tile.cells) == {"a": "blue"}
    as_json = {tuple(t["at"]): t for t in read.to_json()["tiles"]}[(2, 1)]
    assert ("a cell hidden by a networker was read from the ring around it" in tile.problems
            or read_key(as_json) == truth_of(table)[0][(2, 1)])


# SCENES_AS_FOUND: on the Pi floor's pixels table 4's square [1, 0] shows its crescent less
# and is read wrong, asked at 0.4


@pytest.mark.parametrize("seed,squares", [(4, [(1, 0), (2, 2)]), (6, [(0, -3)])])
def test_a_tall_pale_pawn_showing_only_a_crescent_of_its_cell_gives_its_cell(seed, squares,
                                                                            demo_pack):
    # tables 4 and 6 clean: a white pawn standing tall on a yellow cell covers it but for a
    # thin crescent beside it, and no ring lies all round the pawn. Only asked as "is a cell
    # hidden?", the tile was read with no cell and its channels ending nowhere; the cell is
    # read from the crescent, with its pawn, and doubted. On the Pi floor's pixels a square
    # may still be read wrong, but never sure
    frame, table = enigma_scene(seed, "clean")
    truth_tiles, truth_networkers = truth_of(table)
    read = read_enigma(frame, demo_pack)
    as_json = read.to_json()
    tiles = {tuple(t["at"]): t for t in as_json["tiles"]}
    if not SCENES_AS_FOUND:
        assert all(read_key(tiles[at]) == truth_tiles[at] or tiles[at]["confidence"] < 0.85
                   for at in squares)
        return
    for at in squares:
        assert read_key(tiles[at]) == truth_tiles[at]
        assert "a cell hidden by a networker was read from the ring around it" in \
            read.tiles[at].problems
        assert tiles[at]["confidence"] < 0.85
    pawns = {(tuple(n["at"]), n["colour"]) for n in as_json["networkers"]}
    assert {(at, colour) for at, colour, _ in truth_networkers if at in squares} <= pawns


def test_a_pale_pawn_showing_only_a_crescent_of_its_cell_and_no_blob_gives_its_cell(
        demo_pack):
    # table 5027 harsh, square [2, 0]: a white pawn stands on a blue cell; blurred, it is
    # labelled bare tile but for a halo, and of its cell only a crescent shows, open where
    # the channel from the other blue cell meets it. No blob, no ring all round: the tile
    # was read sure with one blue cell, the pawn and its cell lost. The crescent gives the
    # cell, with its pawn, asked about; or sure, and read right, when the arc places the
    # cell (s30-enigmaring: the circle of the cell's radius fitted to it)
    frame, table = enigma_scene(5027, "harsh")
    read = read_enigma(frame, demo_pack)
    tile = read.tiles[(2, 0)]
    assert sorted(dict(tile.tile.cells).values()) == ["blue", "blue"]
    pawns = [(n.colour, n.confidence < 0.85) for n in read.networkers if n.at == (2, 0)]
    if "a cell hidden by a networker was read from the ring around it" in tile.problems:
        assert pawns == [("white", True)]
    else:
        as_json = {tuple(t["at"]): t for t in read.to_json()["tiles"]}[(2, 0)]
        assert read_key(as_json) == truth_of(table)[0][(2, 0)]
        assert pawns == [("white", False)]


def test_a_channels_yellow_rim_gives_no_cell_from_a_crescent(demo_pack):
    # table 2 clean, squares [4, -1] and [-1, -1]: where channels meet, their blurred rims
    # on the cream tile look yellow, in arcs round a spot of bare tile; yellow lies on the
    # blend of channel and tile, so such an arc is no crescent of a cell under a white pawn
    frame, _table = enigma_scene(2, "clean")
    read = read_enigma(frame, demo_pack)
    assert not [n for n in read.networkers if n.at in ((4, -1), (-1, -1))]


def test_a_cell_read_in_its_pawns_colour_takes_the_colour_of_its_rim(demo_pack):
    # table 14 clean, square [1, -1]: a blue pawn stands tall on a red cell, only the red
    # rim showing round it; the cell finder read the pawn as a blue cell (doubted at 0.3,
    # its ring disagreeing). The cell is the rim's red, still doubted
    frame, table = enigma_scene(14, "clean")
    truth_tiles, truth_networkers = truth_of(table)
    read = read_enigma(frame, demo_pack)
    tile = read.tiles[(1, -1)]
    assert dict(tile.tile.cells) == {"a": "red"}
    assert tile.confidence < 0.85
    assert [(n.colour, "red") for n in read.networkers if n.at == (1, -1)] == [
        (colour, cell) for at, colour, cell in truth_networkers if at == (1, -1)]
