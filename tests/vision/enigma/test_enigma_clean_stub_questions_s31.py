"""Questions the reader asked on clean tuning tables of the independent scenes (the
held-apart range starts at 70000) about tiles it read right, settled by the tile's own
pixels (session 31; figures in bench/figures/enigma_clean_questions_s31.txt).

An opening read present by a cell right at the side: the cell's disc and rim cover part of
the opening's window, so the share of channel there lies near the threshold, and on a side
facing no tile no neighbour settles it. The stub from the window to that one cell's rim
(:func:`vision.enigma.channel_pieces.stub_links`) is the tile's own channel ending at the
opening, as a stroke ending there is: with a dark stroke across the whole band and every
position read absent blank, the opening is settled (independent clean table 0, square
[-2, -2], N0 and W2 into its yellow cell by the corner; table 10, square [2, 1], S2).
"""

from __future__ import annotations

import pytest

from tests.vision.enigma.independent_tile_verdicts import assert_right_and_sure


@pytest.mark.parametrize("seed, at", [(0, (-2, -2)), (10, (2, 1))])
def test_an_opening_stubbed_into_a_cell_by_the_side_is_settled_by_the_stub(demo_pack, seed,
                                                                          at):
    # asked only "is it read right?" before (confidence 0.73 and 0.71: the openings' share
    # of a third of their window); on any pixels each is read right or asked
    assert_right_and_sure(demo_pack, seed, at)
