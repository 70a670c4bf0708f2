"""Openings the harsh camera thins: on harsh tuning tables of the independent scenes
(bench/independent_scenes; the held-apart range starts at 70000) blur, noise and JPEG leave a
channel's colour at the side below the window's threshold while its darkness still crosses
the whole band. The tile's own channel then runs into the window and ends there, with
nothing else at that end: read without the opening, it "ends without reaching a cell or a
side" and the tile is read wrong (asked). A channel ends only at a cell or an opening, so the
opening is read present there (:func:`vision.enigma.openings.faint_openings`,
``vision.enigma.tile._channels_end_at``); it stays asked, as the window's judgement named it,
unless the neighbour reads the mirrored opening clearly (session 31: port meets port,
:mod:`vision.enigma.mirror`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from companion.enigma.tiles import Port
from tests.vision.scene_stack import SCENES_AS_FOUND
from vision.enigma.openings import FULL_DARK_STROKE, faint_openings
from vision.enigma.reader import read_enigma

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.enigma_judge import read_key  # noqa: E402
from independent_scenes.enigma_table import enigma_scene, truth_of  # noqa: E402

E1, E2, N1, N2 = Port("E", 1), Port("E", 2), Port("N", 1), Port("N", 2)


def test_a_faint_opening_is_one_below_the_threshold_with_a_full_dark_stroke() -> None:
    seen = {E2: (0.24, 1.0), N1: (0.36, 1.0), E1: (0.0, 1.0), N2: (0.2, FULL_DARK_STROKE - 0.01)}
    # N1 is read present already; E1 shows no channel pixel at all; N2's stroke is not full
    assert faint_openings({N1}, seen) == {E2}
    assert faint_openings({N1, E2}, seen) == set()


@pytest.mark.parametrize(("seed", "at", "port", "settled"), [
    # a channel from the yellow cell to E2: share 0.24, dark 1.00; the tile east of it
    # reads W0 clearly present
    (5007, (0, 2), E2, True),
    (5020, (1, 0), E1, False),
    (5020, (2, 1), N2, False),
])
def test_a_channel_ending_at_a_faint_opening_reads_it_and_the_tile_stays_asked(
        demo_pack, seed: int, at: tuple[int, int], port: Port, settled: bool) -> None:
    frame, table = enigma_scene(seed, "harsh")
    truth_tiles, _ = truth_of(table)
    read = read_enigma(frame, demo_pack)
    tile = read.tiles[at]
    assert port in tile.tile.ports
    as_json = {tuple(t["at"]): t for t in read.to_json()["tiles"]}
    assert read_key(as_json[at]) == truth_tiles[at]
    if settled and SCENES_AS_FOUND:
        assert not tile.problems and tile.confidence >= 0.85, tile.problems
    elif not settled:
        assert tile.problems and tile.confidence < 0.85
