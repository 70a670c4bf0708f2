"""The cell under a WHITE pawn on harsh tuning tables of the independent scenes
(bench/independent_scenes; the held-apart range starts at 70000): the blur turns the red
ring left round a standing white pawn into a pink that no pixel label names (it reads as
channel and table), so the pawn was seen and its cell lost ("a networker stands where no
cell was read"). The ring's median colour lies on the blend of red with bare tile, well
apart from a channel's blend with it (:func:`vision.enigma.networkers.read_networkers`).
Read from that blend, the cell is never trusted: the tile stays asked.

And a pawn's rim names a cell by its hue only clear of grey: a rim whose chroma lies near
the line was read red on one OpenCV and blue on another.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from vision.enigma.reader import read_enigma

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
from independent_scenes.enigma_judge import read_key  # noqa: E402
from independent_scenes.enigma_table import enigma_scene, truth_of  # noqa: E402


def _read_tile(demo_pack, seed: int, at: tuple[int, int]):
    frame, table = enigma_scene(seed, "harsh")
    truth_tiles, truth_networkers = truth_of(table)
    read = read_enigma(frame, demo_pack)
    as_json = read.to_json()
    tiles = {tuple(t["at"]): t for t in as_json["tiles"]}
    pawns = {(tuple(n["at"]), n["colour"], tiles[at]["cells"][n["cell"]])
             for n in as_json["networkers"] if tuple(n["at"]) == at}
    return (read, tiles[at], pawns, truth_tiles[at],
            {n for n in truth_networkers if n[0] == at})


@pytest.mark.parametrize(("seed", "at"), [
    (5001, (0, 2)),   # a white pawn on a red cell, a channel beside it
    (5003, (1, 1)),   # a white pawn on a red cell, the cell's only one
])
def test_the_red_cell_under_a_white_pawn_is_read_from_its_pink_ring_and_asked(
        demo_pack, seed: int, at: tuple[int, int]) -> None:
    read, tile, pawns, truth_tile, truth_pawns = _read_tile(demo_pack, seed, at)
    assert read_key(tile) == truth_tile
    assert pawns == truth_pawns == {(at, "white", "red")}
    assert read.tiles[at].confidence < 0.85


def test_a_rim_near_grey_names_no_cell_by_its_hue(demo_pack) -> None:
    # harsh 5000 [0, 2]: a blue pawn on a red cell whose rim, off a channel's blends,
    # measures chroma 20.6 here and 18.1 on the Pi's OpenCV 4.10: too near grey to name a
    # colour on either, so the cell stays as its finder read it, and the tile asked
    read, tile, pawns, _, truth_pawns = _read_tile(demo_pack, 5000, (0, 2))
    assert truth_pawns == {((0, 2), "blue", "red")}
    assert pawns == {((0, 2), "blue", "blue")}
    assert read.tiles[(0, 2)].confidence < 0.85
