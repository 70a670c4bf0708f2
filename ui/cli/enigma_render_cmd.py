"""``companion render enigma`` and ``render puzzle``: Enigma tables and puzzle cards drawn as a
camera sees them.

Scene drawing for tests and demos: the ``*_render_cmd`` modules and the demo camera are the only
parts of the command line that reach ``synth`` (``tests/test_architecture.py``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ui.cli import CommandLine
from ui.cli.enigma_inputs import (
    PUZZLE_KINDS,
    InputError,
    config_of,
    enigma_pack,
    load_json,
    puzzle_card,
    state_of_record,
)


def _render_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="an Enigma game record (JSON; - reads stdin)")
    parser.add_argument("-o", "--output", required=True, help="OUT.png")
    parser.add_argument("--pack", default="", help="art pack folder (default: "
                        "[vision.enigma] pack, "
                        "else the demo pack)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the camera effects")
    parser.add_argument("--truth", default="", help="also write the ground truth JSON here")
    parser.add_argument("--effects", default="default",
                        help="camera effects: default, all, none or a comma list")
    parser.add_argument("--config", default=None, help="configuration file")


def _render_puzzle_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", choices=PUZZLE_KINDS)
    parser.add_argument("card", help="the card (JSON file, or a card id of the puzzle data)")
    parser.add_argument("--solution", default="", help="pieces to lay (JSON); default: a "
                        "solution from the engine's solver")
    parser.add_argument("-o", "--output", required=True, help="OUT.png")
    parser.add_argument("--pack", default="", help="art pack folder (default: "
                        "[vision.enigma] pack, "
                        "else the demo pack)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the camera effects")
    parser.add_argument("--config", default=None, help="configuration file")


def _render_enigma(args: argparse.Namespace) -> int:
    from companion.enigma.catalogue import load_catalogue
    from vision.enigma.settings import TableSettings
    from vision.enigma.synth.render import TableView, render_frame
    from vision.enigma.synth.scenes import categories_of
    from vision.image_io import check_writable, write_image
    from vision.synth.effects import parse_effects

    # a typo in -o or --truth fails before the record is rendered
    check_writable(args.output)
    if args.truth:
        check_writable(args.truth, suffixes=(".json",))
    try:
        effects = parse_effects(args.effects)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    record = load_json(args.record, "record")
    if not isinstance(record, dict) or record.get("game") != "enigma" \
            or "events" not in record:
        raise InputError(f"{args.record}: not an Enigma record")
    state = state_of_record(record, args.record)
    cfg = config_of(args)
    pack = enigma_pack(args, cfg)
    view = TableView.of_state(state, pack, catalogue=load_catalogue(),
                              colours=record.get("colours"),
                              categories=categories_of(record))
    table = TableSettings.from_config(cfg)
    frame = render_frame(view, pack, table=table, seed=args.seed, effects=effects,
                         frame_size=(int(cfg.camera.width), int(cfg.camera.height)))
    write_image(args.output, frame.image)
    if args.truth:
        try:
            Path(args.truth).write_text(json.dumps(frame.truth, indent=1) + "\n",
                                        encoding="utf-8")
        except OSError as exc:
            print(f"companion: error: {args.truth}: cannot write: {exc.strerror or exc}",
                  file=sys.stderr)
            return 1
    print(f"wrote {args.output}: {len(view.tiles)} tiles, {len(view.networkers)} networkers")
    outside = _outside_markers(view, frame, pack, table)
    if outside:
        print(f"note: {len(outside)} tiles lie past the table markers "
              f"({', '.join(str(list(a)) for a in outside[:6])}"
              f"{', ...' if len(outside) > 6 else ''}): the reader asks about them",
              file=sys.stderr)
    return 0


def _outside_markers(view: Any, frame: Any, pack: Any, table: Any) -> list[Any]:
    from vision.enigma.geometry import table_geometry

    geo = table_geometry(table, pack)
    t = geo.tile_mm
    w, h = geo.frame_mm[0] / 2, geo.frame_mm[1] / 2
    sx, sy = frame.scene.start_mm
    return [at for at in sorted(view.tiles, key=lambda a: (a[1], a[0]))
            if abs(sx + at[0] * t) + t / 2 > w or abs(sy + at[1] * t) + t / 2 > h]


def _render_puzzle(args: argparse.Namespace) -> int:
    from vision.enigma.settings import MatSettings
    from vision.enigma.synth.puzzles import render_puzzle_frame
    from vision.image_io import check_writable, write_image

    check_writable(args.output)
    cfg = config_of(args)
    pack = enigma_pack(args, cfg)
    card = puzzle_card(args.kind, args.card)
    solution = load_json(args.solution, "solution") if args.solution else None
    frame = render_puzzle_frame(args.kind, card, pack, solution=solution, seed=args.seed,
                                mat=MatSettings.from_config(cfg))
    write_image(args.output, frame)
    print(f"wrote {args.output}")
    return 0


def register(cli: CommandLine) -> None:
    cli.command("render enigma", "draw the table an Enigma record reaches, as a camera frame",
                _render_args)(_render_enigma)
    cli.command("render puzzle", "draw an Enigma puzzle card with its pieces laid",
                _render_puzzle_args)(_render_puzzle)
