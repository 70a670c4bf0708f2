"""Enigma vision commands: ``read enigma``, ``check puzzle`` and ``teach enigma`` (the
``render`` verbs are in :mod:`ui.cli.enigma_render_cmd`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ui.cli import CommandLine
from ui.cli.enigma_inputs import (
    PUZZLE_KINDS,
    IllegalRecordError,
    InputError,
    config_of,
    enigma_data,
    enigma_pack,
    load_json,
    puzzle_card,
)
from ui.cli.images import read_image_file


def _read_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="a camera frame (PNG/JPEG)")
    parser.add_argument("--pack", default="", help="art pack folder (default: "
                        "[vision.enigma] pack, "
                        "else the demo pack)")
    parser.add_argument("--after", default="", help="the last accepted state: a record or "
                        "a previous read (JSON); changes the rules do not allow become questions")
    parser.add_argument("--config", default=None, help="configuration file")


def _check_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", choices=PUZZLE_KINDS)
    parser.add_argument("image", help="a camera frame of the solved puzzle")
    parser.add_argument("--card", default="", help="the card's data (JSON file, or a card id "
                        "of the puzzle data), when it is not read from the frame")
    parser.add_argument("--pack", default="", help="art pack folder (default: "
                        "[vision.enigma] pack, "
                        "else the demo pack)")
    parser.add_argument("--config", default=None, help="configuration file")


def _teach_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="a camera frame of the table markers")
    parser.add_argument("-o", "--output", required=True, help="folder of the taught pack")
    parser.add_argument("--pack", default="", help="pack to start from (default: the demo)")
    parser.add_argument("--start", action="store_true", help="the frame shows the start tile "
                        "alone near the middle: learn its face, the tile size, table and "
                        "tile colours")
    parser.add_argument("--sample", action="append", default=[], metavar="NAME=X,Y",
                        help="a colour at a point (mm, marker frame): cells.red, channel, "
                        "networkers.black, table... (repeat)")
    parser.add_argument("--icon", action="append", default=[], metavar="CATEGORY=X,Y",
                        help="the centre of a tile of that category (all four, or none)")
    parser.add_argument("--config", default=None, help="configuration file")


def _read_enigma_cmd(args: argparse.Namespace) -> int:
    from vision.enigma.reader import read_enigma
    from vision.enigma.settings import ReaderSettings
    from vision.errors import FrameRefusedError

    cfg = config_of(args)
    pack = enigma_pack(args, cfg)
    image = read_image_file(args.image)
    accepted = None
    if args.after:
        from companion.errors import CompanionError, IllegalMoveError
        from vision.enigma.rules_check import accepted_from_json

        data = enigma_data(load_json(args.after, "--after"), args.after, "--after")
        try:
            accepted = accepted_from_json(data, pack_colours=list(pack.networkers))
        except IllegalMoveError as exc:
            raise IllegalRecordError(f"--after {args.after}: {exc}") from None
        except (CompanionError, KeyError, TypeError, ValueError, IndexError) as exc:
            raise InputError(f"--after {args.after}: {exc}") from None
    try:
        read = read_enigma(image, pack, settings=ReaderSettings.from_config(cfg),
                           start_tile=accepted.start if accepted else None)
    except FrameRefusedError as exc:
        print(f"companion: error: {exc}", file=sys.stderr)
        return 4
    out = read.to_json()
    if accepted is not None:
        from vision.enigma.rules_check import second_opinion

        opinion = second_opinion(read, accepted)
        out["questions"] = list(out["questions"]) + opinion.questions
        out["changes"] = {"legal": opinion.agrees,
                          "tiles": [list(a) for a in opinion.placed],
                          "networkers": opinion.networkers}
    print(json.dumps(out))
    return 0


def _check_puzzle(args: argparse.Namespace) -> int:
    from vision.enigma.puzzles.check import check_puzzle_frame
    from vision.enigma.settings import PuzzleSettings

    cfg = config_of(args)
    pack = enigma_pack(args, cfg)
    card = puzzle_card(args.kind, args.card) if args.card else None
    image = read_image_file(args.image)
    verdict = check_puzzle_frame(args.kind, image, pack, card=card,
                                 settings=PuzzleSettings.from_config(cfg))
    print(json.dumps(verdict))
    return 0


def _teach_enigma(args: argparse.Namespace) -> int:
    from vision.enigma.settings import TableSettings
    from vision.enigma.teach import parse_samples, teach_colours, teach_icons, teach_start

    cfg = config_of(args)
    table = TableSettings.from_config(cfg)
    pack = enigma_pack(args, cfg)
    image = read_image_file(args.image)
    if not (args.start or args.sample or args.icon):
        raise InputError("say what the frame teaches: --start, --sample or --icon")
    if args.start:
        pack = teach_start(image, pack, table=table)
    if args.sample:
        pack = teach_colours(image, pack, parse_samples(args.sample), table=table)
    if args.icon:
        pack = teach_icons(image, pack, parse_samples(args.icon), table=table)
    folder = pack.save(Path(args.output))
    print(f"wrote {folder}: tile {pack.tile_mm:g} mm")
    return 0


def register(cli: CommandLine) -> None:
    cli.command("read enigma", "read the Enigma table from a camera frame (JSON)",
                _read_args)(_read_enigma_cmd)
    cli.command("check puzzle", "check a solved Enigma puzzle in a camera frame",
                _check_args)(_check_puzzle)
    cli.command("teach enigma", "teach an Enigma art pack from a photo of your pieces",
                _teach_args)(_teach_enigma)

