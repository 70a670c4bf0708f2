"""The cell under a standing pawn, read from its rim's hue: on harsh tuning tables of the
independent scenes (bench/independent_scenes; the held-apart range starts at 70000) the
blur mixes a cell's thin ring round its pawn with the pawn's rim and the tile, so no pixel
of the ring is labelled a cell colour (a red ring reads as table and icon) while the ring
keeps its cell's hue: a blue pawn on a red cell was read on a blue cell
(:func:`vision.enigma.networkers.read_networkers`). Read from the hue, the cell is never
trusted: the tile stays asked.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from vision.enigma.reader import read_enigma

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
from independent_scenes.enigma_judge import read_key  # noqa: E402
from independent_scenes.enigma_table import enigma_scene, truth_of  # noqa: E402


@pytest.mark.parametrize(("seed", "at"), [
    # a blue pawn on a red cell: its red ring labelled table and icon (the rim's chroma 36
    # on the latest stack, 40 on the Pi floor's). [0, 2] of the same table is not here: its
    # rim is near grey (chroma 20.6 latest, 18.1 on the Pi floor's OpenCV 4.10), under the
    # rule's floor with its margin, so no colour is named from it (test_enigma_white_pawn_ring)
    (5000, (1, 1)),
])
def test_the_cell_under_a_pawn_takes_its_rims_hue_and_stays_asked(
        demo_pack, seed: int, at: tuple[int, int]) -> None:
    frame, table = enigma_scene(seed, "harsh")
    truth_tiles, truth_networkers = truth_of(table)
    read = read_enigma(frame, demo_pack)
    as_json = read.to_json()
    tiles = {tuple(t["at"]): t for t in as_json["tiles"]}
    assert read_key(tiles[at]) == truth_tiles[at]
    pawns = {(tuple(n["at"]), n["colour"], tiles[at]["cells"][n["cell"]])
             for n in as_json["networkers"] if tuple(n["at"]) == at}
    assert pawns == {n for n in truth_networkers if n[0] == at}
    assert read.tiles[at].confidence < 0.85
