"""``settings.json`` sits beside the journal and is written readable by its owner only."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ui import services


def test_settings_are_written_owner_only(tmp_path: Path) -> None:
    previous = os.umask(0o022)
    try:
        db = tmp_path / "journal.sqlite3"
        services.save_settings(db, {"timer": {"duration_s": 45}})
        services.save_settings(db, {"timer": {"duration_s": 40}})  # replaced, still private
    finally:
        os.umask(previous)
    path = tmp_path / services.SETTINGS_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert services.load_settings(db) == {"timer": {"duration_s": 40}}
