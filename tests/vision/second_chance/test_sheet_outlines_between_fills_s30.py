"""An outline drawn on the printed line's shoulders between two tiles' fills, in an ink lighter
than the print: the line's darkest point is the print's own, but it is two or three times as
wide (vision.second_chance.sides.side_coverage, its third darkest column). Until session 30
the width counted only on a tile's sides on empty cells; between two filled cells such cuts
were covered less than the reader needs (0.8 of the side) and asked, the tile left open
(independent tuning sheets 9 and 25 read without the cards). It counts there now where the
two fills are not both strokes with paper between them (hatch strokes and loops along the
line widen it too)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.vision.scene_stack import SCENES_AS_FOUND
from vision.second_chance.reader import read_sheet

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from sheet_hands import independent_case  # noqa: E402


@pytest.mark.parametrize("seed", [9, 25])
def test_outlines_on_the_shoulders_between_two_fills_cut_the_tiles(seed: int) -> None:
    """Independent tuning sheets 9 and 25 (bench/sheet_hands.py --independent), read without
    the cards: every outline between two tiles is read, and nothing is asked."""
    frame, tiles, _ = independent_case(seed, None)
    reading = read_sheet(frame)
    tile_of = {cell: number for number, tile in enumerate(tiles) for cell in tile}
    between_tiles = {border: outline for border, (outline, _, _) in reading.outlines.items()
                     if tile_of.get(border[0], -1) != tile_of.get(border[1], -1)
                     and border[0] in tile_of and border[1] in tile_of}
    if SCENES_AS_FOUND:  # the Pi floor's pixels differ: there only no silent wrong tile holds
        assert set(between_tiles.values()) == {True}
        assert not reading.questions and not reading.doubtful
    missed = [cell for border, outline in between_tiles.items() if not outline
              for cell in border]
    doubted = {tuple(cell) for q in reading.questions for cell in q["cells"]}
    assert doubted | set(reading.doubtful) >= set(missed)
