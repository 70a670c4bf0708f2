"""Journal commands: ``companion export GAME_ID`` and ``companion games``.

Both read the journal (``--db PATH``, default ``<data_dir>/journal.sqlite3`` from the config)
and never create one.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from ui.cli import EXIT_ERROR, CommandLine


def _db_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db", type=Path, help="the journal database (default: <data_dir>/journal.sqlite3)"
    )
    parser.add_argument("--config", help="a config file that overrides the defaults")


def _export_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_id", type=int, metavar="GAME_ID", help="the game's number "
                        "(see `companion games`)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the record here instead of standard output")
    parser.add_argument("--reveal", action="store_true",
                        help="include the secrets (Break the Code racks, central code, "
                             "guesses) of a game still in play; asks for confirmation")
    parser.add_argument("--yes", action="store_true",
                        help="confirm --reveal without asking (needed when standard input "
                             "is not a terminal)")
    _db_args(parser)


def _games_args(parser: argparse.ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--finished", dest="finished", action="store_true", default=None,
                       help="only finished games")
    which.add_argument("--unfinished", dest="finished", action="store_false",
                       help="only games still in play")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    _db_args(parser)


def resolve_db(args: argparse.Namespace) -> Path:
    """``--db`` when given, else the journal in the configured data directory.

    A ``--config`` file is always checked, even when ``--db`` makes it unnecessary: a bad
    file named on the command line is an error, never silently ignored.
    """
    from config import default_db_path, load_config

    if args.db is not None:
        if args.config is not None:
            load_config(args.config)
        return Path(args.db).expanduser()
    return default_db_path(load_config(args.config))


def _write_atomically(path: Path, text: str) -> None:
    # a half-written record must never replace a good one
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def format_record(data: dict[str, Any]) -> str:
    """A record as JSON text with one event per line, easy to read and to diff."""

    def dump(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = ["{"]
    for key, value in data.items():
        if key == "events":
            continue
        lines.append(f"  {dump(key)}: {dump(value)},")
    events = data.get("events", [])
    if events:
        lines.append('  "events": [')
        lines.extend(f"    {dump(e)}," for e in events[:-1])
        lines.append(f"    {dump(events[-1])}")
        lines.append("  ]")
    else:
        lines.append('  "events": []')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _summary_json(summary: Any) -> dict[str, Any]:
    return {
        "id": summary.id,
        "game": summary.game,
        "players": list(summary.players),
        "options": dict(summary.options),
        "started": summary.started.isoformat(),
        "finished": None if summary.finished is None else summary.finished.isoformat(),
        "events": summary.event_count,
        "result": summary.result,
    }


def _summary_line(summary: Any) -> str:
    started = summary.started.astimezone().strftime("%Y-%m-%d %H:%M")
    if summary.finished is None:
        status = "in play"
    else:
        winners = (summary.result or {}).get("winners") or []
        status = "finished" + (f", won by {', '.join(winners)}" if winners else "")
    return (f"{summary.id:>5}  {summary.game:<15} {started}  {summary.event_count:>4} events  "
            f"{', '.join(summary.players)}  ({status})")


def _is_over(record: Any, summary: Any) -> bool:
    # A game the rules call over has shown its secrets at the table, journaled finish or not.
    from companion.replay import replay

    return bool(summary.is_finished or (replay(record).result or {}).get("over"))


def _confirm_reveal(args: argparse.Namespace) -> bool:
    """Whether the secrets of game ``args.game_id`` may be exported; says why not on stderr."""
    if args.yes:
        return True
    if not sys.stdin.isatty():
        print("companion: error: --reveal shows every secret of a game still in play and "
              "asks for confirmation; standard input is not a terminal, add --yes to confirm",
              file=sys.stderr)
        return False
    print(f"Game {args.game_id} is still in play. Show every rack, the central code and the "
          "guesses? [y/N] ", end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline().strip().lower()
    if answer in ("y", "yes"):
        return True
    print("companion: nothing exported: the secrets were not revealed", file=sys.stderr)
    return False


def _shown_record(journal: Any, args: argparse.Namespace) -> Any:
    """The record to export, its secrets covered while the game is in play; ``None`` when
    the user refused to reveal them."""
    from companion.export import cover_secrets, has_secrets

    record = journal.record(args.game_id)
    if not has_secrets(record) or _is_over(record, journal.game(args.game_id)):
        return record
    if args.reveal:
        return record if _confirm_reveal(args) else None
    print(f"companion: game {args.game_id} is still in play: its racks, central code and "
          "guesses are covered (--reveal includes them)", file=sys.stderr)
    return cover_secrets(record)


def register(cli: CommandLine) -> None:
    @cli.command("export", "write a game of the journal as a record (JSON)", _export_args)
    def export_command(args: argparse.Namespace) -> int:
        from companion.errors import JournalError
        from companion.journal import Journal

        db = resolve_db(args)
        try:
            with Journal(db, create=False) as journal:
                record = _shown_record(journal, args)
        except JournalError as exc:
            print(f"companion: error: {exc}", file=sys.stderr)
            return EXIT_ERROR
        if record is None:
            return EXIT_ERROR
        text = format_record(record.to_json())
        if args.output in (None, "-"):
            sys.stdout.write(text)
        else:
            try:
                _write_atomically(Path(args.output), text)
            except OSError as exc:
                print(f"companion: error: cannot write {args.output}: {exc.strerror}",
                      file=sys.stderr)
                return EXIT_ERROR
        return 0

    @cli.command("games", "list the games in the journal, newest first", _games_args)
    def games_command(args: argparse.Namespace) -> int:
        from companion.errors import JournalError
        from companion.journal import Journal

        db = resolve_db(args)
        try:
            with Journal(db, create=False) as journal:
                games = journal.games(finished=args.finished)
        except JournalError as exc:
            print(f"companion: error: {exc}", file=sys.stderr)
            return EXIT_ERROR
        for summary in games:
            if args.json:
                print(json.dumps(_summary_json(summary), ensure_ascii=False))
            else:
                print(_summary_line(summary))
        if not games and not args.json:
            print(f"no games in {db}", file=sys.stderr)
        return 0
