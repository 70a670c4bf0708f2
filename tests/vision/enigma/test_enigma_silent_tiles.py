"""Tiles read wrong with no question on the independent tuning tables (session 29's census of
harsh 5000-5099 and 6000-6047 at 30-45 tiles): each class fixed, one seeded frame each. The
verdict asserted is what holds on any pixels: the tile is read right, or it is asked (its
confidence below the threshold and a question names its square); on the pixels the class
was found on (tests.vision.scene_stack.SCENES_AS_FOUND), the question is the class's own."""

from __future__ import annotations

from tests.vision.enigma.independent_tile_verdicts import read_harsh_table, right_or_asked
from tests.vision.scene_stack import SCENES_AS_FOUND


def _right_or_asked(pack, seed: int, tiles: tuple[int, int], at: tuple[int, int],
                    asked_about: str) -> None:
    read, truth, _ = read_harsh_table(pack, seed, tiles)
    tile, right, asked = right_or_asked(read, truth, at)
    if not right and SCENES_AS_FOUND:
        assert any(asked_about in q for q in asked), (tile, asked)


def test_a_channel_bending_past_a_pawn_is_no_join_read_sure(demo_pack):
    """Table 6002 (30-45 tiles), [-4, -3]: a channel N2-W2 bends past a blue cell under a
    black pawn, the cut round the cell ending its corner over 0.71 channel widths: read
    joined to the cell (N2-b), sure. A join by the cut alone, under a pawn, over less than
    a whole channel's width, of a piece that has two ends without the cell, is asked."""
    _right_or_asked(demo_pack, 6002, (30, 45), (-4, -3), "joined or not")


def test_a_white_pawn_with_its_cell_lost_but_a_dark_rim_is_asked(demo_pack):
    """Table 6021 (30-45 tiles), [-1, 1]: a white pawn on a yellow cell, the cell's ring
    blurred near tile's colour so nothing round the pawn was ringed: the pale blob was taken
    for bare tile, the cell and the pawn lost (S0-S1 read as one channel), sure, and the
    networkers silently wrong. Its dark rim (tile-edge and table pixels round it) says a
    pawn stands there: the tile is asked."""
    _right_or_asked(demo_pack, 6021, (30, 45), (-1, 1), "is a cell hidden")
