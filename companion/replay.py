"""``companion replay``: run a record through its game's rules engine.

Exit codes follow ``shared/records.md``: 0 when every event applied, 2 when the document is
not a valid record, 3 when an event breaks a rule (and the result as it stood before it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.engine import load_rules
from companion.errors import IllegalMoveError, RecordError
from companion.export import is_covered
from companion.record import Record, check_player_count, event_where

EXIT_OK = 0
EXIT_NOT_A_RECORD = 2
EXIT_ILLEGAL = 3


@dataclass(frozen=True)
class ReplayOutcome:
    """What a replay produced: the result object, the exit code and the error line if any."""

    result: dict[str, Any] | None
    exit_code: int
    error: str | None = None
    final_state: Any = None


def replay(record: Record) -> ReplayOutcome:
    """Apply every event of ``record``; stop at the first refused one."""
    try:
        rules = load_rules(record.game)
        check_player_count(record, rules.min_players, rules.max_players)
        state = rules.new_game(record.players, record.options)
    except RecordError as exc:
        return ReplayOutcome(None, EXIT_NOT_A_RECORD, str(exc))
    for index, event in enumerate(record.events, start=1):
        try:
            state = rules.apply_event(state, event, index=index)
        except RecordError as exc:
            return ReplayOutcome(None, EXIT_NOT_A_RECORD, str(exc))
        except IllegalMoveError as exc:
            before = rules.result(state, complete=exc.closes_record)
            message = str(exc)
            where = event_where(index, event)
            if is_covered(event):
                message = (f"{where}: its secrets are covered: the record was exported while "
                           "the game was in play (`companion export --reveal`, or an export "
                           "after the end, replays)")
            if not message.startswith("event "):
                message = f"{where}: {message}"
            message += f"; state before it: {json.dumps(before, sort_keys=True)}"
            return ReplayOutcome(before, EXIT_ILLEGAL, message, state)
    return ReplayOutcome(rules.result(state, complete=True), EXIT_OK, None, state)
