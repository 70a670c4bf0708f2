"""The session: one game in play, its rules engine and its journal, kept in step.

The session alone turns events into rule calls (workers and widgets only report and render).
An event is checked by the engine *first*: a refused one raises and is never journaled. An
accepted one is appended to the journal - on disk - before the session's state moves on, so
whatever the screen shows can be rebuilt after a crash by :meth:`Session.resume`, which
replays the journaled events through the engine. Undo drops the last event and replays.

Every event is passed through JSON before the engine sees it, so the engine gets exactly what
the journal will hand it on replay (lists, not tuples) and a resumed game cannot drift from
the live one.

A session is not thread-safe: call it from one thread (the Kivy main thread in the app).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from companion.engine import GameRules, load_rules
from companion.errors import CompanionError, IllegalMoveError, RecordError
from companion.journal import GameFinishedError, GameSummary, Journal
from companion.record import FORMAT, Record, check_player_count, event_where, parse_record


class ResumeError(CompanionError, ValueError):
    """A journaled game cannot be rebuilt: its rules engine now refuses one of its events."""


def _normalize_event(event: Mapping[str, Any], *, index: int) -> dict[str, Any]:
    """The event as the journal will give it back: a JSON object with a string ``type``."""
    if not isinstance(event, Mapping):
        raise RecordError(f"event {index}: must be a JSON object, got {event!r}")
    try:
        data = json.loads(json.dumps(dict(event), allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise RecordError(f"event {index}: cannot be stored as JSON: {exc}") from None
    if not isinstance(data.get("type"), str):
        raise RecordError(f"event {index}: missing field 'type' (a string)")
    result: dict[str, Any] = data
    return result


class Session:
    """A game in play. Make one with :meth:`start` or :meth:`resume`::

        with Journal(path) as journal:
            session = Session.resume_latest(journal) or Session.start(
                journal, "indigo", ["Ana", "Ben", "Cleo"])
            state = session.apply({"type": "place", "player": "Ana", "cell": [1, -3],
                                   "tile": 3, "rotation": 2})
    """

    def __init__(
        self,
        journal: Journal,
        summary: GameSummary,
        rules: GameRules,
        events: list[dict[str, Any]],
        state: Any,
    ) -> None:
        # use start() or resume(); this only assembles checked parts
        self._journal = journal
        self._summary = summary
        self._rules = rules
        self._events = events
        self._state = state
        self._finished = summary.is_finished

    # --- making a session ---------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        journal: Journal,
        game: str,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        *,
        rules: GameRules | None = None,
    ) -> Session:
        """Start a new game in ``journal``.

        ``rules`` defaults to the registered engine of ``game`` (tests pass their own). Player
        names, the player count and the options are checked (by the engine too) before the
        game is journaled; a problem raises :class:`RecordError` and nothing is stored.
        """
        engine = load_rules(game) if rules is None else rules
        if engine.game != game:
            raise RecordError(f"the rules given are for {engine.game!r}, not {game!r}")
        if isinstance(players, str):
            raise RecordError(f"players must be a list of names, got the string {players!r}")
        try:
            if options is not None and not isinstance(options, Mapping):
                raise TypeError("not a mapping")
            options_json = {} if options is None else json.loads(
                json.dumps(dict(options), allow_nan=False))
        except (TypeError, ValueError) as exc:
            raise RecordError(f"options must be a JSON object, got {options!r}: {exc}") from None
        envelope = parse_record({
            "format": FORMAT,
            "game": game,
            "players": list(players),
            "options": options_json,
            "events": [],
        })
        check_player_count(envelope, engine.min_players, engine.max_players)
        state = engine.new_game(envelope.players, envelope.options)
        game_id = journal.new_game(game, envelope.players, envelope.options)
        return cls(journal, journal.game(game_id), engine, [], state)

    @classmethod
    def resume(
        cls, journal: Journal, game_id: int, *, rules: GameRules | None = None
    ) -> Session:
        """Rebuild game ``game_id`` by replaying its journaled events through the engine.

        A finished game resumes too (read-only: apply and undo then raise). An event the
        engine now refuses raises :class:`ResumeError` naming it; the journal is left as is.
        """
        summary = journal.game(game_id)
        engine = load_rules(summary.game) if rules is None else rules
        events = journal.events(game_id)
        state = cls._replay(engine, summary, events)
        return cls(journal, summary, engine, events, state)

    @classmethod
    def resume_latest(
        cls, journal: Journal, *, rules: GameRules | None = None
    ) -> Session | None:
        """The most recent unfinished game, resumed; ``None`` when every game is finished."""
        latest = journal.latest_unfinished()
        return None if latest is None else cls.resume(journal, latest.id, rules=rules)

    @staticmethod
    def _replay(rules: GameRules, summary: GameSummary, events: Sequence[dict[str, Any]]) -> Any:
        try:
            state = rules.new_game(summary.players, summary.options)
        except RecordError as exc:
            raise ResumeError(
                f"game {summary.id} ({summary.game}) cannot be resumed: {exc}"
            ) from exc
        for index, event in enumerate(events, start=1):
            try:
                state = rules.apply_event(state, event, index=index)
            except (IllegalMoveError, RecordError) as exc:
                raise ResumeError(
                    f"game {summary.id} ({summary.game}) cannot be resumed: "
                    f"{event_where(index, event)} is refused by the rules: {exc}"
                ) from exc
        return state

    # --- what the UI reads --------------------------------------------------------------------

    @property
    def journal(self) -> Journal:
        return self._journal

    @property
    def game_id(self) -> int:
        return self._summary.id

    @property
    def game(self) -> str:
        return self._summary.game

    @property
    def players(self) -> tuple[str, ...]:
        return self._summary.players

    @property
    def options(self) -> dict[str, Any]:
        return dict(self._summary.options)

    @property
    def events(self) -> tuple[dict[str, Any], ...]:
        """The accepted events, oldest first (copies: changing them changes nothing)."""
        return tuple(json.loads(json.dumps(e)) for e in self._events)

    @property
    def state(self) -> Any:
        """The engine's (frozen) state after the last accepted event."""
        return self._state

    @property
    def rules(self) -> GameRules:
        return self._rules

    @property
    def is_finished(self) -> bool:
        """True once :meth:`finish` was called (for this game, in any session)."""
        return self._finished

    @property
    def is_over(self) -> bool:
        """True when the rules say the game is over (it may not be finished yet)."""
        return bool(self.result().get("over"))

    def result(self) -> dict[str, Any]:
        """The engine's result object (``game``, ``over``, ``winners``, ``scores``...)."""
        return self._rules.result(self._state, complete=True)

    def record(self) -> Record:
        """The game as a record of ``shared/records.md``, from the journal."""
        return self._journal.record(self.game_id)

    # --- what the UI does ---------------------------------------------------------------------

    def check(self, event: Mapping[str, Any]) -> Any:
        """The state ``event`` would lead to, without journaling it or changing anything.

        Raises like :meth:`apply` (for a vision read that should be asked, not applied).
        """
        self._require_open()
        index = len(self._events) + 1
        return self._rules.apply_event(
            self._state, _normalize_event(event, index=index), index=index
        )

    def apply(self, event: Mapping[str, Any]) -> Any:
        """Apply ``event``: the engine checks it, the journal stores it, then the state moves.

        Returns the new state. :class:`IllegalMoveError` (a rule) or :class:`RecordError`
        (a malformed event) leave the journal and the state untouched.
        """
        self._require_open()
        index = len(self._events) + 1
        normalized = _normalize_event(event, index=index)
        new_state = self._rules.apply_event(self._state, normalized, index=index)
        self._journal.append(self.game_id, normalized)
        self._events.append(normalized)
        self._state = new_state
        return new_state

    def undo(self) -> dict[str, Any] | None:
        """Drop the last event and rebuild the state by replay; returns the dropped event."""
        self._require_open()
        dropped = self._journal.undo(self.game_id)
        if dropped is None:
            return None
        # the journal is the truth: rebuild from it, not from what this object remembers
        events = self._journal.events(self.game_id)
        self._state = self._replay(self._rules, self._summary, events)
        self._events = events
        return dropped

    def finish(self) -> dict[str, Any]:
        """Close the game with its current result, which is returned; it stays as history."""
        self._require_open()
        result = self.result()
        self._journal.finish(self.game_id, result)
        self._finished = True
        return result

    def _require_open(self) -> None:
        if self._finished:
            raise GameFinishedError(f"game {self.game_id} is finished; its events cannot change")

    def __repr__(self) -> str:
        return (
            f"<Session game {self.game_id} ({self.game}, {', '.join(self.players)}): "
            f"{len(self._events)} events{', finished' if self._finished else ''}>"
        )
