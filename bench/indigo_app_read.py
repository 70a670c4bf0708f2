"""The app's Indigo read (ui.reading.read_indigo_frame's reader call) with the pack it takes:
loaded again for every read, as before session 26, or the pack loaded once
(vision.indigo.pack_cache). Prints the median CPU time of each, in one run, on the same
demo frames (OpenCV on one thread).

    .venv/bin/python bench/indigo_app_read.py [--frames N] [--repeats R]
"""

from __future__ import annotations

import argparse
import statistics
import time

import cv2

from companion.indigo.state import new_game
from vision.indigo.pack import load_indigo_pack
from vision.indigo.pack_cache import cached_indigo_pack
from vision.indigo.reader import read_indigo
from vision.indigo.settings import DEFAULT_SETTINGS
from vision.indigo.synth.render import render_frame


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    pack = load_indigo_pack(None)
    frames = [render_frame(new_game(2), pack, settings=DEFAULT_SETTINGS, seed=seed).image
              for seed in range(args.frames)]
    ways = {"pack loaded for every read": lambda: load_indigo_pack(None),
            "pack loaded once": lambda: cached_indigo_pack(None)}
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(args.repeats):
        for frame in frames:
            for name, pack_now in ways.items():  # the two ways alternate, frame by frame
                started = time.process_time()
                read_indigo(frame, pack_now(), settings=DEFAULT_SETTINGS)
                times[name].append(time.process_time() - started)
    for name, seconds in times.items():
        print(f"{name}: median read {1000 * statistics.median(seconds):.1f} ms CPU "
              f"({len(seconds)} reads)")


if __name__ == "__main__":
    main()
