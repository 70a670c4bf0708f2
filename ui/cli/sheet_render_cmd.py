"""``companion render sheet`` and ``render card``: a player's Second Chance sheet, or a puzzle
card, drawn as a camera sees it.

Scene drawing for tests and demos: the ``*_render_cmd`` modules and the demo camera are the only
parts of the command line that reach ``synth`` (``tests/test_architecture.py``)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ui.cli import CommandLine
from ui.cli.sheet_vision_cmd import fail


def _render_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="a Second Chance game record (JSON)")
    parser.add_argument("--player", required=True, help="whose sheet to draw")
    parser.add_argument("-o", "--output", required=True, help="the frame to write (PNG/JPEG)")
    parser.add_argument("--style", default="pencil", choices=("pencil", "pen", "colour"))
    parser.add_argument("--seed", type=int, default=0, help="seed of the hand and the camera")
    parser.add_argument("--truth", help="write the ground truth (JSON) here")
    parser.add_argument("--plain", action="store_true",
                        help="draw on a plain pad without markers (as the publisher's)")
    parser.add_argument("--effects", default="default",
                        help="camera effects: default, all, none or a comma list")


def _render_card_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shape", help="the card's shape, e.g. '##./.##'")
    parser.add_argument("-o", "--output", required=True, help="the frame to write (PNG/JPEG)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--style", help="a card style file (default: the demo look)")
    parser.add_argument("--effects", default="default",
                        help="camera effects: default, all, none or a comma list")


def _write_frame(path: str, image: Any) -> int:
    import cv2

    try:
        ok = cv2.imwrite(path, image)
    except cv2.error:
        ok = False
    if not ok:
        return fail(f"cannot write {path}: use a .png or .jpg name in a writable folder")
    return 0


def register(cli: CommandLine) -> None:
    @cli.command("render sheet", "draw a player's Second Chance sheet by hand, as a camera sees it",
                 _render_args)
    def render_sheet_command(args: argparse.Namespace) -> int:
        from companion.errors import RecordError
        from companion.record import loads_record
        from vision.second_chance.synth.sheet import content_from_record, render_sheet
        from vision.synth.effects import parse_effects

        try:
            with open(args.record, encoding="utf-8") as handle:
                record = loads_record(handle.read())
            content = content_from_record(record, args.player)
            effects = parse_effects(args.effects)
        except OSError as exc:
            return fail(f"cannot read {args.record}: {exc.strerror}")
        except (RecordError, ValueError) as exc:
            return fail(str(exc))
        rendered = render_sheet(content, style=args.style, seed=args.seed,
                                markers=not args.plain, effects=effects)
        code = _write_frame(args.output, rendered.image)
        if code:
            return code
        if args.truth:
            with open(args.truth, "w", encoding="utf-8") as handle:
                json.dump(rendered.truth(), handle, indent=1)
                handle.write("\n")
        print(f"wrote {args.output}: {args.player}'s sheet, {args.style}, seed {args.seed}")
        return 0

    @cli.command("render card", "draw a Second Chance puzzle card on the table, as a camera "
                 "sees it", _render_card_args)
    def render_card_command(args: argparse.Namespace) -> int:
        from companion.second_chance.errors import ShapeError
        from companion.second_chance.shapes import check_polyomino
        from vision.second_chance.card_style import load_card_style
        from vision.second_chance.synth.card import render_card
        from vision.synth.effects import parse_effects

        try:
            shape = check_polyomino(args.shape)
            style = load_card_style(args.style)
            effects = parse_effects(args.effects)
        except (ShapeError, ValueError) as exc:
            return fail(str(exc))
        rendered = render_card(shape, style=style, seed=args.seed, effects=effects)
        code = _write_frame(args.output, rendered.image)
        if code:
            return code
        print(f"wrote {args.output}: card {rendered.shape!r}, seed {args.seed}")
        return 0
