"""Regenerate the shipped Indigo demo pack (``vision/packs/indigo-demo``).

Run from the repository root::

    python -m vision.indigo.synth.demo_pack            # the demo pack
    python -m vision.indigo.synth.demo_pack --style ink --out /tmp/ink   # the test style

The drawings are the project's own (``vision/indigo/synth/art.py``), not the publisher's art.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from vision.indigo.pack import DEMO_INDIGO
from vision.indigo.synth.art import STYLES, draw_pack


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--style", default="demo", choices=sorted(STYLES))
    parser.add_argument("--out", type=Path, default=DEMO_INDIGO)
    parser.add_argument("--size", type=int, default=128, help="image side in pixels")
    args = parser.parse_args(argv)
    pack = draw_pack(args.style, size=args.size)
    if args.style == "demo":
        pack = pack.__class__(**{**pack.__dict__, "name": "indigo-demo"})
    pack.save(args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
