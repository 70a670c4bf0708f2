"""Break the Code vision commands: ``read code``, ``teach code`` and ``print code-mat``
(``render code`` is in :mod:`ui.cli.code_render_cmd`)."""

from __future__ import annotations

import argparse
import json
import sys

from ui.cli import CommandLine
from ui.cli.images import read_image_file


def _read_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="a camera frame of the code mat")
    parser.add_argument("--pack", help="the art pack of your tiles (default: [vision.code] "
                        "pack of the config, else the demo look)")
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


def _config(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from config import load_config

    return load_config(args.config)


def _reader_settings(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from vision.break_the_code.settings import CodeReaderSettings

    return CodeReaderSettings.from_config(_config(args))


def read_code_command(args: argparse.Namespace) -> int:
    """``companion read code``."""
    from config import art_pack_folder
    from vision.break_the_code.pack import load_code_pack
    from vision.break_the_code.reader import read_code
    from vision.break_the_code.settings import CodeReaderSettings

    cfg = _config(args)
    settings = CodeReaderSettings.from_config(cfg)
    # --pack, else the config's [vision.code] pack, else the demo pack
    pack = load_code_pack(args.pack or art_pack_folder(cfg, cfg.vision.code.pack))
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
    cli.command("read code", "read the tiles on the code mat (JSON)", _read_args)(
        read_code_command)
    cli.command("teach code", "build an art pack from a photo of all 20 tiles",
                _teach_args)(teach_code)
    cli.command("print code-mat", "write the Break the Code mat (A4 landscape)",
                _mat_args)(print_mat)
