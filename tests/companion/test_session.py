"""The session with a tiny fake rules engine: check first, journal next, then move the state;
undo and resume rebuild by replay."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from companion import session as session_module
from companion.errors import IllegalMoveError, RecordError
from companion.journal import GameFinishedError, Journal
from companion.record import parse_record
from companion.session import ResumeError, Session


@dataclasses.dataclass(frozen=True)
class CountState:
    players: tuple[str, ...]
    totals: tuple[int, ...]
    turn: int = 0
    over: bool = False
    target: int = 5


class CountingRules:
    """Players take turns scoring 1..3 points; ``end`` stops; reaching ``target`` wins."""

    game = "indigo"
    min_players = 2
    max_players = 3

    def __init__(self) -> None:
        self.applied = 0  # how many times apply_event ran, to see replays

    def new_game(self, players: Sequence[str], options: Mapping[str, Any]) -> CountState:
        target = options.get("target", 5)
        if not isinstance(target, int) or target < 1:
            raise RecordError(f"option 'target' must be a positive integer, got {target!r}")
        return CountState(tuple(players), (0,) * len(players), target=target)

    def apply_event(self, state: CountState, event: Mapping[str, Any], *, index: int) -> Any:
        self.applied += 1
        if state.over:
            raise IllegalMoveError(f"event {index}: the game is over")
        if event["type"] == "end":
            return dataclasses.replace(state, over=True)
        if event["type"] != "score":
            raise RecordError(f"event {index}: unknown type {event['type']!r}")
        if event.get("player") != state.players[state.turn]:
            whose, who = state.players[state.turn], event.get("player")
            raise IllegalMoveError(f"event {index}: it is {whose}'s turn, not {who}")
        points = event.get("points")
        if not isinstance(points, int) or not 1 <= points <= 3:
            raise IllegalMoveError(f"event {index}: points must be 1..3, got {points!r}")
        totals = list(state.totals)
        totals[state.turn] += points
        over = totals[state.turn] >= state.target
        return dataclasses.replace(state, totals=tuple(totals),
                                   turn=(state.turn + 1) % len(state.players), over=over)

    def result(self, state: CountState, *, complete: bool) -> dict[str, Any]:
        best = max(state.totals)
        winners = [p for p, t in zip(state.players, state.totals, strict=True) if t == best]
        return {"game": self.game, "over": state.over, "winners": winners if state.over else [],
                "scores": dict(zip(state.players, state.totals, strict=True))}


def score(player: str, points: int, **extra: Any) -> dict[str, Any]:
    return {"type": "score", "player": player, "points": points, **extra}


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "j.sqlite3") as j:
        yield j


@pytest.fixture
def rules() -> CountingRules:
    return CountingRules()


def test_start_journals_the_game(journal: Journal, rules: CountingRules) -> None:
    s = Session.start(journal, "indigo", ["Ana", "Ben"], {"target": 7}, rules=rules)
    assert (s.game, s.players, s.options, s.events) == ("indigo", ("Ana", "Ben"), {"target": 7}, ())
    assert s.state == CountState(("Ana", "Ben"), (0, 0), target=7)
    summary = journal.game(s.game_id)
    assert (summary.game, summary.players, summary.options) == ("indigo", ("Ana", "Ben"),
                                                                {"target": 7})
    assert s.rules is rules and s.journal is journal and not s.is_finished


@pytest.mark.parametrize(("players", "options", "message"), [
    (["Ana"], {}, "indigo takes 2-3 players, the record has 1"),
    (["Ana", "Ana"], {}, "player names must be unique"),
    (["Ana", ""], {}, "player 2 must be a non-empty name"),
    ("AnaBen", {}, "players must be a list of names"),
    (["Ana", "Ben"], {"target": 0}, "option 'target' must be a positive integer"),
    (["Ana", "Ben"], {"target": {1, 2}}, "options must be a JSON object"),
    (["Ana", "Ben"], [("target", 3)], "options must be a JSON object"),
])
def test_a_bad_start_stores_nothing(journal: Journal, rules: CountingRules, players: Any,
                                    options: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Session.start(journal, "indigo", players, options, rules=rules)
    assert journal.games() == []


def test_rules_for_another_game_are_refused(journal: Journal, rules: CountingRules) -> None:
    with pytest.raises(RecordError, match="rules given are for 'indigo', not 'enigma'"):
        Session.start(journal, "enigma", ["Ana", "Ben"], rules=rules)


def test_apply_checks_then_journals_then_moves(journal: Journal, rules: CountingRules) -> None:
    s = Session.start(journal, "indigo", ["Ana", "Ben"], rules=rules)
    state = s.apply(score("Ana", 2))
    assert state is s.state and state.totals == (2, 0)
    assert journal.events(s.game_id) == [score("Ana", 2)]
    s.apply(score("Ben", 3))
    assert s.state.totals == (2, 3)
    assert s.events == (score("Ana", 2), score("Ben", 3))
    assert journal.events(s.game_id) == list(s.events)


@pytest.mark.parametrize(("event", "error", "message"), [
    (score("Ben", 1), IllegalMoveError, "event 2: it is Ana's turn, not Ben"),
    (score("Ana", 4), IllegalMoveError, "event 2: points must be 1..3, got 4"),
    ({"type": "dance"}, RecordError, "event 2: unknown type 'dance'"),
    ({"player": "Ana"}, RecordError, "event 2: missing field 'type'"),
    (score("Ana", 1, at=object()), RecordError, "event 2: cannot be stored as JSON"),
])
def test_a_refused_event_is_never_journaled(journal: Journal, rules: CountingRules,
                                            event: dict[str, Any], error: type[Exception],
                                            message: str) -> None:
    s = Session.start(journal, "indigo", ["Ana", "Ben"], rules=rules)
    s.apply(score("Ana", 1))
    s.apply(score("Ben", 1))
    before = s.state
    with pytest.raises(error, match=message.replace("event 2", "event 3")):
        s.apply(event)
    assert s.state == before
    assert len(s.events) == 2 and len(journal.events(s.game_id)) == 2


def test_events_reach_the_engine_as_json(journal: Journal) -> None:
    seen: list[Any] = []

    class Recording(CountingRules):
        def apply_event(self, state: CountState, event: Mapping[str, Any], *,
                        index: int) -> Any:
            seen.append(event)
            return super().apply_event(state, event, index=index)

    s = Session.start(journal, "indigo", ["Ana", "Ben"], rules=Recording())
    s.apply(score("Ana", 1, cell=(1, -3)))
    assert seen[-1]["cell"] == [1, -3]  # a tuple arrives as the list the journal replays
    assert journal.events(s.game_id)[0]["cell"] == [1, -3]


def test_check_changes_nothing(journal: Journal, rules: CountingRules) -> None:
    s = Session.start(journal, "indigo", ["Ana", "Ben"], rules=rules)
    assert s.check(score("Ana", 3)).totals == (3, 0)
    with pytest.raises(IllegalMoveError):
        s.check(score("Ben", 3))
    assert s.state.totals == (0, 0) and s.events == () and journal.events(s.game_id) == []


def test_events_are_copies(journal: Journal, rules: CountingRules) -> None:
    s = Session.start(journal, "indigo", ["Ana", "Ben"], rules=rules)
    s.apply(score("Ana", 1))
    s.events[0]["points"] = 99
    assert s.events[0]["points"] == 1


def test_undo_replays_what_is_left(journal: Journal, rules: CountingRules) -> None:
    s = Session.start(journal, "indigo", ["Ana", "Ben"], rules=rules)
    assert s.undo() is None
    for who, pts in [("Ana", 1), ("Ben", 2), ("Ana", 3)]:
        s.apply(score(who, pts))
    rules.applied = 0
    assert s.undo() == score("Ana", 3)
    assert rules.applied == 2  # rebuilt by replaying the two events left
    assert s.state == CountState(("Ana", "Ben"), (1, 2), turn=0)
    assert s.events == (score("Ana", 1), score("Ben", 2))
    assert journal.events(s.game_id) == list(s.events)
    s.apply(score("Ana", 2))  # play goes on from the rebuilt state
    assert s.state.totals == (3, 2)


def test_resume_rebuilds_the_same_state(tmp_path: Path, rules: CountingRules) -> None:
    path = tmp_path / "j.sqlite3"
    live = Journal(path)  # never closed: as if the app were killed
    s = Session.start(live, "indigo", ["Ana", "Ben", "Cleo"], {"target": 20}, rules=rules)
    for who, pts in [("Ana", 1), ("Ben", 2), ("Cleo", 3), ("Ana", 2)]:
        s.apply(score(who, pts))
    with Journal(path) as reopened:
        again = Session.resume(reopened, s.game_id, rules=CountingRules())
        assert again.state == s.state
        assert again.events == s.events
        assert (again.game, again.players, again.options) == (s.game, s.players, s.options)
        again.apply(score("Ben", 1))
        assert again.state.totals == (3, 3, 3)
    live.close()


def test_resume_latest(journal: Journal, rules: CountingRules) -> None:
    assert Session.resume_latest(journal, rules=rules) is None
    first = Session.start(journal, "indigo", ["Ana", "Ben"], rules=rules)
    second = Session.start(journal, "indigo", ["Cleo", "Dan"], rules=rules)
    second.apply(score("Cleo", 2))
    latest = Session.resume_latest(journal, rules=rules)
    assert latest is not None and latest.game_id == second.game_id
    assert latest.state.totals == (2, 0)
    second.finish()
    latest = Session.resume_latest(journal, rules=rules)
    assert latest is not None and latest.game_id == first.game_id


def test_resume_uses_the_registered_engine(journal: Journal, rules: CountingRules,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def fake_load_rules(game: str) -> CountingRules:
        asked.append(game)
        return rules

    monkeypatch.setattr(session_module, "load_rules", fake_load_rules)
    s = Session.start(journal, "indigo", ["Ana", "Ben"])
    s.apply(score("Ana", 1))
    again = Session.resume(journal, s.game_id)
    assert asked == ["indigo", "indigo"] and again.state.totals == (1, 0)


def test_resume_names_an_event_the_engine_now_refuses(journal: Journal,
                                                      rules: CountingRules) -> None:
    gid = journal.new_game("indigo", ["Ana", "Ben"], {})
    journal.append(gid, score("Ana", 1))
    journal.append(gid, score("Ana", 1))  # journaled by some older, laxer version
    with pytest.raises(ResumeError, match=rf"game {gid} \(indigo\) cannot be resumed: "
                                          r"event 2 \(score\) is refused by the rules: "):
        Session.resume(journal, gid, rules=rules)
    assert len(journal.events(gid)) == 2  # left as it is


def test_finish_and_history(journal: Journal, rules: CountingRules) -> None:
    s = Session.start(journal, "indigo", ["Ana", "Ben"], {"target": 3}, rules=rules)
    s.apply(score("Ana", 3))
    assert s.is_over and not s.is_finished
    result = s.finish()
    assert result == {"game": "indigo", "over": True, "winners": ["Ana"],
                      "scores": {"Ana": 3, "Ben": 0}}
    assert s.is_finished and journal.game(s.game_id).result == result
    for action in (lambda: s.apply(score("Ben", 1)), s.undo, s.finish,
                   lambda: s.check(score("Ben", 1))):
        with pytest.raises(GameFinishedError):
            action()
    old = Session.resume(journal, s.game_id, rules=rules)  # history can be looked at
    assert old.is_finished and old.result() == result


def test_record_round_trips(journal: Journal, rules: CountingRules) -> None:
    s = Session.start(journal, "indigo", ["Ana", "Ben"], {"target": 9}, rules=rules)
    s.apply(score("Ana", 1))
    s.apply({"type": "end"})
    record = s.record()
    assert parse_record(record.to_json()) == record
    assert record.events == s.events and record.options == {"target": 9}
    assert "Session game" in repr(s)
