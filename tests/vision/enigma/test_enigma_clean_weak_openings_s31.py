"""An opening read present by a dark stroke across the whole band where the colour's share
fell short, asked only because colour and darkness disagree ("the channel there is
unclear"), is settled by the neighbour's clear read of the mirrored opening: port meets port
(require_edge_match; vision.enigma.mirror). An absence asked so is never settled by a blank
side beside it: glare washes a channel out on both tiles alike (tuning independent 5030
harsh at 30-45 tiles, test_enigma_glare_lost_opening). Session 31, figures in
bench/figures/enigma_clean_questions_s31.txt.
"""

from __future__ import annotations

from dataclasses import replace

from companion.enigma.tiles import Port, Tile
from tests.vision.enigma.independent_tile_verdicts import assert_right_and_sure
from vision.enigma.mirror import mirrored_openings
from vision.enigma.openings import UNCLEAR_STROKE, weak_openings
from vision.enigma.read_types import OpeningDoubts, TileRead
from vision.enigma.settings import DEFAULT_SETTINGS
from vision.enigma.tile_doubts import UNCLEAR_CONFIDENCE, TileDoubts

SURE = DEFAULT_SETTINGS.min_confidence
E1, W1 = Port("E", 1), Port("W", 1)
EAST = Tile.make({"a": "blue"}, [(W1, "a")])
BLANK_EAST = Tile.make({"a": "blue"}, [(Port("S", 1), "a")])


def _asked(q: Port, reason: str) -> str:
    doubts = TileDoubts()
    doubts.ask_opening(q, reason, UNCLEAR_CONFIDENCE)
    return doubts.problems[0]


def _west(tile: Tile) -> TileRead:
    """A tile asked only whether E1 is there, colour and darkness disagreeing."""
    doubts = OpeningDoubts((), frozenset({E1}), 0.5, 0.5, judged=frozenset({E1}),
                           weak=frozenset({E1}))
    return TileRead((0, 0), tile, 0.5, problems=(_asked(E1, UNCLEAR_STROKE),),
                    shape_confidence=0.5, openings=doubts)


def _east(tile: Tile, named: frozenset[Port] = frozenset()) -> TileRead:
    return TileRead((1, 0), tile, 0.5 if named else 1.0, shape_confidence=1.0,
                    openings=OpeningDoubts((), named, 1.0, 1.0))


WEST = Tile.make({"a": "red"}, [(E1, "a")])


def test_a_weak_opening_facing_the_neighbours_clear_opening_is_settled():
    read = mirrored_openings({(0, 0): _west(WEST), (1, 0): _east(EAST)},
                             DEFAULT_SETTINGS)[(0, 0)]
    assert read.confidence >= SURE and not read.problems
    assert read.tile.is_equivalent(WEST)


def test_a_weak_opening_stays_asked_beside_an_unclear_or_blank_side():
    unclear = mirrored_openings({(0, 0): _west(WEST), (1, 0): _east(EAST, frozenset({W1}))},
                                DEFAULT_SETTINGS)[(0, 0)]
    assert unclear.confidence < SURE and unclear.problems
    blank = mirrored_openings({(0, 0): _west(WEST), (1, 0): _east(BLANK_EAST)},
                              DEFAULT_SETTINGS)[(0, 0)]
    assert blank.confidence < SURE and blank.problems


def test_without_edge_matching_the_neighbour_settles_nothing():
    loose = replace(DEFAULT_SETTINGS, require_edge_match=False)
    read = mirrored_openings({(0, 0): _west(WEST), (1, 0): _east(EAST)}, loose)[(0, 0)]
    assert read.confidence < SURE and read.problems


def test_only_an_opening_read_present_by_a_whole_dark_stroke_is_weak():
    n1, s0 = Port("N", 1), Port("S", 0)
    asked = [_asked(q, UNCLEAR_STROKE) for q in (E1, W1, n1, s0)]
    asked.append(_asked(s0, "a cell hides the side there"))
    seen = {E1: (0.0, 0.33), W1: (0.24, 0.9), n1: (0.24, 1.0), s0: (0.2, 1.0)}
    # E1 absent (a blank side beside it would not settle it), W1's stroke not whole, S0
    # asked for another reason too
    assert weak_openings({W1, n1, s0}, seen, asked) == frozenset({n1})


def test_a_weak_opening_on_a_clean_table_is_read_and_sure(demo_pack):
    # independent clean table 37, [-1, 0]: N1 and N2 read present by their dark strokes
    # (colour share 0.24 each), the tile north of it reading S1 and S0 clearly; asked only
    # "the channel there is unclear" before; on any pixels read right or asked
    assert_right_and_sure(demo_pack, 37, (-1, 0))
