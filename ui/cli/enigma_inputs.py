"""What the Enigma commands read: records, reads, puzzle cards, the config and the art pack,
each refused with one clear line (exit 2, or 3 for a record the rules refuse)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ui.cli import read_text_input

if TYPE_CHECKING:
    from config.schema import Config

PUZZLE_KINDS = ("weight", "fragment", "angular", "conduit")


def load_json(path: str, what: str) -> Any:
    """A JSON file (``-``: standard input); one clear line (exit 2) when it is not."""
    try:
        return json.loads(read_text_input(path))
    except OSError as exc:
        raise InputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InputError(f"{what} {path}: not a JSON text file (it is not UTF-8 text)") \
            from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{what} {path}: not valid JSON: {exc.msg} at line {exc.lineno}") \
            from None


class InputError(ValueError):
    """A file or option of the command is not what it must be (exit 2)."""

    exit_code = 2


class IllegalRecordError(ValueError):
    """A record holds a move the rules refuse (exit 3)."""

    exit_code = 3


def enigma_data(data: Any, path: str, what: str) -> dict[str, Any]:
    """``data`` once it is an Enigma record or read; one clear line (exit 2) otherwise."""
    if not isinstance(data, dict):
        raise InputError(f"{what} {path}: not an Enigma record (a JSON object is expected)")
    game = data.get("game")
    if game != "enigma":
        seen = f'its game is "{game}"' if game else 'it has no "game": "enigma"'
        raise InputError(f"{what} {path}: not an Enigma record ({seen})")
    if "events" not in data and not isinstance(data.get("tiles"), list):
        raise InputError(f"{what} {path}: an Enigma record needs its \"events\", a previous "
                          "read its \"tiles\"")
    return data


def state_of_record(record: dict[str, Any], path: str) -> Any:
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
        raise IllegalRecordError(f"record {path}: {exc}") from None
    except (CompanionError, KeyError, TypeError, ValueError) as exc:
        raise InputError(f"record {path}: {exc}") from None
    return state


def puzzle_card(kind: str, text: str) -> Any:
    """A card from a JSON file, or the id of a card in the puzzle data (``weight-demo-1``)."""
    if not Path(text).exists() and text != "-":
        from companion.enigma.puzzles import load_puzzles

        cards = getattr(load_puzzles(), kind).cards
        if text in cards:
            return cards[text]
        raise InputError(f"{text}: no such file, and not a {kind} card id "
                          f"({', '.join(sorted(cards))})")
    return load_json(text, "card")


def config_of(args: argparse.Namespace) -> Config:
    """The configuration ``--config`` names, over the defaults."""
    from config import load_config

    return load_config(getattr(args, "config", None))


def enigma_pack(args: argparse.Namespace, cfg: Config) -> Any:
    """The art pack: ``--pack``, else the config's ``[vision.enigma] pack``, else the demo."""
    from config import art_pack_folder
    from vision.enigma.pack import load_enigma_pack

    return load_enigma_pack(args.pack or art_pack_folder(cfg, cfg.vision.enigma.pack))
