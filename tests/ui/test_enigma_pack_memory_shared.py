"""The Enigma art pack is loaded once for the whole app: the demo camera draws the table, the
board widget colours it and the reads read it with one pack object (that of
:func:`vision.enigma.pack_cache.cached_enigma_pack`), where each kept a copy of its own."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

from companion.enigma.puzzles import load_puzzles
from config import art_pack_folder, config_from_dict
from ui.demo import DemoTable
from ui.widgets.enigma_board import pack_for
from vision.enigma.pack import DEMO_ENIGMA
from vision.enigma.pack_cache import cached_enigma_pack
from vision.enigma.synth.scenes import random_record


def _config_with_a_pack_of_its_own(tmp_path: Path) -> object:
    """A config naming a copy of the demo pack: a folder no other test has loaded."""
    shutil.copytree(DEMO_ENIGMA, tmp_path / "tiles")
    return config_from_dict({"app": {"data_dir": str(tmp_path)},
                             "vision": {"enigma": {"pack": "tiles"}}})


def test_the_board_draws_with_the_pack_the_reads_load(tmp_path: Path) -> None:
    cfg = _config_with_a_pack_of_its_own(tmp_path)
    board_pack = pack_for(cfg)
    assert board_pack is cached_enigma_pack(art_pack_folder(cfg, "tiles"))


def test_the_demo_camera_draws_with_the_pack_the_reads_load(tmp_path: Path) -> None:
    cfg = _config_with_a_pack_of_its_own(tmp_path)
    table = DemoTable(SimpleNamespace(session=None, cfg=cfg), seed=3)
    _record, state = random_record(1, tiles=4)
    table.render_enigma(state)  # the first Enigma frame loads the pack
    assert table.packs["enigma"] is cached_enigma_pack(art_pack_folder(cfg, "tiles"))


def test_an_enigma_frame_after_a_puzzle_frame_is_drawn() -> None:
    """The puzzle check shown before any Enigma game (in the demo): the pack was kept then,
    without the catalogue the Enigma frames need (KeyError at every frame on 6284270)."""
    table = DemoTable(SimpleNamespace(session=None, cfg=config_from_dict({})), seed=3)
    card_id = next(iter(load_puzzles().weight.cards))
    table._render_puzzle("weight", card_id, None)
    _record, state = random_record(1, tiles=4)
    assert table.render_enigma(state).shape[:2] == (720, 1280)
