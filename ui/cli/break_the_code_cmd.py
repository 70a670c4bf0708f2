"""Break the Code commands: ``code answer``, ``code check`` and ``code solve``."""

from __future__ import annotations

import argparse
import json
import sys

from ui.cli import CommandLine, read_text_input

EXIT_BAD_INPUT = 1


def _answer_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rack", required=True, help='the answering rack, e.g. "0b 1w 5g 5g 9b"')
    parser.add_argument("--card", required=True, help="question card Q01..Q21")
    parser.add_argument("--number", type=int, help="the asker's number on a choose-one card")
    parser.add_argument(
        "--players", type=int, choices=(2, 3, 4),
        help="player count (default: 4 for a 4-tile rack, else 2)",
    )


def _check_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--secret", required=True, help="the secret code")
    parser.add_argument("--guess", required=True, help="the guessed code, in rack order")


def _solve_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="a Break the Code game record; '-' reads standard input")
    parser.add_argument("--as", dest="player", required=True, help="the player whose view to use")
    parser.add_argument(
        "--threshold", type=float, default=None,
        help="3-4 players: suggest a guess at this probability (default 1.0)",
    )
    parser.add_argument("--top", type=int, default=10, help="how many likeliest codes to list")


def _answer_command(args: argparse.Namespace) -> int:
    from companion.break_the_code.cards import answer, get_card
    from companion.break_the_code.tiles import parse_code

    rack = parse_code(args.rack, canonical=True)
    players = args.players or (4 if len(rack) == 4 else 2)
    expected = 4 if players == 4 else 5
    if len(rack) != expected:
        print(
            f"companion: error: with {players} players a rack holds {expected} tiles, "
            f"got {len(rack)}",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    card = get_card(args.card.upper())
    value = answer(card.id, rack, number=args.number)
    out: dict[str, object] = {"card": card.id}
    if card.is_choice:
        out["number"] = args.number
    out["answer"] = value
    print(json.dumps(out))
    return 0


def _check_command(args: argparse.Namespace) -> int:
    from companion.break_the_code.tiles import parse_code

    secret = parse_code(args.secret, canonical=True)
    if len(secret) not in (4, 5):
        print(f"companion: error: a secret code has 4 or 5 tiles, got {len(secret)}",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    guess = parse_code(args.guess, length=len(secret), canonical=True)
    print(json.dumps({"correct": guess == secret}))
    return 0


def _solve_command(args: argparse.Namespace) -> int:
    from companion.break_the_code.solver import rank_questions, suggest, view_of
    from companion.errors import RecordError
    from companion.record import loads_record
    from companion.replay import EXIT_NOT_A_RECORD, replay

    try:
        record = loads_record(read_text_input(args.record))
    except OSError as exc:
        print(f"companion: error: cannot read {args.record}: {exc.strerror}", file=sys.stderr)
        return EXIT_NOT_A_RECORD
    except UnicodeDecodeError:
        print(f"companion: error: {args.record} is not UTF-8 text", file=sys.stderr)
        return EXIT_NOT_A_RECORD
    except RecordError as exc:
        print(f"companion: error: {exc}", file=sys.stderr)
        return EXIT_NOT_A_RECORD
    if record.game != "break-the-code":
        print(f"companion: error: {args.record} is a record of {record.game}, not of "
              "break-the-code", file=sys.stderr)
        return EXIT_NOT_A_RECORD
    if args.player not in record.players:
        print(f"companion: error: {args.player!r} does not play; players: "
              f"{', '.join(record.players)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    outcome = replay(record)
    if outcome.exit_code != 0:
        print(f"companion: error: {outcome.error}", file=sys.stderr)
        return outcome.exit_code
    state = outcome.final_state
    if not state.dealt:
        print("companion: error: the record has no deal yet", file=sys.stderr)
        return EXIT_BAD_INPUT
    view = view_of(state, args.player)
    suggestion = suggest(view, guess_threshold=args.threshold)
    out: dict[str, object] = {"player": args.player, "target": view.target}
    out.update(suggestion.to_json(top=args.top))
    out["questions"] = [q.to_json() for q in rank_questions(view, suggestion.candidates)[:5]]
    print(json.dumps(out))
    return 0


def register(cli: CommandLine) -> None:
    cli.command("code answer", "answer a question card for a rack (JSON)",
                _answer_args)(_answer_command)
    cli.command("code check", "check a guess against a secret code", _check_args)(_check_command)
    cli.command("code solve", "list the codes still possible for a player, and what to ask",
                _solve_args)(_solve_command)
