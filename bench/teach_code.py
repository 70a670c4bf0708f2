"""Benchmark of ``teach code`` on tile looks no reader was designed on. Prints figures only.

    .venv/bin/python bench/teach_code.py [--racks N] [--teach N] [--first SEED] [--held-apart]

For each look of :data:`vision.break_the_code.synth.art.TEACH_STYLES` (and, with
``--held-apart``, the look held apart, which nothing was tuned on), drawn as at a table
(tiles laid by hand up to 3 mm off their slots and turned up to 6 degrees, thick tiles showing
their side, the renderer's camera effects):

- teach: how many of ``--teach`` photos of all 20 tiles (moderate camera: the default effects)
  gave a pack, and the first sentence of a refusal;
- racks of 4 and 5 tiles read through the app's own path (``ui.reading.read_code_frame``) with
  the pack taught from the first photo that gave one, at moderate conditions (default effects)
  and harsh ones (every effect): stored right (aim >= 98%), **stored wrong** (must be 0),
  asked, refused;
- the same frames read with the demo pack: stored wrong (must be 0) and stored right.

Seeds start at ``--first`` (default 70000, the range kept apart from tuning).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.break_the_code.tiles import ALL_TILES, Code  # noqa: E402
from ui.reading import read_code_frame  # noqa: E402
from vision.break_the_code.pack import CodePack, demo_pack  # noqa: E402
from vision.break_the_code.synth.art import HELD_APART_STYLE, STYLES, TEACH_STYLES  # noqa: E402
from vision.break_the_code.synth.render import render_frame  # noqa: E402
from vision.break_the_code.teach import teach_pack  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.synth.effects import ALL_EFFECTS, DEFAULT_EFFECTS  # noqa: E402

#: as a hand lays tiles at a table (issue 27)
JITTER_MM = 3.0
MAX_TURN_DEG = 6.0
CONDITIONS = (("moderate", DEFAULT_EFFECTS), ("harsh", ALL_EFFECTS))


def teach(style: str, photos: int, first: int) -> tuple[CodePack | None, int, str]:
    """The pack of the first teach photo that gave one, how many gave one, a refusal."""
    pack, taught, refusal = None, 0, ""
    for i in range(photos):
        frame, _ = render_frame(list(ALL_TILES), seed=first + i, look=STYLES[style],
                                jitter_mm=JITTER_MM, max_turn_deg=MAX_TURN_DEG)
        try:
            got = teach_pack(frame.image, name=f"{style}-taught")
        except VisionError as exc:
            refusal = refusal or str(exc)
            continue
        taught += 1
        pack = pack or got
    return pack, taught, refusal


def outcome(image: object, code: Code, pack: CodePack) -> str:
    reading = read_code_frame(image, expected=len(code), pack=pack)
    if reading.code is None:
        return "refused" if reading.problem == "refused" else "asked"
    return "right" if reading.code == code else "WRONG"


def racks(style: str, pack: CodePack, effects: tuple[str, ...], count: int, first: int
          ) -> tuple[Counter[str], Counter[str]]:
    """Outcomes of ``count`` racks with the taught pack, and with the demo pack."""
    taught: Counter[str] = Counter()
    demo: Counter[str] = Counter()
    for i in range(count):
        seed = first + i
        rng = random.Random(seed)
        tiles = list(ALL_TILES)
        rng.shuffle(tiles)
        code = Code.of(tiles[:rng.choice((4, 5))])
        frame, _ = render_frame(list(code.tiles), seed=seed, look=STYLES[style],
                                effects=effects, jitter_mm=JITTER_MM,
                                max_turn_deg=MAX_TURN_DEG)
        taught[outcome(frame.image, code, pack)] += 1
        demo[outcome(frame.image, code, demo_pack())] += 1
    return taught, demo


def report(style: str, label: str, args: argparse.Namespace) -> None:
    pack, taught, refusal = teach(style, args.teach, args.first)
    print(f"{label:<22} teach {taught}/{args.teach}" + (f"  ({refusal})" if refusal else ""))
    if pack is None:
        return
    for name, effects in CONDITIONS:
        ours, demo = racks(style, pack, effects, args.racks, args.first + 1000)
        n = sum(ours.values())
        print(f"  {name:<9} taught: stored right {ours['right']}/{n} = "
              f"{100 * ours['right'] / n:.1f}%  STORED WRONG {ours['WRONG']}  "
              f"asked {ours['asked']}  refused {ours['refused']}   "
              f"demo pack: STORED WRONG {demo['WRONG']}  stored right {demo['right']}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--racks", type=int, default=50, help="racks per style and condition")
    parser.add_argument("--teach", type=int, default=5, help="teach photos per style")
    parser.add_argument("--first", type=int, default=70000, help="first seed")
    parser.add_argument("--held-apart", action="store_true",
                        help=f"also the look held apart ({HELD_APART_STYLE})")
    parser.add_argument("--styles", default=",".join(TEACH_STYLES))
    args = parser.parse_args()
    print(f"tiles up to {JITTER_MM:g} mm off their slots, turned up to {MAX_TURN_DEG:g} deg; "
          f"seeds from {args.first}; {args.racks} racks per style and condition")
    for style in args.styles.split(","):
        report(style, style, args)
    if args.held_apart:
        report(HELD_APART_STYLE, f"{HELD_APART_STYLE} (held apart)", args)


if __name__ == "__main__":
    main()
