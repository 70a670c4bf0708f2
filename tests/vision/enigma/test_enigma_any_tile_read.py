"""The tile reader on conduit sides outside the demo catalogue: openings at every position
of every side, cells close to a side with only a stub of channel to their opening, and a
seeded sample of random tiles (vision.enigma.synth.any_tiles), each read from its own
straightened patch."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from companion.enigma.tiles import Tile, parse_tile
from vision.enigma.colours import colour_model
from vision.enigma.layout import seen_positions, seen_tile, spacing_for
from vision.enigma.reader import read_enigma
from vision.enigma.settings import DEFAULT_SETTINGS
from vision.enigma.squares import see_squares
from vision.enigma.synth.any_tiles import drawable, random_catalogue, random_tile
from vision.enigma.synth.art import tile_face
from vision.enigma.synth.render import TableView, render_frame
from vision.enigma.synth.scenes import categories_of, random_record
from vision.enigma.synth.truth import same_tile
from vision.enigma.tile import read_tile

#: the patch side the reader straightens a tile to, and the face drawn before shrinking
PATCH = DEFAULT_SETTINGS.px_per_tile
FACE = 4 * PATCH


def _patch(pack, tile: Tile, rotation: int) -> np.ndarray:
    """The tile drawn large, turned, shrunk to the reader's patch and softened a little."""
    face = np.ascontiguousarray(np.rot90(tile_face(tile, pack, FACE), -rotation))
    small = cv2.resize(face, (PATCH, PATCH), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (0, 0), 0.6)


def _read_right(pack, tile: Tile, rotation: int) -> tuple[bool, bool]:
    """Whether the read is the tile as seen (cells matched by where they lie), and whether
    it asks about the tile."""
    read, _ = read_tile(_patch(pack, tile, rotation), (1, 1), pack, colour_model(pack),
                        DEFAULT_SETTINGS)
    spacing = spacing_for(pack)
    truth, _ = seen_tile(tile, rotation, pack.ports, spacing=spacing)
    where = seen_positions(tile, rotation, pack.ports, spacing=spacing)
    right = same_tile(truth, where, read.tile, read.centres)
    return right, bool(read.problems) or read.confidence < DEFAULT_SETTINGS.min_confidence


#: each opening alone, a stub into a cell beside a side, and the far positions of S and W
EXAMPLES = [
    {"cells": {}, "links": [["N", "W"], ["E", "S2"]]},
    {"cells": {}, "links": [["S0", "S"]]},
    {"cells": {"a": "red", "b": "yellow"}, "links": [["E2", "b"], ["a", "b"]]},
    {"cells": {"a": "yellow", "b": "yellow"}, "links": [["N", "a"], ["E0", "b"]]},
    {"cells": {"a": "blue"}, "links": [["S2", "W"], ["W2", "a"]]},
    # a stub no longer than a channel is wide, from E into a cell beside it: its stroke
    # thins to a dot, with no skeleton end, and still runs into the cell (ink pack)
    {"cells": {"a": "yellow", "b": "red"}, "links": [["E", "a"]]},
]


@pytest.mark.parametrize("data", EXAMPLES)
@pytest.mark.parametrize("style", ["demo", "ink"])
def test_openings_anywhere_and_stubs_into_cells_are_read_without_a_question(
        data, style, packs) -> None:
    tile = parse_tile(data)
    for rotation in range(4):
        right, asked = _read_right(packs[style], tile, rotation)
        assert right and not asked, (rotation, data)


def test_random_tiles_are_read_or_asked_about_never_silently_wrong(packs) -> None:
    rng = random.Random(21)
    for style, pack in packs.items():
        exact = asked = 0
        n = 40
        for _ in range(n):
            tile = random_tile(rng)
            while not drawable(tile, pack):
                tile = random_tile(rng)
            right, doubt = _read_right(pack, tile, rng.randrange(4))
            assert right or doubt, (style, tile)
            exact += right
            asked += doubt
        assert exact >= 0.9 * n and asked <= 0.2 * n, (style, exact, asked)


def _face(pack, tile: Tile) -> np.ndarray:
    return cv2.resize(tile_face(tile, pack, FACE), (PATCH, PATCH), interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize("data", EXAMPLES[:3])
def test_a_band_of_channel_colour_along_a_whole_side_is_no_opening(data, demo_pack) -> None:
    """The gap to the next tile, seen in a channel's colour when the square is cut a little
    off the tile, runs along the whole side: it opens nothing there."""
    tile = parse_tile(data)
    face = _face(demo_pack, tile)
    face[:, 1:5] = demo_pack.colour("channel")
    read, _ = read_tile(cv2.GaussianBlur(face, (0, 0), 0.6), (1, 1), demo_pack,
                        colour_model(demo_pack), DEFAULT_SETTINGS)
    assert read.tile.is_equivalent(tile) and not read.problems, read


def test_two_cells_read_overlapping_are_a_question(demo_pack) -> None:
    """Printed cells never overlap: a disc of another cell colour drawn over part of a cell
    (a ring broken by a pawn or a thing lying on it may read so) is asked about, never read
    as two cells."""
    tile = parse_tile({"cells": {"a": "yellow"}, "links": [["S", "a"]]})
    face = tile_face(tile, demo_pack, FACE)
    where = seen_positions(tile, 0, demo_pack.ports, spacing=spacing_for(demo_pack))["a"]
    centre = (int((where[0] + 1.3 * demo_pack.cell_radius) * FACE), int(where[1] * FACE))
    cv2.circle(face, centre, int(demo_pack.cell_radius * FACE), demo_pack.cells["red"], -1)
    patch = cv2.resize(face, (PATCH, PATCH), interpolation=cv2.INTER_AREA)
    read, _ = read_tile(patch, (1, 1), demo_pack, colour_model(demo_pack), DEFAULT_SETTINGS)
    assert len(read.tile.cells) == 2 and read.problems, read


def test_a_tile_dense_with_channels_and_cells_is_a_whole_tile(demo_pack) -> None:
    """A square is a tile by its art as well as its ground: a tile whose middle is mostly
    channels and cells is found, not taken for a square partly covered."""
    dense = parse_tile({"cells": {"a": "red", "b": "blue", "c": "yellow"}, "links": [
        ["N0", "a"], ["N", "a"], ["N2", "b"], ["E0", "b"], ["E", "b"], ["E2", "c"],
        ["S0", "c"], ["S", "c"], ["S2", "c"], ["W0", "a"], ["W", "a"], ["W2", "a"],
        ["a", "b"], ["b", "c"]]})
    p = PATCH
    canon = np.empty((3 * p, 4 * p, 3), np.uint8)
    canon[:] = demo_pack.colour("table")
    canon[p:2 * p, p:2 * p] = cv2.resize(demo_pack.start, (p, p), interpolation=cv2.INTER_AREA)
    canon[p:2 * p, 2 * p:3 * p] = _face(demo_pack, dense)
    found = see_squares(canon, (1.5 * p, 1.5 * p), demo_pack, p, [], DEFAULT_SETTINGS)
    squares, questions = found.squares, found.questions
    assert set(squares) == {(0, 0), (1, 0)}, questions


def test_the_start_faces_own_art_is_no_networker(demo_pack) -> None:
    """What the reader would take for a pawn on the pack's own start face (its star's pale
    middle) is the face's art: no question about a networker on the start tile."""
    catalogue = random_catalogue(0, demo_pack, size=200)
    record, state = random_record(0, tiles=6, catalogue=catalogue)
    view = TableView.of_state(state, demo_pack, categories=categories_of(record, catalogue))
    frame = render_frame(view, demo_pack, seed=0, effects=())
    read = read_enigma(frame.image, demo_pack)
    assert not [q for q in read.questions if "start tile" in q], read.questions


@pytest.mark.parametrize("colour", ["table", "tile"])
def test_a_square_with_nothing_drawn_on_it_is_asked_about(demo_pack, colour) -> None:
    """Every tile carries channels or a cell: a square that shows neither (an empty square
    of cloth taken for a tile, which the tile's balance turns tile-coloured: independent
    tables 1016 and 1040, harsh) is asked about, never read as a blank tile."""
    rng = np.random.default_rng(5)
    plain = np.empty((PATCH, PATCH, 3), np.float32)
    plain[:] = demo_pack.colour(colour)
    plain += rng.normal(0, 3, plain.shape)
    read, _ = read_tile(np.clip(plain, 0, 255).astype(np.uint8), (1, 1), demo_pack,
                        colour_model(demo_pack), DEFAULT_SETTINGS)
    assert not read.tile.cells and not read.tile.links
    assert read.problems and read.confidence < DEFAULT_SETTINGS.min_confidence, read


def test_a_short_stub_leaving_a_cell_towards_nothing_is_asked_about(demo_pack) -> None:
    """A channel leaving a cell and stopping within a channel's width of it (towards a cell
    the picture lost) is asked about; only a shred along the cell's rim, left outside the
    cell's cut, is not a channel (seeded turn 3013)."""
    tile = parse_tile({"cells": {"a": "red"}, "links": [["N", "a"]]})
    face = tile_face(tile, demo_pack, FACE)
    x, y = seen_positions(tile, 0, demo_pack.ports, spacing=spacing_for(demo_pack))["a"]
    reach = (demo_pack.cell_radius * 1.3 + demo_pack.channel_width * 0.4) * FACE
    start, end = (int(x * FACE), int(y * FACE)), (int(x * FACE), int(y * FACE + reach))
    cv2.line(face, start, end, demo_pack.colour("channel"), int(demo_pack.channel_width * FACE))
    cv2.circle(face, start, int(demo_pack.cell_radius * FACE), demo_pack.cells["red"], -1)
    patch = cv2.GaussianBlur(cv2.resize(face, (PATCH, PATCH), interpolation=cv2.INTER_AREA),
                             (0, 0), 0.6)
    read, _ = read_tile(patch, (1, 1), demo_pack, colour_model(demo_pack), DEFAULT_SETTINGS)
    assert read.problems and read.confidence < DEFAULT_SETTINGS.min_confidence, read
