"""Cold start of the app to its first interactive screen, and RSS after an Indigo demo turn.

Runs the real app (``CompanionApp.run``) in demo mode with a fresh journal, under Xvfb when
there is no display. Prints two numbers; the aims are <= 3 s and <= 300 MB.

    .venv/bin/python bench/app_start.py
"""

from __future__ import annotations

import os
import shutil
import sys
import time

from app_process import is_child, prepare_child, rss_mb, run_in_child

T0 = time.monotonic()


def child() -> int:
    home = prepare_child()
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
    return child() if is_child() else run_in_child(__file__, [])


if __name__ == "__main__":
    sys.exit(main())
