"""The marker search's own CPU time (``vision.markers.locate``) on seeded frames of every reader.

    python bench/markers_speed.py [--frames 4] [--repeats 3] [--first 0]

Frames (2304x1296, seeds ``--first`` on): Indigo tables with every camera effect, Enigma
tables of 45 tiles, Second Chance sheets (the sheet bench's frames, 1280x960) and Enigma puzzle
mats on wood, cloth and slate at the strongest conditions. Each frame is searched with its
reader's layout and checks, ``--repeats`` times; printed per reader: median and p95 CPU ms
(one core: OpenCV single-threaded, ``time.process_time``) of a first search (where markers
were found before is forgotten) and the median of the searches again (the camera still: the
markers are searched first where they were found), the frames whose four markers were found
and, with ``--against FILE`` (corners written by ``--save FILE`` from another version of the
search, same arguments; the corners of the last search of each frame), the largest corner
difference and the frames fitted by only one.
Seeds 70000+ are held apart.

    python bench/markers_speed.py --save /tmp/before.json   # (on the older code)
    python bench/markers_speed.py --against /tmp/before.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
from one_core import on_one_core

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from config import Config  # noqa: E402
from vision.errors import FrameRefusedError  # noqa: E402
from vision.marker_places import forget_marker_places  # noqa: E402
from vision.markers import MarkerChecks, MarkerLayout, PlaneFit, locate  # noqa: E402

SIZE = (2304, 1296)
Case = tuple[np.ndarray, MarkerLayout, MarkerChecks]
Corners = dict[str, list[list[float]]]


def indigo_frames(seeds: range) -> Iterator[Case]:
    from vision.indigo.records import random_state
    from vision.indigo.settings import IndigoSettings
    from vision.indigo.synth.art import draw_pack
    from vision.indigo.synth.render import render_frame
    from vision.synth.effects import ALL_EFFECTS

    settings = IndigoSettings.from_config(Config())
    pack = draw_pack("demo")
    for seed in seeds:
        rng = random.Random(seed)
        state = random_state(rng, placements=rng.randint(0, 54))
        frame = render_frame(state, pack, settings=settings, seed=seed, effects=ALL_EFFECTS,
                             frame_size=SIZE).image
        yield frame, settings.geometry.layout, settings.checks


def enigma_frames(seeds: range) -> Iterator[Case]:
    from vision.enigma.geometry import table_geometry
    from vision.enigma.pack import load_enigma_pack
    from vision.enigma.settings import DEFAULT_SETTINGS
    from vision.enigma.synth.render import TableView, render_frame
    from vision.enigma.synth.scenes import categories_of, random_record

    pack = load_enigma_pack()
    layout = table_geometry(DEFAULT_SETTINGS.table, pack).layout
    for seed in seeds:
        record, state = random_record(seed, tiles=45, bounds=(8, 7))
        view = TableView.of_state(state, pack, categories=categories_of(record))
        yield render_frame(view, pack, seed=seed, frame_size=SIZE).image, layout, \
            DEFAULT_SETTINGS.checks


def sheet_frames(seeds: range) -> Iterator[Case]:
    from sheet_reader import sheet_case, sheet_frame

    from vision.second_chance.geometry import SHEET_MARKER_CHECKS
    from vision.second_chance.layout import DEFAULT_LAYOUT

    layout = DEFAULT_LAYOUT.marker_layout()
    for seed in seeds:
        if sheet_case(seed)[2]:  # a sheet printed with its markers
            yield sheet_frame(seed)[0], layout, SHEET_MARKER_CHECKS


def mat_frames(seeds: range) -> Iterator[Case]:
    from companion.enigma.puzzles import load_puzzles
    from vision.enigma.mat import MAT_MIN_AREA, mat_layout
    from vision.enigma.pack import load_enigma_pack
    from vision.enigma.settings import DEFAULT_MAT
    from vision.enigma.synth.puzzle_table import SURFACES, TableCondition, render_table_frame

    box, pack = load_puzzles(), load_enigma_pack()
    cards = list(box.weight.cards.values())
    for seed in seeds:
        condition = TableCondition(SURFACES[seed % len(SURFACES)], "strong")
        frame = render_table_frame("weight", cards[seed % len(cards)], pack,
                                   condition=condition, seed=seed)
        yield frame, mat_layout(DEFAULT_MAT), MarkerChecks(min_area_fraction=MAT_MIN_AREA)


READERS: dict[str, Callable[[range], Iterator[Case]]] = {
    "indigo": indigo_frames, "enigma": enigma_frames, "sheet": sheet_frames, "mat": mat_frames,
}


def _search(case: Case) -> PlaneFit | None:
    frame, layout, checks = case
    try:
        return locate(frame, layout, checks=checks)
    except FrameRefusedError:
        return None


def time_reader(cases: list[Case],
                repeats: int) -> tuple[list[float], list[float], list[Corners | None]]:
    """CPU ms of every first search and of every search again, and each frame's corners
    (None: refused)."""
    first: list[float] = []
    again: list[float] = []
    corners: list[Corners | None] = []
    for case in cases:
        fit = None
        forget_marker_places()
        for n in range(repeats):
            c0 = time.process_time()
            fit = _search(case)
            (again if n else first).append((time.process_time() - c0) * 1000)
        corners.append(None if fit is None else {
            str(i): fit.detections[i].corners.astype(np.float64).tolist() for i in fit.layout.ids})
    return first, again, corners


def compare(found: list[Corners | None], other: list[Corners | None]) -> str:
    """The largest corner difference (px) and the frames fitted by one version only."""
    worst = 0.0
    one_only = 0
    for mine, theirs in zip(found, other, strict=True):
        if mine is None or theirs is None:
            one_only += (mine is None) != (theirs is None)
            continue
        for marker_id, quad in mine.items():
            worst = max(worst, float(np.abs(np.subtract(quad, theirs[marker_id])).max()))
    return f"corners within {worst:.4f} px of the saved ones, fitted by one only {one_only}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--frames", type=int, default=4, help="frames per reader")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--first", type=int, default=0, help="first seed (70000+: held apart)")
    parser.add_argument("--readers", default=",".join(READERS))
    parser.add_argument("--save", type=Path, help="write the corners found here (JSON)")
    parser.add_argument("--against", type=Path, help="compare with corners saved by --save")
    args = parser.parse_args(argv)
    on_one_core()
    saved = json.loads(args.against.read_text()) if args.against else {}
    corners: dict[str, list[Corners | None]] = {}
    for name in args.readers.split(","):
        seeds = range(args.first, args.first + args.frames)
        cases = list(READERS[name](seeds))
        times, again, corners[name] = time_reader(cases, args.repeats)
        p95 = sorted(times)[int(0.95 * (len(times) - 1))]
        still = f", again {statistics.median(again):.1f}" if again else ""
        fitted = sum(c is not None for c in corners[name])
        same = f"; {compare(corners[name], saved[name])}" if name in saved else ""
        print(f"{name:7s} {len(cases)} frames x {args.repeats}: marker search median "
              f"{statistics.median(times):.1f} ms CPU, p95 {p95:.1f}{still}; fitted {fitted}/"
              f"{len(cases)}{same}", flush=True)
    if args.save:
        args.save.write_text(json.dumps(corners))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
