"""The ``companion`` command line.

Commands are spread over small modules, one per area, each with a ``register(cli)`` function
that declares its commands on a :class:`CommandLine`. Heavy imports (cv2, kivy, gpiozero) stay
inside the command functions so that ``companion --version`` and ``companion replay`` start fast.

Every error ends as one line on stderr and a non-zero exit, unless ``--debug`` is given.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Callable, Sequence

from companion import __version__

#: Modules that declare commands. A module missing from an installation is skipped.
COMMAND_MODULES = (
    "ui.cli.core",
    "ui.cli.config_cmd",
    "ui.cli.journal_cmd",
    "ui.cli.second_chance_cmd",
    "ui.cli.break_the_code_cmd",
    "ui.cli.hardware_cmd",
    "ui.cli.vision_cmd",
    "ui.cli.indigo_vision_cmd",
    "ui.cli.indigo_render_cmd",
    "ui.cli.enigma_vision_cmd",
    "ui.cli.enigma_render_cmd",
    "ui.cli.sheet_vision_cmd",
    "ui.cli.sheet_render_cmd",
    "ui.cli.code_vision_cmd",
    "ui.cli.code_render_cmd",
)

#: Help lines of the command groups, whose commands come from several modules.
GROUP_HELP = {
    "config": "check or show the configuration",
    "sheet": "Second Chance sheet tools",
    "code": "Break the Code: answer a card, check a guess, solve from a record",
    "hardware": "the light bar, buzzer and buttons",
    "print": "printable markers and score sheets (PDF or PNG)",
    "render": "draw a game state or a piece as a camera would see it",
    "read": "read a camera image into the game's own notation (JSON)",
    "teach": "build an art pack from photos of your own pieces",
    "check": "check a puzzle solution in a camera image",
    "calibrate": "measure where a board lies between the table markers",
}

#: Exit status for a usage or input error that is not more specific.
EXIT_ERROR = 1
EXIT_USAGE = 2

Handler = Callable[[argparse.Namespace], int]
ArgsAdder = Callable[[argparse.ArgumentParser], None]


def read_text_input(path: str) -> str:
    """The text of file ``path``, or of standard input for ``-`` (raises ``OSError``)."""
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


class CommandLine:
    """A tree of commands, e.g. ``render indigo``, built on argparse sub-parsers."""

    def __init__(self) -> None:
        self.parser = argparse.ArgumentParser(
            prog="companion",
            description="Tabletop Companion: reads, scores and times real-table games.",
        )
        self.parser.add_argument("--version", action="version", version=f"companion {__version__}")
        self.parser.add_argument(
            "--debug", action="store_true", help="show tracebacks and debug logging"
        )
        self._groups: dict[tuple[str, ...], argparse._SubParsersAction[argparse.ArgumentParser]] = {
            (): self.parser.add_subparsers(dest="command", metavar="COMMAND")
        }
        self._parsers: dict[tuple[str, ...], argparse.ArgumentParser] = {(): self.parser}

    def _parser_for(self, path: tuple[str, ...], help_text: str) -> argparse.ArgumentParser:
        if path in self._parsers:
            return self._parsers[path]
        parent = path[:-1]
        parent_parser = self._parser_for(parent, GROUP_HELP.get(" ".join(parent), ""))
        if parent not in self._groups:
            self._groups[parent] = parent_parser.add_subparsers(
                dest=f"sub_{len(parent)}", metavar="WHAT"
            )
            parent_parser.set_defaults(_group=parent_parser)
        parser = self._groups[parent].add_parser(path[-1], help=help_text or None)
        self._parsers[path] = parser
        return parser

    def command(
        self, name: str, help_text: str, add_arguments: ArgsAdder | None = None
    ) -> Callable[[Handler], Handler]:
        """Declare ``name`` (words separated by spaces) with its arguments and handler."""

        def decorate(handler: Handler) -> Handler:
            parser = self._parser_for(tuple(name.split()), help_text)
            if add_arguments is not None:
                add_arguments(parser)
            parser.set_defaults(_handler=handler, _group=None)
            return handler

        return decorate


def build_command_line() -> CommandLine:
    cli = CommandLine()
    for module_name in COMMAND_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue
            raise
        module.register(cli)
    return cli


def debug_first(args: list[str]) -> list[str]:
    """``--debug`` may be given after the command too (``companion replay x.json --debug``):
    argparse knows it only before the command, so it is moved there. Words after ``--`` are
    arguments, never options, and stay where they are."""
    end = args.index("--") if "--" in args else len(args)
    if "--debug" not in args[:end]:
        return args
    return ["--debug"] + [a for a in args[:end] if a != "--debug"] + args[end:]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``companion`` console script."""
    args_list = debug_first(list(sys.argv[1:] if argv is None else argv))
    cli = build_command_line()
    args = cli.parser.parse_args(args_list)
    logging.basicConfig(
        level=logging.DEBUG if args.debug else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    handler: Handler | None = getattr(args, "_handler", None)
    if handler is None:
        group: argparse.ArgumentParser = getattr(args, "_group", None) or cli.parser
        group.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("companion: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_ERROR
    except Exception as exc:  # the one place that turns any error into one clear line
        if args.debug:
            raise
        code = getattr(exc, "exit_code", EXIT_ERROR)
        print(f"companion: error: {exc}", file=sys.stderr)
        return int(code)


def run() -> None:
    sys.exit(main())
