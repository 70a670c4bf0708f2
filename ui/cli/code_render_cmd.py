"""``companion render code``: Break the Code tiles drawn on the code mat as a camera sees them.

Scene drawing for tests and demos: this module and the demo camera are the only parts of the
command line that reach ``synth`` (``tests/test_architecture.py``)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from ui.cli import CommandLine

if TYPE_CHECKING:
    from companion.break_the_code.tiles import Code
    from vision.break_the_code.synth.render import CodeScene
    from vision.synth.effects import EffectResult


#: kept as text, not read from the styles, so that ``--help`` does not load the renderer
STYLE_HELP = "drawing style: demo, ivory, walnut, plastic, oak, layered or enamel"


def _render_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("code", help='tiles to lay on the mat, e.g. "0b 1w 5g 5g 9b"')
    parser.add_argument("-o", "--output", required=True, help="the frame to write (PNG/JPEG)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the camera effects")
    parser.add_argument("--effects", default="default",
                        help="camera effects: default, all, none or a comma list")
    parser.add_argument("--style", default="demo", help=STYLE_HELP)
    parser.add_argument("--pack", help="draw the tiles from this art pack instead of a style")
    parser.add_argument("--truth", help="write the ground truth (JSON) here")


def _look(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The pack or drawing style to draw the tiles with, or ``None`` (an unknown style)."""
    from vision.break_the_code.pack import load_code_pack
    from vision.break_the_code.synth.art import STYLES

    if args.pack:
        return load_code_pack(args.pack)
    return STYLES.get(args.style)


def _write_truth(path: str, code: Code, scene: CodeScene, result: EffectResult,
                 seed: int) -> None:
    """The ground truth of a rendered frame, as JSON."""
    from vision.break_the_code.mat import SLOTS

    truth = {
        "code": str(code),
        "tiles": [{"slot": SLOTS[p.slot].name, "tile": str(p.tile),
                   "centre_mm": [round(v, 2) for v in p.centre_mm],
                   "angle_deg": round(p.angle_deg, 2)}
                  for p in scene.placed],
        "effects": {k: v for k, v in result.applied.items()},
        "seed": seed,
    }
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(truth, handle, indent=1)


def render_code(args: argparse.Namespace) -> int:
    """``companion render code``."""
    from pathlib import Path

    import cv2

    from companion.break_the_code.tiles import parse_code
    from vision.break_the_code.synth.art import STYLES
    from vision.break_the_code.synth.render import render_frame
    from vision.synth.effects import parse_effects

    code = parse_code(args.code)
    if len(code) > 20:
        print("companion: error: the mat holds at most 20 tiles", file=sys.stderr)
        return 2
    look = _look(args)
    if look is None:
        print(f"companion: error: unknown style {args.style!r}; styles: "
              f"{', '.join(STYLES)}", file=sys.stderr)
        return 2
    try:
        effects = parse_effects(args.effects)
    except ValueError as exc:
        print(f"companion: error: {exc}", file=sys.stderr)
        return 2
    result, scene = render_frame(list(code.tiles), seed=args.seed, effects=effects, look=look)
    if Path(args.output).suffix.lower() not in (".png", ".jpg", ".jpeg"):
        print(f"companion: error: cannot write {args.output}: write .png or .jpg",
              file=sys.stderr)
        return 2
    if not cv2.imwrite(args.output, result.image):
        print(f"companion: error: cannot write {args.output}", file=sys.stderr)
        return 1
    if args.truth:
        _write_truth(args.truth, code, scene, result, args.seed)
    print(f"wrote {args.output}: {len(code)} tiles, seed {args.seed}")
    return 0


def register(cli: CommandLine) -> None:
    cli.command("render code", "draw tiles on the code mat as a camera sees them",
                _render_args)(render_code)
