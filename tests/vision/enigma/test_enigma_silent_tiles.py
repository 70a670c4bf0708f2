"""Tiles read wrong with no question on the independent tuning tables (session 29's census of
harsh 5000-5099 and 6000-6047 at 30-45 tiles): each class fixed, one seeded frame each. The
verdict asserted is what holds on any pixels: the tile is read right, or it is asked (its
confidence below the threshold and a question names its square); on the pixels the class
was found on (tests.vision.scene_stack.SCENES_AS_FOUND), the question is the class's own."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.enigma_judge import read_key  # noqa: E402
from independent_scenes.enigma_table import enigma_scene, truth_of  # noqa: E402

from config import Config  # noqa: E402
from tests.vision.scene_stack import SCENES_AS_FOUND  # noqa: E402
from vision.enigma.reader import read_enigma  # noqa: E402
from vision.enigma.settings import ReaderSettings  # noqa: E402


def _right_or_asked(pack, seed: int, tiles: tuple[int, int], at: tuple[int, int],
                    asked_about: str) -> None:
    frame, table = enigma_scene(seed, "harsh", tiles)
    truth, _ = truth_of(table)
    settings = ReaderSettings.from_config(Config())
    read = read_enigma(frame, pack, settings=settings).to_json()
    tile = next(t for t in read["tiles"] if tuple(t["at"]) == at)
    if read_key(tile) != truth[at]:
        asked = [q for q in read["questions"] if q.startswith(f"tile [{at[0]}, {at[1]}]")]
        assert tile["confidence"] < settings.min_confidence, tile
        assert asked, tile
        if SCENES_AS_FOUND:
            assert any(asked_about in q for q in asked), (tile, asked)


def test_a_channel_bending_past_a_pawn_is_no_join_read_sure(demo_pack):
    """Table 6002 (30-45 tiles), [-4, -3]: a channel N2-W2 bends past a blue cell under a
    black pawn, the cut round the cell ending its corner over 0.71 channel widths: read
    joined to the cell (N2-b), sure. A join by the cut alone, under a pawn, over less than
    a whole channel's width, of a piece that has two ends without the cell, is asked."""
    _right_or_asked(demo_pack, 6002, (30, 45), (-4, -3), "joined or not")


def test_a_white_pawn_with_its_cell_lost_but_a_dark_rim_is_asked(demo_pack):
    """Table 6021 (30-45 tiles), [-1, 1]: a white pawn on a yellow cell, the cell's ring
    blurred near tile's colour so nothing round the pawn was ringed: the pale blob was taken
    for bare tile, the cell and the pawn lost (S0-S1 read as one channel), sure, and the
    networkers silently wrong. Its dark rim (tile-edge and table pixels round it) says a
    pawn stands there: the tile is asked."""
    _right_or_asked(demo_pack, 6021, (30, 45), (-1, 1), "is a cell hidden")
