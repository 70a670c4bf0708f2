"""Second Chance vision commands: ``print sheet``, ``render sheet``, ``read sheet``,
``render card``, ``read card`` and ``teach card``.

``read sheet`` and ``read card`` print JSON; a frame that cannot be trusted (no grid, no card,
markers that fail their checks) exits 4 with the reason on standard error, an image that
cannot be read exits 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ui.cli import EXIT_USAGE, CommandLine
from ui.cli.images import read_image_file


def _print_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", required=True,
                        help="FILE.pdf (all pages), or FILE.png (one PNG per page)")
    parser.add_argument("--page", default="A5",
                        help="A6, A5 (the publisher's pad, default), A4, letter or WxH in mm")
    parser.add_argument("--dpi", type=int, default=300, help="resolution (default 300)")
    parser.add_argument("--pages", type=int, default=1, help="how many sheets (default 1)")
    parser.add_argument("--no-markers", action="store_true",
                        help="a plain sheet like the publisher's pad (read from its frame)")


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


def _read_sheet_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="a camera frame of a sheet")
    parser.add_argument("--deck", help="a deck file: also check every tile against its cards")
    parser.add_argument("--config", help="a config file that overrides the defaults "
                        "(the reader's thresholds are [vision.sheet])")


def _render_card_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shape", help="the card's shape, e.g. '##./.##'")
    parser.add_argument("-o", "--output", required=True, help="the frame to write (PNG/JPEG)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--style", help="a card style file (default: the demo look)")
    parser.add_argument("--effects", default="default",
                        help="camera effects: default, all, none or a comma list")


def _read_card_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="a camera frame with the revealed card")
    parser.add_argument("--style", help="the taught card style file (default: the demo look)")


def _teach_card_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photo", help="a photo of one card whose shape you know")
    parser.add_argument("--shape", required=True, help="that card's shape, e.g. '###/#..'")
    parser.add_argument("-o", "--output", required=True, help="the style file to write (JSON)")
    parser.add_argument("--name", default="taught")


def _fail(message: str, code: int = EXIT_USAGE) -> int:
    print(f"companion: error: {message}", file=sys.stderr)
    return code


def _write_frame(path: str, image: Any) -> int:
    import cv2

    try:
        ok = cv2.imwrite(path, image)
    except cv2.error:
        ok = False
    if not ok:
        return _fail(f"cannot write {path}: use a .png or .jpg name in a writable folder")
    return 0


def register(cli: CommandLine) -> None:
    @cli.command("print sheet", "write printable Second Chance sheets (PDF at true scale)",
                 _print_args)
    def print_sheet(args: argparse.Namespace) -> int:
        from pathlib import Path

        from vision.errors import VisionError
        from vision.second_chance.layout import SheetLayout, parse_page
        from vision.second_chance.printing import write_sheet

        try:
            page = parse_page(args.page)
        except ValueError as exc:
            return _fail(str(exc))
        if not 72 <= args.dpi <= 1200:
            return _fail(f"--dpi {args.dpi} is outside 72..1200")
        if not 1 <= args.pages <= 100:
            return _fail(f"--pages {args.pages} is outside 1..100")
        layout = SheetLayout.for_page(page, markers=not args.no_markers)
        try:
            files = write_sheet(Path(args.output), layout, dpi=args.dpi, pages=args.pages)
        except VisionError as exc:
            return _fail(str(exc), exc.exit_code)
        except (ValueError, OSError) as exc:
            return _fail(str(exc))
        kind = "plain" if args.no_markers else "with markers"
        where = (f"wrote {files[0]}" if len(files) == 1
                 else f"wrote {files[0]} ... {files[-1]} (one PNG per page)")
        print(f"{where}: {args.pages} sheet(s), {page[0]:g} x {page[1]:g} mm, "
              f"{kind}, cells of {layout.cell_mm:g} mm, {args.dpi} dpi")
        return 0

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
            return _fail(f"cannot read {args.record}: {exc.strerror}")
        except (RecordError, ValueError) as exc:
            return _fail(str(exc))
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

    @cli.command("read sheet", "read a Second Chance sheet from a camera frame (JSON)",
                 _read_sheet_args)
    def read_sheet_command(args: argparse.Namespace) -> int:
        from companion.second_chance.deck import load_deck
        from companion.second_chance.errors import DeckError
        from config import load_config
        from vision.second_chance.reader import read_sheet

        try:
            deck = load_deck(args.deck) if args.deck else None
        except DeckError as exc:
            return _fail(str(exc))
        settings = load_config(args.config).vision.sheet  # a bad file: ConfigError, one line
        image = read_image_file(args.image)  # unreadable: exit 2 via the error's exit_code
        reading = read_sheet(image, settings=settings, deck=deck)  # refused frame: exit 4
        print(json.dumps(reading.to_json()))
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
            return _fail(str(exc))
        rendered = render_card(shape, style=style, seed=args.seed, effects=effects)
        code = _write_frame(args.output, rendered.image)
        if code:
            return code
        print(f"wrote {args.output}: card {rendered.shape!r}, seed {args.seed}")
        return 0

    @cli.command("read card", "read a revealed Second Chance card from a camera frame (JSON)",
                 _read_card_args)
    def read_card_command(args: argparse.Namespace) -> int:
        from vision.second_chance.card_reader import read_card
        from vision.second_chance.card_style import load_card_style

        try:
            style = load_card_style(args.style)
        except ValueError as exc:
            return _fail(str(exc))
        image = read_image_file(args.image)
        print(json.dumps(read_card(image, style).to_json()))
        return 0

    @cli.command("teach card", "learn the look of your Second Chance cards from one photo",
                 _teach_card_args)
    def teach_card_command(args: argparse.Namespace) -> int:
        from pathlib import Path

        from companion.second_chance.errors import ShapeError
        from companion.second_chance.shapes import check_polyomino
        from vision.second_chance.card_reader import teach_card_style

        try:
            shape = check_polyomino(args.shape)
        except ShapeError as exc:
            return _fail(str(exc))
        style = teach_card_style(read_image_file(args.photo), shape, name=args.name)
        style.save(Path(args.output))
        print(f"wrote {args.output}: squares of {style.square_mm:g} mm")
        return 0
