"""Cold start of the app to its first interactive screen, and RSS after an Indigo demo turn.

Runs the real app (``CompanionApp.run``) in demo mode with a fresh journal, under Xvfb when
there is no display. Prints two numbers; the aims are <= 3 s and <= 300 MB.

    .venv/bin/python bench/app_start.py
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time

T0 = time.monotonic()


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def child() -> int:
    home = tempfile.mkdtemp(prefix="bench-app-")
    os.environ.update(KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_HOME=home,
                      GPIOZERO_PIN_FACTORY="mock")
    from ui.main import configure_kivy

    configure_kivy(size="800x480", demo=True)
    from kivy.clock import Clock
    from kivy.core.window import Window

    from ui.app import CompanionApp

    app = CompanionApp(db_path=os.path.join(home, "journal.sqlite3"), demo=True)
    marks: dict[str, float] = {}

    def first_flip(*_a: object) -> None:
        if "ready" not in marks:
            marks["ready"] = time.monotonic() - T0
            Clock.schedule_once(play, 0)

    def play(_dt: float) -> None:
        app.new_game("indigo", ["Ana", "Ben", "Cleo"], {})
        screen = app.screen("indigo")
        placement = app.table.play_random(screen.state())
        screen.propose(placement.cell, placement.tile.kind, placement.tile.rotation)
        screen.confirm()
        Clock.schedule_once(finish, 1.5)  # let the animation and a few camera frames run

    def finish(_dt: float) -> None:
        marks["events"] = len(app.session.events)
        marks["rss"] = rss_mb()
        app.stop()

    Window.bind(on_flip=first_flip)
    app.run()
    shutil.rmtree(home, ignore_errors=True)
    print(f"cold start to the first interactive screen: {marks['ready']:.2f} s (aim <= 3 s)")
    print(f"RSS after an Indigo demo turn ({marks['events']} event): {marks['rss']:.0f} MB "
          f"(aim <= 300 MB)")
    return 0 if marks.get("events") == 1 else 1


def main() -> int:
    if os.environ.get("BENCH_APP_CHILD"):
        return child()
    env = dict(os.environ, BENCH_APP_CHILD="1")
    command = [sys.executable, os.path.abspath(__file__)]
    if not os.environ.get("DISPLAY"):
        command = ["xvfb-run", "-a", "-s", "-screen 0 1280x1280x24", *command]
    return subprocess.call(command, env=env)


if __name__ == "__main__":
    sys.exit(main())
