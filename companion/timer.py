"""Enigma's sand timer as a pure state machine with an injected clock.

The timer knows nothing about GPIO. It moves through phases::

    IDLE --start / first solver--> RUNNING <--pause/resume--> PAUSED
    RUNNING --time runs out (noticed by poll)--> EXPIRED
    RUNNING / PAUSED --cancel--> CANCELLED
    EXPIRED / CANCELLED --reset--> IDLE

and reports what happens as frozen event objects (:class:`Started`, :class:`WarningReached`,
:class:`Tick`, :class:`Paused`, :class:`Resumed`, :class:`TimeAdded`, :class:`Expired`,
:class:`Cancelled`, :class:`Reset`, :class:`SolverAccepted`, :class:`SolverRejected`).

Two layers:

* pure functions over a frozen :class:`TimerState` (``start(state, now)``, ``poll(state, now)``,
  ...) that each return a :class:`Transition` (the new state plus its events);
* :class:`SandTimer`, a small holder that reads the injected clock, keeps the current state
  behind a lock (a hardware worker may poll while the UI presses buttons) and hands every
  event to its listeners. It starts no threads.

The default length is 30 s. NOTE: the sources disagree on the glass in the Enigma box (a review
of the Zoch edition says 30 s, one of the Polish edition 45 s); the real value comes from the
``[timer]`` config section, never from this constant.

>>> clock = ManualClock()
>>> timer = SandTimer(TimerSettings(duration_s=30), clock=clock)
>>> [type(e).__name__ for e in timer.claim_solved("Ana")]
['Started', 'SolverAccepted']
>>> clock.advance(20.0)
>>> [type(e).__name__ for e in timer.poll()]
['WarningReached', 'Tick']
>>> timer.snapshot().fraction
0.3333333333333333
"""

from __future__ import annotations

import enum
import math
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from companion.errors import CompanionError

#: Default sand-timer length in seconds. [unknown] 30 s (Zoch edition review) vs 45 s (Polish
#: edition review); the config's ``[timer] duration_s`` is what the app uses.
DEFAULT_DURATION_S = 30.0
DEFAULT_WARNINGS_S = (10.0, 5.0)
DEFAULT_TICK_FROM_S = 10.0

Clock = Callable[[], float]


class TimerStateError(CompanionError, RuntimeError):
    """A command that the timer's current phase does not allow (e.g. pause while idle)."""


class TimerSettingsError(CompanionError, ValueError):
    """A timer setting or argument out of range (a negative duration, a zero time added)."""


class TimerPhase(enum.Enum):
    IDLE = "idle"
    RUNNING = "running"
    PAUSED = "paused"
    EXPIRED = "expired"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class TimerSettings:
    """Length, warning thresholds and where the per-second ticks begin (all in seconds)."""

    duration_s: float = DEFAULT_DURATION_S
    warnings_s: tuple[float, ...] = DEFAULT_WARNINGS_S
    #: ticks sound at every whole second left from this one down to 1; 0 turns them off
    tick_from_s: float = DEFAULT_TICK_FROM_S

    def __post_init__(self) -> None:
        if not (math.isfinite(self.duration_s) and self.duration_s > 0):
            raise TimerSettingsError(f"timer duration_s must be > 0 seconds, got {self.duration_s}")
        for threshold in self.warnings_s:
            if not (math.isfinite(threshold) and threshold > 0):
                raise TimerSettingsError(
                    f"timer warnings_s must be > 0 seconds each, got {threshold} "
                    f"in {list(self.warnings_s)}"
                )
        if not (math.isfinite(self.tick_from_s) and self.tick_from_s >= 0):
            raise TimerSettingsError(f"timer tick_from_s must be >= 0, got {self.tick_from_s}")
        # sorted high to low, so warnings come out in the order they happen
        object.__setattr__(
            self, "warnings_s", tuple(sorted({float(t) for t in self.warnings_s}, reverse=True))
        )

    @classmethod
    def from_config(cls, timer_cfg: Any) -> TimerSettings:
        """Build from any object with ``duration_s``, ``warnings_s`` and ``tick_from_s``
        attributes (the config's ``[timer]`` section); a missing attribute keeps the default."""
        return cls(
            duration_s=float(getattr(timer_cfg, "duration_s", DEFAULT_DURATION_S)),
            warnings_s=tuple(
                float(t) for t in getattr(timer_cfg, "warnings_s", DEFAULT_WARNINGS_S)
            ),
            tick_from_s=float(getattr(timer_cfg, "tick_from_s", DEFAULT_TICK_FROM_S)),
        )


# --- events ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Started:
    at: float
    duration_s: float
    by: str | None  # the first solver, or None when started by hand


@dataclass(frozen=True)
class WarningReached:
    at: float
    threshold_s: float


@dataclass(frozen=True)
class Tick:
    at: float
    seconds_left: int


@dataclass(frozen=True)
class Paused:
    at: float
    remaining_s: float


@dataclass(frozen=True)
class Resumed:
    at: float
    remaining_s: float


@dataclass(frozen=True)
class TimeAdded:
    at: float
    added_s: float
    remaining_s: float


@dataclass(frozen=True)
class Expired:
    #: when the sand ran out (exact, from the clock arithmetic)
    at: float
    #: when a poll noticed it; ``noticed_at - at`` is the polling latency
    noticed_at: float


@dataclass(frozen=True)
class Cancelled:
    at: float
    remaining_s: float


@dataclass(frozen=True)
class Reset:
    at: float


@dataclass(frozen=True)
class SolverAccepted:
    at: float
    player: str
    #: 1 for the player who turned the glass
    order: int
    started_timer: bool


@dataclass(frozen=True)
class SolverRejected:
    at: float
    player: str
    reason: str


TimerEvent = (
    Started
    | WarningReached
    | Tick
    | Paused
    | Resumed
    | TimeAdded
    | Expired
    | Cancelled
    | Reset
    | SolverAccepted
    | SolverRejected
)


# --- state -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TimerState:
    """Everything the timer remembers. ``remaining_s`` is the time left at ``mark``; while
    RUNNING the time left at ``now`` is ``remaining_s - (now - mark)``."""

    settings: TimerSettings
    phase: TimerPhase = TimerPhase.IDLE
    remaining_s: float = 0.0
    mark: float = 0.0
    total_s: float = 0.0  # duration plus every addition: the full bar
    last_now: float = float("-inf")  # the clock never runs backwards for us
    warnings_left: tuple[float, ...] = ()  # thresholds not yet announced, high to low
    last_tick: int | None = None  # the smallest second already ticked
    started_by: str | None = None
    started_at: float | None = None
    ended_at: float | None = None  # when it expired or was cancelled
    solvers: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.phase is TimerPhase.IDLE and self.total_s == 0.0:
            object.__setattr__(self, "remaining_s", self.settings.duration_s)
            object.__setattr__(self, "total_s", self.settings.duration_s)

    def remaining_at(self, now: float) -> float:
        if self.phase is TimerPhase.RUNNING:
            return max(0.0, self.remaining_s - (now - self.mark))
        if self.phase in (TimerPhase.EXPIRED, TimerPhase.CANCELLED):
            return 0.0 if self.phase is TimerPhase.EXPIRED else self.remaining_s
        return self.remaining_s


@dataclass(frozen=True)
class Transition:
    state: TimerState
    events: tuple[TimerEvent, ...] = ()


@dataclass(frozen=True)
class TimerSnapshot:
    """Plain data for whoever draws the timer (light bar, buzzer, the UI)."""

    phase: TimerPhase
    now: float
    remaining_s: float
    total_s: float
    #: remaining / total: 1.0 is a full glass, 0.0 an empty one
    fraction: float
    started_at: float | None
    ended_at: float | None
    started_by: str | None
    solvers: tuple[str, ...] = field(default=())

    @property
    def is_running(self) -> bool:
        return self.phase is TimerPhase.RUNNING


def new_timer(settings: TimerSettings | None = None) -> TimerState:
    """An idle timer holding a full glass."""
    return TimerState(settings or TimerSettings())


def snapshot(state: TimerState, now: float) -> TimerSnapshot:
    now = max(now, state.last_now)
    remaining = state.remaining_at(now)
    if state.phase in (TimerPhase.EXPIRED, TimerPhase.CANCELLED):
        fraction = 0.0
    else:
        fraction = min(1.0, remaining / state.total_s) if state.total_s > 0 else 0.0
    return TimerSnapshot(
        phase=state.phase,
        now=now,
        remaining_s=remaining,
        total_s=state.total_s,
        fraction=fraction,
        started_at=state.started_at,
        ended_at=state.ended_at,
        started_by=state.started_by,
        solvers=state.solvers,
    )


# --- pure transitions ------------------------------------------------------------------------


def _armed(state: TimerState, remaining: float) -> TimerState:
    """Re-arm warnings and ticks that lie below ``remaining`` (start, time added); ones at or
    above it are treated as done so that nothing fires the instant the glass turns."""
    settings = state.settings
    warnings_left = tuple(t for t in settings.warnings_s if t < remaining)
    due = math.ceil(remaining)
    last_tick = due if 1 <= due <= settings.tick_from_s else None
    return replace(state, warnings_left=warnings_left, last_tick=last_tick)


def _require(state: TimerState, action: str, *allowed: TimerPhase) -> None:
    if state.phase not in allowed:
        names = " or ".join(p.value for p in allowed)
        raise TimerStateError(
            f"cannot {action} the timer while it is {state.phase.value} (only when {names})"
        )


def poll(state: TimerState, now: float) -> Transition:
    """Announce what became due by ``now``: warnings, the latest tick, expiry.

    A late poll announces every warning it skipped but only the latest tick (a backlog of
    ticks all at once would be noise).
    """
    now = max(now, state.last_now)
    state = replace(state, last_now=now)
    if state.phase is not TimerPhase.RUNNING:
        return Transition(state)
    remaining = state.remaining_at(now)
    events: list[TimerEvent] = []
    due_warnings = tuple(t for t in state.warnings_left if remaining <= t)
    if due_warnings:
        events.extend(WarningReached(at=now, threshold_s=t) for t in due_warnings)
        state = replace(
            state, warnings_left=tuple(t for t in state.warnings_left if t not in due_warnings)
        )
    if remaining <= 0.0:
        ended = state.mark + state.remaining_s
        events.append(Expired(at=ended, noticed_at=now))
        state = replace(state, phase=TimerPhase.EXPIRED, remaining_s=0.0, mark=now, ended_at=ended)
        return Transition(state, tuple(events))
    due = math.ceil(remaining)
    if due <= state.settings.tick_from_s and (state.last_tick is None or due < state.last_tick):
        events.append(Tick(at=now, seconds_left=due))
        state = replace(state, last_tick=due)
    return Transition(state, tuple(events))


def start(state: TimerState, now: float, *, by: str | None = None) -> Transition:
    """Turn the glass. Only an idle timer starts; ``by`` names the first solver, if any."""
    _require(state, "start", TimerPhase.IDLE)
    now = max(now, state.last_now)
    state = _armed(
        replace(
            state,
            phase=TimerPhase.RUNNING,
            mark=now,
            last_now=now,
            started_at=now,
            started_by=by,
        ),
        state.remaining_s,
    )
    return Transition(state, (Started(at=now, duration_s=state.remaining_s, by=by),))


def pause(state: TimerState, now: float) -> Transition:
    done = poll(state, now)
    state, events = done.state, list(done.events)
    _require(state, "pause", TimerPhase.RUNNING)
    remaining = state.remaining_at(state.last_now)
    state = replace(state, phase=TimerPhase.PAUSED, remaining_s=remaining, mark=state.last_now)
    events.append(Paused(at=state.last_now, remaining_s=remaining))
    return Transition(state, tuple(events))


def resume(state: TimerState, now: float) -> Transition:
    _require(state, "resume", TimerPhase.PAUSED)
    now = max(now, state.last_now)
    state = replace(state, phase=TimerPhase.RUNNING, mark=now, last_now=now)
    return Transition(state, (Resumed(at=now, remaining_s=state.remaining_s),))


def add_time(state: TimerState, now: float, seconds: float) -> Transition:
    """Put more sand in the glass (idle, running or paused); the bar grows with it."""
    if not (math.isfinite(seconds) and seconds > 0):
        raise TimerSettingsError(f"time added must be > 0 seconds, got {seconds}")
    done = poll(state, now)
    state, events = done.state, list(done.events)
    _require(state, "add time to", TimerPhase.IDLE, TimerPhase.RUNNING, TimerPhase.PAUSED)
    now = state.last_now
    remaining = state.remaining_at(now) + seconds
    state = replace(state, remaining_s=remaining, mark=now, total_s=state.total_s + seconds)
    if state.phase is not TimerPhase.IDLE:
        state = _armed(state, remaining)
    events.append(TimeAdded(at=now, added_s=seconds, remaining_s=remaining))
    return Transition(state, tuple(events))


def cancel(state: TimerState, now: float) -> Transition:
    done = poll(state, now)
    state, events = done.state, list(done.events)
    _require(state, "cancel", TimerPhase.RUNNING, TimerPhase.PAUSED)
    now = state.last_now
    remaining = state.remaining_at(now)
    state = replace(
        state, phase=TimerPhase.CANCELLED, remaining_s=remaining, mark=now, ended_at=now
    )
    events.append(Cancelled(at=now, remaining_s=remaining))
    return Transition(state, tuple(events))


def reset(state: TimerState, now: float) -> Transition:
    """A fresh, idle glass for the next round (same settings); allowed in any phase."""
    now = max(now, state.last_now)
    return Transition(replace(new_timer(state.settings), last_now=now), (Reset(at=now),))


def claim_solved(state: TimerState, now: float, player: str) -> Transition:
    """A player says "I solved it". The first claim turns the glass; later claims count while
    sand is left; a claim made after the sand ran out is rejected.

    ``now`` is when the button was pressed. A claim pressed before the moment of expiry still
    counts even when a poll has already noticed the expiry (the press waited in a queue).
    """
    events: list[TimerEvent] = []
    if state.phase is TimerPhase.EXPIRED and now < state.last_now:
        in_time = state.ended_at is not None and now <= state.ended_at
        at = now
    else:
        done = poll(state, now)
        state = done.state
        events.extend(done.events)
        in_time = state.phase in (TimerPhase.IDLE, TimerPhase.RUNNING, TimerPhase.PAUSED)
        at = state.last_now
    reason = None
    if player in state.solvers:
        reason = f"{player} already solved"
    elif state.phase is TimerPhase.CANCELLED:
        reason = "the timer was cancelled"
    elif not in_time:
        reason = "the sand has run out"
    if reason is not None:
        events.append(SolverRejected(at=at, player=player, reason=reason))
        return Transition(state, tuple(events))
    started = state.phase is TimerPhase.IDLE
    if started:
        begun = start(state, at, by=player)
        state = begun.state
        events.extend(begun.events)
    state = replace(state, solvers=state.solvers + (player,))
    events.append(
        SolverAccepted(at=at, player=player, order=len(state.solvers), started_timer=started)
    )
    return Transition(state, tuple(events))


def restored(
    settings: TimerSettings,
    *,
    phase: TimerPhase,
    remaining_s: float,
    total_s: float,
    elapsed_s: float,
    now: float,
    started_by: str | None = None,
    solvers: Iterable[str] = (),
) -> TimerState:
    """Rebuild a timer from a saved snapshot after a restart.

    ``remaining_s`` and ``total_s`` are what the snapshot held when it was saved, and
    ``elapsed_s`` is the wall-clock time since then: a physical glass keeps running through a
    power cut, so a RUNNING timer loses that time (and is EXPIRED when nothing is left), while
    every other phase keeps its saved time. ``now`` is the new process's clock reading, on
    which the rebuilt state is anchored. Warnings and ticks above the time left count as done,
    as they would have been announced before or during the outage.
    """
    if not (math.isfinite(remaining_s) and remaining_s >= 0):
        raise TimerSettingsError(f"a saved timer needs remaining_s >= 0, got {remaining_s}")
    if not (math.isfinite(total_s) and total_s > 0):
        raise TimerSettingsError(f"a saved timer needs total_s > 0, got {total_s}")
    if not math.isfinite(elapsed_s):
        raise TimerSettingsError(f"elapsed time must be finite, got {elapsed_s}")
    elapsed_s = max(0.0, elapsed_s)  # a wall clock set back must not put sand back
    base = replace(
        new_timer(settings),
        phase=phase,
        remaining_s=remaining_s,
        total_s=total_s,
        mark=now,
        last_now=now,
        started_by=started_by,
        solvers=tuple(solvers),
    )
    if phase is TimerPhase.IDLE:
        return base
    # the original start is gone with the old process's clock; estimate it from the time used
    base = replace(base, started_at=now - elapsed_s - max(0.0, total_s - remaining_s))
    if phase is TimerPhase.RUNNING:
        left = remaining_s - elapsed_s
        if left <= 0.0:
            return replace(
                base, phase=TimerPhase.EXPIRED, remaining_s=0.0, ended_at=now + left
            )
        return _armed(replace(base, remaining_s=left), left)
    if phase is TimerPhase.PAUSED:
        return _armed(base, remaining_s)
    if phase is TimerPhase.EXPIRED:
        return replace(base, remaining_s=0.0, ended_at=now - elapsed_s)
    return replace(base, ended_at=now - elapsed_s)  # CANCELLED keeps the sand it had left


# --- the stateful holder ---------------------------------------------------------------------


class ManualClock:
    """A clock for tests, demos and benchmarks that only moves when told.

    >>> clock = ManualClock(5.0); clock.advance(0.5); clock()
    5.5
    """

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise TimerSettingsError(f"a clock only moves forward, got {seconds} s")
        self.now += seconds

    def __repr__(self) -> str:
        return f"ManualClock({self.now!r})"


Listener = Callable[[TimerEvent], None]


class SandTimer:
    """The timer as a thing: the current :class:`TimerState`, the clock, and listeners.

    Every command polls first (so a pause just after the sand ran out says so), returns the
    events it caused and also passes them to each listener, in order, outside the lock.
    Listeners run on the caller's thread: a listener that feeds a UI must only put the event
    on a queue.
    """

    def __init__(
        self,
        settings: TimerSettings | None = None,
        *,
        clock: Clock = time.monotonic,
        state: TimerState | None = None,
    ) -> None:
        """``state`` carries on from an existing state (see :func:`restored`); its settings
        win over ``settings``."""
        self.clock = clock
        self._state = state if state is not None else new_timer(settings)
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []

    @property
    def settings(self) -> TimerSettings:
        return self._state.settings

    @property
    def state(self) -> TimerState:
        return self._state

    @property
    def phase(self) -> TimerPhase:
        return self._state.phase

    def is_running(self) -> bool:
        return self._state.phase is TimerPhase.RUNNING

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    def _run(self, step: Callable[[TimerState, float], Transition]) -> list[TimerEvent]:
        with self._lock:
            done = step(self._state, self.clock())
            self._state = done.state
        self._publish(done.events)
        return list(done.events)

    def _publish(self, events: Iterable[TimerEvent]) -> None:
        for event in events:
            for listener in list(self._listeners):
                listener(event)

    def snapshot(self) -> TimerSnapshot:
        return snapshot(self._state, self.clock())

    def poll(self) -> list[TimerEvent]:
        return self._run(poll)

    def start(self, *, by: str | None = None) -> list[TimerEvent]:
        return self._run(lambda s, now: start(s, now, by=by))

    def pause(self) -> list[TimerEvent]:
        return self._run(pause)

    def resume(self) -> list[TimerEvent]:
        return self._run(resume)

    def add_time(self, seconds: float) -> list[TimerEvent]:
        return self._run(lambda s, now: add_time(s, now, seconds))

    def cancel(self) -> list[TimerEvent]:
        return self._run(cancel)

    def reset(self) -> list[TimerEvent]:
        return self._run(reset)

    def claim_solved(self, player: str, *, at: float | None = None) -> list[TimerEvent]:
        """``at`` is when the button was pressed (same clock); default now."""
        return self._run(lambda s, now: claim_solved(s, now if at is None else at, player))

    def __repr__(self) -> str:
        snap = self.snapshot()
        return (
            f"<SandTimer {snap.phase.value} {snap.remaining_s:.2f}/{snap.total_s:.2f} s "
            f"solvers={list(snap.solvers)}>"
        )
