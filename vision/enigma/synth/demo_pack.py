"""Regenerate the shipped Enigma demo pack (``vision/packs/enigma-demo``).

Run from the repository root::

    python -m vision.enigma.synth.demo_pack                          # the demo pack
    python -m vision.enigma.synth.demo_pack --style ink --out /tmp/ink   # the test style

The drawings are the project's own (``vision/enigma/synth/art.py``), not the publisher's art.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from vision.enigma.pack import DEMO_ENIGMA
from vision.enigma.synth.art import STYLES, draw_pack


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--style", default="demo", choices=sorted(STYLES))
    parser.add_argument("--out", type=Path, default=DEMO_ENIGMA)
    parser.add_argument("--size", type=int, default=128, help="image side in pixels")
    args = parser.parse_args(argv)
    name = "enigma-demo" if args.style == "demo" else None
    draw_pack(args.style, size=args.size, name=name).save(args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
