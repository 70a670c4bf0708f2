"""Silent wrong reads per reader and per camera condition, through the app's own read paths.

    .venv/bin/python bench/silent_reads.py [--games code,indigo,enigma,sheet] [--frames N]
                                           [--first SEED] [--picture-stats]

Each frame is drawn by the game's renderer, then passed through one camera condition of
``vision.synth.conditions`` (or none), and read the way the app reads it. Every outcome is one
of: refused (the frame was not read, with a reason), asked (the app would ask the players
before applying anything), right (applied, and equal to the truth) or **silent wrong**
(applied without a question, and not the truth: the worst failure there is). The aim is 0
silent wrong reads in every row.

Seeds start at ``--first`` (default 70000, a range kept apart from every reader's tuning).
``--picture-stats`` also prints, per condition, the picture measures of ``vision.picture`` on
the board region of the frames (least/median/most), to set and check its limits.

Where a reader gives confidences, a reliability table follows each game: the pieces it read
(tiles, cells, gems, racks) by confidence bucket, and the share of them that is wrong. The
line ``at or above`` is what the app applies without a question: its wrong share is the
figure to keep at 0.01% or below. With no wrong piece among N, the bound printed is the
95% upper bound 3/N (the rule of three): what N pieces can show at most.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from silent_cases import Case, Piece  # noqa: E402

from vision.synth.conditions import CONDITIONS, apply_condition  # noqa: E402

#: (condition, strength); None is the camera as the renderer draws it
CONDITION_ROWS: tuple[tuple[str | None, float], ...] = (
    (None, 0.0),
    *((name, strength) for name in CONDITIONS for strength in (0.3, 0.9)),
)


@dataclass
class Tally:
    refused: int = 0
    asked: int = 0
    right: int = 0
    silent_wrong: int = 0
    reasons: Counter[str] | None = None

    def add(self, outcome: str, reason: str = "") -> None:
        setattr(self, outcome, getattr(self, outcome) + 1)
        if outcome == "refused":
            self.reasons = self.reasons or Counter()
            self.reasons[reason] += 1


#: each reader's cases are in bench/silent_cases/<game>.py: ``cases(first, frames)``
GAMES = ("code", "indigo", "enigma", "sheet", "independent_code", "independent_sheet",
         "independent_enigma", "independent_indigo", "puzzle")


def game_cases(game: str) -> Callable[[int, int], Iterator[Case]]:
    module = importlib.import_module(f"silent_cases.{game}")
    cases: Callable[[int, int], Iterator[Case]] = module.cases
    return cases



#: the confidence buckets of the reliability table (lower edges; the last bucket holds 1.0)
BUCKETS = (0.0, 0.5, 0.7, 0.8, 0.85, 0.9, 0.95, 0.99)


def app_threshold(game: str) -> float:
    """The confidence at or above which the app applies a read of ``game`` without asking."""
    from config import Config

    cfg = Config()
    if "code" in game:
        return cfg.vision.code.accept
    if "sheet" in game:  # a square read less sure than this is doubtful, and asked
        return cfg.vision.sheet.doubtful_below
    return cfg.vision.min_confidence


def reliability_table(game: str, pieces: list[Piece]) -> list[str]:
    """Lines of the reliability table: per confidence bucket, pieces and wrong share."""
    lines = [f"{game} reliability (confidence bucket: pieces, wrong, wrong share)"]
    edges = (*BUCKETS, 1.0 + 1e-9)
    for low, high in zip(edges, edges[1:], strict=False):
        inside = [right for confidence, right in pieces if low <= confidence < high]
        if inside:
            wrong = inside.count(False)
            lines.append(f"  {low:.2f}..{min(high, 1.0):.2f}: {len(inside):>6}  {wrong:>5}  "
                         f"{100 * wrong / len(inside):7.3f}%")
    threshold = app_threshold(game)
    applied = [right for confidence, right in pieces if confidence >= threshold]
    wrong = applied.count(False)
    if applied:
        bound = f"{100 * wrong / len(applied):.4f}%" if wrong else \
            f"0 (95% bound {100 * 3 / len(applied):.4f}%)"
        lines.append(f"  at or above {threshold:.2f}: {len(applied)} pieces, {wrong} wrong, "
                     f"wrong share {bound}")
    return lines


def row_name(condition: str | None) -> str:
    return condition or ""


def _picture_row(measures: list[Any]) -> str:
    from vision.picture import PictureMeasures

    parts = []
    for f in fields(PictureMeasures):
        values = [getattr(m, f.name) for m in measures]
        parts.append(f"{f.name} {min(values):.3g}/{statistics.median(values):.3g}/"
                     f"{max(values):.3g}")
    return "  ".join(parts)


def run_game(game: str, first: int, frames: int, picture_stats: bool) -> int:
    from vision.picture import measure_picture, region_mask

    tallies: dict[tuple[str, str], Tally] = {}
    measures: dict[str, list[Any]] = {}
    pieces: list[Piece] = []
    for case in game_cases(game)(first, frames):
        for condition, strength in CONDITION_ROWS:
            rng = np.random.default_rng([case.seed, int(strength * 10), len(row_name(condition))])
            image = case.frame if condition is None else \
                apply_condition(case.frame, condition, strength, rng)
            row = "camera as drawn" if condition is None else f"{condition} {strength}"
            outcome, reason, *read = case.judge(image)
            pieces.extend(read[0] if read else [])
            tallies.setdefault((case.label, row), Tally()).add(outcome, reason)
            if picture_stats:
                outline = case.board(image)
                if outline is not None:
                    mask = region_mask(image.shape, outline)
                    measures.setdefault(row, []).append(measure_picture(image, mask))
    silent = 0
    for (label, row), t in sorted(tallies.items()):
        silent += t.silent_wrong
        reasons = ", ".join(f"{r} {n}" for r, n in (t.reasons or Counter()).most_common(3))
        print(f"{label:<14} {row:<20} refused {t.refused:>3}  asked {t.asked:>3}  "
              f"right {t.right:>3}  SILENT WRONG {t.silent_wrong:>3}  {reasons}")
    for row, values in measures.items():
        print(f"  picture {row:<20} {_picture_row(values)}")
    if pieces:
        print("\n".join(reliability_table(game, pieces)))
    print(f"{game}: silent wrong reads {silent}")
    return silent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--frames", type=int, default=20, help="frames per game")
    parser.add_argument("--first", type=int, default=70000, help="first seed")
    parser.add_argument("--picture-stats", action="store_true")
    args = parser.parse_args()
    total = 0
    for game in args.games.split(","):
        total += run_game(game, args.first, args.frames, args.picture_stats)
    print(f"silent wrong reads, all readers: {total}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
