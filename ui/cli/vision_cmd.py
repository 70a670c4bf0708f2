"""Vision commands shared by every game: ``print markers``."""

from __future__ import annotations

import argparse
import sys

from ui.cli import CommandLine


def _markers_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", required=True, help="FILE.pdf or FILE.png")
    parser.add_argument(
        "--size-mm",
        type=float,
        default=60.0,
        help="printed side of each marker (default 60, the table markers)",
    )
    parser.add_argument("--dpi", type=int, default=300, help="resolution (default 300)")
    parser.add_argument(
        "--ids",
        default="0,1,2,3",
        help="marker ids, comma separated (default 0,1,2,3: the table markers around a board)",
    )


def register(cli: CommandLine) -> None:
    register_teach_sheet(cli)

    @cli.command("print markers", "write a sheet of ArUco markers at true scale", _markers_args)
    def print_markers(args: argparse.Namespace) -> int:
        from pathlib import Path

        from vision.markers import marker_sheets, write_image

        try:
            ids = [int(part) for part in args.ids.split(",") if part.strip()]
        except ValueError:
            print(f"companion: error: --ids {args.ids!r} is not a list of numbers", file=sys.stderr)
            return 2
        if not 5.0 <= args.size_mm <= 180.0:
            print(f"companion: error: --size-mm {args.size_mm} is outside 5..180", file=sys.stderr)
            return 2
        pages = marker_sheets(ids, size_mm=args.size_mm, dpi=args.dpi)
        path = Path(args.output)
        try:
            write_image(path, pages, dpi=args.dpi)
        except ValueError as exc:
            print(f"companion: error: {exc}", file=sys.stderr)
            return 2
        print(
            f"wrote {path}: markers {ids}, {args.size_mm:g} mm at {args.dpi} dpi, "
            f"{len(pages)} page(s)"
        )
        return 0


def _teach_sheet_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", required=True, help="FILE.pdf or FILE.png")
    parser.add_argument("--dpi", type=int, default=300, help="resolution (default 300)")
    parser.add_argument("--config", help="a config file (the board's cell size comes from it)")


def register_teach_sheet(cli: CommandLine) -> None:
    @cli.command(
        "print teach-sheet",
        "write the Indigo teach sheets (5 tile pages and a pieces page) at true scale",
        _teach_sheet_args,
    )
    def print_teach_sheet(args: argparse.Namespace) -> int:
        from pathlib import Path

        from config import load_config
        from vision.indigo_teach import teach_pages
        from vision.markers import write_image

        pages = teach_pages(load_config(args.config), dpi=args.dpi)
        try:
            write_image(Path(args.output), pages, dpi=args.dpi)
        except ValueError as exc:
            print(f"companion: error: {exc}", file=sys.stderr)
            return 2
        print(f"wrote {args.output}: {len(pages)} pages at {args.dpi} dpi")
        return 0
