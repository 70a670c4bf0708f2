"""Openings meet the neighbour's mirrored ones (require_edge_match): each side between two
tiles is seen twice, and the two reads settle or contradict each other
(vision.enigma.mirror)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from companion.enigma.tiles import Port, Tile
from vision.enigma.mirror import MISMATCH_CONFIDENCE, mirrored_openings
from vision.enigma.read_types import OpeningDoubts, TileRead
from vision.enigma.reader import read_enigma
from vision.enigma.settings import DEFAULT_SETTINGS
from vision.enigma.tile_doubts import UNCLEAR_CONFIDENCE, TileDoubts

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.enigma_judge import read_key  # noqa: E402
from independent_scenes.enigma_table import enigma_scene, truth_of  # noqa: E402

SURE = DEFAULT_SETTINGS.min_confidence
#: a tile with an opening at E1 (to its cell), and its east neighbour with one at W1
WEST = Tile.make({"a": "red"}, [(Port("E", 1), "a")])
EAST = Tile.make({"a": "blue"}, [(Port("W", 1), "a")])
BLANK_WEST = Tile.make({"a": "blue"}, [(Port("N", 1), "a")])


def _read(at, tile, margins=(), named=frozenset()) -> TileRead:
    doubts = OpeningDoubts(tuple(margins), frozenset(named), 1.0, 1.0)
    return TileRead(at, tile, doubts.cap(), shape_confidence=doubts.cap(), openings=doubts)


def test_an_opening_read_near_the_threshold_is_settled_by_the_neighbours_clear_one():
    near = [(Port("E", 1), 0.7)]
    tiles = mirrored_openings({(0, 0): _read((0, 0), WEST, near), (1, 0): _read((1, 0), EAST)},
                              DEFAULT_SETTINGS)
    assert tiles[(0, 0)].confidence >= SURE and not tiles[(0, 0)].problems
    alone = mirrored_openings({(0, 0): _read((0, 0), WEST, near)}, DEFAULT_SETTINGS)
    assert alone[(0, 0)].confidence < SURE  # no neighbour: the margin still caps it


def test_a_neighbour_near_the_threshold_too_settles_nothing():
    tiles = mirrored_openings({(0, 0): _read((0, 0), WEST, [(Port("E", 1), 0.7)]),
                               (1, 0): _read((1, 0), EAST, [(Port("W", 1), 0.7)])},
                              DEFAULT_SETTINGS)
    assert all(t.confidence < SURE for t in tiles.values())


def test_an_opening_the_neighbour_contradicts_is_asked_on_the_less_clear_tile():
    # the west tile saw E1 clearly, its neighbour read no W1 near the threshold
    tiles = mirrored_openings({(0, 0): _read((0, 0), WEST),
                               (1, 0): _read((1, 0), BLANK_WEST, [(Port("W", 1), 0.7)])},
                              DEFAULT_SETTINGS)
    assert not tiles[(0, 0)].problems and tiles[(0, 0)].confidence >= SURE
    assert tiles[(1, 0)].confidence <= MISMATCH_CONFIDENCE
    assert any("W1" in p for p in tiles[(1, 0)].problems)


def test_a_clear_read_beside_a_sure_neighbour_that_read_otherwise_is_asked_too():
    # the east tile read no W1 near the threshold, but for that it would be sure (a margin of
    # 0.9): it is asked, and so is the west tile that read E1 clearly (it may be the wrong one)
    tiles = mirrored_openings({(0, 0): _read((0, 0), WEST),
                               (1, 0): _read((1, 0), BLANK_WEST, [(Port("W", 1), 0.9)])},
                              DEFAULT_SETTINGS)
    assert all(t.confidence <= MISMATCH_CONFIDENCE and t.problems for t in tiles.values())


def test_two_clear_reads_that_disagree_are_both_asked():
    tiles = mirrored_openings({(0, 0): _read((0, 0), WEST), (1, 0): _read((1, 0), BLANK_WEST)},
                              DEFAULT_SETTINGS)
    assert all(t.confidence <= MISMATCH_CONFIDENCE and t.problems for t in tiles.values())


def test_without_edge_matching_a_neighbour_settles_nothing():
    loose = replace(DEFAULT_SETTINGS, require_edge_match=False)
    pair = {(0, 0): _read((0, 0), WEST), (1, 0): _read((1, 0), BLANK_WEST)}
    assert mirrored_openings(pair, loose) == pair


def test_a_table_tile_whose_opening_lay_near_the_threshold_is_read_without_a_question(
        demo_pack):
    # independent table 0 (clean): the tile at [-1, 0] read right, its S2 window's share of
    # channel near the threshold (confidence 0.77, asked "is it read right?"); its neighbour
    # at [-1, 1] shows that side clearly
    frame, table = enigma_scene(0, "clean")
    truth, _ = truth_of(table)
    read = read_enigma(frame, demo_pack)
    tile = read.tiles[(-1, 0)]
    assert read_key(tile.to_json()) == truth[(-1, 0)]
    assert tile.confidence >= SURE
    assert not [q for q in read.questions if q.startswith("tile [-1, 0]")]


def _ended(at, tile, margins, ended) -> TileRead:
    doubts = OpeningDoubts(tuple(margins), frozenset(), 1.0, 1.0, frozenset(ended))
    return TileRead(at, tile, doubts.cap(), shape_confidence=doubts.cap(), openings=doubts)


def test_two_reads_near_the_threshold_settle_each_other_when_both_channels_end_there():
    # tuning table 12 (clean): [-3, 0] S1 and [-3, 1] N1 both at 0.83, each tile's own
    # channel running from a cell to that opening; one window's share alone says nothing
    # more than the other's (both see the same gap), the two channels do
    west = _ended((0, 0), WEST, [(Port("E", 1), 0.83)], [Port("E", 1)])
    east = _ended((1, 0), EAST, [(Port("W", 1), 0.83)], [Port("W", 1)])
    tiles = mirrored_openings({(0, 0): west, (1, 0): east}, DEFAULT_SETTINGS)
    assert all(t.confidence >= SURE and not t.problems for t in tiles.values())
    # a channel ending there on one tile only settles neither
    lone = replace(east, openings=replace(east.openings, ended=frozenset()))
    tiles = mirrored_openings({(0, 0): west, (1, 0): lone}, DEFAULT_SETTINGS)
    assert all(t.confidence < SURE for t in tiles.values())


#: a tile whose cell lies by its east side, its E1 read absent with a doubt: a stub from E1
#: would join cell a
BY_THE_SIDE = Tile.make({"a": "red"}, [(Port("N", 1), "a")])
E1 = Port("E", 1)


def _asked(q: Port, reason: str) -> str:
    doubts = TileDoubts()
    doubts.ask_opening(q, reason, UNCLEAR_CONFIDENCE)
    return doubts.problems[0]


UNCLEAR_E1 = _asked(E1, "the channel there is unclear")
E1_ONLY = (Port("E", 1),)


def _stub_read(at, tile, judged_named=E1_ONLY, apart=1.0) -> TileRead:
    judged = frozenset(judged_named)
    doubts = OpeningDoubts((), judged, 0.5, 0.5, stubs=((Port("E", 1), "a"),), judged=judged,
                           apart=apart, shape_apart=apart)
    return TileRead(at, tile, 0.5, problems=(UNCLEAR_E1,), shape_confidence=0.5,
                    openings=doubts)


def test_a_stub_read_absent_by_a_cell_is_joined_when_the_neighbour_reads_it_clearly():
    # tuning table 1 (clean): [-2, -1] E0 and [0, -1] E2, a cell's rim by the side and the
    # stub's pixels named neither channel nor cell; the neighbours read W2 and W0 clearly
    tiles = mirrored_openings({(0, 0): _stub_read((0, 0), BY_THE_SIDE),
                               (1, 0): _read((1, 0), EAST)}, DEFAULT_SETTINGS)
    read = tiles[(0, 0)]
    assert read.tile.is_equivalent(Tile.make({"a": "red"}, [(Port("N", 1), "a"),
                                                            (Port("E", 1), "a")]))
    assert read.confidence >= SURE and not read.problems
    # the rest of the tile's doubts stay
    doubtful = mirrored_openings({(0, 0): _stub_read((0, 0), BY_THE_SIDE, apart=0.4),
                                  (1, 0): _read((1, 0), EAST)}, DEFAULT_SETTINGS)
    assert doubtful[(0, 0)].confidence == 0.4 and Port("E", 1) in doubtful[(0, 0)].tile.ports


@pytest.mark.parametrize("reason", ["a cell hides the side there", "the channel there is unclear"])
def test_the_question_a_neighbour_settles_is_dropped_whatever_its_reason(reason):
    asked = replace(_stub_read((0, 0), BY_THE_SIDE),
                    problems=(_asked(E1, reason), _asked(Port("N", 0), reason)))
    read = mirrored_openings({(0, 0): asked, (1, 0): _read((1, 0), EAST)},
                             DEFAULT_SETTINGS)[(0, 0)]
    # the E1 question goes with the stub joined; the N0 question, which nothing settled, stays
    assert read.problems == (_asked(Port("N", 0), reason),)


def test_a_stub_stays_asked_beside_a_neighbour_unclear_or_blank_there():
    for other in (_read((1, 0), EAST, [(Port("W", 1), 0.7)]), _read((1, 0), BLANK_WEST)):
        read = mirrored_openings({(0, 0): _stub_read((0, 0), BY_THE_SIDE), (1, 0): other},
                                 DEFAULT_SETTINGS)[(0, 0)]
        assert Port("E", 1) not in read.tile.ports and read.confidence < SURE
    alone = mirrored_openings({(0, 0): _stub_read((0, 0), BY_THE_SIDE)}, DEFAULT_SETTINGS)
    assert alone[(0, 0)].confidence < SURE and alone[(0, 0)].problems


def test_a_stub_joined_leaves_another_opening_doubted_asked():
    other_doubt = (Port("E", 1), Port("N", 0))
    read = mirrored_openings({(0, 0): _stub_read((0, 0), BY_THE_SIDE, other_doubt),
                              (1, 0): _read((1, 0), EAST)}, DEFAULT_SETTINGS)[(0, 0)]
    assert Port("E", 1) in read.tile.ports and read.confidence < SURE


@pytest.mark.parametrize("seed,squares", [(1, [(-2, -1), (0, -1)]), (0, [(0, 2)]),
                                          (2, [(1, -2)])])
def test_table_tiles_whose_stub_by_a_cell_the_neighbour_shows_are_read_exact(seed, squares,
                                                                             demo_pack):
    frame, table = enigma_scene(seed, "clean")
    truth, _ = truth_of(table)
    read = read_enigma(frame, demo_pack)
    for at in squares:
        assert read_key(read.tiles[at].to_json()) == truth[at]
