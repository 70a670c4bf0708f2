"""``companion config check [FILE]`` and ``companion config show [FILE]``."""

from __future__ import annotations

import argparse
import sys

from ui.cli import EXIT_ERROR, CommandLine


def _file_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        nargs="?",
        help="an override file, merged with the highest precedence (as --config FILE)",
    )


def register(cli: CommandLine) -> None:
    @cli.command(
        "config check",
        "validate the merged configuration (default.toml, user, /etc, $COMPANION_CONFIG, FILE)",
        _file_arg,
    )
    def config_check(args: argparse.Namespace) -> int:
        from config import ConfigError, load_config
        from config.paths import check_pack_folders

        try:
            cfg = load_config(args.file)
            check_pack_folders(cfg)
        except ConfigError as exc:
            print(f"companion: error: {exc}", file=sys.stderr)
            return EXIT_ERROR
        print(f"config OK: {', '.join(cfg.sources)}")
        return 0

    @cli.command("config show", "print the merged configuration as TOML", _file_arg)
    def config_show(args: argparse.Namespace) -> int:
        from config import ConfigError, load_config, to_toml

        try:
            cfg = load_config(args.file)
        except ConfigError as exc:
            print(f"companion: error: {exc}", file=sys.stderr)
            return EXIT_ERROR
        print(f"# merged from: {', '.join(cfg.sources)}")
        print(to_toml(cfg), end="")
        return 0
