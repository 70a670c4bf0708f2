"""The app's Indigo reads take the pack loaded once (vision.indigo.pack_cache): before, each
read loaded it from disk and, with a new pack object, the reader built its board model again
(about 25-40 ms of a 65 ms read here)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from config import Config
from ui.reading import read_indigo_frame
from vision.indigo import reader
from vision.indigo.pack import DEMO_INDIGO
from vision.indigo.pack_cache import cached_indigo_pack


class _Spied(Exception):
    """Raised by the spy in place of reading: the test only wants the pack it was given."""


def test_the_same_folder_gives_the_same_pack_object() -> None:
    assert cached_indigo_pack(None) is cached_indigo_pack("")
    assert cached_indigo_pack(None) is cached_indigo_pack(DEMO_INDIGO)


def test_a_pack_taught_again_into_its_folder_is_loaded_again(tmp_path: Path) -> None:
    folder = tmp_path / "taught"
    shutil.copytree(DEMO_INDIGO, folder)
    first = cached_indigo_pack(folder)
    assert cached_indigo_pack(folder) is first
    manifest = folder / "manifest.json"
    stat = manifest.stat()
    os.utime(manifest, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    again = cached_indigo_pack(folder)
    assert again is not first and again.name == first.name
    assert cached_indigo_pack(None) is not again  # another folder named: its own pack


def test_the_apps_reads_share_one_pack(monkeypatch: pytest.MonkeyPatch) -> None:
    packs: list[Any] = []

    def spy(frame: Any, pack: Any, **_kwargs: Any) -> Any:
        packs.append(pack)
        raise _Spied

    monkeypatch.setattr(reader, "read_indigo", spy)
    frame = np.zeros((48, 64, 3), np.uint8)
    for _turn in range(2):
        with pytest.raises(_Spied):
            read_indigo_frame(frame, Config(), state=None)
    assert len(packs) == 2 and packs[0] is packs[1] is cached_indigo_pack(None)
