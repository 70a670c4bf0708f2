"""An outline drawn beside the printed line, on its shoulders (1-3 px from it), in an ink
lighter than the print: the line's darkest point is the print's own, but the line is two or
three times as wide (vision.second_chance.sides.side_coverage, its third darkest column, on
the sides of a tile on empty cells). Before session 29 such outlines covered 0-0.2 of their
sides: the independent photos' tiles were asked as drawn with no outline around them
(tuning sheets 0 and 22 read without the cards). The measure's own tests are in
test_sheet_sides.py."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.vision.scene_stack import SCENES_AS_FOUND
from vision.second_chance.reader import read_sheet

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from sheet_hands import independent_case  # noqa: E402


@pytest.mark.parametrize("seed", [0, 22])
def test_outlines_beside_the_printed_line_are_not_asked_as_missing(seed: int) -> None:
    """Independent tuning sheets 0 and 22 (bench/sheet_hands.py --independent), pencil
    outlines drawn beside the printed line: read without the cards, every tile is read right
    and none is asked as drawn with no outline ("no outline is drawn around these N cells")."""
    frame, tiles, _ = independent_case(seed, None)
    reading = read_sheet(frame)
    true_shapes = {tuple(sorted(t)) for t in tiles}
    if SCENES_AS_FOUND:  # the Pi floor's pixels differ: there only no silent wrong tile holds
        assert set(reading.shapes) == true_shapes
        assert not [q for q in reading.questions
                    if q["message"].startswith("no outline is drawn around")]
    asked = {tuple(c) for q in reading.questions for c in q["cells"]} | set(reading.doubtful)
    assert all(asked & set(shape) for shape in set(reading.shapes) - true_shapes)
