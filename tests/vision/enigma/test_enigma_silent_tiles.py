"""Tiles read wrong with no question on the independent tuning tables (session 29's census of
harsh 5000-5199 and 6000-6099 at 30-45 tiles): each class fixed, one seeded frame each. The
verdict asserted is what holds on any pixels: the tile is read right, or it is asked (its
confidence below the threshold and a question names its square)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.enigma_judge import read_key  # noqa: E402
from independent_scenes.enigma_table import enigma_scene, truth_of  # noqa: E402

from config import Config  # noqa: E402
from vision.enigma.reader import read_enigma  # noqa: E402
from vision.enigma.settings import ReaderSettings  # noqa: E402


def _right_or_asked(pack, seed: int, tiles: tuple[int, int] | None, at: tuple[int, int],
                    asked_about: str) -> None:
    frame, table = enigma_scene(seed, "harsh", tiles) if tiles else enigma_scene(seed, "harsh")
    truth, _ = truth_of(table)
    settings = ReaderSettings.from_config(Config())
    read = read_enigma(frame, pack, settings=settings).to_json()
    tile = next(t for t in read["tiles"] if tuple(t["at"]) == at)
    if read_key(tile) != truth[at]:
        asked = [q for q in read["questions"] if q.startswith(f"tile [{at[0]}, {at[1]}]")]
        assert tile["confidence"] < settings.min_confidence, tile
        assert any(asked_about in q for q in asked), (tile, asked)


def test_a_channel_bending_past_a_pawn_is_no_join_read_sure(demo_pack):
    """Table 6002 (30-45 tiles), [-4, -3]: a channel N2-W2 bends past a blue cell under a
    black pawn, the cut round the cell ending its corner over 0.71 channel widths: read
    joined to the cell (N2-b), sure. A join by the cut alone, under a pawn, needs the
    channel to meet the cut across a whole channel's width."""
    _right_or_asked(demo_pack, 6002, (30, 45), (-4, -3), "joined or not")
