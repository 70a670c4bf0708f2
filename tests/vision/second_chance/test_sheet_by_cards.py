"""The cards the player drew settle the outlines the drawing leaves open
(vision.second_chance.by_cards, issue 22)."""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.second_chance.by_cards import confirmed_by_cards
from vision.second_chance.outlines import segment
from vision.second_chance.settings import DEFAULT_SETTINGS

ROW = {(0, 0), (0, 1), (0, 2), (0, 3)}
#: every border of ROW undecided (between the default join and cut scores)
UNDECIDED = {((0, c), (0, c + 1)): 0.1 for c in range(3)}


def test_undecided_borders_are_settled_by_the_cards_drawn(border_scores: Any) -> None:
    right, below = border_scores(UNDECIDED)
    colour = np.zeros((9, 9, 3))
    # the rules alone allow many splits of four cells in a row: asked
    assert segment(ROW, right, below, colour, DEFAULT_SETTINGS).questions
    # one "####" card drawn: one tile
    seg = segment(ROW, right, below, colour, DEFAULT_SETTINGS,
                  choices=(frozenset({"####"}),))
    assert not seg.questions
    assert seg.shapes == (tuple(sorted(ROW)),)
    assert {by for _, _, by in seg.outlines.values()} == {"cards"}
    # two "##" cards: split in the middle
    seg = segment(ROW, right, below, colour, DEFAULT_SETTINGS,
                  choices=(frozenset({"##"}), frozenset({"##"})))
    assert not seg.questions
    assert seg.shapes == (((0, 0), (0, 1)), ((0, 2), (0, 3)))
    # a "#" and a "###" drawn: two ways ("#" left or right) stay asked
    seg = segment(ROW, right, below, colour, DEFAULT_SETTINGS,
                  choices=(frozenset({"#"}), frozenset({"###"})))
    assert seg.questions


def test_a_tile_no_card_has_is_asked(border_scores: Any) -> None:
    right, below = border_scores({})  # no outline anywhere: one piece of four
    colour = np.zeros((9, 9, 3))
    assert not segment(ROW, right, below, colour, DEFAULT_SETTINGS).questions
    seg = segment(ROW, right, below, colour, DEFAULT_SETTINGS,
                  choices=(frozenset({"##"}), frozenset({"##"})))
    assert [q["kind"] for q in seg.questions] == ["split"]


def test_cells_are_confirmed_only_by_one_tile_a_round() -> None:
    shapes = [((0, 0), (0, 1)), ((2, 2),)]
    choices = (frozenset({"##"}), frozenset({"#", "###"}))
    assert confirmed_by_cards(shapes, True, None, choices, 9) == {(0, 0), (0, 1), (2, 2)}
    # with the 1 read, every other square is confirmed empty
    assert len(confirmed_by_cards(shapes, True, (5, 5), choices, 9)) == 80
    # a split still asked, a tile too few, a shape no round gave: nothing confirmed
    assert not confirmed_by_cards(shapes, False, None, choices, 9)
    assert not confirmed_by_cards(shapes[:1], True, None, choices, 9)
    assert not confirmed_by_cards([((0, 0), (1, 0), (1, 1)), ((2, 2),)], True, None, choices, 9)
    assert not confirmed_by_cards(shapes, True, None, None, 9)


def test_with_no_one_possible_every_other_square_is_confirmed_empty() -> None:
    shapes = [((0, 0), (0, 1))]
    choices = (frozenset({"##"}),)
    assert len(confirmed_by_cards(shapes, True, None, choices, 9, one_possible=False)) == 81
    assert len(confirmed_by_cards(shapes, True, None, choices, 9)) == 2
    # a 1 read where none can be confirms no empty square
    assert len(confirmed_by_cards(shapes, True, (5, 5), choices, 9, one_possible=False)) == 2
