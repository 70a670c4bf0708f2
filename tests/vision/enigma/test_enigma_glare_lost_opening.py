"""An opening whose channel glare washed out in colour, not in darkness only: its brightness
back near the tile's, its chromaticity half way to the channel's, so the channel mask and the
dark-stroke mask both lose it (:func:`vision.enigma.openings.faint_strokes`). Tuning
independent table 5030 (harsh, 30-45 tiles), square [1, 1]: W0 was read absent at 1.0 on it
and on its neighbour's mirrored side alike, no question asked."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.enigma_judge import read_key  # noqa: E402
from independent_scenes.enigma_table import enigma_scene, truth_of  # noqa: E402

from config import Config  # noqa: E402
from vision.enigma.reader import read_enigma  # noqa: E402
from vision.enigma.settings import ReaderSettings  # noqa: E402


def test_an_opening_washed_out_in_colour_by_glare_is_asked(demo_pack):
    frame, table = enigma_scene(5030, "harsh", (30, 45))
    truth, _ = truth_of(table)
    settings = ReaderSettings.from_config(Config())
    read = read_enigma(frame, demo_pack, settings=settings).to_json()
    tile = next(t for t in read["tiles"] if t["at"] == [1, 1])
    if read_key(tile) != truth[(1, 1)]:
        asked = [q for q in read["questions"] if q.startswith("tile [1, 1]: ")]
        assert tile["confidence"] < settings.min_confidence, tile
        assert any("opening at W0" in q for q in asked), (tile, asked)
