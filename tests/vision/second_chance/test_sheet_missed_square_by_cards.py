"""A square the reader misses (read empty and sure of it: a fill under glare, a faint hatch)
leaves its tile another shape; with the cards the player drew, the tiles read then cannot be
the cards, and the squares read empty beside them are asked: one of them may be the missed
square. Before session 28 only the tiles were asked ("where are the outlines?") and the missed
square went silent (independent tuning sheets 14 and 15 read with the cards)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from vision.second_chance.reader import read_sheet

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from sheet_hands import cards_of, independent_case  # noqa: E402


@pytest.mark.parametrize(("seed", "missed"), [(14, (3, 7)), (15, (6, 1))])
def test_a_square_missed_in_a_tile_the_cards_cannot_be_is_asked(
        seed: int, missed: tuple[int, int]) -> None:
    frame, tiles, bonus = independent_case(seed, None)
    choices, one_possible = cards_of(tiles, bonus)
    reading = read_sheet(frame, choices=choices, one_possible=one_possible)
    assert missed in {c for t in tiles for c in t}
    if missed in reading.filled:   # read right one day: nothing to ask
        return
    asked = {tuple(c) for q in reading.questions for c in q["cells"]} | set(reading.doubtful)
    assert missed in asked
