"""However the app ends, the hardware is released once, in order, each step on its own: the
buzzer silent and the bar dark, the pins freed, the camera thread ended with the camera closed,
the journal closed.

The four endings run the real ``companion app`` loop in a child process (tests/ui/ending_probe.py):
Kivy's loop, once ended, cannot run again in the test process. The steps themselves (a failing
step, a second release) are driven in process. Waits are joins with generous limits, as a guard
only; nothing here asserts a duration.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.ui

PROBE = Path(__file__).with_name("ending_probe.py")
REPO = PROBE.parents[2]
#: the exit status ``ui.cli.main`` returns: an error (non-zero: systemd's Restart=on-failure,
#: systemd/tabletop-companion.service, restarts the kiosk), a KeyboardInterrupt, a clean stop
EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK = 1, 130, 0


def _run_the_probe(how: str, tmp_path: Path, *during: str,
                   ) -> tuple[dict[str, Any], subprocess.CompletedProcess[str]]:
    env = {key: value for key, value in os.environ.items() if key != "COMPANION_CONFIG"}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run(
        [sys.executable, str(PROBE), str(tmp_path / "journal.sqlite3"), how, *during],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )
    reports = [line for line in done.stdout.splitlines() if line.startswith("ENDING-REPORT ")]
    assert reports, f"the probe reported nothing (exit {done.returncode}):\n{done.stderr[-3000:]}"
    report: dict[str, Any] = json.loads(reports[-1].removeprefix("ENDING-REPORT "))
    return report, done


def _end_the_app(how: str, tmp_path: Path) -> dict[str, Any]:
    return _run_the_probe(how, tmp_path)[0]


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (Xvfb)")
@pytest.mark.parametrize(("how", "exit_code"), [
    ("give-up", EXIT_ERROR),
    ("interrupt", EXIT_INTERRUPTED),
    ("sigterm", EXIT_OK),
    ("stop", EXIT_OK),
])
def test_every_ending_releases_the_hardware_and_keeps_its_exit_status(how, exit_code, tmp_path):
    report = _end_the_app(how, tmp_path)
    # it was sounding and lit when the app ended
    assert report["before"]["buzzer_pin"] > 0
    assert all(level > 0 for level in report["before"]["bar_pins"])
    assert report["exit_code"] == exit_code
    assert report["buzzer_closed"] and report["buzzer_note"] is None
    assert report["buzzer_pin"] == 0
    assert report["bar_closed"] and set(report["bar_levels"]) == {0.0}
    assert set(report["bar_pins"]) == {0}
    assert report["buttons_closed"]
    assert report["camera_closed_on"] == ["camera-worker"]  # once, by its own thread
    assert not report["camera_thread_alive"]
    assert report["journal"].endswith("<closed>")


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (Xvfb)")
@pytest.mark.parametrize("how", ["stop", "sigterm"])
def test_ending_during_a_read_waits_for_it_and_the_process_exits_cleanly(how, tmp_path):
    # issue 23: a read left inside OpenCV when the interpreter finalised aborted the process
    # ("terminate called without an active exception", status 134) after the journal closed
    report, done = _run_the_probe(how, tmp_path, "read")
    assert report["exit_code"] == EXIT_OK
    assert report["threads_alive"] == []  # the read, the camera thread: all ended
    assert not report["camera_thread_alive"]
    assert report["journal"].endswith("<closed>")
    assert "terminate called" not in done.stderr
    assert done.returncode == EXIT_OK, done.stderr[-3000:]


# --- the steps, in process -------------------------------------------------------------------

class CountingCamera:
    def __init__(self) -> None:
        import numpy as np

        self.frame = np.zeros((48, 64, 3), np.uint8)
        self.closes = 0
        self.read_once = threading.Event()

    def read(self) -> Any:
        self.read_once.set()
        return self.frame

    def close(self) -> None:
        self.closes += 1


def _running_app(make_driver) -> tuple[Any, CountingCamera, Any]:
    """An app with its camera thread reading, the alarm sounding and the bar lit."""
    from hardware.light_bar import BarFrame

    camera = CountingCamera()
    driver = make_driver(camera_source=camera)
    app = driver.app
    app.camera.resume()
    assert camera.read_once.wait(60)
    hardware = app.devices.backend
    hardware.buzzer.play("alarm", 0.0)
    hardware.light_bar.show(BarFrame((1.0,) * hardware.light_bar.count))
    return app, camera, hardware


def _released(app: Any, camera: CountingCamera, hardware: Any, worker: Any,
              journal: Any) -> None:
    pins = hardware.pin_factory
    assert hardware.buzzer.closed and pins.pin(hardware.buzzer.pin).state == 0
    assert hardware.light_bar.closed
    assert {pins.pin(pin).state for pin in hardware.light_bar.pins} == {0}
    assert hardware.buttons.closed
    assert camera.closes == 1
    assert worker.join(60) and not worker.is_running
    assert repr(journal).endswith("<closed>")
    assert app.devices is None and app.camera is None and app.journal is None


def test_a_step_that_fails_does_not_keep_the_others_from_running(make_driver, monkeypatch):
    app, camera, hardware = _running_app(make_driver)
    worker, journal = app.camera, app.journal

    def broken(*args: Any) -> None:
        raise OSError("the notify socket is gone")

    monkeypatch.setattr(app.notifier, "stopping", broken)  # the very first step
    monkeypatch.setattr(app, "_devices_off", broken)
    monkeypatch.setattr(hardware.buzzer.device, "stop", broken)  # the buzzer's own close too

    failed = app.shutdown()

    assert failed == ["telling systemd the app is stopping",
                      "silencing the buzzer and darkening the light bar"]
    _released(app, camera, hardware, worker, journal)


def test_a_camera_that_fails_to_close_still_lets_the_journal_close(make_driver, monkeypatch):
    app, camera, hardware = _running_app(make_driver)
    worker, journal = app.camera, app.journal

    def broken(**kwargs: Any) -> None:
        raise RuntimeError("the camera thread is stuck")

    monkeypatch.setattr(worker, "close", broken)

    assert app.shutdown() == ["stopping the camera thread and closing the camera"]
    assert hardware.buzzer.closed and hardware.light_bar.closed
    assert repr(journal).endswith("<closed>")
    worker.stop()  # what the broken close did not do: the test's own thread tidies up
    assert worker.join(60)


def test_a_second_release_does_nothing(make_driver, monkeypatch):
    app, camera, hardware = _running_app(make_driver)
    worker, journal = app.camera, app.journal
    said: list[str] = []
    monkeypatch.setattr(app.notifier, "stopping", lambda: said.append("STOPPING=1"))

    assert app.shutdown() == []
    assert app.shutdown() == []
    app.dispatch("on_stop")  # what Kivy would call on its way out too

    _released(app, camera, hardware, worker, journal)
    assert said == ["STOPPING=1"]
