"""The cards the player drew settle the squares the reader cannot tell filled or empty
(vision.second_chance.fill_by_cards, issue 22)."""

from __future__ import annotations

from vision.second_chance.cover import Placer
from vision.second_chance.fill_by_cards import fill_covers, settle_doubtful_by_cards
from vision.second_chance.outlines import Segmentation
from vision.second_chance.reader import one_settled_for_cards

DOMINO = ((0, 0), (0, 1))
#: a light fill's three squares, each read doubtful
LIGHT_ROW = {(2, 0), (2, 1), (2, 2)}


def _cards(*shapes: str) -> tuple[frozenset[str], ...]:
    return tuple(frozenset({shape}) for shape in shapes)


def test_a_lightly_filled_tile_the_cards_ask_for_is_read_filled() -> None:
    seg = Segmentation(shapes=(DOMINO,), questions=())
    settled_seg, settled = settle_doubtful_by_cards(seg, LIGHT_ROW, _cards("##", "###"))
    assert settled == LIGHT_ROW
    assert settled_seg.shapes == (DOMINO, tuple(sorted(LIGHT_ROW)))
    assert {by for _, _, by in settled_seg.outlines.values()} == {"cards"}
    # one tile a round: with no second card the light squares are empty (a smudge)
    settled_seg, settled = settle_doubtful_by_cards(seg, LIGHT_ROW, _cards("##"))
    assert settled == LIGHT_ROW
    assert settled_seg.shapes == (DOMINO,)


def test_a_doubtful_square_beside_a_tile_is_settled_by_its_card() -> None:
    seg = Segmentation(shapes=(DOMINO,), questions=())
    settled_seg, settled = settle_doubtful_by_cards(seg, {(0, 2)}, _cards("###"))
    assert settled_seg.shapes == (((0, 0), (0, 1), (0, 2)),)
    assert settled == {(0, 0), (0, 1), (0, 2)}
    settled_seg, settled = settle_doubtful_by_cards(seg, {(0, 2)}, _cards("##"))
    assert settled_seg.shapes == (DOMINO,)
    assert (0, 2) in settled


def test_squares_the_cards_leave_two_ways_stay_asked() -> None:
    seg = Segmentation(shapes=(((0, 0),),), questions=())
    assert settle_doubtful_by_cards(seg, {(0, 1), (1, 0)}, _cards("##")) == (seg, set())
    # no way at all (a tile no card has): unchanged too
    assert settle_doubtful_by_cards(seg, {(0, 1)}, _cards("####")) == (seg, set())


def test_the_cover_search_gives_up_rather_than_guess() -> None:
    # a board without two opposite corners cannot be covered by dominoes, but the search
    # would take far too long to find it out
    board = {(r, c) for r in range(6) for c in range(8)} - {(0, 0), (5, 7)}
    assert fill_covers(board, set(), {"##": 23}, 23, [], _cards(*["##"] * 23)) is None
    # many ways: two are enough to leave the squares asked
    block = {(r, c) for r in range(7) for c in range(7)}
    seg = Segmentation(shapes=(), questions=())
    assert settle_doubtful_by_cards(seg, block, _cards(*["#", "##"] * 20)) == (seg, set())


def test_the_cards_read_doubtful_squares_only_with_the_one_settled() -> None:
    def asked(*cells: tuple[int, int]) -> list[dict[str, object]]:
        return [{"kind": "bonus", "cells": [list(c) for c in cells], "message": ""}]

    # a 1 possible: read, and asked about only as itself
    assert one_settled_for_cards((4, 2), [], one_possible=True)
    assert one_settled_for_cards((4, 2), asked((4, 2)), one_possible=True)
    assert not one_settled_for_cards((4, 2), asked((4, 2), (6, 6)), one_possible=True)
    assert not one_settled_for_cards(None, [], one_possible=True)  # a faint 1 left empty?
    # none possible: a mark asked about as a 1 is a tile's, or nothing
    assert one_settled_for_cards(None, asked((6, 6)), one_possible=False)
    assert not one_settled_for_cards((6, 6), [], one_possible=False)


def test_doubtful_squares_apart_are_settled_together_or_not_at_all() -> None:
    # one card of a single square left, two doubtful squares far apart: either may be it.
    # Settled one at a time, the first tried took the card with the other read empty, and
    # the other was then settled empty too
    seg = Segmentation(shapes=(DOMINO,), questions=())
    assert settle_doubtful_by_cards(seg, {(0, 3), (5, 5)}, _cards("##", "#")) == (seg, set())
    # each doubtful square beside a tile the cards settle: both settled by one search
    settled_seg, settled = settle_doubtful_by_cards(
        Segmentation(shapes=(DOMINO, ((5, 0),)), questions=()), {(0, 2), (5, 1)},
        _cards("###", "##"))
    assert settled_seg.shapes == (((0, 0), (0, 1), (0, 2)), ((5, 0), (5, 1)))
    assert {(0, 2), (5, 1)} <= settled


def test_a_card_used_up_counts_its_pieces_as_tried() -> None:
    # the searches give up after so many pieces tried: a card none of which is left skips
    # its pieces at once, yet counts them, or a search would give up later than it did
    corner = {(0, 0), (0, 1), (1, 0)}
    placer = Placer(corner, {"#": 0, "##": 1}, max_tries=2)
    assert [piece for _, _, piece in placer.fits(placer.bits_of(corner))] == [((0, 0), (0, 1))]
    assert placer.gave_up
    placer = Placer(corner, {"#": 0, "##": 1}, max_tries=3)
    assert len(list(placer.fits(placer.bits_of(corner)))) == 2
    assert placer.tries == 3 and not placer.gave_up



def test_doubtful_squares_the_cards_leave_two_ways_keep_the_sure_drawing() -> None:
    # a 2x2 block read as one piece (no outline seen inside but one), a doubtful square
    # beside it, two dominoes drawn: the square is empty (five squares are no two dominoes),
    # the block two dominoes, in rows or in columns: the cards alone leave both
    block = ((0, 0), (0, 1), (1, 0), (1, 1))
    outlines = {((0, 0), (0, 1)): (False, 0.25, "asked"), ((1, 0), (1, 1)): (False, 0.25, "asked"),
                ((0, 1), (1, 1)): (None, 0.25, "asked")}
    cut = ((0, 0), (1, 0))
    unsure = Segmentation(shapes=(block,), questions=(), outlines={**outlines,
                                                                     cut: (True, 0.6, "model")})
    # ... but the doubtful square is empty both ways: read so, the block left as read (asked)
    settled_seg, settled = settle_doubtful_by_cards(unsure, {(0, 2)}, _cards("##", "##"))
    assert settled == {(0, 2)} and settled_seg.shapes == unsure.shapes
    # an outline the drawing is sure of between (0, 0) and (1, 0): rows, the one way left
    seg = Segmentation(shapes=(block,), questions=(), outlines={**outlines,
                                                                 cut: (True, 1.0, "drawing")})
    settled_seg, settled = settle_doubtful_by_cards(seg, {(0, 2)}, _cards("##", "##"))
    assert settled_seg.shapes == (((0, 0), (0, 1)), ((1, 0), (1, 1)))
    assert settled == set(block) | {(0, 2)}
    # a sure outline no way keeps (inside each domino both ways): still asked
    inside = Segmentation(shapes=(block,), questions=(), outlines={
        **outlines, cut: (True, 1.0, "drawing"), ((0, 0), (0, 1)): (True, 1.0, "drawing")})
    assert settle_doubtful_by_cards(inside, {(0, 2)}, _cards("##", "##")) == (inside, set())


def test_many_doubtful_squares_before_the_sure_ones_do_not_stop_the_search() -> None:
    # a smudged top of the sheet (27 doubtful squares, first in reading order) and four
    # tiles further down, three of their squares lightly filled (doubtful too): searched
    # square by square in reading order, each smudged square doubled the search (empty, or
    # the first square of a piece) and it gave up; the sure squares covered first, each the
    # one the fewest pieces cover, leave one way: the light squares filled, the smudges empty
    smudged = {(r, c) for r in range(3) for c in range(9)}
    light = {(8, 6), (8, 7), (6, 6)}
    tiles = [((5, 0), (5, 1), (5, 2)), ((5, 5), (6, 5), (6, 6)), ((7, 0), (7, 1)),
             ((8, 4), (8, 5), (8, 6), (8, 7))]
    sure = {cell for tile in tiles for cell in tile} - light
    cards = {"###": 1, "##/#.": 1, "##": 1, "####": 1}
    ways = fill_covers(sure, smudged | light, cards, 4, [], _cards(*cards))
    assert ways is not None and len(ways) == 1
    assert sorted(ways[0]) == tiles
    # a fifth round's card of one square: a tile of a smudge alone is as good a way
    ways = fill_covers(sure, smudged | light, {**cards, "#": 1}, 5, [],
                       _cards(*cards, "#"))
    assert ways is not None and len(ways) == 2


def test_the_search_lays_one_tile_a_round() -> None:
    # two dominoes fit the sure squares, but one round gave a domino and the other a
    # tromino: the search finds no way (not too many to search), so the squares stay asked
    sure = {(0, 0), (0, 1), (2, 0), (2, 1)}
    choices = (frozenset({"##"}), frozenset({"###"}))
    assert fill_covers(sure, set(), {"##": 1, "###": 1}, 2, [], choices) == []
    assert fill_covers(sure, set(), {"##": 2}, 2, [], _cards("##", "##")) == [
        (((0, 0), (0, 1)), ((2, 0), (2, 1)))]


def test_a_smudge_read_as_a_tile_that_every_way_leaves_empty_goes() -> None:
    # tuning pencil/harsh 8 (bench/sheet_hands.py, class B of issue 22): an erased smudge
    # read as a tile of one square beside a 2x2 block (no outline seen inside), two dominoes
    # drawn: the cards leave the block in rows or in columns (asked), and the smudge empty
    # either way: it is no tile. At the base the two ways left everything as read
    block = ((0, 0), (0, 1), (1, 0), (1, 1))
    seg = Segmentation(shapes=(block, ((0, 2),)), questions=(
        {"kind": "split", "cells": [[0, 2]], "message": ""},), outlines={
        ((0, 0), (0, 1)): (False, 0.25, "asked"), ((0, 1), (0, 2)): (True, 1.0, "drawing")})
    settled_seg, settled = settle_doubtful_by_cards(seg, {(0, 2)}, _cards("##", "##"))
    assert settled == {(0, 2)}
    assert settled_seg.shapes == (block,)
    assert settled_seg.questions == ()
    assert list(settled_seg.outlines) == [((0, 0), (0, 1))]
    # a third way that fills it (a round of one square): left as read
    assert settle_doubtful_by_cards(seg, {(0, 2)}, _cards("##", "##", "#")) == (seg, set())
