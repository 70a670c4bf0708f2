"""Regenerate the shipped Break the Code demo pack (``vision/packs/code-demo``).

Run from the repository root::

    python -m vision.break_the_code.synth.demo_pack           # the demo pack
    python -m vision.break_the_code.synth.demo_pack --style ivory --out /tmp/ivory   # test style

The drawings are the project's own (``vision/break_the_code/synth/art.py``), not the
publisher's art. The reader loads the files; a PNG keeps every pixel, so it reads exactly as
with the drawn pack.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from vision.art_pack import format_colour
from vision.break_the_code.pack import DEMO_CODE
from vision.break_the_code.synth.art import STYLES, pack_from_style


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--style", default="demo", choices=sorted(STYLES))
    parser.add_argument("--out", type=Path, default=DEMO_CODE)
    args = parser.parse_args(argv)
    pack = pack_from_style(STYLES[args.style])
    pack.save(args.out)  # git keeps no read modes: the checked-out pack is for everyone
    # The colours are listed in the drawing's order (b, w, g), not sorted as ``save`` lists
    # them: the loader keeps the manifest's order and the reader breaks an exact tie between
    # two colours by it, so the files load as the drawn pack in every respect.
    manifest = {**pack.manifest(),
                "colours": {k: format_colour(v) for k, v in pack.colours.items()}}
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n",
                                            encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
