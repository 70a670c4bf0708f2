"""A cell the picture took for channel ink (tuning tables, harsh): any-tile 15006, square
[4, 3], a red cell darkened to the channel's colour under a green pawn, the pawn leaving a
small hole of its colour in the channel piece; independent 14017, square [-3, 1], a red cell
paled to the channel's colour, a few red pixels closed in by what reads as ink; any-tile 29006,
square [-1, -1], a red cell under a green pawn blurred to the channel's colour where three
channels meet, the pawn's top a spot of green on the ink, no hole left. A channel is a
stroke, a pawn stands only on a cell, and no channel rim is red: the tile is asked about, never
read sure without the cell."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.enigma.tiles import Port
from tests.vision.enigma.harsh_any_tile import assert_right_or_asked
from vision.enigma.channel_pieces import piece_links
from vision.enigma.colours import colour_model
from vision.enigma.layout import port_point
from vision.enigma.networkers import signs_of_a_cell
from vision.enigma.openings import opening_windows
from vision.enigma.pack import EnigmaPack
from vision.enigma.tile_doubts import TileDoubts

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.enigma_judge import read_and_judge  # noqa: E402
from independent_scenes.enigma_table import enigma_scene, truth_of  # noqa: E402

P = 64
SOMETHING_ROUND = "something round sits on a channel: a cell under a networker?"


def _channel(pack: EnigmaPack, ports: list[Port], middle: tuple[int, int],
             cell_wide: bool) -> np.ndarray:
    """Strokes a channel wide from ``middle`` to each of ``ports``, with a disc a cell wide
    at the middle when ``cell_wide`` (a cell drawn in the channel's colour)."""
    channel = np.zeros((P, P), np.uint8)
    cw = int(round(pack.channel_width * P))
    for q in ports:
        x, y = port_point(q, pack.ports)
        cv2.line(channel, middle, (int(round(x * (P - 1))), int(round(y * (P - 1)))), 1, cw)
    if cell_wide:
        cv2.circle(channel, middle, int(round(pack.cell_radius * P)), 1, -1)
    return channel


def _doubts(pack: EnigmaPack, channel: np.ndarray, ports: list[Port],
            pawns: np.ndarray | None) -> list[str]:
    doubts = TileDoubts()
    w = opening_windows(P, pack.ports, pack.channel_width * P)
    piece_links(channel, [], [], set(ports), w, pack, doubts, pawns)
    return doubts.problems


def _pawn_hole(channel: np.ndarray, middle: tuple[int, int], radius: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """The channel with a small hole at ``middle`` (a blurred pawn's top), and the pawn's
    pixels there."""
    hole = np.zeros((P, P), np.uint8)
    cv2.circle(hole, middle, radius, 1, -1)
    holed = channel.copy()
    holed[hole.astype(bool)] = 0
    return holed, hole.astype(bool)


def test_a_disc_a_cell_wide_with_a_pawns_hole_on_a_channel_is_asked_about(demo_pack) -> None:
    """Between two openings, a disc of channel colour a cell wide with a small hole in its
    middle (5 pixels, an eighth of a pawn's disc): before, the hole hid the
    disc's width from the width test and was too small for the hole test."""
    ports = [Port("E", 1), Port("S", 1)]
    middle = (32, 36)
    holed, _ = _pawn_hole(_channel(demo_pack, ports, middle, cell_wide=True), middle, 1)
    assert SOMETHING_ROUND in _doubts(demo_pack, holed, ports, None)


def test_a_pawns_colour_in_a_small_hole_where_channels_meet_is_asked_about(demo_pack) -> None:
    """Three channels meet (a junction is wider than a stroke, so no width test) round a
    small hole holding a green pawn's pixels: a pawn stands only on a cell."""
    ports = [Port("E", 1), Port("S", 1), Port("W", 1)]
    middle = (32, 32)
    holed, pawn = _pawn_hole(_channel(demo_pack, ports, middle, cell_wide=False), middle, 1)
    assert SOMETHING_ROUND not in _doubts(demo_pack, holed, ports, None)
    assert SOMETHING_ROUND in _doubts(demo_pack, holed, ports, pawn)


def test_a_cells_colour_in_a_small_hole_where_channels_meet_is_asked_about(demo_pack
                                                                         ) -> None:
    """The same small hole holding a red cell's pixels: no channel rim is red."""
    ports = [Port("E", 1), Port("S", 1), Port("W", 1)]
    middle = (32, 32)
    holed, hole = _pawn_hole(_channel(demo_pack, ports, middle, cell_wide=False), middle, 1)
    model = colour_model(demo_pack)
    labels = np.where(hole, model.index("cell", "red"), model.index("tile"))
    assert SOMETHING_ROUND in _doubts(demo_pack, holed, ports, signs_of_a_cell(labels, model))


def test_a_pawns_colour_on_the_ink_where_channels_meet_is_asked_about(demo_pack) -> None:
    """Three channels meet, no hole in the ink (the mask's closing covered the pawn's top),
    a spot of a green pawn's pixels (13, radius 2) on the ink where they meet: a red cell
    under a green pawn blurred to the channel's colour (any-tile 29006 harsh [-1, -1],
    read sure as a bare junction before)."""
    ports = [Port("N", 2), Port("E", 0), Port("W", 1)]
    middle = (36, 24)
    channel = _channel(demo_pack, ports, middle, cell_wide=True)
    spot = np.zeros((P, P), np.uint8)
    cv2.circle(spot, middle, 2, 1, -1)
    pawn = spot.astype(bool)
    assert (channel.astype(bool) & pawn).sum() == pawn.sum() == 13
    assert SOMETHING_ROUND not in _doubts(demo_pack, channel, ports, None)
    assert SOMETHING_ROUND in _doubts(demo_pack, channel, ports, pawn)


def test_spots_of_three_pixels_of_a_cells_colour_on_the_ink_are_no_cell(demo_pack) -> None:
    """Noise leaves pixels of a cell's colour here and there on the ink: spots of three
    pixels (the most on pieces of tiles read right and sure, tuning harsh tables) all over
    the junction, none touching another, make no pawn's top, and nothing round is said to
    sit there."""
    ports = [Port("N", 2), Port("E", 0), Port("W", 1)]
    channel = _channel(demo_pack, ports, (36, 24), cell_wide=True)
    ys, xs = np.mgrid[0:P, 0:P]
    noise = channel.astype(bool) & (xs % 5 < 3) & (ys % 4 == 0)
    assert int(noise.sum()) >= 20
    assert SOMETHING_ROUND not in _doubts(demo_pack, channel, ports, noise)


def test_a_glint_in_a_junction_with_no_pawns_colour_is_no_cell(demo_pack) -> None:
    """The same small hole with no pixel of a pawn's colour (a glint of light on the ink):
    nothing round is said to sit there."""
    ports = [Port("E", 1), Port("S", 1), Port("W", 1)]
    middle = (32, 32)
    holed, _ = _pawn_hole(_channel(demo_pack, ports, middle, cell_wide=False), middle, 1)
    assert SOMETHING_ROUND not in _doubts(demo_pack, holed, ports, np.zeros((P, P), bool))


def test_only_colours_no_tile_art_or_channel_rim_shows_are_signs_of_a_cell(demo_pack) -> None:
    """A white (and, darkened, a black) pawn's colour is a spot of tile's too, and yellow a
    channel's blurred rim on the cream tile: only the other colours say a cell is there."""
    model = colour_model(demo_pack)
    labels = np.arange(len(model.names), dtype=np.int32)[None, :]
    found = {(model.kinds[i], model.names[i])
             for i, on in enumerate(signs_of_a_cell(labels, model)[0]) if on}
    assert found == {("net", "green"), ("net", "blue"), ("cell", "red"), ("cell", "blue")}


@pytest.mark.parametrize("seed,at", [(15006, (4, 3)), (29006, (-1, -1))])
def test_a_cell_taken_for_channel_ink_under_a_pawn_is_asked_about(demo_pack, seed, at) -> None:
    """15006 harsh [4, 3]: a red cell under a green pawn, darkened by the light to the
    channel's colour, was labelled channel whole but for the pawn's blurred top (a hole of
    9 green pixels) and read sure as a channel E2-S1 with no cell, the pawn lost."""
    assert_right_or_asked(demo_pack, seed, at)


def test_a_cell_paled_to_the_channels_colour_is_asked_about() -> None:
    """Independent table 14017 harsh, square [-3, 1]: a red cell where two channels meet,
    paled by the light to the channel's colour but for a few red pixels closed in by it, was
    read sure with its two yellow cells only."""
    frame, table = enigma_scene(14017, "harsh")
    score = read_and_judge(frame, *truth_of(table))
    assert not score.refused
    assert score.silent_wrong == 0, score.wrong
