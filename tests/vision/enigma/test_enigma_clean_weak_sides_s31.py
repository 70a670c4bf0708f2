"""An opening position asked only because colour and darkness disagree ("the channel there
is unclear") is settled by the neighbour's clear read of the mirrored position
(require_edge_match; vision.enigma.mirror): read absent with no channel colour in its window
and a weak dark or faint stroke across the side (a cell's blurred rim or a shadow darkens
the band), when the neighbour's mirrored window shows no channel pixel and no stroke at
all (blank meets blank); read present with a dark stroke across the whole band, when the
neighbour reads the mirrored opening clearly (port meets port). Session 31's census of
independent clean 0-39 and harsh 5000-5039 and 6000-6019
(bench/figures/enigma_clean_questions_s31.txt): every such position read right; the
openings lost on both tiles there keep some channel colour or a whole dark stroke."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.enigma.tiles import Port, Tile
from tests.vision.enigma.independent_tile_verdicts import assert_right_and_sure
from vision.enigma.mirror import mirrored_openings
from vision.enigma.openings import UNCLEAR_STROKE, weak_positions
from vision.enigma.read_types import OpeningDoubts, TileRead
from vision.enigma.settings import DEFAULT_SETTINGS
from vision.enigma.tile_doubts import UNCLEAR_CONFIDENCE, TileDoubts

SURE = DEFAULT_SETTINGS.min_confidence
E1, W1 = Port("E", 1), Port("W", 1)
WEST = Tile.make({"a": "red"}, [(Port("N", 1), "a")])
EAST = Tile.make({"a": "blue"}, [(Port("S", 1), "a")])


def _asked(q: Port, reason: str) -> str:
    doubts = TileDoubts()
    doubts.ask_opening(q, reason, UNCLEAR_CONFIDENCE)
    return doubts.problems[0]


def _weak_west() -> TileRead:
    """A tile asked only whether E1, read absent with a weak stroke, is there."""
    doubts = OpeningDoubts((), frozenset({E1}), 0.5, 0.5, judged=frozenset({E1}),
                           weak=frozenset({E1}))
    return TileRead((0, 0), WEST, 0.5, problems=(_asked(E1, UNCLEAR_STROKE),),
                    shape_confidence=0.5, openings=doubts)


def _east(blank: frozenset[Port], named: frozenset[Port] = frozenset()) -> TileRead:
    doubts = OpeningDoubts((), named, 1.0, 1.0, blank=blank)
    return TileRead((1, 0), EAST, 1.0 if not named else 0.5, shape_confidence=1.0,
                    openings=doubts)


def test_a_weak_absence_facing_a_blank_side_is_settled():
    read = mirrored_openings({(0, 0): _weak_west(), (1, 0): _east(frozenset({W1}))},
                             DEFAULT_SETTINGS)[(0, 0)]
    assert read.confidence >= SURE and not read.problems
    assert read.tile.is_equivalent(WEST)


@pytest.mark.parametrize("east", [_east(frozenset()), _east(frozenset({W1}), frozenset({W1}))],
                         ids=["some-ink-there", "asked-there"])
def test_a_weak_absence_stays_asked_unless_the_side_beside_it_is_blank_and_clear(east):
    read = mirrored_openings({(0, 0): _weak_west(), (1, 0): east}, DEFAULT_SETTINGS)[(0, 0)]
    assert read.confidence < SURE and read.problems


def test_without_edge_matching_a_blank_side_settles_nothing():
    loose = replace(DEFAULT_SETTINGS, require_edge_match=False)
    read = mirrored_openings({(0, 0): _weak_west(), (1, 0): _east(frozenset({W1}))},
                             loose)[(0, 0)]
    assert read.confidence < SURE and read.problems


def test_only_a_position_whose_colour_and_darkness_disagree_is_weak():
    n0, n1, s0, s2 = Port("N", 0), Port("N", 1), Port("S", 0), Port("S", 2)
    asked = [_asked(q, UNCLEAR_STROKE) for q in (E1, W1, n0, n1, s0, s2)]
    asked.append(_asked(s2, "a cell hides the side there"))
    seen = {E1: (0.0, 0.33), W1: (0.02, 0.33), n0: (0.0, 0.5), n1: (0.24, 1.0),
            s0: (0.24, 0.9), s2: (0.0, 0.2), Port("E", 0): (0.0, 0.0)}
    # absent: E1 (no colour, a weak stroke); present: N1 (a whole dark stroke)
    assert weak_positions({n1, s0}, seen, asked) == frozenset({E1, n1})


def test_a_weak_opening_facing_the_neighbours_clear_opening_is_settled():
    doubts = OpeningDoubts((), frozenset({E1}), 0.5, 0.5, judged=frozenset({E1}),
                           weak=frozenset({E1}))
    west = TileRead((0, 0), Tile.make({"a": "red"}, [(E1, "a")]), 0.5,
                    problems=(_asked(E1, UNCLEAR_STROKE),), shape_confidence=0.5,
                    openings=doubts)
    east = TileRead((1, 0), Tile.make({"a": "blue"}, [(W1, "a")]), 1.0, shape_confidence=1.0,
                    openings=OpeningDoubts((), frozenset(), 1.0, 1.0))
    read = mirrored_openings({(0, 0): west, (1, 0): east}, DEFAULT_SETTINGS)[(0, 0)]
    assert read.confidence >= SURE and not read.problems
    # beside a blank side it is contradicted, not settled
    blank = mirrored_openings({(0, 0): west, (1, 0): _east(frozenset({W1}))},
                              DEFAULT_SETTINGS)[(0, 0)]
    assert blank.confidence < SURE and blank.problems


@pytest.mark.parametrize("seed, at", [(4, (2, 1)), (26, (-1, 1))])
def test_weak_sides_on_clean_tables_are_read_and_sure(demo_pack, seed, at):
    # independent clean table 4 [2, 1] N0 (a faint stroke by its cell's rim) and 26
    # [-1, 1] E0: asked only "the channel there is unclear" before, the neighbour's side
    # blank; on any pixels each is read right or asked
    assert_right_and_sure(demo_pack, seed, at)
