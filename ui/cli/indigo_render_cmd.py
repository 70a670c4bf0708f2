"""``companion render indigo``: the Indigo board a record reaches, drawn as a camera sees it.

Scene drawing for tests and demos: the ``*_render_cmd`` modules and the demo camera are the only
parts of the command line that reach ``synth`` (``tests/test_architecture.py``)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ui.cli import CommandLine, read_text_input
from ui.cli.indigo_vision_cmd import (
    EXIT_ILLEGAL,
    EXIT_UNREADABLE,
    add_pack_and_config,
    config_of,
    fail,
    indigo_pack,
    indigo_settings,
)


def _render_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="an Indigo game record (JSON); '-' reads standard input")
    parser.add_argument("-o", "--output", required=True, help="the frame to write (.png/.jpg)")
    add_pack_and_config(parser)
    parser.add_argument("--seed", type=int, default=0, help="seed of the camera effects")
    parser.add_argument(
        "--effects",
        default="default",
        help="comma-separated effects, or all, default, none (see docs/vision.md)",
    )
    parser.add_argument("--size", default="1280x720", help="frame size WxH (default 1280x720)")
    parser.add_argument("--truth", help="also write the ground truth in the read format")


def parse_size(text: str) -> tuple[int, int]:
    """``--size WxH`` as (width, height), each 64..8192."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"--size {text!r} is not WxH, e.g. 1280x720") from None
    if not (64 <= w <= 8192 and 64 <= h <= 8192):
        raise ValueError(f"--size {text!r} is outside 64..8192")
    return w, h


def render_indigo(args: argparse.Namespace) -> int:
    from companion.errors import IllegalMoveError, RecordError
    from vision.errors import VisionError
    from vision.image_io import check_writable, write_image
    from vision.indigo.records import state_of_record
    from vision.indigo.synth.render import render_frame
    from vision.synth.effects import parse_effects

    try:
        effects = parse_effects(args.effects)
        size = parse_size(args.size)
    except ValueError as exc:
        return fail(str(exc), EXIT_UNREADABLE)
    try:  # a typo in -o or --truth fails before the record is rendered
        check_writable(args.output)
        if args.truth:
            check_writable(args.truth, suffixes=(".json",))
    except VisionError as exc:
        return fail(str(exc), exc.exit_code)
    try:
        data = json.loads(read_text_input(args.record))
    except OSError as exc:
        return fail(
            f"cannot read the record {args.record}: {exc.strerror or exc}", EXIT_UNREADABLE
        )
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return fail(f"cannot read the record {args.record}: {exc}", EXIT_UNREADABLE)
    try:
        state = state_of_record(data)
    except RecordError as exc:
        return fail(str(exc), EXIT_UNREADABLE)
    except IllegalMoveError as exc:
        return fail(str(exc), EXIT_ILLEGAL)
    cfg = config_of(args.config)
    pack = indigo_pack(args, cfg)
    frame = render_frame(
        state, pack, settings=indigo_settings(cfg), seed=args.seed, effects=effects, frame_size=size
    )
    try:
        write_image(args.output, frame.image)
        if args.truth:
            Path(args.truth).write_text(json.dumps(frame.truth) + "\n", encoding="utf-8")
    except VisionError as exc:
        return fail(str(exc), exc.exit_code)
    except OSError as exc:
        return fail(f"{args.truth}: cannot write: {exc.strerror or exc}", 1)
    return 0


def register(cli: CommandLine) -> None:
    cli.command(
        "render indigo", "draw the state a record reaches, as a camera frame", _render_args
    )(render_indigo)
