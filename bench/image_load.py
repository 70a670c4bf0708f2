"""Time and peak memory of loading a huge photo through ``vision.image_io.read_image``.

An 8000x8000 phone photo must load in at most 3 s and 400 MB (issue 24): a Pi 4 has 2 GB
and the app reads while the UI runs. Each image is loaded in a fresh process, so that the
peak resident size (``ru_maxrss``) is that load's own; the process's size after its imports
is printed too, and the difference is what loading cost.

    .venv/bin/python bench/image_load.py [--side 8000] [--formats jpg png]

Not a test: timings depend on the machine (a Pi 4 is about five times slower than a desktop).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

_CHILD = """
import json, resource, sys, time
import cv2, numpy, PIL.Image
from vision.image_io import read_image
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
frame = read_image(sys.argv[1])
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "imports_mb": before / 1024, "peak_mb": peak / 1024,
                  "shape": list(frame.shape)}))
"""


def photo_like(side: int, seed: int = 24) -> np.ndarray:
    """A photo-sized frame that compresses like a photo: smooth shading plus sensor noise."""
    rng = np.random.default_rng(seed)
    small = rng.integers(0, 256, (side // 64, side // 64, 3), dtype=np.uint8)
    frame = cv2.resize(small, (side, side), interpolation=cv2.INTER_CUBIC)
    noise = rng.integers(-12, 13, (side, side, 1), dtype=np.int16)
    return np.clip(frame.astype(np.int16) + noise, 0, 255).astype(np.uint8)


def measure(path: Path) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", type=int, default=8000)
    parser.add_argument("--formats", nargs="+", default=["jpg", "png"])
    parser.add_argument("--write", metavar="FILE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.write:
        cv2.imwrite(args.write, photo_like(args.side))
        return
    # the photo is drawn in a process of its own: a child's peak size counts its parent's
    with tempfile.TemporaryDirectory() as folder:
        for fmt in args.formats:
            path = Path(folder) / f"photo.{fmt}"
            subprocess.run([sys.executable, __file__, "--side", str(args.side), "--write",
                            str(path)], check=True)
            size_mb = path.stat().st_size / 1e6
            r = measure(path)
            print(f"{args.side}x{args.side} {fmt} ({size_mb:.0f} MB file): "
                  f"{r['seconds']:.2f} s, peak {r['peak_mb']:.0f} MB "
                  f"({r['imports_mb']:.0f} MB after imports), read as {r['shape']}")


if __name__ == "__main__":
    main()
