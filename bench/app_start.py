"""Cold start of the app to its first interactive screen, and RSS after an Indigo demo turn.

Runs the real app (``CompanionApp.run``) in demo mode with a fresh journal, under Xvfb when
there is no display, from the moment its process is created (the interpreter's own start
included) to the first picture on screen. Prints, for each way of running:

- wall time (the aim: 2 s), which on a shared machine is mostly waiting for a core;
- the main thread's CPU time, which is not: the figure to compare between two commits;
- the whole process's CPU time (the camera thread starts rendering at once).

``--pyc without`` runs as this machine does (PYTHONDONTWRITEBYTECODE=1: the project's own
modules are compiled from source at every start); ``--pyc with`` first runs the app once to
write every module's .pyc into a scratch cache (PYTHONPYCACHEPREFIX), as an installed app has
them, then measures; ``both`` (the default) does the two.

    .venv/bin/python bench/app_start.py [--pyc with|without|both] [--runs N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from app_process import is_child, prepare_child, rss_mb

#: what a child prints: wall, main-thread CPU, process CPU (seconds), RSS (MB), events
RESULT_TAG = "APP_START_RESULT"


def since_process_start() -> float:
    """Seconds since this process was created (by the kernel's clock, as the shell sees it)."""
    with open("/proc/self/stat", encoding="ascii") as stat:
        fields = stat.read().rpartition(")")[2].split()
    started_ticks = int(fields[19])  # field 22 of proc(5), counted after the command name
    with open("/proc/uptime", encoding="ascii") as uptime:
        now = float(uptime.read().split()[0])
    return now - started_ticks / os.sysconf("SC_CLK_TCK")


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
            marks["ready"] = since_process_start()
            marks["main cpu"] = time.thread_time()
            marks["cpu"] = time.process_time()
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
    print(RESULT_TAG, marks["ready"], marks["main cpu"], marks["cpu"], marks["rss"],
          marks["events"])
    return 0 if marks.get("events") == 1 else 1


def run_once(env: dict[str, str]) -> list[float]:
    command = [sys.executable, os.path.abspath(__file__)]
    out = subprocess.run(_under_display(command), env=env, capture_output=True, text=True,
                         check=False).stdout
    for line in out.splitlines():
        if line.startswith(RESULT_TAG):
            return [float(x) for x in line.split()[1:]]
    raise SystemExit(f"the app did not start:\n{out}")


def _under_display(command: list[str]) -> list[str]:
    if os.environ.get("DISPLAY"):
        return command
    return ["xvfb-run", "-a", "-s", "-screen 0 1280x1280x24", *command]


def measure(mode: str, runs: int) -> list[list[float]]:
    env = dict(os.environ, BENCH_APP_CHILD="1")
    cache = None
    if mode == "with":
        cache = tempfile.mkdtemp(prefix="bench-pyc-")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = cache
        run_once(env)  # writes every imported module's .pyc into the scratch cache
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    try:
        return [run_once(env) for _ in range(runs)]
    finally:
        if cache:
            shutil.rmtree(cache, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pyc", choices=("with", "without", "both"), default="both")
    parser.add_argument("--runs", type=int, default=1, help="runs per mode (medians printed)")
    args = parser.parse_args()
    if is_child():
        return child()
    modes = ("without", "with") if args.pyc == "both" else (args.pyc,)
    rss = []
    for mode in modes:
        results = measure(mode, args.runs)
        wall, main_cpu, cpu = (statistics.median(r[i] for r in results) for i in range(3))
        rss += [r[3] for r in results]
        print(f"cold start to the first interactive screen, {mode} .pyc: {wall:.2f} s wall "
              f"(aim <= 2 s), main thread CPU {main_cpu:.2f} s, process CPU {cpu:.2f} s"
              f" (median of {len(results)})")
    print(f"RSS after an Indigo demo turn: {statistics.median(rss):.0f} MB (aim <= 300 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
