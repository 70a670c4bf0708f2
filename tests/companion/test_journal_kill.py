"""The journal survives ``kill -9`` at any moment: no acknowledged event is ever lost.

The work is done by ``bench/journal_kill.py`` (which prints the same figure for more kills);
here it runs 25 seeded kills and writes its figure to ``artifacts/journal_kill.txt``.
"""

from __future__ import annotations

import importlib.util
import signal
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts"


def _bench_module() -> ModuleType:
    path = REPO / "bench" / "journal_kill.py"
    spec = importlib.util.spec_from_file_location("journal_kill", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["journal_kill"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")
def test_no_acknowledged_event_is_lost_to_kill_9(tmp_path: Path) -> None:
    bench = _bench_module()
    report = bench.run_kill_test(tmp_path / "journal.sqlite3", kills=25, seed=20261130)
    line = report.line()
    print(line)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "journal_kill.txt").write_text(line + "\n", encoding="utf-8")
    assert report.kills == 25
    # the kills must really land while events are being written, not only at start-up
    assert report.killed_while_writing >= 10, line
    # the seed has the writers wait for 102 acknowledgements in all before their kills
    assert report.acknowledged > 100, line
    assert report.stored >= report.acknowledged, line
    assert report.losses == 0, line
    assert report.integrity == "ok", line


def test_the_checker_counts_missing_and_changed_events() -> None:
    count_losses = _bench_module().count_losses
    a, b, c = ({"type": "tick", "n": n} for n in range(3))
    assert count_losses({1: a, 2: b}, [a, b, c]) == 0
    assert count_losses({1: a, 2: b, 3: c}, [a, b]) == 1  # the last one is missing
    assert count_losses({1: a, 2: b}, [a, c]) == 1  # the second one changed
