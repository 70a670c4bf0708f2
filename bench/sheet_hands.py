"""Benchmark the Second Chance sheet reader on sheets filled by other hands (issue 22).

Run: ``.venv/bin/python bench/sheet_hands.py [--sheets N] [--first SEED] [--styles ...]
[--conditions ...] [--independent N] [--cache DIR] [--failures]``.

Each sheet is a player's sheet at the end of a seeded game (2-3 players), drawn by
:mod:`vision.second_chance.synth.hands` in one style (tools and fills) and photographed or
scanned by :mod:`vision.second_chance.synth.photo` under one condition (``scan``, ``mild``,
``harsh``). ``--independent N`` adds N sheets of the second, independently written generator
(``bench/independent_scenes``), photographed by its own camera.

Figures per style and condition (a "question" is anything the app shows the players before it
applies a read: a question or a doubtful square):

- cell error: squares read wrong, of all squares;
- silent cells: squares read wrong that no question or doubt mentions (aim 0);
- silent splits: sheets with a tile read wrong whose squares nothing mentions (aim 0);
- segmented: sheets whose every tile is read right;
- asked: sheets with any question;
- bonus: the 1 found / sheets with a 1; invented: a 1 read where none was written (silent:
  with no question on its square);
- median read time, wall clock and the process's CPU time (on a shared machine the wall clock
  counts other processes' turns too).

Seed ranges: 0-69999 are for tuning; 70000 and up are held apart (looked at only for the
report), and the ``marks`` style (a dot or an X per square) is never tuned on at all.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from one_core import on_one_core

from companion.record import Record, parse_record
from companion.second_chance.drawn import TileChoices, may_have_the_one, tile_choices
from companion.second_chance.shapes import Shape, canonical_text
from companion.second_chance.simulate import simulate_game
from vision.errors import FrameRefusedError
from vision.second_chance.reader import read_sheet
from vision.second_chance.synth.hands import HAND_STYLES, render_hand_sheet
from vision.second_chance.synth.photo import CONDITIONS
from vision.second_chance.synth.sheet import SheetContent, content_from_record

Cell = tuple[int, int]
INDEPENDENT = "indep"


def record_for(seed: int) -> Record:
    players = ["Ana", "Ben", "Cleo"][: 2 + seed % 2]
    return parse_record(simulate_game(players, rng=random.Random(seed)))


def content_for(seed: int) -> SheetContent:
    return content_from_record(record_for(seed), "Ana")


def choices_for(seed: int) -> tuple[TileChoices, bool]:
    """The cards Ana drew, and whether she may have written the 1, as the app knows them
    from the game's events."""
    events = record_for(seed).events
    return tile_choices(events, "Ana"), may_have_the_one(events, "Ana")


def cards_of(tiles: list[set[Cell]], bonus: Cell | None) -> tuple[TileChoices, bool]:
    """What the app would know of a sheet drawn without a game record (the independent
    generator's): each tile's card, one a round, and a 1 possible where one was written (a
    player out first writes one)."""
    return (tuple(frozenset({canonical_text(Shape.from_cells(t))}) for t in tiles),
            bonus is not None)


def _cached(cache: Path | None, name: str, make: Any) -> np.ndarray:
    path = cache / f"{name}.png" if cache is not None else None
    if path is not None and path.exists():
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is not None:
            return image
    image = make()
    if path is not None:
        cv2.imwrite(str(path), image)
    return image


def hand_case(seed: int, style: str, condition: str, cache: Path | None
              ) -> tuple[np.ndarray, list[set[Cell]], Cell | None]:
    content = content_for(seed)
    frame = _cached(cache, f"hand-{style}-{condition}-{seed}",
                    lambda: render_hand_sheet(content, style=style, condition=condition,
                                              seed=seed))
    return frame, [set(t) for t in content.tiles], content.bonus


def independent_case(seed: int, cache: Path | None
                     ) -> tuple[np.ndarray, list[set[Cell]], Cell | None]:
    sys.path.insert(0, str(Path(__file__).parent))
    from independent_scenes.sheet import sheet_scene

    truth_path = cache / f"indep-{seed}.json" if cache is not None else None
    scene: dict[str, Any] = {}

    def make() -> np.ndarray:
        scene["v"] = sheet_scene(seed)
        return scene["v"][0]

    frame = _cached(cache, f"indep-{seed}", make)
    if "v" not in scene and truth_path is not None and truth_path.exists():
        # the scene's truth kept beside its frame: drawing the scene again for it took most
        # of a cached run (11-40 min for 40 sheets here)
        truth = json.loads(truth_path.read_text())
        filled = {tuple(c) for c in truth["filled"]}
        tiles = [[tuple(c) for c in t] for t in truth["tiles"]]
    else:
        _, filled, tiles = scene["v"] if "v" in scene else sheet_scene(seed)
        if truth_path is not None:
            truth_path.write_text(json.dumps({"filled": sorted(map(list, filled)),
                                              "tiles": [sorted(map(list, t)) for t in tiles]}))
    bonus = sorted(filled - {c for t in tiles for c in t})
    return frame, [set(map(tuple, t)) for t in tiles], (tuple(bonus[0]) if bonus else None)


def judge(frame: np.ndarray, tiles: list[set[Cell]], bonus: Cell | None,
          cards: tuple[TileChoices, bool] | None = None) -> dict[str, float]:
    started = time.perf_counter()
    cpu_started = time.process_time()
    try:
        reading = (read_sheet(frame) if cards is None
                   else read_sheet(frame, choices=cards[0], one_possible=cards[1]))
    except FrameRefusedError:
        return {"sheets": 1, "refused": 1}
    seconds = time.perf_counter() - started
    cpu_seconds = time.process_time() - cpu_started
    filled = {c for t in tiles for c in t} | ({bonus} if bonus else set())
    asked = {tuple(c) for q in reading.questions for c in q["cells"]} | set(reading.doubtful)
    read_filled = set(reading.filled)
    wrong = filled ^ read_filled
    true_shapes = {tuple(sorted(t)) for t in tiles}
    wrong_tiles = [s for s in set(reading.shapes) - true_shapes]
    any_question = bool(reading.questions or reading.doubtful)
    invented = reading.bonus is not None and reading.bonus != bonus
    return {
        "sheets": 1, "cells": 81, "wrong": len(wrong), "silent": len(wrong - asked),
        "silent_split": int(any(not asked & set(s) for s in wrong_tiles)),
        "segmented": int(set(reading.shapes) == true_shapes),
        "asked": int(any_question),
        "bonus": int(bonus is not None),
        "bonus_found": int(bonus is not None and reading.bonus == bonus),
        "invented": int(invented),
        "invented_silent": int(invented and reading.bonus not in asked),
        "ms": seconds * 1000, "cpu_ms": cpu_seconds * 1000,
    }


def line(label: str, rows: list[dict[str, float]]) -> str:
    t: dict[str, float] = defaultdict(float)
    for row in rows:
        for key, value in row.items():
            if key not in ("ms", "cpu_ms"):
                t[key] += value
    times = [row["ms"] for row in rows if "ms" in row]
    cpu = [row["cpu_ms"] for row in rows if "cpu_ms" in row]
    n = t["sheets"] or 1
    ms = statistics.median(times) if times else float("nan")
    cpu_ms = statistics.median(cpu) if cpu else float("nan")
    return (f"{label:18s} n={int(t['sheets']):3d} refused {int(t['refused']):2d} "
            f"cell err {t['wrong'] / (t['cells'] or 1):6.2%} silent cells {int(t['silent']):3d} "
            f"silent splits {int(t['silent_split']):2d} segmented {t['segmented'] / n:5.0%} "
            f"asked {t['asked'] / n:5.0%} bonus {int(t['bonus_found'])}/{int(t['bonus'])} "
            f"invented {int(t['invented'])} (silent {int(t['invented_silent'])}) "
            f"median {ms:5.1f} ms (cpu {cpu_ms:5.1f} ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sheets", type=int, default=10, help="sheets per style and condition")
    parser.add_argument("--first", type=int, default=0, help="first seed (70000+: held apart)")
    parser.add_argument("--styles", nargs="*", default=list(HAND_STYLES))
    parser.add_argument("--conditions", nargs="*", default=list(CONDITIONS))
    parser.add_argument("--independent", type=int, default=0,
                        help="sheets of the independent generator too")
    parser.add_argument("--cache", type=Path, help="keep rendered frames here (PNG)")
    parser.add_argument("--failures", action="store_true", help="list the sheets read wrong")
    parser.add_argument("--without-cards", action="store_true",
                        help="read without the cards the player drew (the app passes them)")
    args = parser.parse_args()
    on_one_core()
    if args.cache is not None:
        args.cache.mkdir(parents=True, exist_ok=True)
    seeds = range(args.first, args.first + args.sheets)
    groups: dict[str, list[dict[str, float]]] = {}
    cases = [(s, c) for c in args.conditions for s in args.styles]
    if args.independent:
        cases.append((INDEPENDENT, "photo"))
    for style, condition in cases:
        rows = []
        count = args.independent if style == INDEPENDENT else args.sheets
        for seed in range(args.first, args.first + count):
            frame, tiles, bonus = (independent_case(seed, args.cache) if style == INDEPENDENT
                                   else hand_case(seed, style, condition, args.cache))
            cards = (None if args.without_cards
                     else cards_of(tiles, bonus) if style == INDEPENDENT else choices_for(seed))
            row = judge(frame, tiles, bonus, cards)
            rows.append(row)
            if args.failures and (row.get("silent") or row.get("silent_split")
                                  or row.get("invented_silent")):
                print(f"  SILENT: {style} {condition} seed {seed}: {row}")
        groups[f"{style}/{condition}"] = rows
        print(line(f"{style}/{condition}", rows), flush=True)
    print(f"seeds {seeds.start}..{seeds.stop - 1}")
    for condition in (*args.conditions, "photo"):
        rows = [r for key, rs in groups.items() if key.endswith("/" + condition) for r in rs]
        if rows:
            print(line(f"ALL/{condition}", rows))


if __name__ == "__main__":
    main()
