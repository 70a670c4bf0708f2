"""After a power cut (SIGKILL), the kiosk starts into the same game, on the same screen."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

DRIVER = Path(__file__).resolve().parent / "resume_driver.py"

pytestmark = [
    pytest.mark.ui,
    pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (Xvfb)"),
]


def _env(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, KIVY_NO_ARGS="1", KIVY_HOME=str(tmp_path / "kivy"),
                COMPANION_CONFIG="")


def test_kill_9_mid_game_then_the_same_game_and_screen_come_back(tmp_path: Path) -> None:
    db = tmp_path / "journal.sqlite3"
    player = subprocess.Popen(
        [sys.executable, str(DRIVER), "play", str(db), "3"],
        env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert player.stdout is not None
        line = player.stdout.readline()
        assert line.startswith("ACK "), (line, player.stderr.read() if player.stderr else "")
        _, game_id, events = line.split()
    finally:
        player.send_signal(signal.SIGKILL)  # no on_stop, no close: a power cut
        player.wait(timeout=30)
    assert player.returncode == -signal.SIGKILL

    done = subprocess.run(
        [sys.executable, str(DRIVER), "look", str(db)],
        env=_env(tmp_path), capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["game_id"] == int(game_id)
    assert seen["events"] == int(events) == 3
    assert seen["screen"] == "indigo"
    assert len(seen["tiles"]) == 3
