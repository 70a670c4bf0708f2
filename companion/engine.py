"""The one shape every game's rules take, and the registry that finds them by game name.

A rules engine is pure: a frozen state, ``apply_event(state, event) -> state`` raising
:class:`~companion.errors.IllegalMoveError` for a broken rule, and ``result(state)`` for the
JSON result of ``companion replay``. The session, the journal and the replay command all drive
games through this protocol only, so a new game plugs in by adding a module to ``ENGINES``.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from companion.errors import EngineUnavailableError, RecordError

#: game name -> module that defines ``RULES`` for it.
ENGINES: dict[str, str] = {
    "indigo": "companion.indigo",
    "enigma": "companion.enigma",
    "second-chance": "companion.second_chance",
    "break-the-code": "companion.break_the_code",
}


class GameRules(Protocol):
    """What the session and ``companion replay`` need from a game's rules engine."""

    #: the record's ``game`` name
    game: str
    #: inclusive range of player counts
    min_players: int
    max_players: int

    def new_game(self, players: Sequence[str], options: Mapping[str, Any]) -> Any:
        """The state before the first event. Raises RecordError for a bad option value."""
        ...

    def apply_event(self, state: Any, event: Mapping[str, Any], *, index: int) -> Any:
        """Apply one record event (1-based ``index``, for messages) and return the new state.

        Raises RecordError when the event is malformed (unknown type, missing field, wrong
        JSON type) and IllegalMoveError when it breaks a rule.
        """
        ...

    def result(self, state: Any, *, complete: bool) -> dict[str, Any]:
        """The replay result: ``game``, ``over``, ``winners``, ``scores`` plus game fields.

        ``complete`` is true when the record ended here, false when a later event was refused.
        Secrets (Break the Code) must not appear unless the game is over.
        """
        ...


def load_rules(game: str) -> GameRules:
    """Find the rules engine for ``game``; a game without one raises EngineUnavailableError."""
    module_name = ENGINES.get(game)
    if module_name is None:
        raise RecordError(f"unknown game {game!r}; known games: {', '.join(ENGINES)}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise EngineUnavailableError(
                f"the {game} rules engine is not available in this version"
            ) from exc
        raise
    rules = getattr(module, "RULES", None)
    if rules is None:
        raise EngineUnavailableError(f"the {game} rules engine is not available in this version")
    return rules  # type: ignore[no-any-return]
