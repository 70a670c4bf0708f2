"""Benchmark of the Break the Code tile reader on rendered frames. Prints figures only.

    .venv/bin/python bench/code_reader.py [--frames N] [--effects default|all] [--size WxH]

For each look (the demo pack on demo tiles; a pack taught from one rendered photo of the
"ivory" tiles on ivory tiles) it reads N random racks of 4 or 5 tiles and N/10 full mats of 20
tiles, and prints: tiles read right (aim >= 99.9%), codes read right, readings that were
confident (>= the accept threshold) and wrong (the worst failure), readings below the threshold
(asked: the app stores nothing), refused frames, and the median read time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from one_core import on_one_core

from companion.break_the_code.tiles import ALL_TILES, Code
from vision.break_the_code.pack import CodePack, demo_pack
from vision.break_the_code.reader import read_tiles
from vision.break_the_code.settings import DEFAULT_SETTINGS
from vision.break_the_code.synth.art import STYLES, Style
from vision.break_the_code.synth.render import render_frame
from vision.break_the_code.teach import teach_pack
from vision.errors import FrameRefusedError
from vision.synth.effects import parse_effects


def run(label: str, look: Style, pack: CodePack, frames: int, effects: list[str],
        size: tuple[int, int]) -> None:
    rng = random.Random(label)
    tiles_ok = tiles_all = codes_ok = codes_all = confident_wrong = refused = asked = 0
    times: list[float] = []
    jobs: list[list] = []  # type: ignore[type-arg]
    for _ in range(frames):
        tiles = list(ALL_TILES)
        rng.shuffle(tiles)
        jobs.append(list(Code.of(tiles[: rng.choice([4, 5])]).tiles))
    for _ in range(max(1, frames // 10)):
        tiles = list(ALL_TILES)
        rng.shuffle(tiles)
        jobs.append(tiles)
    for i, tiles in enumerate(jobs):
        frame, _ = render_frame(tiles, seed=10_000 + i, effects=effects, look=look,
                                frame_size=size)
        codes_all += 1
        tiles_all += len(tiles)
        start = time.perf_counter()
        try:
            reading = read_tiles(frame.image, pack)
        except FrameRefusedError:
            refused += 1
            continue
        finally:
            times.append((time.perf_counter() - start) * 1000)
        got = {t.slot: t.tile for t in reading.tiles}
        right = sum(1 for slot, tile in enumerate(tiles) if got.get(slot) == tile)
        tiles_ok += right
        exact = right == len(tiles) and len(got) == len(tiles)
        codes_ok += exact
        if reading.confidence < DEFAULT_SETTINGS.accept:
            asked += 1
        elif not exact:
            confident_wrong += 1
    print(f"{label:<28} tiles {tiles_ok}/{tiles_all} = {100 * tiles_ok / tiles_all:.2f}%  "
          f"codes {codes_ok}/{codes_all} = {100 * codes_ok / codes_all:.1f}%  "
          f"confident-wrong {confident_wrong}  asked {asked}  refused {refused}  "
          f"median read {statistics.median(times):.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=100)
    parser.add_argument("--effects", default="default")
    parser.add_argument("--size", default="1280x960", help="camera frame WxH")
    args = parser.parse_args()
    on_one_core()
    effects = parse_effects(args.effects)
    width, height = (int(v) for v in args.size.lower().split("x"))
    print(f"effects: {', '.join(effects) or 'none'}; {args.frames} racks + "
          f"{max(1, args.frames // 10)} full mats per look; frames {width}x{height}")
    run("demo pack, demo tiles", STYLES["demo"], demo_pack(), args.frames, effects,
        (width, height))
    teach_frame, _ = render_frame(list(ALL_TILES), seed=9, look=STYLES["ivory"])
    taught = teach_pack(teach_frame.image, name="ivory-taught")
    run("taught pack, ivory tiles", STYLES["ivory"], taught, args.frames, effects,
        (width, height))


if __name__ == "__main__":
    main()
