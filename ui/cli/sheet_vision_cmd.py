"""Second Chance vision commands: ``print sheet``, ``read sheet``, ``read card`` and ``teach
card`` (``render sheet`` and ``render card`` are in :mod:`ui.cli.sheet_render_cmd`).

``read sheet`` and ``read card`` print JSON; a frame that cannot be trusted (no grid, no card,
markers that fail their checks) exits 4 with the reason on standard error, an image that
cannot be read exits 2.
"""

from __future__ import annotations

import argparse
import json
import sys

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


def _read_sheet_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="a camera frame of a sheet")
    parser.add_argument("--deck", help="a deck file: also check every tile against its cards")
    parser.add_argument("--config", help="a config file that overrides the defaults "
                        "(the reader's thresholds are [vision.sheet])")


def _read_card_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="a camera frame with the revealed card")
    parser.add_argument("--style", help="the taught card style file (default: the demo look)")


def _teach_card_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photo", help="a photo of one card whose shape you know")
    parser.add_argument("--shape", required=True, help="that card's shape, e.g. '###/#..'")
    parser.add_argument("-o", "--output", required=True, help="the style file to write (JSON)")
    parser.add_argument("--name", default="taught")


def fail(message: str, code: int = EXIT_USAGE) -> int:
    """Say ``message`` as the one error line and return the exit status ``code``."""
    print(f"companion: error: {message}", file=sys.stderr)
    return code


def _print_sheet(args: argparse.Namespace) -> int:
    from pathlib import Path

    from vision.errors import VisionError
    from vision.second_chance.layout import SheetLayout, parse_page
    from vision.second_chance.printing import write_sheet

    try:
        page = parse_page(args.page)
    except ValueError as exc:
        return fail(str(exc))
    if not 72 <= args.dpi <= 1200:
        return fail(f"--dpi {args.dpi} is outside 72..1200")
    if not 1 <= args.pages <= 100:
        return fail(f"--pages {args.pages} is outside 1..100")
    layout = SheetLayout.for_page(page, markers=not args.no_markers)
    try:
        files = write_sheet(Path(args.output), layout, dpi=args.dpi, pages=args.pages)
    except VisionError as exc:
        return fail(str(exc), exc.exit_code)
    except (ValueError, OSError) as exc:
        return fail(str(exc))
    kind = "plain" if args.no_markers else "with markers"
    where = (f"wrote {files[0]}" if len(files) == 1
             else f"wrote {files[0]} ... {files[-1]} (one PNG per page)")
    print(f"{where}: {args.pages} sheet(s), {page[0]:g} x {page[1]:g} mm, "
          f"{kind}, cells of {layout.cell_mm:g} mm, {args.dpi} dpi")
    return 0


def _read_sheet_command(args: argparse.Namespace) -> int:
    from companion.second_chance.deck import load_deck
    from companion.second_chance.errors import DeckError
    from config import load_config
    from vision.second_chance.reader import read_sheet
    from vision.second_chance.settings import SheetSettings

    try:
        deck = load_deck(args.deck) if args.deck else None
    except DeckError as exc:
        return fail(str(exc))
    # [vision.sheet] and [vision.picture]; a bad file: ConfigError, one line
    settings = SheetSettings.from_config(load_config(args.config))
    image = read_image_file(args.image)  # unreadable: exit 2 via the error's exit_code
    reading = read_sheet(image, settings=settings, deck=deck)  # refused frame: exit 4
    print(json.dumps(reading.to_json()))
    return 0


def _read_card_command(args: argparse.Namespace) -> int:
    from vision.second_chance.card_reader import read_card
    from vision.second_chance.card_style import load_card_style

    try:
        style = load_card_style(args.style)
    except ValueError as exc:
        return fail(str(exc))
    image = read_image_file(args.image)
    print(json.dumps(read_card(image, style).to_json()))
    return 0


def _teach_card_command(args: argparse.Namespace) -> int:
    from pathlib import Path

    from companion.second_chance.errors import ShapeError
    from companion.second_chance.shapes import check_polyomino
    from vision.second_chance.card_reader import teach_card_style

    try:
        shape = check_polyomino(args.shape)
    except ShapeError as exc:
        return fail(str(exc))
    style = teach_card_style(read_image_file(args.photo), shape, name=args.name)
    style.save(Path(args.output))
    print(f"wrote {args.output}: squares of {style.square_mm:g} mm")
    return 0


def register(cli: CommandLine) -> None:
    cli.command("print sheet", "write printable Second Chance sheets (PDF at true scale)",
                _print_args)(_print_sheet)
    cli.command("read sheet", "read a Second Chance sheet from a camera frame (JSON)",
                _read_sheet_args)(_read_sheet_command)
    cli.command("read card", "read a revealed Second Chance card from a camera frame (JSON)",
                _read_card_args)(_read_card_command)
    cli.command("teach card", "learn the look of your Second Chance cards from one photo",
                _teach_card_args)(_teach_card_command)
