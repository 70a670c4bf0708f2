"""The verdict on one tile of an independent table (bench/independent_scenes) that holds on
any pixels: read right, or asked (its confidence below the threshold and a question naming
its square). Shared by the tests of the classes found on the independent tuning tables."""

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


def read_harsh_table(pack, seed: int, tiles: tuple[int, int]) -> tuple[dict, dict, set]:
    """The read (json) of independent table ``seed`` drawn harsh with ``tiles`` tiles, its
    tiles' truth and its networkers' truth."""
    frame, table = enigma_scene(seed, "harsh", tiles)
    truth, truth_networkers = truth_of(table)
    read = read_enigma(frame, pack, settings=ReaderSettings.from_config(Config())).to_json()
    return read, truth, truth_networkers


def right_or_asked(read: dict, truth: dict, at: tuple[int, int]
                   ) -> tuple[dict, bool, list[str]]:
    """Assert the tile at ``at`` is read right or asked; returns it, whether it is read
    right, and the questions naming its square."""
    tile = next(t for t in read["tiles"] if tuple(t["at"]) == at)
    asked = [q for q in read["questions"] if q.startswith(f"tile [{at[0]}, {at[1]}]")]
    right = read_key(tile) == truth[at]
    if not right:
        assert tile["confidence"] < ReaderSettings.from_config(Config()).min_confidence, tile
        assert asked, tile
    return tile, right, asked


def assert_right_and_sure(pack, seed: int, at: tuple[int, int], condition: str = "clean"
                          ) -> None:
    """Read independent table ``seed`` and assert its tile at ``at`` is read right and sure,
    with no question, where the scenes are drawn as the tests found them; on other builds
    (the Pi floor), right or asked."""
    frame, table = enigma_scene(seed, condition)
    truth, _ = truth_of(table)
    settings = ReaderSettings.from_config(Config())
    read = read_enigma(frame, pack, settings=settings).to_json()
    tile, right, asked = right_or_asked(read, truth, at)
    if SCENES_AS_FOUND:
        assert right, tile
        assert not asked, asked
        assert tile["confidence"] >= settings.min_confidence, tile
