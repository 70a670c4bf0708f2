"""Enigma reader on tiles outside the demo catalogue: seeded legal games played with random
tiles of every kind records.md allows (:mod:`vision.enigma.synth.any_tiles`), drawn by the
project's renderer, read back whole.

    python bench/enigma_any_tile.py [--tables N] [--first SEED] [--pack demo|ink|both]

Prints per pack and camera condition (``clean``: the scene as drawn, only fitted into the
frame; ``harsh``: every camera effect): tiles read exactly, tables whose networkers are all
read exactly, tiles read wrong without a question about them (must be 0), and the share of
tiles asked about. Tune on seeds below 70000; the held-apart range starts at 70000 (and the
``ink`` pack is kept apart from tuning too).
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from dataclasses import dataclass, field

from vision.enigma.pack import EnigmaPack, load_enigma_pack
from vision.enigma.reader import read_enigma
from vision.enigma.synth.any_tiles import random_catalogue
from vision.enigma.synth.art import draw_pack
from vision.enigma.synth.render import TableView, render_frame
from vision.enigma.synth.scenes import categories_of, random_record
from vision.enigma.synth.truth import score_read
from vision.errors import FrameRefusedError
from vision.synth.effects import ALL_EFFECTS

CONDITIONS: dict[str, tuple[str, ...]] = {"clean": (), "harsh": ALL_EFFECTS}
HELD_APART = 70000
#: tiles placed per table (besides the start tile)
TILES = 20
_WHERE = re.compile(r"^(?:tile|square) \[(-?\d+), (-?\d+)\]")


@dataclass
class Tally:
    tables: int = 0
    refused: int = 0
    tiles: int = 0
    exact: int = 0
    asked: int = 0
    silent_wrong: int = 0
    nets_tables_exact: int = 0
    questions: Counter[str] = field(default_factory=Counter)
    wrong: list[str] = field(default_factory=list)

    def line(self) -> str:
        n = max(1, self.tiles)
        return (f"tables {self.tables} (refused {self.refused}), tiles {self.tiles}: exact "
                f"{self.exact / n:.1%}; networkers exact on {self.nets_tables_exact}/"
                f"{self.tables - self.refused} tables; wrong without a question "
                f"{self.silent_wrong}; asked about {self.asked / n:.1%} of tiles")


def _asked_squares(questions: list[str]) -> set[tuple[int, int]]:
    out = set()
    for q in questions:
        m = _WHERE.match(q)
        if m:
            out.add((int(m.group(1)), int(m.group(2))))
    return out


def read_table(seed: int, pack: EnigmaPack, effects: tuple[str, ...], tally: Tally,
               frame_size: tuple[int, int]) -> None:
    """One seeded table of random tiles, drawn, read and scored into ``tally``."""
    catalogue = random_catalogue(seed, pack)
    record, state = random_record(seed, tiles=TILES, catalogue=catalogue)
    view = TableView.of_state(state, pack, categories=categories_of(record, catalogue))
    frame = render_frame(view, pack, seed=seed, effects=effects, frame_size=frame_size)
    tally.tables += 1
    try:
        read = read_enigma(frame.image, pack)
    except FrameRefusedError:
        tally.refused += 1
        return
    score = score_read(frame.truth, frame.cell_xy, read, min_confidence=0.0)
    asked = _asked_squares(read.questions)
    truth_at = {(t["at"][0], t["at"][1]) for t in frame.truth["tiles"]}
    wrong_at = {(int(m.group(1)), int(m.group(2))) for w in score.wrong
                if (m := re.match(r"tile \[(-?\d+), (-?\d+)\]", w))}
    tally.tiles += len(truth_at)
    tally.exact += score.tiles_exact
    tally.asked += len(asked & truth_at)
    silent = {at for at in wrong_at if at not in asked}
    tally.silent_wrong += len(silent)
    tally.nets_tables_exact += (score.networkers_exact == score.networkers
                                and score.extra_networkers == 0)
    for q in read.questions:
        tally.questions[re.sub(r"\[.*?\]|[A-Z][0-9]|\d\.\d+|cell [a-c]", "_", q)] += 1
    tally.wrong += [f"seed {seed}: {w}" + (" (SILENT)" if any(
        w.startswith(f"tile [{a}, {b}]") for a, b in silent) else "") for w in score.wrong]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=8, help="tables per pack and condition")
    parser.add_argument("--first", type=int, default=0,
                        help=f"first seed (the held-apart range starts at {HELD_APART})")
    parser.add_argument("--pack", choices=("demo", "ink", "both"), default="demo")
    parser.add_argument("--conditions", default="clean,harsh")
    parser.add_argument("--frame", default="1920x1080", help="camera frame size")
    parser.add_argument("--show", action="store_true",
                        help="print every tile read wrong and the questions asked")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.frame.split("x"))
    for name in ("demo", "ink"):
        if args.pack not in (name, "both"):
            continue
        pack = load_enigma_pack() if name == "demo" else draw_pack("ink")
        for condition in args.conditions.split(","):
            tally = Tally()
            for seed in range(args.first, args.first + args.tables):
                read_table(seed, pack, CONDITIONS[condition], tally, (width, height))
            print(f"[{name} {condition}] seeds {args.first}..{args.first + args.tables - 1}: "
                  f"{tally.line()}", flush=True)
            if args.show:
                for line in tally.wrong:
                    print(f"    {line}")
                for q, k in tally.questions.most_common(12):
                    print(f"    {k:4d} x {q}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
