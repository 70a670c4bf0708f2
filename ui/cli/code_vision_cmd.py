"""Break the Code vision commands: ``render code``, ``read code``, ``teach code`` and
``print code-mat``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from ui.cli import CommandLine
from ui.cli.images import read_image_file

if TYPE_CHECKING:
    from companion.break_the_code.tiles import Code
    from vision.break_the_code.synth.render import CodeScene
    from vision.synth.effects import EffectResult


def _render_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("code", help='tiles to lay on the mat, e.g. "0b 1w 5g 5g 9b"')
    parser.add_argument("-o", "--output", required=True, help="the frame to write (PNG/JPEG)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the camera effects")
    parser.add_argument("--effects", default="default",
                        help="camera effects: default, all, none or a comma list")
    parser.add_argument("--style", default="demo", help="drawing style: demo or ivory")
    parser.add_argument("--pack", help="draw the tiles from this art pack instead of a style")
    parser.add_argument("--truth", help="write the ground truth (JSON) here")


def _read_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="a camera frame of the code mat")
    parser.add_argument("--pack", help="the art pack of your tiles (default: the demo look)")
    parser.add_argument("--expect", type=int, help="refuse unless exactly this many tiles")
    parser.add_argument("--config", help="a config file that overrides the defaults "
                        "(the reader's thresholds are [vision.code])")


def _teach_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photo", help="a photo of all 20 tiles on the mat in box order")
    parser.add_argument("-o", "--output", required=True, help="the art pack folder to write")
    parser.add_argument("--name", default="taught", help="the pack's name")
    parser.add_argument("--config", help="a config file that overrides the defaults "
                        "(the reader's thresholds are [vision.code])")


def _mat_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", required=True, help="FILE.pdf or FILE.png")
    parser.add_argument("--dpi", type=int, default=300, help="resolution (default 300)")


def _load_image(path: str):  # type: ignore[no-untyped-def]
    # strict: a missing, empty, corrupt or truncated file is UnreadableImageError (exit 2),
    # never half a frame (OpenCV decodes a truncated JPEG with a grey lower part)

    return read_image_file(path)


def _reader_settings(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from config import load_config
    from vision.break_the_code.settings import CodeReaderSettings

    return CodeReaderSettings.from_config(load_config(args.config))


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


def read_code_command(args: argparse.Namespace) -> int:
    """``companion read code``."""
    from vision.break_the_code.pack import load_code_pack
    from vision.break_the_code.reader import read_code

    settings = _reader_settings(args)
    pack = load_code_pack(args.pack)
    code, confidence = read_code(_load_image(args.image), pack, expected=args.expect,
                                 settings=settings)
    print(json.dumps({"code": str(code), "confidence": round(confidence, 3)}))
    return 0


def teach_code(args: argparse.Namespace) -> int:
    """``companion teach code``."""
    from pathlib import Path

    from vision.art_pack import format_colour
    from vision.break_the_code.teach import teach_pack

    settings = _reader_settings(args)
    pack = teach_pack(_load_image(args.photo), name=args.name, settings=settings)
    folder = pack.save(Path(args.output))
    colours = ", ".join(f"{k} {format_colour(v)}" for k, v in sorted(pack.colours.items()))
    print(f"wrote {folder}: 20 tiles of {pack.tile_mm[0]:.1f} x {pack.tile_mm[1]:.1f} mm; "
          f"colours {colours}")
    return 0


def print_mat(args: argparse.Namespace) -> int:
    """``companion print code-mat``."""
    from pathlib import Path

    from vision.break_the_code.mat import printable_mat
    from vision.markers import write_image

    try:
        write_image(Path(args.output), printable_mat(dpi=args.dpi), dpi=args.dpi)
    except ValueError as exc:
        print(f"companion: error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.output}: the code mat, A4 landscape at {args.dpi} dpi")
    return 0


def register(cli: CommandLine) -> None:
    cli.command("render code", "draw tiles on the code mat as a camera sees them",
                _render_args)(render_code)
    cli.command("read code", "read the tiles on the code mat (JSON)", _read_args)(
        read_code_command)
    cli.command("teach code", "build an art pack from a photo of all 20 tiles",
                _teach_args)(teach_code)
    cli.command("print code-mat", "write the Break the Code mat (A4 landscape)",
                _mat_args)(print_mat)
