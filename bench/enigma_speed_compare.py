"""Enigma reader speed, base tree against this one, interleaved at the same load.

    python bench/enigma_speed_compare.py --base /tmp/base [--rounds 3] [--python PY]

``--base``: a tree of the commit compared against (``git archive BASE | tar -x -C DIR``).
Each round times the base tree, then this one, each in a fresh process on one core
(``time.process_time``: the machine may be shared): the whole 45-tile tables of
``enigma_reader``'s speed figures read alone, and the read after a placement (the last tile
new: it and the known tiles beside it), cold. Printed: each tree's median CPU ms per read
over every round, and this tree's share of the base's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
#: the tables timed: the seeds and frame of bench/enigma_reader.py's speed figures
TABLES = (5000, 5001, 5002)
FRAME = (2304, 1296)
REPEATS = 2


def child() -> None:
    """Time this process's tree (its ``PYTHONPATH``) and print the times as JSON."""
    from one_core import on_one_core

    from vision.enigma.pack import load_enigma_pack
    from vision.enigma.reader import read_enigma
    from vision.enigma.synth.render import TableView, render_frame
    from vision.enigma.synth.scenes import categories_of, random_record

    on_one_core()
    pack = load_enigma_pack()
    tables = []
    for seed in TABLES:
        record, after = random_record(seed, tiles=45, bounds=(8, 7))
        _, before = random_record(seed, tiles=44, bounds=(8, 7))
        view = TableView.of_state(after, pack, categories=categories_of(record))
        tables.append((render_frame(view, pack, seed=seed, frame_size=FRAME).image,
                       set(before.board.tiles)))
    read_enigma(tables[0][0], pack)  # caches filled, as in the app after its first read
    times: dict[str, list[float]] = {"whole": [], "new": []}
    for _ in range(REPEATS):
        for frame, placed in tables:
            for way, kw in (("whole", {}), ("new", {"placed": placed})):
                c0 = time.process_time()
                read_enigma(frame, pack, **kw)
                times[way].append((time.process_time() - c0) * 1000)
    print(json.dumps(times))


def run_tree(python: str, tree: Path) -> dict[str, list[float]]:
    env = dict(os.environ, PYTHONPATH=f"{tree}:{tree / 'bench'}")
    out = subprocess.run([python, str(Path(__file__).resolve()), "--child"], env=env,
                         cwd=tree, capture_output=True, text=True, check=True)
    times: dict[str, list[float]] = json.loads(out.stdout.strip().splitlines()[-1])
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--base", type=Path, help="the base commit's tree")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child()
        return 0
    if args.base is None:
        parser.error("--base is required")
    got: dict[str, dict[str, list[float]]] = {"base": {}, "mine": {}}
    for _ in range(args.rounds):
        for name, tree in (("base", args.base), ("mine", HERE)):
            for way, ms in run_tree(args.python, tree).items():
                got[name].setdefault(way, []).extend(ms)
    median = {name: {way: statistics.median(ms) for way, ms in t.items()}
              for name, t in got.items()}
    for way, label in (("whole", "whole table of 45 tiles"),
                       ("new", "new tile with its neighbours, cold")):
        b, m = median["base"][way], median["mine"][way]
        print(f"[speed {Path(args.python).parent.parent.name}] {label}: base {b:.0f} ms, "
              f"mine {m:.0f} ms ({m / b:.0%} of base); median CPU ms at "
              f"{FRAME[0]}x{FRAME[1]}, tables {TABLES}, {args.rounds} rounds x {REPEATS}")
    print(f"[load] {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
