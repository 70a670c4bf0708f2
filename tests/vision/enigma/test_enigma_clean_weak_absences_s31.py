"""An opening position read absent with no channel colour in its window, asked only for a
weak dark stroke or a faint one across the side ("the channel there is unclear": a cell's
blurred rim or a shadow darkens the band), is settled when the neighbour's mirrored window
shows no channel pixel and no stroke at all: blank meets blank (require_edge_match;
vision.enigma.mirror). Session 31's census of independent clean 0-39 and harsh 5000-5039
(bench/figures/enigma_clean_questions_s31.txt): every such absence absent in truth; the
openings lost on both tiles there keep some channel colour or a whole dark stroke.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from companion.enigma.tiles import Port, Tile
from config import Config
from tests.vision.enigma.independent_tile_verdicts import right_or_asked
from tests.vision.scene_stack import SCENES_AS_FOUND
from vision.enigma.mirror import mirrored_openings
from vision.enigma.openings import UNCLEAR_STROKE, weak_absences
from vision.enigma.read_types import OpeningDoubts, TileRead
from vision.enigma.reader import read_enigma
from vision.enigma.settings import DEFAULT_SETTINGS, ReaderSettings
from vision.enigma.tile_doubts import UNCLEAR_CONFIDENCE, TileDoubts

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.enigma_table import enigma_scene, truth_of  # noqa: E402

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


def test_only_a_position_with_no_channel_colour_and_a_weak_stroke_is_a_weak_absence():
    asked = [_asked(q, UNCLEAR_STROKE) for q in (E1, W1, Port("N", 0), Port("S", 2))]
    asked.append(_asked(Port("S", 2), "a cell hides the side there"))
    seen = {E1: (0.0, 0.33), W1: (0.02, 0.33), Port("N", 0): (0.0, 0.5),
            Port("S", 2): (0.0, 0.2), Port("S", 0): (0.0, 0.0)}
    assert weak_absences(set(), seen, asked) == frozenset({E1})


@pytest.mark.parametrize("seed, at", [(4, (2, 1)), (26, (-1, 1))])
def test_weak_absences_on_clean_tables_are_read_and_sure(demo_pack, seed, at):
    # independent clean table 4 [2, 1] N0 (a faint stroke by its cell's rim) and 26
    # [-1, 1] E0: asked only "the channel there is unclear" before, the neighbour's side
    # blank; on any pixels each is read right or asked
    frame, table = enigma_scene(seed, "clean")
    truth, _ = truth_of(table)
    settings = ReaderSettings.from_config(Config())
    read = read_enigma(frame, demo_pack, settings=settings).to_json()
    tile, right, asked = right_or_asked(read, truth, at)
    if SCENES_AS_FOUND:
        assert right, tile
        assert not asked, asked
        assert tile["confidence"] >= settings.min_confidence, tile
