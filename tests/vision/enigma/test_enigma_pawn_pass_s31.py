"""A channel bending past a cell hidden by a pawn (session 31, harsh tuning 9000-9099): the cut
round the cell ended the channel's piece with no end of its own there, its convex side
touching the cut over more than a channel's width, and it was read joined to the cell,
sure. The cell's true rim is hidden, so where the stroke runs along the cell and touches it
no wider than a straight stroke would, the join is asked; Vs and junctions into a pawn's
cell stay read and sure. The verdict on any pixels: the tile read right, or asked; the frames
as found (SCENES_AS_FOUND) also show the guards read sure."""

from __future__ import annotations

from tests.vision.enigma.independent_tile_verdicts import (
    assert_right_and_sure,
    read_harsh_table,
    right_or_asked,
)

#: the independent generator's default table size (its MODEST_TABLE), the frames found at it
DEFAULT_SIZE = (10, 22)


def test_a_channel_bending_past_a_pawns_cell_is_not_read_joined_sure(demo_pack):
    """Table 9017 (default size), [0, 1]: a channel N1-W1 bending past a red cell under a
    black pawn (E0 and S join the cell) was read joined to the cell as well, sure."""
    read, truth, _ = read_harsh_table(demo_pack, 9017, DEFAULT_SIZE)
    right_or_asked(read, truth, (0, 1))


def test_a_v_and_a_junction_into_a_pawns_cell_stay_sure(demo_pack):
    """Table 5002 harsh, [0, -2]: under a black pawn on a blue cell, a V whose arms leave the
    cell 1.76 radians apart and a channel running past it with its branch into the cell cut
    away (arms 2.99 apart, touching the cut over 3.69 channel widths): both joined, read
    right and sure."""
    assert_right_and_sure(demo_pack, 5002, (0, -2), "harsh")
