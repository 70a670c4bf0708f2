"""Compare two builds of the Second Chance sheet reader reading by reading, and their speed.

Run: ``.venv/bin/python bench/sheet_compare.py --base DIR [--mine DIR] [--python EXE]
--cache DIR [--sheets N] [--first SEED] [--styles ...] [--conditions ...] [--independent N]
[--without-cards]``.

``DIR`` are two source trees of the project (``--base``: a clean copy of the base commit,
``--mine``: this tree by default). Each runs in a worker process of its own (``--python``,
the same for both: the desktop venv or the Pi's floor), which reads the frames through the
app's path (:func:`ui.reading.read_sheet_frame`, with the cards the player drew unless
``--without-cards``). The frames are the ones ``bench/sheet_hands.py`` draws, taken from its
``--cache`` (drawn there when missing). Both workers read the same frames in the same order
(the marker search remembers where it last found the markers), one frame at a time, the two
builds taking turns (which goes first alternates), so that both see the same load.

Printed: every reading that differs (its cells, doubts, questions, problems, the sheet's tiles
and the 1; ``--confidences`` also each square's confidence), the count of readings equal, and
the speed line: the median read's CPU time of each build (``time.process_time`` in the
worker, one thread) and the median of the per-frame ratio mine / base.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from one_core import on_one_core

from vision.second_chance.synth.hands import HAND_STYLES, HELD_APART_STYLE
from vision.second_chance.synth.photo import CONDITIONS

HERE = Path(__file__).resolve().parent


def worker() -> None:
    """Read frames named on stdin (one JSON line each), answer one JSON line each."""
    import time

    import cv2

    import vision.second_chance.reader as reader
    from ui.reading import read_sheet_frame

    seen: dict[str, Any] = {}
    read_sheet = reader.read_sheet

    def keeping(*args: Any, **kwargs: Any) -> Any:
        seen["reading"] = read_sheet(*args, **kwargs)
        return seen["reading"]

    # the app's path calls the reader by its module's name: the sheet's tiles kept as well
    reader.read_sheet = keeping
    for line in sys.stdin:
        job = json.loads(line)
        frame = cv2.imread(job["path"], cv2.IMREAD_COLOR)
        choices = (None if job["choices"] is None
                   else tuple(frozenset(c) for c in job["choices"]))
        started = time.process_time()
        try:
            result = read_sheet_frame(frame, set(), choices=choices,
                                      one_possible=job["one_possible"])
        except Exception as exc:  # noqa: BLE001 - a refusal (or a crash) is a reading too
            answer: dict[str, Any] = {"refused": f"{type(exc).__name__}: {exc}"}
        else:
            reading = seen["reading"]
            answer = {
                "new_cells": result.new_cells, "doubtful": result.doubtful,
                "questions": [q.__dict__ if hasattr(q, "__dict__") else q
                              for q in result.questions],
                "problems": [p.__dict__ for p in result.problems],
                "grid": reading.grid_rows, "shapes": reading.shapes, "bonus": reading.bonus,
                "confidence": reading.confidence,
                "cell_confidence": sorted((f"{k}", v) for k, v in
                                          result.cell_confidence.items()),
            }
        answer["cpu"] = time.process_time() - started
        print(json.dumps(answer, default=str), flush=True)


class Worker:
    """A reader build in a process of its own."""

    def __init__(self, tree: Path, python: str) -> None:
        env = dict(os.environ, PYTHONPATH=f"{tree}:{tree / 'bench'}")
        self.process = subprocess.Popen(
            [python, str(HERE / "sheet_compare.py"), "--worker"], cwd=tree, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def read(self, job: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(job) + "\n")
        self.process.stdin.flush()
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def jobs(args: argparse.Namespace) -> list[tuple[str, dict[str, Any]]]:
    """(label, job) for every frame of the comparison, drawn into the cache when missing."""
    from sheet_hands import cards_of, choices_for, hand_case, independent_case

    out: list[tuple[str, dict[str, Any]]] = []
    cases = [(s, c) for c in args.conditions for s in args.styles]
    for style, condition in cases:
        for seed in range(args.first, args.first + args.sheets):
            hand_case(seed, style, condition, args.cache)
            choices, one = choices_for(seed)
            out.append((f"{style}/{condition} {seed}", {
                "path": str(args.cache / f"hand-{style}-{condition}-{seed}.png"),
                "choices": None if args.without_cards else [sorted(c) for c in choices],
                "one_possible": True if args.without_cards else one}))
    for seed in range(args.first, args.first + args.independent):
        _, tiles, bonus = independent_case(seed, args.cache)
        choices, one = cards_of(tiles, bonus)
        out.append((f"indep/photo {seed}", {
            "path": str(args.cache / f"indep-{seed}.png"),
            "choices": None if args.without_cards else [sorted(c) for c in choices],
            "one_possible": True if args.without_cards else one}))
    return out


def differences(base: dict[str, Any], mine: dict[str, Any], confidences: bool) -> list[str]:
    """The parts of two readings of a frame that differ (by name)."""
    keys = (base.keys() | mine.keys()) - {"cpu"} - (set() if confidences
                                                    else {"cell_confidence", "confidence"})
    return sorted(k for k in keys if base.get(k) != mine.get(k))


def main() -> None:
    if "--worker" in sys.argv:
        worker()
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="the base build's tree")
    parser.add_argument("--mine", type=Path, default=HERE.parent, help="this build's tree")
    parser.add_argument("--python", default=sys.executable, help="the workers' python")
    parser.add_argument("--cache", type=Path, required=True, help="the frames (PNG)")
    parser.add_argument("--sheets", type=int, default=10)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--styles", nargs="*",
                        default=[s for s in HAND_STYLES if s != HELD_APART_STYLE])
    parser.add_argument("--conditions", nargs="*", default=list(CONDITIONS))
    parser.add_argument("--independent", type=int, default=0)
    parser.add_argument("--without-cards", action="store_true")
    parser.add_argument("--confidences", action="store_true",
                        help="each square's confidence must be equal too")
    parser.add_argument("--quiet", action="store_true",
                        help="no line per differing reading (held-apart frames)")
    args = parser.parse_args()
    on_one_core()
    args.cache.mkdir(parents=True, exist_ok=True)
    todo = jobs(args)
    base, mine = Worker(args.base, args.python), Worker(args.mine, args.python)
    times: dict[str, list[float]] = {"base": [], "mine": []}
    equal = 0
    try:
        for n, (label, job) in enumerate(todo):
            if n % 2 == 0:
                a, b = base.read(job), mine.read(job)
            else:
                b, a = mine.read(job), base.read(job)
            if n > 0:  # the first read of each worker loads and caches what reads share
                times["base"].append(a["cpu"])
                times["mine"].append(b["cpu"])
            differ = differences(a, b, args.confidences)
            equal += not differ
            if differ and not args.quiet:
                print(f"DIFFERS {label}: {', '.join(differ)}", flush=True)
    finally:
        base.close()
        mine.close()
    print(f"readings equal: {equal} of {len(todo)}"
          f"{' (confidences too)' if args.confidences else ''}")
    if not times["base"]:
        return
    ratio = statistics.median(m / b for b, m in zip(times["base"], times["mine"], strict=True))
    print(f"median read CPU: base {statistics.median(times['base']) * 1000:.1f} ms, mine "
          f"{statistics.median(times['mine']) * 1000:.1f} ms; median ratio mine/base "
          f"{ratio:.2f} ({len(todo) - 1} frames timed, {Path(args.python).parent.parent.name})")


if __name__ == "__main__":
    main()
