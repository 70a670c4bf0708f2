"""Indigo camera commands: ``read indigo``, ``teach indigo``, ``calibrate indigo`` (``render
indigo`` is in :mod:`ui.cli.indigo_render_cmd`).

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
from ui.cli.images import read_image_file

if TYPE_CHECKING:
    from config import Config
    from vision.indigo.settings import IndigoSettings

EXIT_UNREADABLE = 2
EXIT_ILLEGAL = 3


def add_pack_and_config(parser: argparse.ArgumentParser) -> None:
    """The ``--pack`` and ``--config`` options every Indigo command takes."""
    parser.add_argument("--pack", help="art pack folder (default: [vision] pack, else the demo)")
    parser.add_argument("--config", help="a config file that overrides the defaults")



def _read_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="a camera frame (.png/.jpg)")
    add_pack_and_config(parser)
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
    add_pack_and_config(parser)
    parser.add_argument(
        "--write",
        metavar="FILE",
        help="store the result in this config override file (other settings are kept)",
    )


def config_of(path: str | None) -> Config:
    """The configuration ``--config`` names, over the defaults."""
    from config import load_config

    return load_config(path)


def indigo_settings(cfg: Config) -> IndigoSettings:
    """The Indigo reader's and renderer's settings from the configuration."""
    from vision.indigo.settings import IndigoSettings

    return IndigoSettings.from_config(cfg)


def indigo_pack(args: argparse.Namespace, cfg: Config) -> Any:
    """The art pack: ``--pack``, else the config's ``[vision] pack``, else the demo."""
    from vision.indigo.pack import load_indigo_pack

    folder = args.pack or cfg.vision.pack or None
    return load_indigo_pack(folder)



def fail(message: str, code: int) -> int:
    """Say ``message`` as the one error line and return the exit status ``code``."""
    print(f"companion: error: {message}", file=sys.stderr)
    return code



def read_indigo_command(args: argparse.Namespace) -> int:
    from companion.errors import IllegalMoveError, RecordError
    from vision.errors import FrameRefusedError, UnreadableImageError
    from vision.indigo.reader import read_indigo

    cfg = config_of(args.config)
    settings = indigo_settings(cfg)
    pack = indigo_pack(args, cfg)
    previous = None
    if args.after:
        from vision.indigo.records import load_state

        try:
            previous = load_state(args.after)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecordError) as exc:
            return fail(f"--after {args.after}: {exc}", EXIT_UNREADABLE)
        except IllegalMoveError as exc:
            return fail(f"--after {args.after}: {exc}", EXIT_ILLEGAL)
    try:
        frame = read_image_file(args.image)
        result = read_indigo(frame, pack, settings=settings)
    except UnreadableImageError as exc:
        return fail(str(exc), EXIT_UNREADABLE)
    except FrameRefusedError as exc:
        return fail(str(exc), exc.exit_code)
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

    cfg = config_of(args.config)
    try:
        pack = teach_from_files(
            [Path(p) for p in args.photos],
            board=Path(args.board) if args.board else None,
            base=args.base,
            name=args.name,
            settings=indigo_settings(cfg),
        )
    except (UnreadableImageError, ArtPackError) as exc:
        return fail(str(exc), EXIT_UNREADABLE)
    except FrameRefusedError as exc:
        return fail(str(exc), exc.exit_code)
    pack.save(Path(args.output))
    print(f"wrote the art pack {args.output} ({pack.name})")
    return 0


def calibrate_indigo(args: argparse.Namespace) -> int:
    from vision.errors import FrameRefusedError, UnreadableImageError
    from vision.indigo.calibrate import calibrate, calibration_toml

    cfg = config_of(args.config)
    pack = indigo_pack(args, cfg)
    try:
        geometry = calibrate(read_image_file(args.image), pack, settings=indigo_settings(cfg))
    except UnreadableImageError as exc:
        return fail(str(exc), EXIT_UNREADABLE)
    except FrameRefusedError as exc:
        return fail(str(exc), exc.exit_code)
    print(calibration_toml(geometry), end="")
    if args.write:
        from vision.indigo.calibrate import write_calibration

        write_calibration(Path(args.write), geometry)
        print(f"# stored in {args.write}")
    return 0


def register(cli: CommandLine) -> None:
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
