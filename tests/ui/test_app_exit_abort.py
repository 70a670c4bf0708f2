"""The app's end with a thread of ours still inside OpenCV past every wait (issue 23).

A demo render on the camera thread, niced below a loaded machine's other work, outlasted the
app's 20 s wait for it; the interpreter's finalisation then killed the thread as it took the
GIL back inside OpenCV's C++ and the process aborted ("terminate called without an active
exception", status 134) instead of exiting 0. The real ``companion app`` loop runs in a child
process (tests/ui/ending_probe.py ... render) whose camera read never leaves OpenCV, with the
app's waits shortened to half a second each; nothing here asserts a duration.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.ui

PROBE = Path(__file__).with_name("ending_probe.py")
REPO = PROBE.parents[2]


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (Xvfb)")
@pytest.mark.parametrize("how", ["stop", "sigterm"])
def test_a_render_stuck_in_opencv_past_every_wait_still_ends_the_process_cleanly(how, tmp_path):
    journal = tmp_path / "journal.sqlite3"
    env = {key: value for key, value in os.environ.items() if key != "COMPANION_CONFIG"}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run([sys.executable, str(PROBE), str(journal), how, "render"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=300)

    assert "terminate called" not in done.stderr
    assert done.returncode == 0, done.stderr[-3000:]
    # the journal was closed before the process ended: checkpointed, nothing left in a WAL
    assert not Path(f"{journal}-wal").exists()
    with sqlite3.connect(journal) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
