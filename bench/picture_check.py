"""Time of the picture check (vision.picture) on a camera frame's board region. Prints figures.

    .venv/bin/python bench/picture_check.py [--frames N] [--size WxH]

Frames are seeded renders of the Indigo table (default camera effects) at the camera's default
size; the region is the middle 80% of the frame, about the board's size there. It prints the
median and 90th percentile of ``measure_picture`` + ``check_picture`` and, in the same run, of
the whole Indigo read (which includes the check), so the check's share of a read is a ratio
measured on one machine at one time. Times are CPU of the process with OpenCV on one thread
(on a shared machine the wall clock counts the waits for a core).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from one_core import on_one_core

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.indigo.pack import load_indigo_pack  # noqa: E402
from vision.indigo.reader import read_indigo  # noqa: E402
from vision.indigo.records import random_state  # noqa: E402
from vision.indigo.synth.render import render_frame  # noqa: E402
from vision.picture import check_picture, measure_picture, region_mask  # noqa: E402


def _percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    return (f"median {statistics.median(ordered):.1f} ms, "
            f"p90 {ordered[int(0.9 * (len(ordered) - 1))]:.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--size", default="2304x1296")
    args = parser.parse_args()
    on_one_core()
    width, height = (int(v) for v in args.size.lower().split("x"))
    pack = load_indigo_pack()
    checks: list[float] = []
    reads: list[float] = []
    for seed in range(args.frames):
        state = random_state(random.Random(seed), placements=20)
        frame = render_frame(state, pack, seed=seed, frame_size=(width, height)).image
        outline = [(0.1 * width, 0.1 * height), (0.9 * width, 0.1 * height),
                   (0.9 * width, 0.9 * height), (0.1 * width, 0.9 * height)]
        start = time.process_time()
        check_picture(measure_picture(frame, region_mask(frame.shape, outline)),
                      needs_colour=True)
        checks.append((time.process_time() - start) * 1000)
        start = time.process_time()
        read_indigo(frame, pack)
        reads.append((time.process_time() - start) * 1000)
    print(f"{args.frames} frames {width}x{height}, CPU ms on one core")
    print(f"  picture check  {_percentiles(checks)}")
    print(f"  whole read     {_percentiles(reads)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
