"""Second Chance commands: ``sheet fits``, ``sheet check``, ``sheet shape``, ``sheet deck`` and
``sheet simulate``.

The grid file is 9 lines of 9 characters: ``.`` empty, ``#`` filled, ``1`` the bonus.
Malformed input (a bad grid, a bad shape) exits 2 with one line on standard error.
"""

from __future__ import annotations

import argparse
import json
import sys

from ui.cli import EXIT_USAGE, CommandLine, read_text_input


def _fits_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--grid", required=True, help="grid file: 9 lines of 9 of . # 1 ('-': stdin)"
    )
    parser.add_argument("--shape", required=True, help="the card, e.g. '##./.##'")


def _check_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--grid", required=True, help="grid file: 9 lines of 9 of . # 1 ('-': stdin)"
    )
    parser.add_argument("--deck", help="a deck file to check the tiles against")


def _shape_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shape", help="any polyomino, e.g. '#./#./##'")


def _deck_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deck", help="a deck file (default: the shipped DEMO deck)")


def _simulate_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", default="Ana,Ben", help="names, comma-separated")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-o", "--output", help="write the record here (default: stdout)")


def _fail(message: str) -> int:
    print(f"companion: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def _fits_command(args: argparse.Namespace) -> int:
    from companion.second_chance import Grid, ShapeError, check_polyomino, placements

    try:
        grid = Grid.parse(read_text_input(args.grid))
        shape = check_polyomino(args.shape, sizes=range(1, 82))
    except OSError as exc:
        return _fail(f"cannot read {args.grid}: {exc.strerror}")
    except ShapeError as exc:
        return _fail(str(exc))
    found = placements(grid, shape)
    print(json.dumps({
        "fits": bool(found),
        "placements": len(found),
        "placement": [list(c) for c in found[0]] if found else None,
        "shape": shape.canonical().text,
    }))
    return 0


def _check_command(args: argparse.Namespace) -> int:
    from companion.second_chance import DeckError, Grid, ShapeError, check_sheet, load_deck

    try:
        grid = Grid.parse(read_text_input(args.grid))
        deck = load_deck(args.deck) if args.deck else None
    except OSError as exc:
        return _fail(f"cannot read {args.grid}: {exc.strerror}")
    except (ShapeError, DeckError) as exc:
        return _fail(str(exc))
    print(json.dumps(check_sheet(grid, deck=deck).to_json()))
    return 0


def _shape_command(args: argparse.Namespace) -> int:
    from companion.second_chance import ShapeError, parse_shape
    from companion.second_chance.shapes import polyomino_problem

    try:
        shape = parse_shape(args.shape)
    except ShapeError as exc:
        return _fail(str(exc))
    problem = polyomino_problem(shape)
    print(json.dumps({
        "shape": shape.canonical().text,
        "size": shape.size,
        "connected": shape.is_connected(),
        "legal_card": problem is None,
        "problem": problem,
        "orientations": [o.text for o in shape.orientations()],
    }))
    return 0


def _deck_command(args: argparse.Namespace) -> int:
    from collections import Counter

    from companion.second_chance import DeckError, load_deck

    try:
        deck = load_deck(args.deck)
    except DeckError as exc:
        return _fail(str(exc))
    sizes = Counter(shape.size for shape in deck.puzzle_cards())
    print(json.dumps({
        "name": deck.name,
        "status": deck.status,
        "demo": deck.is_demo,
        "start_tiles": len(deck.start_tiles),
        "puzzle_cards": deck.size,
        "cards_by_size": {str(k): sizes[k] for k in sorted(sizes)},
    }))
    return 0


def _simulate_command(args: argparse.Namespace) -> int:
    import random

    from companion.second_chance.simulate import simulate_game

    players = [p.strip() for p in args.players.split(",") if p.strip()]
    if not 1 <= len(players) <= 6 or len(set(players)) != len(players):
        return _fail(f"--players needs 1-6 different names, got {args.players!r}")
    record = simulate_game(players, rng=random.Random(args.seed))
    text = json.dumps(record, indent=1)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    else:
        print(text)
    return 0


def register(cli: CommandLine) -> None:
    cli.command("sheet fits", "does a Second Chance card fit a grid? (JSON)",
                _fits_args)(_fits_command)
    cli.command("sheet check", "check a Second Chance grid: empty cells, start, shapes (JSON)",
                _check_args)(_check_command)
    cli.command("sheet shape", "canonical form and orientations of any polyomino (JSON)",
                _shape_args)(_shape_command)
    cli.command("sheet deck", "validate a Second Chance deck file and summarise it (JSON)",
                _deck_args)(_deck_command)
    cli.command("sheet simulate", "write a random legal Second Chance game record",
                _simulate_args)(_simulate_command)
