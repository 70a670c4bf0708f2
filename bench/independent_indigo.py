"""The Indigo reader on boards drawn by the independent scene generator (issues 19 and 20).

    PYTHONPATH=. .venv/bin/python bench/independent_indigo.py [--first 70000] [--boards 20]
        [--looks demo,scans] [--conditions mild,harsh] [--show-wrong]

The boards are drawn by ``bench/independent_scenes`` (written from the documentation alone, by
someone who has not read the reader or its renderer): random legal positions, the demo pack's
art or the publisher's scans (read with a pack made from the same scans), pieces at their real
heights, faceted gems in real gem colours, a camera turned and tilted, a lamp's glare, a hand's
shadow, warm light, noise and JPEG. Seeds 70000 and up are held apart from any tuning.

Per look and condition it prints: frames refused (and why), the cell error among frames read,
cells / gems / chips wrong without a question, gems read right, frames with a phantom gem,
centre stock counted exactly, frames with any question, frames read wrong with no question at
all, and the median read time in CPU ms (load noted beside it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections import Counter
from pathlib import Path

from one_core import on_one_core

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from independent_scenes.indigo_compare import Judgement, judge, min_confidence, read_frame  # noqa: E402
from independent_scenes.indigo_scene import indigo_scene  # noqa: E402

REASON_CHARS = 40


def run(first: int, boards: int, look: str, condition: str,
        show_wrong: bool) -> list[Judgement]:
    judgements = []
    for seed in range(first, first + boards):
        scene = indigo_scene(seed, look, condition)
        out, cpu_ms = read_frame(scene.frame, scene.look.pack)
        j = judge(scene.truth, out, cpu_ms, min_confidence(scene.look.pack))
        judgements.append(j)
        if show_wrong and (j.wrong_notes or j.refused):
            covered = f" (fingertip over {scene.truth.covered})" if scene.truth.covered else ""
            print(f"  {look} {condition} {seed}{covered}: "
                  f"{j.refused or '; '.join(j.wrong_notes)}", flush=True)
    return judgements


def summary(look: str, condition: str, js: list[Judgement]) -> str:
    read = [j for j in js if not j.refused]
    reasons = Counter(j.refused[:REASON_CHARS] for j in js if j.refused)
    cells = sum(j.cells_right + j.cells_wrong_asked + j.cells_wrong_silent for j in read)
    wrong_cells = sum(j.cells_wrong_asked + j.cells_wrong_silent for j in read)
    gems = sum(j.gems for j in read)

    def share(n: int, of: int) -> str:
        return f"{100 * n / of:.1f}%" if of else "-"

    cpu = statistics.median(j.cpu_ms for j in js) if js else 0.0
    floor = min_confidence()
    sure = [right for j in read for confidence, right in j.pieces if confidence >= floor]
    return "\n".join([
        f"{look} {condition}: {len(js)} boards, refused {len(js) - len(read)}"
        + (f" ({', '.join(f'{r}... {n}' for r, n in reasons.most_common())})" if reasons else ""),
        f"  cell error {share(wrong_cells, cells)} ({wrong_cells} of {cells}); wrong without a "
        f"question: cells {sum(j.cells_wrong_silent for j in read)}, gems "
        f"{sum(j.gems_wrong_silent for j in read)}, "
        f"chips {sum(j.chips_wrong_silent for j in read)}",
        f"  gems right {sum(j.gems_right for j in read)} of {gems}; phantom frames "
        f"{share(sum(j.phantoms > 0 for j in read), len(read))}; centre exact "
        f"{share(sum(j.centre_exact for j in read), len(read))} (asked in "
        f"{share(sum(j.centre_asked for j in read), len(read))})",
        f"  frames with a question {share(sum(j.any_question for j in read), len(read))}; "
        f"frames wrong with no question {sum(j.frame_silent_wrong for j in read)}; "
        f"read time median {cpu:.0f} ms CPU",
        f"  pieces read at or above {floor:.2f}: {len(sure)}, wrong {sure.count(False)} "
        f"({share(sure.count(False), len(sure))}); a gem missed is no piece read",
    ])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=70000)
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--looks", default="demo,scans")
    parser.add_argument("--conditions", default="mild,harsh")
    parser.add_argument("--show-wrong", action="store_true")
    args = parser.parse_args()
    on_one_core()
    lines = []
    for look in args.looks.split(","):
        for condition in args.conditions.split(","):
            js = run(args.first, args.boards, look, condition, args.show_wrong)
            lines.append(summary(look, condition, js))
            print(lines[-1], flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
