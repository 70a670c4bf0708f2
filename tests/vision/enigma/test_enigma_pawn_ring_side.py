"""A cell the finder placed, in its own colour, a sure pawn of another colour standing on it
(independent tuning tables, bench/independent_scenes; the held-apart range starts at 70000):
the pawn's blurred rim pulls the median of the cell's ring towards another colour, so the
finder doubts the colour, while the ring round the pawn, the blur modelled, shows the cell's
colour clearly but not all round (a pawn seen from the side, or a channel's blend, hides a
side of it). Such a cell is vouched for by its ring
(:func:`vision.enigma.networkers.read_networkers`): all round is asked only of a cell placed
under a pawn, or moved or renamed from a pawn's rim, whose place or colour the finder did
not give (test_enigma_pawn_rim_hue keeps such a cell asked). The verdict on any pixels:
the tile read right, or asked; on the frames as found (SCENES_AS_FOUND), right and sure."""

from __future__ import annotations

import pytest

from tests.vision.enigma.independent_tile_verdicts import assert_right_and_sure


@pytest.mark.parametrize(("seed", "at", "condition"), [
    (8, (1, 2), "clean"),     # a red cell under a white pawn, asked at 0.30
    (5007, (0, 1), "harsh"),  # a blue cell under a white pawn, asked at 0.46
    (5027, (2, 1), "harsh"),  # a red cell under a black pawn, asked at 0.30
])
def test_a_cell_under_a_pawn_of_another_colour_its_ring_to_one_side_is_sure(
        demo_pack, seed: int, at: tuple[int, int], condition: str) -> None:
    assert_right_and_sure(demo_pack, seed, at, condition)
