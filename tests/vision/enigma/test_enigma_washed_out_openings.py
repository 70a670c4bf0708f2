"""An opening whose channel strong light washed out: lighter than the channel colour and than
the dark-stroke mask expect, it leaves neither at the side, only a faint stroke
(:func:`vision.enigma.openings.faint_strokes`). Tuning independent table 25076 (harsh),
square [3, 2]: the channel from the yellow cell to W0 runs to a side facing bare table, and
the tile was read at 1.0 without W0, no question asked."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.enigma_judge import read_key  # noqa: E402
from independent_scenes.enigma_table import enigma_scene, truth_of  # noqa: E402

from config import Config  # noqa: E402
from vision.enigma.reader import read_enigma  # noqa: E402
from vision.enigma.settings import ReaderSettings  # noqa: E402


def test_an_opening_washed_out_at_a_side_facing_the_table_is_asked(demo_pack):
    frame, table = enigma_scene(25076, "harsh")
    truth, _ = truth_of(table)
    settings = ReaderSettings.from_config(Config())
    read = read_enigma(frame, demo_pack, settings=settings).to_json()
    tile = next(t for t in read["tiles"] if t["at"] == [3, 2])
    assert (2, 2) not in truth  # the west side faces bare table
    if read_key(tile) != truth[(3, 2)]:
        asked = [q for q in read["questions"] if q.startswith("tile [3, 2]: ")]
        assert any("opening at W0" in q for q in asked), (tile, asked)
