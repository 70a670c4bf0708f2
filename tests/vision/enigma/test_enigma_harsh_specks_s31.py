"""Harsh tiles (session 31's census of the independent tuning tables): read wrong with no
question on harsh 9000-9099 and 10000-10099, where bare channels meet, their ink tinted to a
cell's colour was read as a sure yellow cell; and read right but asked on harsh 5000-5039, a
red cell's colour judged on a ring blurred with the tile. One seeded frame each; the verdict
asserted on any pixels is the tile read right, or asked (below the threshold and a question
naming its square); the frames as found (SCENES_AS_FOUND) also show the question gone."""

from __future__ import annotations

from tests.vision.enigma.independent_tile_verdicts import read_harsh_table, right_or_asked
from tests.vision.scene_stack import SCENES_AS_FOUND

#: the independent generator's default table size (its MODEST_TABLE), the frames found at it
DEFAULT_SIZE = (10, 22)


def test_specks_of_yellow_at_a_junction_with_a_pawn_judged_there_are_asked(demo_pack):
    """Table 9003 (default size), [2, -1]: where a channel from N0 meets one from N1 on its
    way to W1, yellow specks among the ink (0.21 of a cell's disc, no pixel of a player
    colour) were read as a sure yellow cell, bare tile beside them as a white pawn on it."""
    read, truth, _ = read_harsh_table(demo_pack, 9003, DEFAULT_SIZE)
    right_or_asked(read, truth, (2, -1))


def test_specks_of_yellow_where_six_channels_meet_are_asked(demo_pack):
    """Table 10006 (default size), [1, 0]: a junction of six openings with no cell, yellow
    specks at its widened middle (0.22 of a cell's disc, no pawn) read as a sure yellow cell
    all six join."""
    read, truth, _ = read_harsh_table(demo_pack, 10006, DEFAULT_SIZE)
    right_or_asked(read, truth, (1, 0))


def test_a_bare_red_cell_in_warm_light_is_judged_by_its_core(demo_pack):
    """Table 5032 (default size), [2, 0]: a red cell with no pawn, read right. Its colour was
    judged only on a thin ring round where a pawn would stand, blurred with the cream tile,
    so the warm light put it nearer yellow than red: asked, 0.30 (the largest class of
    right tiles asked on harsh 5000-5039, s31's census). With no pawn pixel in its middle,
    its core decides: red, sure. On any pixels, right or asked."""
    read, truth, _ = read_harsh_table(demo_pack, 5032, DEFAULT_SIZE)
    _, right, asked = right_or_asked(read, truth, (2, 0))
    if SCENES_AS_FOUND:
        assert right and not asked, asked
