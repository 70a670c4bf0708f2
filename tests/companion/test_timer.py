"""The sand timer's state machine on a manual clock."""

from __future__ import annotations

import doctest
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

import companion.timer as timer_module
from companion.errors import CompanionError
from companion.timer import (
    DEFAULT_DURATION_S,
    Cancelled,
    Expired,
    ManualClock,
    Paused,
    Reset,
    Resumed,
    SandTimer,
    SolverAccepted,
    SolverRejected,
    Started,
    Tick,
    TimeAdded,
    TimerEvent,
    TimerPhase,
    TimerSettings,
    TimerSettingsError,
    TimerStateError,
    WarningReached,
)


def make(duration: float = 30.0, **kw: object) -> tuple[SandTimer, ManualClock]:
    clock = ManualClock(100.0)
    return SandTimer(TimerSettings(duration_s=duration, **kw), clock=clock), clock  # type: ignore[arg-type]


def names(events: list[TimerEvent]) -> list[str]:
    return [type(e).__name__ for e in events]


def run_whole(
    timer: SandTimer, clock: ManualClock, *, step: float, until: float
) -> list[TimerEvent]:
    out: list[TimerEvent] = []
    steps = round(until / step)
    for _ in range(steps):
        clock.advance(step)
        out.extend(timer.poll())
    return out


def test_module_doctest() -> None:
    assert doctest.testmod(timer_module).failed == 0


def test_default_is_thirty_seconds_with_two_warnings_and_ticks_from_ten() -> None:
    settings = TimerSettings()
    assert DEFAULT_DURATION_S == 30.0
    assert (settings.duration_s, settings.warnings_s, settings.tick_from_s) == (
        30.0,
        (10.0, 5.0),
        10.0,
    )
    assert "45 s" in (timer_module.__doc__ or "")  # the labelled note about the disputed glass


def test_a_whole_countdown_emits_events_in_order_at_the_right_times() -> None:
    timer, clock = make(30.0)
    assert timer.phase is TimerPhase.IDLE
    assert timer.snapshot().fraction == 1.0
    started = timer.start()
    assert started == [Started(at=100.0, duration_s=30.0, by=None)]
    events = run_whole(timer, clock, step=0.25, until=31.0)
    kinds = [(type(e).__name__, round(e.at - 100.0, 2)) for e in events]
    expected = [("WarningReached", 20.0), ("Tick", 20.0)]
    expected += [("Tick", float(t)) for t in range(21, 25)]
    expected += [("WarningReached", 25.0), ("Tick", 25.0)]
    expected += [("Tick", float(t)) for t in range(26, 30)]
    expected += [("Expired", 30.0)]
    assert kinds == expected
    ticks = [e.seconds_left for e in events if isinstance(e, Tick)]
    assert ticks == list(range(10, 0, -1))
    assert timer.phase is TimerPhase.EXPIRED
    snap = timer.snapshot()
    assert (snap.remaining_s, snap.fraction, snap.ended_at) == (0.0, 0.0, 130.0)


def test_a_late_poll_announces_skipped_warnings_but_only_the_latest_tick() -> None:
    timer, clock = make(30.0)
    timer.start()
    clock.advance(26.5)
    events = timer.poll()
    assert [e for e in events if isinstance(e, WarningReached)] == [
        WarningReached(at=126.5, threshold_s=10.0),
        WarningReached(at=126.5, threshold_s=5.0),
    ]
    assert [e for e in events if isinstance(e, Tick)] == [Tick(at=126.5, seconds_left=4)]
    clock.advance(10.0)
    assert timer.poll() == [Expired(at=130.0, noticed_at=136.5)]


def test_fraction_drains_linearly() -> None:
    timer, clock = make(20.0)
    timer.start()
    for elapsed, fraction in [(0.0, 1.0), (5.0, 0.75), (10.0, 0.5), (15.0, 0.25), (20.0, 0.0)]:
        clock.now = 100.0 + elapsed
        assert timer.snapshot().fraction == pytest.approx(fraction)


def test_pause_freezes_the_sand_and_resume_continues() -> None:
    timer, clock = make(30.0)
    timer.start()
    clock.advance(12.0)
    assert timer.pause() == [Paused(at=112.0, remaining_s=18.0)]
    clock.advance(100.0)
    assert timer.poll() == []
    assert timer.snapshot().remaining_s == 18.0
    assert timer.resume() == [Resumed(at=212.0, remaining_s=18.0)]
    clock.advance(18.0)
    assert names(timer.poll())[-1] == "Expired"
    assert timer.state.ended_at == 230.0


def test_add_time_grows_the_bar_and_rearms_warnings_and_ticks() -> None:
    timer, clock = make(30.0)
    timer.start()
    clock.advance(24.0)  # 6 s left: the 10 s warning and ticks 10..6 are done
    timer.poll()
    assert timer.add_time(10.0) == [TimeAdded(at=124.0, added_s=10.0, remaining_s=16.0)]
    snap = timer.snapshot()
    assert (snap.total_s, snap.remaining_s) == (40.0, 16.0)
    assert snap.fraction == pytest.approx(0.4)
    events = run_whole(timer, clock, step=0.5, until=17.0)
    assert [e.threshold_s for e in events if isinstance(e, WarningReached)] == [10.0, 5.0]
    assert [e.seconds_left for e in events if isinstance(e, Tick)] == list(range(10, 0, -1))
    assert names(events)[-1] == "Expired"


def test_add_time_while_idle_lengthens_the_next_round() -> None:
    timer, _ = make(30.0)
    timer.add_time(15.0)
    assert timer.start()[0] == Started(at=100.0, duration_s=45.0, by=None)


def test_cancel_and_reset() -> None:
    timer, clock = make(30.0)
    timer.start()
    clock.advance(3.0)
    assert timer.cancel() == [Cancelled(at=103.0, remaining_s=27.0)]
    assert timer.phase is TimerPhase.CANCELLED
    assert timer.snapshot().fraction == 0.0
    clock.advance(60.0)
    assert timer.poll() == []  # a cancelled glass never expires
    assert timer.reset() == [Reset(at=163.0)]
    assert timer.phase is TimerPhase.IDLE
    assert timer.snapshot().remaining_s == 30.0


@dataclass(frozen=True)
class Illegal:
    phase_setup: str
    command: str


ILLEGAL = [
    Illegal("idle", "pause"),
    Illegal("idle", "resume"),
    Illegal("idle", "cancel"),
    Illegal("running", "start"),
    Illegal("running", "resume"),
    Illegal("paused", "start"),
    Illegal("paused", "pause"),
    Illegal("expired", "start"),
    Illegal("expired", "pause"),
    Illegal("expired", "cancel"),
    Illegal("expired", "add_time"),
    Illegal("cancelled", "resume"),
]


def _setup(phase: str) -> SandTimer:
    timer, clock = make(10.0)
    if phase in ("running", "paused", "expired", "cancelled"):
        timer.start()
    if phase == "paused":
        timer.pause()
    if phase == "cancelled":
        timer.cancel()
    if phase == "expired":
        clock.advance(11.0)
        timer.poll()
    assert timer.phase.value == phase
    return timer


@pytest.mark.parametrize("case", ILLEGAL, ids=lambda c: f"{c.command}-while-{c.phase_setup}")
def test_illegal_commands_raise_and_say_why(case: Illegal) -> None:
    timer = _setup(case.phase_setup)
    before = timer.state
    with pytest.raises(TimerStateError) as info:
        if case.command == "add_time":
            timer.add_time(5.0)
        else:
            getattr(timer, case.command)()
    message = str(info.value)
    assert case.phase_setup in message and ("cannot" in message)
    assert isinstance(info.value, CompanionError) and isinstance(info.value, RuntimeError)
    assert timer.state == before


def test_pausing_just_after_the_sand_ran_out_reports_expiry() -> None:
    timer, clock = make(10.0)
    timer.start()
    clock.advance(10.5)
    with pytest.raises(TimerStateError, match="expired"):
        timer.pause()
    assert names(timer.poll()) == ["WarningReached", "Expired"]  # the 5 s warning was skipped


@pytest.mark.parametrize(
    "kwargs",
    [
        {"duration_s": 0.0},
        {"duration_s": -5.0},
        {"duration_s": float("nan")},
        {"warnings_s": (10.0, 0.0)},
        {"tick_from_s": -1.0},
    ],
)
def test_bad_settings_are_refused_with_the_value(kwargs: dict[str, float]) -> None:
    with pytest.raises(TimerSettingsError) as info:
        TimerSettings(**kwargs)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    value = next(iter(kwargs.values()))
    assert str(value if not isinstance(value, tuple) else 0.0) in str(info.value)


def test_adding_no_time_is_refused() -> None:
    timer, _ = make()
    with pytest.raises(TimerSettingsError, match="-1"):
        timer.add_time(-1.0)


def test_settings_from_config_reads_attributes_by_name() -> None:
    @dataclass
    class Cfg:
        duration_s: int = 45
        warnings_s: tuple[int, ...] = (15, 5, 10)
        tick_from_s: int = 0

    settings = TimerSettings.from_config(Cfg())
    assert settings == TimerSettings(duration_s=45.0, warnings_s=(15.0, 10.0, 5.0), tick_from_s=0.0)
    timer = SandTimer(settings, clock=ManualClock())
    timer.start()
    timer.clock.advance(46.0)  # type: ignore[attr-defined]
    assert not any(isinstance(e, Tick) for e in timer.poll())  # tick_from_s 0: no ticks


def test_thresholds_at_or_above_the_length_never_fire() -> None:
    timer, clock = make(5.0, warnings_s=(10.0, 5.0, 2.0))
    timer.start()
    events = run_whole(timer, clock, step=0.1, until=6.0)
    assert [e.threshold_s for e in events if isinstance(e, WarningReached)] == [2.0]
    assert [e.seconds_left for e in events if isinstance(e, Tick)] == [4, 3, 2, 1]


# --- solvers ---------------------------------------------------------------------------------


def test_first_solver_starts_the_timer_exactly_once() -> None:
    timer, clock = make(30.0)
    started: list[Started] = []
    timer.add_listener(lambda e: started.append(e) if isinstance(e, Started) else None)
    first = timer.claim_solved("Ben")
    assert first == [
        Started(at=100.0, duration_s=30.0, by="Ben"),
        SolverAccepted(at=100.0, player="Ben", order=1, started_timer=True),
    ]
    clock.advance(4.0)
    second = timer.claim_solved("Ana")
    assert second == [SolverAccepted(at=104.0, player="Ana", order=2, started_timer=False)]
    again = timer.claim_solved("Ben")
    assert again == [SolverRejected(at=104.0, player="Ben", reason="Ben already solved")]
    assert len(started) == 1
    assert timer.snapshot().solvers == ("Ben", "Ana")
    assert timer.snapshot().started_by == "Ben"


def test_claims_after_expiry_are_rejected_but_a_queued_in_time_press_counts() -> None:
    timer, clock = make(10.0)
    timer.claim_solved("Ana")
    clock.advance(10.2)
    late = timer.claim_solved("Ben")
    assert names(late) == ["WarningReached", "Expired", "SolverRejected"]
    assert late[-1] == SolverRejected(at=110.2, player="Ben", reason="the sand has run out")
    # Cleo pressed at 109.9 but her press is processed only now: she was in time.
    queued = timer.claim_solved("Cleo", at=109.9)
    assert queued == [SolverAccepted(at=109.9, player="Cleo", order=2, started_timer=False)]
    clock.advance(1.0)
    assert names(timer.claim_solved("Dan", at=110.05)) == ["SolverRejected"]


def test_claims_on_a_cancelled_timer_are_rejected() -> None:
    timer, _ = make()
    timer.start()
    timer.cancel()
    assert timer.claim_solved("Ana") == [
        SolverRejected(at=100.0, player="Ana", reason="the timer was cancelled")
    ]


def test_listeners_get_every_event_in_order() -> None:
    timer, clock = make(10.0)
    seen: list[TimerEvent] = []
    timer.add_listener(seen.append)
    returned = timer.claim_solved("Ana") + run_whole(timer, clock, step=1.0, until=11.0)
    assert seen == returned
    timer.remove_listener(seen.append)
    timer.reset()
    assert names(seen)[-1] == "Expired"


def test_the_clock_never_runs_backwards_for_the_timer() -> None:
    timer, clock = make(10.0)
    timer.start()
    clock.advance(4.0)
    timer.poll()
    clock.now = 101.0  # a misbehaving clock
    assert timer.snapshot().remaining_s == 6.0


def test_manual_clock_refuses_to_go_back() -> None:
    with pytest.raises(TimerSettingsError):
        ManualClock().advance(-0.1)


@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(["poll", "pause", "resume", "add", "claim", "cancel", "start"]),
            st.floats(min_value=0.0, max_value=8.0),
        ),
        max_size=25,
    )
)
def test_any_command_sequence_keeps_the_invariants(steps: list[tuple[str, float]]) -> None:
    timer, clock = make(20.0)
    all_events: list[TimerEvent] = []
    timer.add_listener(all_events.append)
    for command, dt in steps:
        clock.advance(dt)
        try:
            if command == "add":
                timer.add_time(dt + 1.0)
            elif command == "claim":
                timer.claim_solved(f"p{int(dt) % 3}")
            else:
                getattr(timer, command)()
        except TimerStateError:
            pass
        snap = timer.snapshot()
        assert 0.0 <= snap.fraction <= 1.0
        assert 0.0 <= snap.remaining_s <= snap.total_s
        assert len(set(snap.solvers)) == len(snap.solvers)
    assert sum(isinstance(e, Started) for e in all_events) <= 1
    assert sum(isinstance(e, Expired) for e in all_events) <= 1
    times = [e.at for e in all_events if not isinstance(e, (Expired, SolverAccepted))]
    assert times == sorted(times)


# --- rebuilding a timer after a restart ------------------------------------------------------


@pytest.mark.parametrize(
    ("phase", "remaining", "elapsed", "want_phase", "want_left"),
    [
        (TimerPhase.RUNNING, 20.0, 5.0, TimerPhase.RUNNING, 15.0),
        (TimerPhase.RUNNING, 20.0, 20.0, TimerPhase.EXPIRED, 0.0),  # exactly empty
        (TimerPhase.RUNNING, 20.0, 95.0, TimerPhase.EXPIRED, 0.0),
        (TimerPhase.RUNNING, 20.0, -3.0, TimerPhase.RUNNING, 20.0),  # wall clock set back
        (TimerPhase.PAUSED, 12.5, 300.0, TimerPhase.PAUSED, 12.5),
        (TimerPhase.IDLE, 30.0, 300.0, TimerPhase.IDLE, 30.0),
        (TimerPhase.EXPIRED, 0.0, 10.0, TimerPhase.EXPIRED, 0.0),
        (TimerPhase.CANCELLED, 7.0, 10.0, TimerPhase.CANCELLED, 7.0),
    ],
)
def test_restored_timer_loses_only_the_running_time_of_the_outage(
    phase: TimerPhase, remaining: float, elapsed: float, want_phase: TimerPhase,
    want_left: float,
) -> None:
    clock = ManualClock(1000.0)  # the new process's clock has nothing to do with the old one
    state = timer_module.restored(
        TimerSettings(duration_s=30), phase=phase, remaining_s=remaining, total_s=30.0,
        elapsed_s=elapsed, now=clock(), started_by="Ana", solvers=("Ana",),
    )
    timer = SandTimer(clock=clock, state=state)
    snap = timer.snapshot()
    assert (snap.phase, snap.remaining_s, snap.total_s) == (want_phase, want_left, 30.0)
    assert snap.solvers == ("Ana",) and snap.started_by == "Ana"
    assert timer.poll() == []  # nothing announced twice, no alarm replayed


def test_restored_running_timer_counts_down_warns_and_expires_on_the_new_clock() -> None:
    clock = ManualClock(50.0)
    state = timer_module.restored(
        TimerSettings(duration_s=30, warnings_s=(10.0, 5.0)), phase=TimerPhase.RUNNING,
        remaining_s=40.0, total_s=40.0, elapsed_s=28.0, now=clock(),
    )
    timer = SandTimer(clock=clock, state=state)
    assert timer.snapshot().remaining_s == 12.0
    assert timer.poll() == []  # the 10 s warning lies ahead, nothing above 12 s fires now
    clock.advance(2.5)
    assert names(timer.poll()) == ["WarningReached", "Tick"]
    clock.advance(5.0)
    assert names(timer.poll()) == ["WarningReached", "Tick"]
    clock.advance(4.5)
    events = timer.poll()
    assert names(events) == ["Expired"]
    assert events[0].at == 62.0  # type: ignore[union-attr]
    with pytest.raises(TimerStateError):
        timer.pause()


@pytest.mark.parametrize("bad", [{"remaining_s": -1.0}, {"total_s": 0.0},
                                 {"elapsed_s": float("nan")}])
def test_restored_refuses_a_damaged_snapshot(bad: dict[str, float]) -> None:
    args: dict[str, float] = {"remaining_s": 5.0, "total_s": 30.0, "elapsed_s": 1.0}
    args.update(bad)
    with pytest.raises(TimerSettingsError, match=str(next(iter(bad.values())))):
        timer_module.restored(TimerSettings(), phase=TimerPhase.RUNNING, now=0.0, **args)
