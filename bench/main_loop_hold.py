"""How long the Kivy main loop is held while the demo camera makes frames.

Runs the real app (``CompanionApp.run``) in demo mode with a fresh journal, under Xvfb when
there is no display, and plays a short script: start on Home (the camera opens; since the
camera rests on screens without one, frames start with the game), an Indigo game with two demo
placements (a new frame each), a camera restart (as the settings screen does) and the app's
stop. A clock callback on every frame records the gaps between main
loop iterations; a sampling thread notes what the main thread was doing during each gap longer
than 100 ms, so a hold can be traced to its line. Prints figures; asserts nothing.

    nice .venv/bin/python bench/main_loop_hold.py [--one-core] [--pi-like-camera]

``--one-core`` pins the app to one core (a loaded machine); ``--pi-like-camera`` makes opening
the camera take 2 s and each frame 1 s, by sleeping, as Picamera2 and a Pi's renderer would.
"""

from __future__ import annotations

import collections
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ui.app import CompanionApp

HOLD_S = 0.1  # a gap longer than this is a hold worth naming
SAMPLE_S = 0.01


class MainLoopProbe:
    """Stamps every main-loop iteration; a thread samples the main stack when it stalls."""

    def __init__(self) -> None:
        self.main_ident = threading.get_ident()
        self.last_tick = time.monotonic()
        self.ticks: list[float] = []
        self.phase = "start"
        self.gaps: list[tuple[float, str]] = []  # (seconds, phase)
        #: stack line -> samples taken while the main loop was held
        self.held_at: collections.Counter[str] = collections.Counter()
        #: the same for the camera and job threads at those moments
        self.worker_at: collections.Counter[str] = collections.Counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, name="probe", daemon=True)

    def start(self) -> None:
        from kivy.clock import Clock

        self.last_tick = time.monotonic()
        Clock.schedule_interval(self.tick, 0)
        self._thread.start()

    def tick(self, _dt: float) -> None:
        now = time.monotonic()
        self.gaps.append((now - self.last_tick, self.phase))
        self.last_tick = now

    def _sample(self) -> None:
        while not self._stop.wait(SAMPLE_S):
            if time.monotonic() - self.last_tick < HOLD_S:
                continue
            frames = sys._current_frames()
            frame = frames.get(self.main_ident)
            if frame is not None:
                self.held_at[_where(frame)] += 1
            for thread in threading.enumerate():
                if thread.name.startswith(("camera", "ui-")) and thread.ident in frames:
                    self.worker_at[_where(frames[thread.ident])] += 1

    def stop(self) -> None:
        self._stop.set()


def _where(frame: object) -> str:
    """The innermost project lines of a stack (where the main thread is stuck)."""
    stack = traceback.extract_stack(frame)  # type: ignore[arg-type]
    ours = [f for f in stack if "/work/" in f.filename and "/.venv/" not in f.filename
            and "bench/" not in f.filename]
    inner = stack[-1]
    picked = ours[-2:] if ours else []
    text = " <- ".join(f"{os.path.relpath(f.filename)}:{f.lineno} {f.name}"
                       for f in reversed(picked))
    return f"{text} | innermost {os.path.basename(inner.filename)}:{inner.lineno} {inner.name}"


OPEN_S = 2.0  # Picamera2's start and one autofocus cycle
READ_S = 1.0  # a rendered frame on a Pi 4 (design.md: five times a desktop core)


def _slow_down_the_camera() -> None:
    """A camera as slow as a Pi's, by waiting (no CPU): what is left is the main thread
    waiting for the camera, not competing with it."""
    import ui.camera
    import ui.demo

    make_source, render = ui.camera.make_camera_source, ui.demo.DemoTable.render

    def slow_open(*args: object, **kwargs: object) -> object:
        time.sleep(OPEN_S)
        return make_source(*args, **kwargs)

    def slow_render(self: object) -> object:
        time.sleep(READ_S)
        return render(self)  # type: ignore[arg-type]

    ui.camera.make_camera_source = slow_open  # type: ignore[assignment]
    ui.demo.DemoTable.render = slow_render  # type: ignore[method-assign]


def ui_file() -> str:
    import ui

    return os.path.abspath(ui.__file__)


def report(probe: MainLoopProbe, marks: dict[str, float], frames_seen: list[float],
           stopped_in: float, threads: list[str]) -> None:
    """Print the main loop's gaps by phase, and where the threads were while it was held."""
    by_phase: dict[str, list[float]] = collections.defaultdict(list)
    for gap, phase in probe.gaps:
        by_phase[phase].append(gap)
    print(f"first screen drawn at {marks['ready']:.2f} s; first camera frame shown at "
          f"{frames_seen[0] if frames_seen else float('nan'):.2f} s; frames shown: "
          f"{len(frames_seen)}")
    for phase, gaps in by_phase.items():
        gaps.sort()
        holds = sum(1 for g in gaps if g > HOLD_S)
        print(f"{phase:26s} iterations {len(gaps):5d}  longest gap {gaps[-1] * 1000:6.0f} ms  "
              f"p99 {gaps[int(len(gaps) * 0.99)] * 1000:5.0f} ms  gaps > {HOLD_S * 1000:.0f} ms: "
              f"{holds}")
    all_gaps = sorted(g for g, _p in probe.gaps)
    print(f"longest main-loop gap overall: {all_gaps[-1] * 1000:.0f} ms")
    print(f"app.stop() to the end of run(): {stopped_in * 1000:.0f} ms; "
          f"threads left alive: {threads or 'none'}")
    if probe.held_at:
        print(f"where the main thread was while held (samples of {SAMPLE_S * 1000:.0f} ms):")
        for where, count in probe.held_at.most_common(8):
            print(f"  {count:4d}  {where}")
    if probe.worker_at:
        print("where the camera and job threads were at those moments:")
        for where, count in probe.worker_at.most_common(8):
            print(f"  {count:4d}  {where}")


def demo_app_in(home: str) -> CompanionApp:
    """The demo app at 800x480 with its Kivy home and journal in ``home``."""
    os.environ.update(KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_HOME=home,
                      GPIOZERO_PIN_FACTORY="mock")
    from ui.main import configure_kivy

    configure_kivy(size="800x480", demo=True)
    from ui.app import CompanionApp

    print(f"measuring the app in {os.path.dirname(os.path.dirname(ui_file()))}")
    if os.environ.get("BENCH_PI_LIKE_CAMERA"):
        _slow_down_the_camera()
    return CompanionApp(db_path=os.path.join(home, "journal.sqlite3"), demo=True)


def child() -> int:
    home = tempfile.mkdtemp(prefix="bench-hold-")
    app = demo_app_in(home)
    from kivy.clock import Clock
    from kivy.core.window import Window

    probe = MainLoopProbe()
    frames_seen: list[float] = []
    started = time.monotonic()

    def on_texture(*_a: object) -> None:
        frames_seen.append(time.monotonic() - started)

    def first_flip(*_a: object) -> None:
        Window.unbind(on_flip=first_flip)
        marks["ready"] = time.monotonic() - started
        probe.phase = "home"
        Clock.schedule_once(new_game, 3.0)

    def new_game(_dt: float) -> None:
        probe.phase = "indigo: frames, placements"
        app.new_game("indigo", ["Ana", "Ben", "Cleo"], {})
        Clock.schedule_once(place, 0.5)
        Clock.schedule_once(place, 2.5)
        Clock.schedule_once(restart, 4.5)

    def place(_dt: float) -> None:
        screen = app.screen("indigo")
        placement = app.table.play_random(screen.state())
        screen.propose(placement.cell, placement.tile.kind, placement.tile.rotation)
        screen.confirm()

    def restart(_dt: float) -> None:
        probe.phase = "camera restart"
        app.restart_camera()
        Clock.schedule_once(finish, 2.5)

    def finish(_dt: float) -> None:
        probe.phase = "stop"
        marks["stop"] = time.monotonic()
        app.stop()

    marks: dict[str, float] = {}
    Window.bind(on_flip=first_flip)
    app.bind(camera_texture=on_texture)
    probe.start()  # from before the first screen: start-up holds count too
    app.run()
    stopped_in = time.monotonic() - marks["stop"]
    probe.stop()
    shutil.rmtree(home, ignore_errors=True)
    threads = [t.name for t in threading.enumerate() if t is not threading.main_thread()
               and t.name != "probe" and t.is_alive()]
    report(probe, marks, frames_seen, stopped_in, threads)
    return 0


def main() -> int:
    if os.environ.get("BENCH_HOLD_CHILD"):
        return child()
    # the tree this bench lives in, ahead of the venv's editable install (to compare trees)
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, BENCH_HOLD_CHILD="1",
               PYTHONPATH=os.pathsep.join([repo, os.environ.get("PYTHONPATH", "")]))
    command = [sys.executable, os.path.abspath(__file__)]
    if "--pi-like-camera" in sys.argv:
        env["BENCH_PI_LIKE_CAMERA"] = "1"
    if "--one-core" in sys.argv:  # app, worker and X server share one core: a loaded machine
        command = ["taskset", "-c", "0", *command]
    if not os.environ.get("DISPLAY"):
        command = ["xvfb-run", "-a", "-s", "-screen 0 1280x1280x24", *command]
    return subprocess.call(command, env=env)


if __name__ == "__main__":
    sys.exit(main())
