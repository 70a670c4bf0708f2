"""The checked picture: the region of the frame around what was seen, at the frame's
proportions, with the marks drawn where they lie."""

from __future__ import annotations

import numpy as np

from config import Config
from ui.puzzle_checking import MIN_REGION, PICTURE_WIDTH, draw_marks, enigma_pack, marked_region
from vision.enigma.puzzles.verdicts import Mark, MarkKind

FRAME = (1080, 1920, 3)


def _box(x0, y0, x1, y1, kind=MarkKind.UNCOVERED):
    return Mark(kind, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), space="frame")


def test_the_region_holds_the_marks_at_the_frame_s_proportions() -> None:
    marks = [_box(900, 500, 1000, 560), Mark(MarkKind.PAN, ((950.0, 480.0),), "19", "frame")]
    x0, y0, x1, y1 = marked_region(FRAME, marks)
    assert x0 <= 900 and x1 >= 1000 and y0 <= 480 and y1 >= 560
    assert abs((x1 - x0) / (y1 - y0) - 1920 / 1080) < 0.01
    assert x1 - x0 >= MIN_REGION * 1920 - 1
    # marks at the frame's edge: the region stays inside the frame
    x0, y0, x1, y1 = marked_region(FRAME, [_box(1900, 1070, 1919, 1079)])
    assert 0 <= x0 < x1 <= 1920 and 0 <= y0 < y1 <= 1080
    assert marked_region(FRAME, []) == (0, 0, 1920, 1080)


def test_a_mark_is_drawn_where_it_lies() -> None:
    frame = np.full(FRAME, 90, np.uint8)
    picture = draw_marks(frame, [_box(800, 400, 1100, 600)])
    assert picture.shape[1] == PICTURE_WIDTH
    x0, y0, x1, y1 = marked_region(FRAME, [_box(800, 400, 1100, 600)])
    scale = PICTURE_WIDTH / (x1 - x0)
    inside = picture[int((500 - y0) * scale), int((950 - x0) * scale)]
    outside = picture[2, 2]
    assert inside[2] > inside[0] + 40  # the uncovered part filled red, see-through
    assert tuple(outside) == (90, 90, 90)


def test_a_check_a_turn_reuses_the_pack_read_from_disk() -> None:
    # each check used to load the pack's manifest and images again
    assert enigma_pack(Config()) is enigma_pack(Config())
