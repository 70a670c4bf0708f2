"""Cyclic garbage, dead widgets among it, is finalized on the main thread while the app runs.

A collection run on the camera thread finalized a leftover Kivy widget there, whose
``Builder.unbind_widget`` raced the main thread and crashed the process.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from ui.main_thread_gc import (
    SETTLE_INTERVAL_S,
    MainThreadCollector,
    generations_due,
)


class _Tick:
    """A clock event that the test fires by hand."""

    def __init__(self, callback: Any, interval: float) -> None:
        self.callback, self.interval, self.cancelled = callback, interval, False

    def cancel(self) -> None:
        self.cancelled = True


class _Finalized:
    """Garbage in a cycle that records the thread that finalized it."""

    def __init__(self, seen: list[str]) -> None:
        self.seen = seen
        self.me = self

    def __del__(self) -> None:
        self.seen.append(threading.current_thread().name)


def _allocate_like_a_reader() -> None:
    # containers: what counts towards an automatic collection
    for _ in range(3):
        [[index] for index in range(50_000)]


class _Clock:
    """Seconds that the test moves on by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> _Clock:
    return _Clock()


@pytest.fixture
def collector(clock: _Clock) -> Iterator[tuple[MainThreadCollector, list[_Tick]]]:
    ticks: list[_Tick] = []

    def schedule(callback: Any, interval: float) -> _Tick:
        ticks.append(_Tick(callback, interval))
        return ticks[-1]

    was_enabled = gc.isenabled()
    gc.enable()
    made = MainThreadCollector(schedule, clock)
    yield made, ticks
    made.stop()
    gc.unfreeze()
    (gc.enable if was_enabled else gc.disable)()


def _garbage_then_a_worker_allocates(seen: list[str]) -> None:
    # counts at zero first: the few objects the main thread makes before the worker runs
    # never put it over a threshold, so a collection there cannot take the garbage first
    gc.collect()
    _Finalized(seen)  # unreachable at once, but only a collection frees it
    worker = threading.Thread(target=_allocate_like_a_reader, name="camera")
    worker.start()
    worker.join()


def test_a_worker_that_allocates_finalizes_nothing_while_the_collector_runs(
        collector: tuple[MainThreadCollector, list[_Tick]]) -> None:
    made, ticks = collector
    made.start()
    seen: list[str] = []
    _garbage_then_a_worker_allocates(seen)
    assert seen == []
    while ticks[0].callback(ticks[0].interval) is not None:
        pass
    gc.collect()  # whatever generation the garbage had reached: still on this thread
    assert seen == [threading.current_thread().name]


def test_without_the_collector_the_worker_would_finalize_it(
        collector: tuple[MainThreadCollector, list[_Tick]]) -> None:
    # the case the collector is for: it is real on this Python, not imagined
    seen: list[str] = []
    _garbage_then_a_worker_allocates(seen)
    assert seen == ["camera"]


def test_stopping_gives_automatic_collection_back_and_frees_what_is_left(
        collector: tuple[MainThreadCollector, list[_Tick]]) -> None:
    made, ticks = collector
    made.start()
    assert not gc.isenabled() and made.running
    seen: list[str] = []
    _Finalized(seen)
    made.stop()
    assert gc.isenabled() and not made.running and ticks[0].cancelled
    assert seen == [threading.current_thread().name]


@pytest.mark.parametrize(("young", "owed", "due", "owed_after"), [
    (10, [0, 0], None, [0, 0]),
    (101, [0, 0], 0, [1.01, 0]),
    (101, [10, 0], 1, [0.01, 1]),     # the 11th youngest collection takes the next one
    (1000, [0, 0], 0, [10, 0]),       # ten collections' worth of garbage, one collection
    (1200, [0, 0], 1, [1, 1]),        # ... and twelve's: the next one, one owed after it
    (101, [10, 10], 2, [0.01, 0]),
])
def test_older_generations_are_collected_as_often_as_cpython_would(
        young: int, owed: list[float], due: int | None, owed_after: list[float]) -> None:
    owed = [float(n) for n in owed]
    assert generations_due((young, 0, 0), (100, 10, 10), owed) == due
    assert owed == pytest.approx(owed_after)


def test_a_threshold_of_zero_turns_collection_off_as_in_cpython() -> None:
    assert generations_due((900, 0, 0), (0, 10, 10), [0, 0]) is None
    owed = [50.0, 0.0]
    assert generations_due((900, 0, 0), (700, 0, 10), owed) == 0


def test_a_busy_evening_collects_the_older_generations_at_cpythons_pace() -> None:
    # 30 ticks, each with 3.5 thresholds' worth of new objects: CPython's 105 youngest
    # collections take the middle generation 9 times (every 11th) and the oldest not yet
    owed = [0.0, 0.0]
    collected = [generations_due((2450, 0, 0), (700, 10, 10), owed) for _ in range(30)]
    assert collected.count(1) == 9 and collected.count(2) == 0


def test_settling_freezes_what_lives_and_frees_it_at_the_next_settling_once_dead(
        collector: tuple[MainThreadCollector, list[_Tick]], clock: _Clock) -> None:
    made, _ticks = collector
    made.start()
    seen: list[str] = []
    holder = [_Finalized(seen)]  # a game's last panel: alive when the players go home
    assert not made.settle()  # just started: no full collection while the app starts
    clock.now += SETTLE_INTERVAL_S
    assert made.settle()
    assert gc.get_freeze_count() > 0 and gc.get_objects(2) == []
    assert not made.settle()  # at most every SETTLE_INTERVAL_S
    holder.clear()  # the next game rebuilds the panel: the frozen one is garbage
    gc.collect()
    assert seen == []  # full collections no longer walk it ...
    clock.now += SETTLE_INTERVAL_S
    assert made.settle()
    assert seen == [threading.current_thread().name]  # ... until the next settling frees it


def test_going_home_settles_the_app(make_driver: Any, monkeypatch: Any) -> None:
    import ui.main_thread_gc

    driver = make_driver()
    driver.start_break_the_code(2)
    monkeypatch.setattr(ui.main_thread_gc, "SETTLE_INTERVAL_S", 0.0)
    gc.unfreeze()
    driver.app.show("home")
    assert gc.get_freeze_count() > 0
    driver.close()
    assert gc.get_freeze_count() == 0


def test_the_app_collects_on_its_clock_while_it_runs(make_driver: Any) -> None:
    driver = make_driver()
    assert driver.app.collector.running and not gc.isenabled()
    driver.close()
    assert not driver.app.collector.running and gc.isenabled()
