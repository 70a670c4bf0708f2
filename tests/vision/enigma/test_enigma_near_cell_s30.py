"""A channel that runs past a cell with no pawn on it, tile colour all along its side there
(no channel colour, no dark stroke between the cell's rim and the cut round it), is not
joined to it, sure (vision.enigma.channel_pieces.PASS_GAP_BAND): a channel running into the
cell crosses that ring, blurred or not. Session 30: 11 of the 14 tiles asked only "a channel
passes close to a cell" on independent clean tuning tables 0-19 were such (all read right);
by a pawn's cell, whose middle is read off, the join stays asked."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.enigma.tiles import Port
from tests.vision.enigma.independent_tile_verdicts import assert_right_and_sure
from vision.enigma.cells import Cell, disc
from vision.enigma.channel_pieces import CHANNEL_CUT, PieceLinks, piece_links
from vision.enigma.openings import opening_windows
from vision.enigma.pack import EnigmaPack
from vision.enigma.tile_doubts import TileDoubts

P = 64
W1, E1 = Port("W", 1), Port("E", 1)
#: the channel runs straight across the tile from W1 to E1 at this height (pixels)
ROW = 32.0
BLUE = (20.0, 14.0)  # a cell joined to N by nothing: a lone cell, out of the way


def _pieces(pack: EnigmaPack, gap_px: float, *, pawn: str | None = None,
            ink_in_gap: bool = False) -> tuple[PieceLinks, list[str]]:
    """A channel straight from W1 to E1 and a red cell below it whose rim lies ``gap_px``
    from the channel's side (a pawn of colour ``pawn`` on it); the channel cut round the
    cells as the reader cuts it, and the ink (channel colour uncut, dark strokes): the
    stroke itself, and with ``ink_in_gap`` a dark dot between the cell's rim and its cut,
    on the side facing the channel."""
    rc, cw = pack.cell_radius * P, pack.channel_width * P
    red = (34.0, ROW + cw / 2 + rc + gap_px)
    cells = [Cell(BLUE, "blue", 1.0), Cell(red, "red", 1.0, pawn)]
    ink = np.zeros((P, P), np.uint8)
    cv2.line(ink, (0, int(ROW)), (P - 1, int(ROW)), 1, int(round(cw)))
    if ink_in_gap:
        ink[int(round(red[1] - rc * 1.15)), int(red[0])] = 1
    channel = ink.copy()
    for c in cells:
        channel[disc((P, P), c.centre, rc * CHANNEL_CUT)] = 0
    doubts = TileDoubts()
    w = opening_windows(P, pack.ports, cw)
    pieces = piece_links(channel, cells, ["a", "b"], {W1, E1}, w, pack, doubts,
                         ink=ink.astype(bool))
    return pieces, doubts.problems + pieces.joins.doubts.problems


@pytest.mark.parametrize("gap_px", [4.0, 4.5])
def test_a_channel_passing_a_bare_cell_with_tile_colour_beside_it_is_not_joined_sure(
        demo_pack, gap_px):
    pieces, problems = _pieces(demo_pack, gap_px)
    assert {frozenset(link) for link in pieces.links} == {frozenset({W1, E1})}
    assert not pieces.joins.choices and not problems, problems


@pytest.mark.parametrize("gap_px", [4.0, 4.5])
def test_by_a_pawns_cell_the_join_stays_asked(demo_pack, gap_px):
    # a pawn hides the cell's middle: the gap measured from it may be a pixel or two off
    pieces, problems = _pieces(demo_pack, gap_px, pawn="white")
    assert pieces.joins.choices and problems


def test_ink_between_the_rim_and_the_channel_keeps_the_join_asked(demo_pack):
    pieces, problems = _pieces(demo_pack, 4.0, ink_in_gap=True)
    assert pieces.joins.choices and problems


@pytest.mark.parametrize("seed, at", [(5, (-1, -2)), (12, (1, 0))])
def test_the_channels_passing_cells_on_clean_tables_are_read_and_sure(demo_pack, seed, at):
    # independent clean tables 5 and 12: a long channel passing a lone or stub's cell 0.8
    # channel widths off its rim, asked only "a channel passes close to a cell" before; on
    # any pixels each is read right or asked
    assert_right_and_sure(demo_pack, seed, at)
