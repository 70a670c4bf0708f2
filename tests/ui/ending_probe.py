"""A child process for tests/ui/test_app_ending.py: the real app, ended one way, then a report.

    python ending_probe.py DB HOW [read|render]    HOW: stop | sigterm | give-up | interrupt

It runs ``companion app --demo`` (``ui.main.main``, which the command systemd starts execs,
with Kivy's real loop, which the in-process UI tests never run: once ended it cannot be started
again in that process). The camera is a recording fake; the pins are gpiozero's mock pins, as in
the demo. Once the camera is open it sounds the buzzer, lights the bar, and ends the app:

- ``stop``: ``App.stop()``, as closing the window does;
- ``sigterm``: SIGTERM to itself, as ``systemctl stop`` sends;
- ``give-up``: a clock callback raising on every frame, until the app gives up;
- ``interrupt``: a clock callback raising ``KeyboardInterrupt`` (not an ``Exception``: the app
  does not try to survive it).

With ``read``, a board read is running when the app is ended: a background job
(``app.run_in_background``, as the screens start their reads) doing OpenCV on a seeded
camera-sized frame, ended once it is inside OpenCV, and going on for as long again after the
stop has begun (a read cannot be interrupted). A thread left in OpenCV when the interpreter
finalises aborts the process (issue 23); the test reads the exit status and stderr.

With ``render``, the camera thread is inside OpenCV when the app is ended, and stays there
past every wait of the app's end (shortened here to half a second each), as a demo render of
a niced thread did on a loaded machine: the camera is stuck in a read that never ends.

The last line of stdout is ``ENDING-REPORT {json}``: the exit status ``ui.main.main`` returned
and the state of the buzzer, bar, buttons, camera and journal after it returned, and the
threads other than the main one still alive then.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))


class RecordingCamera:
    """A camera that says when it was opened and which threads closed it."""

    #: how long a stuck read goes on at most (the process is gone long before)
    STUCK_SECONDS = 120.0

    def __init__(self) -> None:
        import numpy as np

        self.frame = np.zeros((48, 64, 3), np.uint8)
        self.opened = threading.Event()
        self.closed_on: list[str] = []
        #: set: the next read sticks inside OpenCV; ``inside`` is set once it is there
        self.stick = threading.Event()
        self.inside = threading.Event()

    def open(self) -> RecordingCamera:
        self.opened.set()
        return self

    def read(self) -> Any:
        if self.stick.is_set():
            self._stuck_in_opencv()
        return self.frame

    def _stuck_in_opencv(self) -> None:
        import time

        import cv2
        import numpy as np

        frame = np.random.default_rng(23).integers(0, 256, (1296, 2304, 3), dtype=np.uint8)
        until = time.monotonic() + self.STUCK_SECONDS
        while time.monotonic() < until:
            cv2.GaussianBlur(frame, (31, 31), 0)
            self.inside.set()

    def close(self) -> None:
        self.closed_on.append(threading.current_thread().name)


def _sound_and_light(hardware: Any) -> dict[str, Any]:
    """The alarm playing and the bar full, as at the end of a turn; what the pins show then."""
    from hardware.light_bar import BarFrame

    hardware.buzzer.play("alarm", 0.0)
    hardware.light_bar.show(BarFrame((1.0,) * hardware.light_bar.count))
    pins = hardware.pin_factory
    return {"buzzer_pin": pins.pin(hardware.buzzer.pin).state,
            "bar_pins": [pins.pin(pin).state for pin in hardware.light_bar.pins]}


def _end(app: Any, how: str) -> None:
    """End the app ``how`` (on the Kivy main thread)."""
    from kivy.clock import Clock

    if how == "stop":
        app.stop()
    elif how == "sigterm":
        os.kill(os.getpid(), signal.SIGTERM)
    elif how == "give-up":
        app._error_burst.clock = lambda: 1.0  # every error at once, however slow the machine

        def fails(dt: float) -> None:
            raise RuntimeError("raises on every frame")

        Clock.schedule_interval(fails, 0)
    elif how == "interrupt":
        def interrupts(dt: float) -> None:
            raise KeyboardInterrupt

        Clock.schedule_once(interrupts, 0)
    else:
        raise SystemExit(f"unknown ending {how!r}")


def _start_a_read(app: Any) -> threading.Event:
    """A board read on a job thread; the event is set once it is inside OpenCV."""
    import cv2
    import numpy as np

    frame = np.random.default_rng(23).integers(0, 256, (1296, 2304, 3), dtype=np.uint8)
    inside = threading.Event()

    def read() -> int:
        passes = stop_seen = 0
        while not stop_seen or passes < 2 * stop_seen:
            cv2.GaussianBlur(frame, (31, 31), 0)
            passes += 1
            inside.set()
            if not stop_seen and app._shut_down:
                stop_seen = max(passes, 10)
        return passes

    app.run_in_background(read, lambda value, error: None, name="read")
    return inside


def main(db: str, how: str, during: str = "") -> None:
    import ui.camera

    camera = RecordingCamera()
    ui.camera.make_camera_source = lambda cfg, *, demo, table=None: camera.open()

    from kivy.clock import Clock

    import ui.app
    import ui.main
    from ui.app import CompanionApp

    if during == "render":  # every wait of the app's end short: the read outlasts them all
        ui.app.STOP_WAIT_SECONDS = ui.main.LAST_WAIT_SECONDS = 0.5
        camera.stick.set()
    seen: dict[str, Any] = {}

    def on_start(app: CompanionApp) -> None:
        seen["app"] = app
        seen["hardware"] = app.devices.backend if app.devices else None
        seen["worker"] = app.camera
        seen["journal"] = app.journal

        def when_the_camera_is_open(dt: float) -> bool:
            if not camera.opened.is_set():
                return True  # keep polling
            if during == "read" and "read" not in seen:
                seen["read"] = _start_a_read(app)
            if "read" in seen and not seen["read"].is_set():
                return True  # the read is not inside OpenCV yet
            if during == "render" and not camera.inside.is_set():
                return True  # the camera thread is not inside OpenCV yet
            seen["before"] = _sound_and_light(seen["hardware"])
            _end(app, how)
            return False

        Clock.schedule_interval(when_the_camera_is_open, 0.05)

    CompanionApp.on_start = on_start  # type: ignore[method-assign]
    code = ui.main.main(["--demo", "--db", db, "--size", "320x240"])

    hardware, worker = seen["hardware"], seen["worker"]
    pins = hardware.pin_factory
    report = {
        "exit_code": code,
        "before": seen.get("before"),
        "buzzer_closed": hardware.buzzer.closed,
        "buzzer_note": hardware.buzzer.note,
        "buzzer_pin": pins.pin(hardware.buzzer.pin).state,
        "bar_closed": hardware.light_bar.closed,
        "bar_levels": list(hardware.light_bar.levels),
        "bar_pins": [pins.pin(pin).state for pin in hardware.light_bar.pins],
        "buttons_closed": hardware.buttons.closed,
        "camera_closed_on": camera.closed_on,
        "camera_thread_alive": worker.is_running,
        "journal": repr(seen["journal"]),
        "threads_alive": [thread.name for thread in threading.enumerate()
                          if thread is not threading.main_thread()],
    }
    print("ENDING-REPORT " + json.dumps(report), flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:4])
