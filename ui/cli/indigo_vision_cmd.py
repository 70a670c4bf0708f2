"""Indigo camera commands: ``render indigo``, ``read indigo``, ``teach indigo``,
``calibrate indigo``.

Exit codes: 0 done; 2 unreadable input (not an image, a truncated file, a bad record or pack);
3 the record breaks a rule (render); 4 the frame was refused (no board, blurred, wrong game),
with one line on stderr saying why.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ui.cli import CommandLine

if TYPE_CHECKING:
    from config import Config
    from vision.indigo.settings import IndigoSettings
from ui.cli.images import read_image_file

EXIT_UNREADABLE = 2
EXIT_ILLEGAL = 3


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pack", help="art pack folder (default: [vision] pack, else the demo)")
    parser.add_argument("--config", help="a config file that overrides the defaults")


def _render_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="an Indigo game record (JSON); '-' reads standard input")
    parser.add_argument("-o", "--output", required=True, help="the frame to write (.png/.jpg)")
    _common(parser)
    parser.add_argument("--seed", type=int, default=0, help="seed of the camera effects")
    parser.add_argument(
        "--effects",
        default="default",
        help="comma-separated effects, or all, default, none (see docs/vision.md)",
    )
    parser.add_argument("--size", default="1280x720", help="frame size WxH (default 1280x720)")
    parser.add_argument("--truth", help="also write the ground truth in the read format")


def _read_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="a camera frame (.png/.jpg)")
    _common(parser)
    parser.add_argument(
        "--after",
        help="the last accepted state: a game record or an earlier read (JSON)",
    )


def _teach_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "photos",
        nargs="+",
        help="teach-sheet photos: tile types 0..4 in order, then the pieces sheet",
    )
    parser.add_argument("-o", "--output", required=True, help="the pack folder to write")
    parser.add_argument("--board", help="a photo of the empty board (cells, treasures, rim)")
    parser.add_argument("--base", help="a pack to take anything not photographed from")
    parser.add_argument("--name", default="taught", help="the pack's name")
    parser.add_argument("--config", help="a config file that overrides the defaults")


def _calibrate_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="a frame of the board with the four table markers")
    _common(parser)
    parser.add_argument(
        "--write",
        metavar="FILE",
        help="store the result in this config override file (other settings are kept)",
    )


def _config(path: str | None) -> Config:
    from config import load_config

    return load_config(path)


def _settings(cfg: Config) -> IndigoSettings:
    from vision.indigo.settings import IndigoSettings

    return IndigoSettings.from_config(cfg)


def _pack(args: argparse.Namespace, cfg: Config) -> Any:
    from vision.indigo.pack import load_indigo_pack

    folder = args.pack or cfg.vision.pack or None
    return load_indigo_pack(folder)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"--size {text!r} is not WxH, e.g. 1280x720") from None
    if not (64 <= w <= 8192 and 64 <= h <= 8192):
        raise ValueError(f"--size {text!r} is outside 64..8192")
    return w, h


def _error(message: str, code: int) -> int:
    print(f"companion: error: {message}", file=sys.stderr)
    return code


def render_indigo(args: argparse.Namespace) -> int:
    from companion.errors import IllegalMoveError, RecordError
    from vision.errors import VisionError
    from vision.image_io import check_writable, write_image
    from vision.indigo.records import state_of_record
    from vision.indigo.synth.render import render_frame
    from vision.synth.effects import parse_effects

    try:
        effects = parse_effects(args.effects)
        size = _size(args.size)
    except ValueError as exc:
        return _error(str(exc), EXIT_UNREADABLE)
    try:  # a typo in -o or --truth fails before the record is rendered
        check_writable(args.output)
        if args.truth:
            check_writable(args.truth, suffixes=(".json",))
    except VisionError as exc:
        return _error(str(exc), exc.exit_code)
    try:
        if args.record == "-":
            text = sys.stdin.read()
        else:
            text = Path(args.record).read_text(encoding="utf-8")
        data = json.loads(text)
    except OSError as exc:
        return _error(
            f"cannot read the record {args.record}: {exc.strerror or exc}", EXIT_UNREADABLE
        )
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return _error(f"cannot read the record {args.record}: {exc}", EXIT_UNREADABLE)
    try:
        state = state_of_record(data)
    except RecordError as exc:
        return _error(str(exc), EXIT_UNREADABLE)
    except IllegalMoveError as exc:
        return _error(str(exc), EXIT_ILLEGAL)
    cfg = _config(args.config)
    pack = _pack(args, cfg)
    frame = render_frame(
        state, pack, settings=_settings(cfg), seed=args.seed, effects=effects, frame_size=size
    )
    try:
        write_image(args.output, frame.image)
        if args.truth:
            Path(args.truth).write_text(json.dumps(frame.truth) + "\n", encoding="utf-8")
    except VisionError as exc:
        return _error(str(exc), exc.exit_code)
    except OSError as exc:
        return _error(f"{args.truth}: cannot write: {exc.strerror or exc}", 1)
    return 0


def read_indigo_command(args: argparse.Namespace) -> int:
    from companion.errors import IllegalMoveError, RecordError
    from vision.errors import FrameRefusedError, UnreadableImageError
    from vision.indigo.reader import read_indigo

    cfg = _config(args.config)
    settings = _settings(cfg)
    pack = _pack(args, cfg)
    previous = None
    if args.after:
        from vision.indigo.records import load_state

        try:
            previous = load_state(args.after)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecordError) as exc:
            return _error(f"--after {args.after}: {exc}", EXIT_UNREADABLE)
        except IllegalMoveError as exc:
            return _error(f"--after {args.after}: {exc}", EXIT_ILLEGAL)
    try:
        frame = read_image_file(args.image)
        result = read_indigo(frame, pack, settings=settings)
    except UnreadableImageError as exc:
        return _error(str(exc), EXIT_UNREADABLE)
    except FrameRefusedError as exc:
        return _error(str(exc), exc.exit_code)
    out = result.to_json(pack)
    if previous is not None:
        from vision.indigo.after import check_after

        verdict = check_after(previous, result, min_confidence=settings.min_confidence)
        out["questions"] = list(out["questions"]) + verdict.questions
        out["after"] = verdict.to_json()
    print(json.dumps(out))
    return 0


def teach_indigo(args: argparse.Namespace) -> int:
    from vision.errors import ArtPackError, FrameRefusedError, UnreadableImageError
    from vision.indigo.teach import teach_from_files

    cfg = _config(args.config)
    try:
        pack = teach_from_files(
            [Path(p) for p in args.photos],
            board=Path(args.board) if args.board else None,
            base=args.base,
            name=args.name,
            settings=_settings(cfg),
        )
    except (UnreadableImageError, ArtPackError) as exc:
        return _error(str(exc), EXIT_UNREADABLE)
    except FrameRefusedError as exc:
        return _error(str(exc), exc.exit_code)
    pack.save(Path(args.output))
    print(f"wrote the art pack {args.output} ({pack.name})")
    return 0


def calibrate_indigo(args: argparse.Namespace) -> int:
    from vision.errors import FrameRefusedError, UnreadableImageError
    from vision.indigo.calibrate import calibrate, calibration_toml

    cfg = _config(args.config)
    pack = _pack(args, cfg)
    try:
        geometry = calibrate(read_image_file(args.image), pack, settings=_settings(cfg))
    except UnreadableImageError as exc:
        return _error(str(exc), EXIT_UNREADABLE)
    except FrameRefusedError as exc:
        return _error(str(exc), exc.exit_code)
    print(calibration_toml(geometry), end="")
    if args.write:
        from vision.indigo.calibrate import write_calibration

        write_calibration(Path(args.write), geometry)
        print(f"# stored in {args.write}")
    return 0


def register(cli: CommandLine) -> None:
    cli.command(
        "render indigo", "draw the state a record reaches, as a camera frame", _render_args
    )(render_indigo)
    cli.command(
        "read indigo", "read an Indigo board from a camera frame (JSON)", _read_args
    )(read_indigo_command)
    cli.command(
        "teach indigo", "build an art pack from photos of your pieces", _teach_args
    )(teach_indigo)
    cli.command(
        "calibrate indigo",
        "measure where the board lies between the table markers (prints [vision.indigo])",
        _calibrate_args,
    )(calibrate_indigo)
