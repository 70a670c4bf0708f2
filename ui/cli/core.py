"""Core commands: ``replay`` and ``app``."""

from __future__ import annotations

import argparse
import json
import os
import sys

from ui.cli import CommandLine, read_text_input


def _replay_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a game record (JSON); '-' reads standard input")


def add_app_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``companion app``, shared with ``python -m ui.main`` that runs it."""
    parser.add_argument("--config", help="a config file that overrides the defaults")
    parser.add_argument("--db", help="the journal database (default: in the data directory)")
    parser.add_argument(
        "--demo",
        action="store_true",
        default=None,
        help="rendered camera and simulated GPIO (the default off a Raspberry Pi)",
    )
    parser.add_argument(
        "--no-demo", dest="demo", action="store_false",
        help="real camera and GPIO even off a Raspberry Pi",
    )
    parser.add_argument("--size", help="window size WxH, e.g. 800x480 or 720x1280")


def app_argv(args: argparse.Namespace) -> list[str]:
    """``companion app``'s parsed options as the arguments of ``python -m ui.main``.

    >>> app_argv(argparse.Namespace(config=None, db="j.db", demo=True, size=None, debug=False))
    ['--db', 'j.db', '--demo']
    """
    argv: list[str] = []
    for option in ("config", "db", "size"):
        value = getattr(args, option, None)
        if value is not None:
            argv += [f"--{option}", str(value)]
    if args.demo is not None:
        argv.append("--demo" if args.demo else "--no-demo")
    if getattr(args, "debug", False):
        argv.append("--debug")
    return argv


def register(cli: CommandLine) -> None:
    @cli.command("replay", "run a game record through its rules engine", _replay_args)
    def replay_command(args: argparse.Namespace) -> int:
        from companion.errors import RecordError
        from companion.record import loads_record
        from companion.replay import EXIT_NOT_A_RECORD, replay
        from companion.strict_json import clip_quotes

        try:
            text = read_text_input(args.file)
        except OSError as exc:
            print(f"companion: error: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
            return EXIT_NOT_A_RECORD
        except UnicodeDecodeError:
            print(f"companion: error: {args.file} is not UTF-8 text", file=sys.stderr)
            return EXIT_NOT_A_RECORD
        try:
            record = loads_record(text)
        except RecordError as exc:
            print(f"companion: error: {clip_quotes(str(exc))}", file=sys.stderr)
            return EXIT_NOT_A_RECORD
        outcome = replay(record)
        if outcome.result is not None:
            print(json.dumps(outcome.result, sort_keys=False))
        if outcome.error:
            # an engine quotes the input it refuses; a 10,000-character name stays short here
            print(f"companion: error: {clip_quotes(outcome.error)}", file=sys.stderr)
        return outcome.exit_code

    @cli.command("app", "start the touchscreen app (the demo on a desktop)", add_app_arguments)
    def app_command(args: argparse.Namespace) -> int:
        # The app runs as ``python -m ui.main`` in this same process (exec keeps the PID that
        # systemd watches and the NOTIFY_SOCKET): the command line itself never loads Kivy.
        os.execv(sys.executable, [sys.executable, "-m", "ui.main", *app_argv(args)])
        return 0  # not reached: exec replaces the process
