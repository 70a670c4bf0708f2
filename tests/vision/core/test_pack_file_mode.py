"""A taught pack is made from photos of someone's table: it is written for its owner only."""

from __future__ import annotations

import json
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from vision.break_the_code.pack import load_code_pack
from vision.enigma.pack import load_enigma_pack
from vision.errors import ArtPackError
from vision.indigo.pack import load_indigo_pack
from vision.second_chance.card_style import CardStyle


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


LOADERS: dict[str, Callable[..., Any]] = {
    "indigo": load_indigo_pack, "enigma": load_enigma_pack, "code": load_code_pack,
}


@pytest.mark.usefixtures("open_umask")
@pytest.mark.parametrize("game", sorted(LOADERS))
def test_a_saved_pack_is_owner_only_and_reads_back(tmp_path: Path, game: str) -> None:
    demo = LOADERS[game]()
    folder = demo.save(tmp_path / "taught" / game)
    files = sorted(folder.iterdir())
    assert len(files) >= 2 and any(f.name == "manifest.json" for f in files)
    assert {f.name: _mode(f) for f in files} == {f.name: 0o600 for f in files}
    assert _mode(folder) == 0o700
    LOADERS[game](folder).save(folder)  # saved over itself: the modes stay, nothing refused
    assert {_mode(f) for f in folder.iterdir()} == {0o600}
    assert LOADERS[game](folder).manifest() == demo.manifest()


@pytest.mark.usefixtures("open_umask")
def test_a_pack_that_cannot_be_written_names_its_folder(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(ArtPackError, match="cannot write the pack"):
        load_code_pack().save(blocker / "pack")


@pytest.mark.usefixtures("open_umask")
def test_a_taught_card_style_is_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "cards.json"
    CardStyle().save(path)
    assert _mode(path) == 0o600
    assert CardStyle.from_json(json.loads(path.read_text())) == CardStyle()
