"""A cell the finder placed by its own colour, a pawn of another colour standing on it
(session 32, harsh tuning 5000-5039): the pawn's blurred rim pulls the cell's ring towards
another colour, and the ring, the blur modelled, shows the cell's colour clearly but not all
round the pawn (a side of it hidden by the pawn seen from the side, or by a channel's blend):
the colour was doubted, the tile asked "is it read right?". All round is asked only of a
cell placed under a pawn; this one the finder placed, and the ring names its colour. The
verdict on any pixels: the tile read right, or asked; on the frames as found
(SCENES_AS_FOUND), read right and sure."""

from __future__ import annotations

from tests.vision.enigma.independent_tile_verdicts import assert_right_and_sure


def test_a_red_cell_under_a_blue_pawn_its_ring_on_five_sides_is_sure(demo_pack):
    """Table 5000 harsh, [1, 1]: a red cell under a blue pawn, the ring's red shown in 5 of
    its 8 eighths (28% of the ring), was asked at 0.30."""
    assert_right_and_sure(demo_pack, 5000, (1, 1), "harsh")


def test_a_blue_cell_under_a_white_pawn_its_ring_on_four_sides_is_sure(demo_pack):
    """Table 5007 harsh, [0, 1]: a blue cell under a white pawn, the ring's blue shown in 4
    of its 8 eighths, was asked at 0.46."""
    assert_right_and_sure(demo_pack, 5007, (0, 1), "harsh")
