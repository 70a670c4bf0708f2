"""Enigma vision commands: ``render enigma``, ``read enigma``, ``render puzzle``,
``check puzzle``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ui.cli import CommandLine
from ui.cli.images import read_image_file

if TYPE_CHECKING:
    from config.schema import Config

PUZZLE_KINDS = ("weight", "fragment", "angular", "conduit")


def _load_json(path: str, what: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        return json.loads(text)
    except OSError as exc:
        raise _InputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise _InputError(f"{what} {path}: not a JSON text file (it is not UTF-8 text)") \
            from None
    except json.JSONDecodeError as exc:
        raise _InputError(f"{what} {path}: not valid JSON: {exc.msg} at line {exc.lineno}") \
            from None


class _InputError(ValueError):
    exit_code = 2


class _IllegalRecordError(ValueError):
    exit_code = 3


def _enigma_data(data: Any, path: str, what: str) -> dict[str, Any]:
    """``data`` once it is an Enigma record or read; one clear line (exit 2) otherwise."""
    if not isinstance(data, dict):
        raise _InputError(f"{what} {path}: not an Enigma record (a JSON object is expected)")
    game = data.get("game")
    if game != "enigma":
        seen = f'its game is "{game}"' if game else 'it has no "game": "enigma"'
        raise _InputError(f"{what} {path}: not an Enigma record ({seen})")
    if "events" not in data and not isinstance(data.get("tiles"), list):
        raise _InputError(f"{what} {path}: an Enigma record needs its \"events\", a previous "
                          "read its \"tiles\"")
    return data


def _state_of_record(record: dict[str, Any], path: str) -> Any:
    """The state an Enigma record reaches: exit 3 for a move the rules refuse, 2 for a record
    that is malformed."""
    from companion.enigma.game import apply, new_game
    from companion.enigma.rules import parse_event, parse_options
    from companion.errors import CompanionError, IllegalMoveError

    try:
        state = new_game(list(record.get("players", [])),
                         parse_options(record.get("options") or {}))
        for index, event in enumerate(record.get("events", []), start=1):
            state = apply(state, parse_event(event, index=index))
    except IllegalMoveError as exc:
        raise _IllegalRecordError(f"record {path}: {exc}") from None
    except (CompanionError, KeyError, TypeError, ValueError) as exc:
        raise _InputError(f"record {path}: {exc}") from None
    return state


def _card(kind: str, text: str) -> Any:
    """A card from a JSON file, or the id of a card in the puzzle data (``weight-demo-1``)."""
    if not Path(text).exists() and text != "-":
        from companion.enigma.puzzles import load_puzzles

        cards = getattr(load_puzzles(), kind).cards
        if text in cards:
            return cards[text]
        raise _InputError(f"{text}: no such file, and not a {kind} card id "
                          f"({', '.join(sorted(cards))})")
    return _load_json(text, "card")


def _config(args: argparse.Namespace) -> Config:
    from config import load_config

    return load_config(getattr(args, "config", None))


def _pack(args: argparse.Namespace, cfg: Config) -> Any:
    from vision.enigma.pack import load_enigma_pack

    folder = args.pack or ""
    if not folder:
        configured = str(getattr(getattr(cfg, "vision", None), "pack", "") or "")
        if configured and (Path(configured) / "manifest.json").exists():
            data = json.loads((Path(configured) / "manifest.json").read_text(encoding="utf-8"))
            if data.get("game") == "enigma":
                folder = configured
    return load_enigma_pack(folder or None)


def _render_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="an Enigma game record (JSON; - reads stdin)")
    parser.add_argument("-o", "--output", required=True, help="OUT.png")
    parser.add_argument("--pack", default="", help="art pack folder (default: the demo pack)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the camera effects")
    parser.add_argument("--truth", default="", help="also write the ground truth JSON here")
    parser.add_argument("--effects", default="default",
                        help="camera effects: default, all, none or a comma list")
    parser.add_argument("--config", default=None, help="configuration file")


def _read_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="a camera frame (PNG/JPEG)")
    parser.add_argument("--pack", default="", help="art pack folder (default: the demo pack)")
    parser.add_argument("--after", default="", help="the last accepted state: a record or "
                        "a previous read (JSON); changes the rules do not allow become questions")
    parser.add_argument("--config", default=None, help="configuration file")


def _check_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", choices=PUZZLE_KINDS)
    parser.add_argument("image", help="a camera frame of the solved puzzle")
    parser.add_argument("--card", default="", help="the card's data (JSON file, or a card id "
                        "of the puzzle data), when it is not read from the frame")
    parser.add_argument("--pack", default="", help="art pack folder (default: the demo pack)")
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


def _render_puzzle_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", choices=PUZZLE_KINDS)
    parser.add_argument("card", help="the card (JSON file, or a card id of the puzzle data)")
    parser.add_argument("--solution", default="", help="pieces to lay (JSON); default: a "
                        "solution from the engine's solver")
    parser.add_argument("-o", "--output", required=True, help="OUT.png")
    parser.add_argument("--pack", default="", help="art pack folder (default: the demo pack)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the camera effects")
    parser.add_argument("--config", default=None, help="configuration file")


def register(cli: CommandLine) -> None:
    @cli.command("render enigma", "draw the table an Enigma record reaches, as a camera frame",
                 _render_args)
    def render_enigma(args: argparse.Namespace) -> int:
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
            raise _InputError(str(exc)) from None
        record = _load_json(args.record, "record")
        if not isinstance(record, dict) or record.get("game") != "enigma" \
                or "events" not in record:
            raise _InputError(f"{args.record}: not an Enigma record")
        state = _state_of_record(record, args.record)
        cfg = _config(args)
        pack = _pack(args, cfg)
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

    @cli.command("read enigma", "read the Enigma table from a camera frame (JSON)", _read_args)
    def read_enigma_cmd(args: argparse.Namespace) -> int:
        from vision.enigma.reader import read_enigma
        from vision.enigma.settings import ReaderSettings
        from vision.errors import FrameRefusedError

        cfg = _config(args)
        pack = _pack(args, cfg)
        image = read_image_file(args.image)
        accepted = None
        if args.after:
            from companion.errors import CompanionError, IllegalMoveError
            from vision.enigma.rules_check import accepted_from_json

            data = _enigma_data(_load_json(args.after, "--after"), args.after, "--after")
            try:
                accepted = accepted_from_json(data, pack_colours=list(pack.networkers))
            except IllegalMoveError as exc:
                raise _IllegalRecordError(f"--after {args.after}: {exc}") from None
            except (CompanionError, KeyError, TypeError, ValueError, IndexError) as exc:
                raise _InputError(f"--after {args.after}: {exc}") from None
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

    @cli.command("check puzzle", "check a solved Enigma puzzle in a camera frame",
                 _check_args)
    def check_puzzle(args: argparse.Namespace) -> int:
        from vision.enigma.puzzles.check import check_puzzle_frame
        from vision.enigma.settings import PuzzleSettings

        cfg = _config(args)
        pack = _pack(args, cfg)
        card = _card(args.kind, args.card) if args.card else None
        image = read_image_file(args.image)
        verdict = check_puzzle_frame(args.kind, image, pack, card=card,
                                     settings=PuzzleSettings.from_config(cfg))
        print(json.dumps(verdict))
        return 0

    @cli.command("teach enigma", "teach an Enigma art pack from a photo of your pieces",
                 _teach_args)
    def teach_enigma(args: argparse.Namespace) -> int:
        from vision.enigma.settings import TableSettings
        from vision.enigma.teach import parse_samples, teach_colours, teach_icons, teach_start

        cfg = _config(args)
        table = TableSettings.from_config(cfg)
        pack = _pack(args, cfg)
        image = read_image_file(args.image)
        if not (args.start or args.sample or args.icon):
            raise _InputError("say what the frame teaches: --start, --sample or --icon")
        if args.start:
            pack = teach_start(image, pack, table=table)
        if args.sample:
            pack = teach_colours(image, pack, parse_samples(args.sample), table=table)
        if args.icon:
            pack = teach_icons(image, pack, parse_samples(args.icon), table=table)
        folder = pack.save(Path(args.output))
        print(f"wrote {folder}: tile {pack.tile_mm:g} mm")
        return 0

    @cli.command("render puzzle", "draw an Enigma puzzle card with its pieces laid",
                 _render_puzzle_args)
    def render_puzzle(args: argparse.Namespace) -> int:
        from vision.enigma.settings import MatSettings
        from vision.enigma.synth.puzzles import render_puzzle_frame
        from vision.image_io import check_writable, write_image

        check_writable(args.output)
        cfg = _config(args)
        pack = _pack(args, cfg)
        card = _card(args.kind, args.card)
        solution = _load_json(args.solution, "solution") if args.solution else None
        frame = render_puzzle_frame(args.kind, card, pack, solution=solution, seed=args.seed,
                                    mat=MatSettings.from_config(cfg))
        write_image(args.output, frame)
        print(f"wrote {args.output}")
        return 0
