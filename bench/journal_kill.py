"""Kill -9 a journal writer at random moments, many times; nothing acknowledged may be lost.

A writer process appends events to one game as fast as it can and prints the sequence number
of each event once :meth:`Journal.append` has returned (that is the acknowledgement the app
relies on before it shows the next state). The parent SIGKILLs it at a seeded random moment -
sometimes while it is still starting up and opening the database, mostly in the middle of
writing - then starts the next writer on the same file. At the end it reopens the journal and
checks that every acknowledged event is there, unchanged and in order, with no gaps, and that
``PRAGMA integrity_check`` says ``ok``.

    .venv/bin/python bench/journal_kill.py [--kills 100] [--seed 1] [--db FILE]

``tests/companion/test_journal_kill.py`` runs the same check (25 kills) in the suite.
"""

from __future__ import annotations

import argparse
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from companion.journal import Journal


@dataclass(frozen=True)
class KillReport:
    """What one kill run found."""

    kills: int
    #: writers that had acknowledged at least one event when they were killed
    killed_while_writing: int
    #: events acknowledged to the parent, over all writers
    acknowledged: int
    #: events in the journal at the end (acknowledged ones plus any committed but not yet
    #: acknowledged when the kill came)
    stored: int
    #: acknowledged events missing or changed
    losses: int
    integrity: str
    seconds: float

    def line(self) -> str:
        return (
            f"journal kill test: {self.acknowledged} events acknowledged, {self.stored} stored, "
            f"{self.kills} kills ({self.killed_while_writing} mid-write), "
            f"losses={self.losses}, integrity_check={self.integrity}, {self.seconds:.1f} s"
        )


def count_losses(
    acknowledged: dict[int, dict[str, object]], stored: list[dict[str, object]]
) -> int:
    """Acknowledged events (by 1-based sequence number) missing from, or changed in, ``stored``."""
    return sum(
        1 for seq, event in acknowledged.items()
        if seq > len(stored) or stored[seq - 1] != event
    )


def writer(db: Path, game_id: int, run: int) -> None:
    """The child: append events forever, acknowledging each on stdout."""
    with Journal(db) as journal:
        n = 0
        while True:
            seq = journal.append(game_id, {"type": "tick", "run": run, "n": n})
            sys.stdout.write(f"{seq} {n}\n")
            sys.stdout.flush()
            n += 1


#: the most acknowledgements a writer is let make before its kill may land
MOST_WAITED = 10


def run_kill_test(
    db: Path, *, kills: int = 25, seed: int = 1, max_delay_s: float = 0.1
) -> KillReport:
    """Kill ``kills`` writers of ``db`` at random moments and check the survivors."""
    rng = random.Random(seed)
    started = time.perf_counter()
    with Journal(db) as journal:
        game_id = journal.new_game("indigo", ["Ana", "Ben"], {})
    acknowledged: dict[int, dict[str, object]] = {}
    mid_write = 0
    for run in range(kills):
        proc = subprocess.Popen(
            [sys.executable, __file__, "--writer", str(db), str(game_id), str(run)],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        first = ""
        if rng.random() < 0.3:
            # kill while the writer starts, opens the database or recovers the WAL
            time.sleep(rng.uniform(0.0, 0.12))
        else:
            # wait for a few acknowledgements, so how many events a run writes before its kill
            # is the seed's, not the machine's load's, then kill at a random moment
            first = "".join(proc.stdout.readline() for _ in range(rng.randint(1, MOST_WAITED)))
            time.sleep(rng.uniform(0.0, max_delay_s))
        proc.send_signal(signal.SIGKILL)
        rest, _ = proc.communicate()
        lines = (first + rest).split("\n")
        # the last piece has no newline: a line cut short by the kill is not an acknowledgement
        complete = [line for line in lines[:-1] if line]
        if complete:
            mid_write += 1
        for line in complete:
            seq, n = (int(x) for x in line.split())
            acknowledged[seq] = {"type": "tick", "run": run, "n": n}
        if proc.returncode != -signal.SIGKILL:
            raise RuntimeError(f"writer {run} ended by itself with status {proc.returncode}")
    with Journal(db) as journal:
        stored = journal.events(game_id)
    losses = count_losses(acknowledged, stored)
    connection = sqlite3.connect(db)
    try:
        integrity = "; ".join(row[0] for row in connection.execute("PRAGMA integrity_check"))
    finally:
        connection.close()
    return KillReport(
        kills=kills,
        killed_while_writing=mid_write,
        acknowledged=len(acknowledged),
        stored=len(stored),
        losses=losses,
        integrity=integrity,
        seconds=time.perf_counter() - started,
    )


def append_latency(db: Path, *, events: int = 200) -> tuple[float, float]:
    """Median and worst time of one acknowledged append (a commit with fsync), in ms."""
    times = []
    with Journal(db) as journal:
        game_id = journal.new_game("indigo", ["Ana", "Ben"], {})
        for n in range(events):
            start = time.perf_counter()
            journal.append(game_id, {"type": "tick", "n": n})
            times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return times[len(times) // 2], times[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--writer", nargs=3, metavar=("DB", "GAME_ID", "RUN"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", type=Path, help="journal file (default: a temporary one)")
    args = parser.parse_args()
    if args.writer:
        db, game_id, run = args.writer
        writer(Path(db), int(game_id), int(run))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        report = run_kill_test(args.db or Path(tmp) / "journal.sqlite3", kills=args.kills,
                               seed=args.seed)
        median, worst = append_latency(Path(tmp) / "latency.sqlite3")
    print(report.line())
    print(f"journal append (commit + fsync): median {median:.2f} ms, worst {worst:.2f} ms "
          f"over 200 appends")
    return 0 if report.losses == 0 and report.integrity == "ok" else 1


if __name__ == "__main__":
    sys.exit(main())
