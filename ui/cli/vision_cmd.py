"""Vision commands shared by every game: ``print markers`` and ``print teach-sheet``.

Printables are a PDF (every page in one file, true scale at ``--dpi``) or PNG (one file per
page: ``NAME-1.png``, ``NAME-2.png``... when there are several). Exit 0 written; 1 the file
cannot be written (its folder does not exist); 2 a bad option (an id outside the dictionary,
a size that does not fit, an extension other than .pdf/.png).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

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


def _error(message: str, code: int) -> int:
    print(f"companion: error: {message}", file=sys.stderr)
    return code


def _write(output: str, pages: list[Any], dpi: int) -> list[Path] | int:
    """Write the pages; the files written, or the exit code after one line on stderr."""
    from vision.errors import VisionError
    from vision.image_io import write_pages

    try:
        return write_pages(Path(output), pages, dpi=dpi)
    except VisionError as exc:
        return _error(str(exc), exc.exit_code)


def _written(files: list[Path]) -> str:
    if len(files) == 1:
        return f"wrote {files[0]}"
    return f"wrote {files[0]} ... {files[-1]} (one PNG per page)"


def _check_dpi(dpi: int) -> None:
    if not 20 <= dpi <= 1200:
        raise ValueError(f"--dpi {dpi} is outside 20..1200")


def register(cli: CommandLine) -> None:
    register_teach_sheet(cli)

    @cli.command("print markers", "write a sheet of ArUco markers at true scale", _markers_args)
    def print_markers(args: argparse.Namespace) -> int:
        from vision.image_io import PAGE_SUFFIXES, check_writable
        from vision.markers import check_marker_ids, marker_sheets

        try:
            ids = [int(part) for part in args.ids.split(",") if part.strip()]
        except ValueError:
            return _error(f"--ids {args.ids!r} is not a list of numbers", 2)
        if not ids:
            return _error("--ids names no marker", 2)
        if not 5.0 <= args.size_mm <= 180.0:
            return _error(f"--size-mm {args.size_mm} is outside 5..180", 2)
        try:
            check_marker_ids(ids)
        except ValueError as exc:
            return _error(f"--ids {args.ids}: {exc}", 2)
        try:
            _check_dpi(args.dpi)
            check_writable(args.output, suffixes=PAGE_SUFFIXES)
            pages = marker_sheets(ids, size_mm=args.size_mm, dpi=args.dpi)
        except ValueError as exc:  # ImageFormatError is one too
            return _error(str(exc), 2)
        except OSError as exc:  # ImageWriteError: the folder does not exist
            return _error(str(exc), getattr(exc, "exit_code", 1))
        files = _write(args.output, pages, args.dpi)
        if isinstance(files, int):
            return files
        print(
            f"{_written(files)}: markers {ids}, {args.size_mm:g} mm at {args.dpi} dpi, "
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
        from config import load_config
        from vision.image_io import PAGE_SUFFIXES, check_writable
        from vision.indigo.settings import IndigoSettings
        from vision.indigo.teach import teach_pages

        try:
            _check_dpi(args.dpi)
            check_writable(args.output, suffixes=PAGE_SUFFIXES)
        except ValueError as exc:
            return _error(str(exc), 2)
        except OSError as exc:
            return _error(str(exc), getattr(exc, "exit_code", 1))
        settings = IndigoSettings.from_config(load_config(args.config))
        pages = teach_pages(settings=settings, dpi=args.dpi)
        files = _write(args.output, pages, args.dpi)
        if isinstance(files, int):
            return files
        print(f"{_written(files)}: {len(pages)} pages at {args.dpi} dpi")
        return 0
