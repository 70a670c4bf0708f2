"""Our puzzle frames through the app's own check, and the figures they come to.

Each frame goes through the command line's ``companion check puzzle KIND IMAGE --card ID``
(``ui.cli.main``, in this process, its printed JSON captured), the same path a player's frame
takes, with the demo card's data entered. A right build should be "solved"; a wrong build must
never be. "cannot tell" is counted by sentence (numbers in it made ``#`` so one cause counts
once). The time is the CPU time of the whole command (reading the image included).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

NUMBER = re.compile(r"\d+(?:\.\d+)?")


@dataclass
class Verdict:
    kind: str
    condition: str
    seed: int
    card_id: str
    right: bool
    verdict: str
    reason: str
    cpu_ms: float
    mistake: str = ""
    surface: str = ""


def check_frame(frame: np.ndarray, kind: str, card_id: str) -> tuple[str, str, float]:
    """(verdict, reason, CPU ms) of ``companion check puzzle`` on ``frame``."""
    from ui.cli import main

    with tempfile.TemporaryDirectory(prefix="puzzle-frame-") as folder:
        path = Path(folder) / "frame.png"
        cv2.imwrite(str(path), frame)
        out = io.StringIO()
        cpu = time.process_time()
        with contextlib.redirect_stdout(out):
            code = main(["check", "puzzle", kind, str(path), "--card", card_id])
        cpu_ms = 1000 * (time.process_time() - cpu)
    if code != 0:
        return "refused", f"exit {code}: {out.getvalue().strip()}", cpu_ms
    answer = json.loads(out.getvalue())
    return str(answer["verdict"]), str(answer.get("reason", "")), cpu_ms


@dataclass
class Tally:
    """The figures of one kind in one condition."""

    right: int = 0
    right_solved: int = 0
    wrong: int = 0
    wrong_solved: int = 0
    cannot_tell_right: int = 0
    cannot_tell_wrong: int = 0
    not_solved_right: int = 0
    sentences: Counter = field(default_factory=Counter)
    cpu: list[float] = field(default_factory=list)
    false_solved: list[str] = field(default_factory=list)

    def add(self, v: Verdict) -> None:
        self.cpu.append(v.cpu_ms)
        if v.verdict in ("cannot tell", "refused"):
            self.sentences[NUMBER.sub("#", f"{v.verdict}: {v.reason}")] += 1
        if v.right:
            self.right += 1
            self.right_solved += v.verdict == "solved"
            self.cannot_tell_right += v.verdict in ("cannot tell", "refused")
            self.not_solved_right += v.verdict == "not solved"
        else:
            self.wrong += 1
            self.wrong_solved += v.verdict == "solved"
            self.cannot_tell_wrong += v.verdict in ("cannot tell", "refused")
            if v.verdict == "solved":
                self.false_solved.append(f"seed {v.seed} {v.card_id} ({v.mistake}; "
                                         f"{v.surface})")


def summary(tallies: dict[tuple[str, str], Tally]) -> list[str]:
    lines = []
    for (kind, condition), t in tallies.items():
        cpu = sorted(t.cpu) or [0.0]
        lines.append(
            f"{kind} {condition}: right solutions solved {t.right_solved}/{t.right} "
            f"({100 * t.right_solved / max(t.right, 1):.0f}%), not solved {t.not_solved_right}, "
            f"cannot tell {t.cannot_tell_right}; WRONG solutions solved {t.wrong_solved}/"
            f"{t.wrong}, cannot tell {t.cannot_tell_wrong}; median check "
            f"{cpu[len(cpu) // 2]:.0f} ms CPU (most {cpu[-1]:.0f})")
        for sentence, n in t.sentences.most_common():
            lines.append(f"    {n} x {sentence}")
        for case in t.false_solved:
            lines.append(f"    WRONG CALLED SOLVED: {case}")
    return lines
