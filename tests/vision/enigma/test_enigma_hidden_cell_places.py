"""A cell under a pawn seen from the side, where the cell finder read none (independent
tuning tables, bench/independent_scenes; the held-apart range starts at 70000): the ring
round the pawn tells the cell's colour, but the arc it leaves is too short to place the cell,
and the links follow the place. The tile is read with the cell at every place the arc and
the ring allow (:func:`vision.enigma.ring_places.ring_places`), the pawn's foot among them,
and is settled when the links agree at them all (:func:`vision.enigma.tile.finish_tile`);
else the cell stays asked. The verdict on any pixels: right, or asked; on the frames as found
(SCENES_AS_FOUND), right and sure where the links agree."""

from __future__ import annotations

import pytest

from tests.vision.enigma.independent_tile_verdicts import (
    assert_right_and_sure,
    read_harsh_table,
    right_or_asked,
)
from tests.vision.scene_stack import SCENES_AS_FOUND


@pytest.mark.parametrize(("seed", "at"), [
    # a blue cell under a white pawn: at the pawn's top its channel to the red cell was lost
    # (read wrong, asked); at its foot and round it, joined
    (5026, (-3, 3)),
    (5035, (3, 0)),   # a red cell under a white pawn
    (5039, (0, 2)),   # a blue cell under a white pawn
])
def test_a_cell_under_a_pawn_seen_from_the_side_whose_links_agree_is_sure(
        demo_pack, seed: int, at: tuple[int, int]) -> None:
    assert_right_and_sure(demo_pack, seed, at, "harsh")


def test_a_cell_under_a_pawn_whose_place_fits_narrowly_stays_asked(demo_pack) -> None:
    # a red cell under a black pawn, a channel passing close to it, its links wrong: the
    # ring fits the cell at one place only, so the places round it are read too, and the
    # links differ among them. A guard (asked on main as well): settling the cell by the one
    # place it fits best made it asked only for the channel passing close
    read, truth, _ = read_harsh_table(demo_pack, 5004, (10, 22))  # the tables' own size
    tile, right, asked = right_or_asked(read, truth, (2, -3))
    if SCENES_AS_FOUND and not right:
        assert any("hidden by a networker" in q for q in asked), asked
