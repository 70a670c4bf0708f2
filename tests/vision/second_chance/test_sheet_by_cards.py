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


def test_a_region_asked_about_is_split_by_the_cards_alone() -> None:
    from vision.second_chance.by_cards import card_partitions, settle_asked_by_cards
    from vision.second_chance.outlines import Segmentation

    # a 2x3 block read as one piece, asked (no outline seen inside), and an I2 apart
    block = tuple((r, c) for r in range(2) for c in range(3))
    apart = ((5, 5), (5, 6))
    question = {"kind": "split", "cells": [list(x) for x in block], "message": "?"}
    seg = Segmentation((block, apart), (question,), {((0, 0), (0, 1)): (False, 0.5, "asked")})
    # the cards drawn: an L tetromino, an I2 and an I2: the block is an L and an I2, two ways
    # (mirror images), and the cards cannot tell them apart: still asked
    cards = (frozenset({"###/#.."}), frozenset({"##"}), frozenset({"##"}))
    assert len(card_partitions(set(block), {"###/#..": 1, "##": 2}) or []) > 1
    assert settle_asked_by_cards(seg, cards).questions == (question,)
    # an I3 and an I3: split in two rows, or in two columns? rows only (columns are I2s)
    cards = (frozenset({"###"}), frozenset({"###"}), frozenset({"##"}))
    settled = settle_asked_by_cards(seg, cards)
    assert not settled.questions
    assert set(settled.shapes) == {((0, 0), (0, 1), (0, 2)), ((1, 0), (1, 1), (1, 2)), apart}
    assert settled.outlines[((0, 0), (0, 1))] == (False, 0.9, "cards")


def test_a_card_covers_a_region_at_most_as_often_as_rounds_gave_it() -> None:
    from vision.second_chance.by_cards import card_partitions

    square = {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert len(card_partitions(square, {"##": 2}) or []) == 2  # rows or columns
    assert card_partitions(square, {"##": 1}) == []


def test_the_one_mark_like_a_1_outside_confirmed_tiles_is_the_1_of_a_first_player_out() -> None:
    from vision.second_chance.by_cards import is_settled_by_cards

    shapes = [((0, 0), (0, 1))]
    choices = (frozenset({"##"}),)
    asked = {"kind": "bonus", "cells": [[5, 5]], "message": "is there a handwritten 1 here?"}
    confirmed = confirmed_by_cards(shapes, True, (5, 5), choices, 9)
    assert is_settled_by_cards(asked, confirmed, shapes, (5, 5), one_possible=True)
    # not when the player may have no 1, nor with two marks like a 1, nor unconfirmed
    assert not is_settled_by_cards(asked, confirmed, shapes, (5, 5), one_possible=False)
    two = {**asked, "cells": [[5, 5], [6, 6]]}
    assert not is_settled_by_cards(two, confirmed, shapes, (5, 5), one_possible=True)
    assert not is_settled_by_cards(asked, set(), shapes, (5, 5), one_possible=True)
    # a mark like a 1 in a confirmed tile's square is that tile's
    inside = {**asked, "cells": [[0, 1]]}
    assert is_settled_by_cards(inside, confirmed, shapes, None, one_possible=False)


def test_the_cards_the_other_tiles_used_are_not_tried_in_a_region_asked_about() -> None:
    from vision.second_chance.by_cards import card_partitions, settle_asked_by_cards
    from vision.second_chance.outlines import Segmentation

    # a 2x8 block asked about (four I4s drawn), and eight dominoes read apart: eight rounds
    # gave a domino, four an I4. With every card the block splits too many ways to search
    # (dominoes and I4s); the dominoes are all on the sheet already, so it is four I4s
    block = tuple((r, c) for r in range(2) for c in range(8))
    dominoes = tuple(((5, c), (6, c)) for c in range(8))
    question = {"kind": "split", "cells": [list(x) for x in block], "message": "?"}
    seg = Segmentation((block, *dominoes), (question,), {})
    cards = (frozenset({"##"}),) * 8 + (frozenset({"####"}),) * 4
    assert card_partitions(set(block), {"##": 8, "####": 4}) is None
    settled = settle_asked_by_cards(seg, cards)
    assert not settled.questions
    fours = {tuple((r, c) for c in range(c0, c0 + 4)) for r in range(2) for c0 in (0, 4)}
    assert set(settled.shapes) == fours | set(dominoes)


def test_tiles_more_than_the_rounds_gave_are_asked() -> None:
    from vision.second_chance.by_cards import tiles_beyond_the_cards

    square = ((2, 0), (2, 1), (3, 0), (3, 1))
    halves = [((2, 0), (3, 0)), ((2, 1), (3, 1))]  # a square cut along a printed line
    one = ((6, 6), (6, 7))
    choices = (frozenset({"##/##"}), frozenset({"##"}))
    assert tiles_beyond_the_cards([square, one], choices) == set()
    # three dominoes where the rounds gave one: every domino is asked about
    assert tiles_beyond_the_cards([*halves, one], choices) == set(square) | set(one)
    # a card no round gave: its squares, and those of the tiles beside it (a card given, but
    # whose squares the wrong tile may have taken)
    assert tiles_beyond_the_cards([square, ((6, 6),)], choices) == {(6, 6)}
    beside = ((4, 0), (4, 1))
    assert tiles_beyond_the_cards([square, ((5, 0),), beside], choices) == {(5, 0), *beside}
    # every card given, but not one a round: all the tiles
    either = (frozenset({"##/##", "##"}), frozenset({"##/##", "##"}))
    assert tiles_beyond_the_cards([square, one, ((8, 0), (8, 1))], either) == (
        set(square) | set(one) | {(8, 0), (8, 1)})


def test_a_piece_past_the_regions_last_column_does_not_wrap_onto_the_next_row() -> None:
    # the cover searches keep the squares as bits, row after row: a domino laid from the end
    # of one row must not land on the first square of the next
    from vision.second_chance.cover import Placer

    region = {(0, 8), (1, 0), (0, 7)}
    placer = Placer(region, {"##": 1}, max_tries=100)
    undecided = placer.bits_of({(0, 8), (1, 0)})
    assert list(placer.fits(undecided)) == []
    assert [piece for _, _, piece in placer.fits(placer.bits_of(region))] == [((0, 7), (0, 8))]


def test_a_region_the_cards_split_several_ways_keeps_the_sure_drawing() -> None:
    from vision.second_chance.by_cards import settle_asked_by_cards, sure_borders
    from vision.second_chance.outlines import Segmentation

    # a 2x3 block asked about, an L tetromino and an I2 drawn for it (and an I2 apart): the
    # cards alone split it four ways (the L in each corner)
    block = tuple((r, c) for r in range(2) for c in range(3))
    apart = ((5, 5), (5, 6))
    question = {"kind": "split", "cells": [list(x) for x in block], "message": "?"}
    cards = (frozenset({"###/#.."}), frozenset({"##"}), frozenset({"##"}))
    asked = {((0, 0), (0, 1)): (None, 0.25, "asked"), ((1, 1), (1, 2)): (None, 0.25, "asked")}
    # the drawing is sure of an outline under (0, 0) and of none between (0, 1) and (0, 2):
    # the L along the top row down to (1, 2) and the I2 (1, 0)-(1, 1), the one way left
    drawn = {**asked, ((0, 0), (1, 0)): (True, 1.0, "drawing"),
             ((0, 1), (0, 2)): (False, 1.0, "drawing")}
    assert sure_borders(drawn) == {((0, 0), (1, 0)): True, ((0, 1), (0, 2)): False}
    settled = settle_asked_by_cards(Segmentation((block, apart), (question,), drawn), cards)
    assert not settled.questions
    assert set(settled.shapes) == {((0, 0), (0, 1), (0, 2), (1, 2)), ((1, 0), (1, 1)), apart}
    # the same borders decided less surely (the learned model's, a score near the middle)
    # are no evidence the cards can lean on: still asked
    for unsure in ((True, 0.6, "model"), (True, 0.9, "drawing")):
        seg = Segmentation((block, apart), (question,),
                           {**drawn, ((0, 0), (1, 0)): unsure})
        assert settle_asked_by_cards(seg, cards).questions == (question,)
    # a sure border no split by the cards keeps (an outline across the I2's place and the
    # L's): asked, never a split against the drawing
    against = {**drawn, ((1, 0), (1, 1)): (True, 1.0, "drawing")}
    seg = Segmentation((block, apart), (question,), against)
    assert settle_asked_by_cards(seg, cards).questions == (question,)


def test_a_mark_like_a_1_read_as_a_tile_no_card_allows_is_the_1() -> None:
    from vision.second_chance.by_cards import one_left_to_no_tile, without_the_one
    from vision.second_chance.outlines import Segmentation

    domino, lone = ((0, 0), (0, 1)), ((5, 5),)
    cards = (frozenset({"##"}),)
    assert one_left_to_no_tile([domino, lone], [(5, 5)], cards) == (5, 5)
    # a round gave a card of one square: the mark may be that tile as well as the 1
    assert one_left_to_no_tile([domino, lone], [(5, 5)], (*cards, frozenset({"#"}))) is None
    # a mark in a tile of two squares is that tile's (the cards then settle it with it)
    assert one_left_to_no_tile([domino, lone], [(0, 1)], cards) is None
    # two such marks: which is the 1 is not settled
    two = (((0, 0), (0, 1)), ((3, 3),), ((5, 5),))
    assert one_left_to_no_tile(two, [(3, 3), (5, 5)], cards) is None
    # the tiles can be the cards without it either way (another tile read wrong): no 1
    assert one_left_to_no_tile([((0, 0), (0, 1), (0, 2)), lone], [(5, 5)], cards) is None
    seg = Segmentation(shapes=(domino, lone), questions=(
        {"kind": "split", "cells": [[5, 5]], "message": ""},
        {"kind": "split", "cells": [[0, 0], [0, 1]], "message": ""}),
        outlines={((0, 0), (0, 1)): (False, 1.0, "drawing"),
                  ((5, 5), (5, 6)): (True, 1.0, "drawing")})
    read = without_the_one(seg, (5, 5))
    assert read.shapes == (domino,)
    assert list(read.outlines) == [((0, 0), (0, 1))]
    assert [q["cells"] for q in read.questions] == [[[0, 0], [0, 1]]]
