"""Collecting the app's cyclic garbage on the main thread, never on a worker's.

Python runs an automatic collection in whichever thread happens to pass an allocation
threshold. The camera worker and the readers allocate much more than the UI does, so most
collections run on them, and a collection finalizes whatever garbage it finds: a Kivy widget
left in a reference cycle included. A widget's finalizer (``kivy.uix.widget``'s weakref
callback) unbinds its kv rules in ``Builder``, which is not thread-safe: done on the camera
thread while the main thread builds a panel, it crashed the process (a segfault in the UI tests,
the camera worker's ``_read_until_stopped`` in the stack).

So, while the app runs, automatic collection is off and the main thread's clock collects, as
often as CPython itself would have. Threads still free their frames at once (reference
counting needs no collection); only cycles wait for the next tick.

A full collection walks every object the collector tracks, and most of them live all evening.
Between games (on Home) the collector freezes what lives then, so that the full collections
during the next game walk only what is new: 114 ms of CPU each instead of 191 ms in the demo
(bench/app_memory.py).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

#: how often the main thread looks at the counts: cycles wait at most this long to be freed
COLLECT_INTERVAL_S = 0.25
#: the least time between two freezes of what lives (see :meth:`MainThreadCollector.settle`):
#: each costs one full collection of everything
SETTLE_INTERVAL_S = 30.0


def generations_due(counts: tuple[int, ...], thresholds: tuple[int, ...],
                    owed: list[float]) -> int | None:
    """The generation to collect now, as CPython's automatic collection would have, or None.

    ``counts`` and ``thresholds`` are ``gc.get_count()`` and ``gc.get_threshold()``. Between
    two ticks the youngest count may be many times its threshold: CPython would have collected
    the youngest generation that many times, and at every ``thresholds[1] + 1``-th time the
    next one instead, and so on. ``owed`` (one number per generation after the youngest,
    updated in place) counts the collections of each generation since the next older one was
    collected, so that the older ones run as often as they would have: run less often, cycles
    holding frames stayed and the resident size grew.
    """
    if not thresholds[0] or counts[0] <= thresholds[0]:
        return None
    due = 0
    owed[0] += counts[0] / thresholds[0]
    for generation in range(1, len(thresholds)):
        if not thresholds[generation] or owed[generation - 1] <= thresholds[generation]:
            break
        owed[generation - 1] -= thresholds[generation] + 1
        if generation < len(owed):
            owed[generation] += 1
        due = generation
    return due


class MainThreadCollector:
    """Turns automatic collection off and collects from the main thread's clock instead.

    ``schedule(callback, interval)`` is the clock's (``Clock.schedule_interval``); what it
    returns must have ``cancel()``. :meth:`stop` puts automatic collection back as it was.
    """

    def __init__(self, schedule: Callable[[Callable[[float], Any], float], Any],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._schedule = schedule
        self._clock = clock
        self._settled_at = 0.0
        self._event: Any = None
        self._was_enabled = False
        #: the collections of the older generations owed (see :func:`generations_due`)
        self._owed = [0.0] * (len(gc.get_threshold()) - 1)

    @property
    def running(self) -> bool:
        return self._event is not None

    def start(self) -> None:
        if self.running:
            return
        self._was_enabled = gc.isenabled()
        gc.disable()
        self._settled_at = self._clock()  # no full collection while the app starts
        self._event = self._schedule(self.collect_due, COLLECT_INTERVAL_S)

    def settle(self, *, now: bool = False) -> bool:
        """Between games: freeze what lives now (``gc.freeze``), so that full collections no
        longer walk it; returns whether it did (at most every :data:`SETTLE_INTERVAL_S`).

        A full collection walks every tracked object, and most of what the app holds lives
        all evening (modules, kv rules, screens made once, their widgets): 200 ms of CPU on
        the main thread here, every few seconds while panels are rebuilt. What was frozen
        the time before is given back to the collector first, so what died since (a game's
        last panels) is freed by this collection: frozen garbage waits one game, no more.
        ``now``: whatever the time since the last one (a screen let go as a game starts).
        """
        if not self.running:
            return False
        if not now and self._clock() - self._settled_at < SETTLE_INTERVAL_S:
            return False
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self._settled_at = self._clock()
        return True

    def collect_due(self, _dt: float = 0.0) -> int | None:
        """Collect the generation that is due, if any (on the thread that calls it: the
        clock's, the main one). Returns the generation collected."""
        generation = generations_due(tuple(gc.get_count()), tuple(gc.get_threshold()),
                                     self._owed)
        if generation is not None:
            gc.collect(generation)
        return generation

    def stop(self) -> None:
        event, self._event = self._event, None
        if event is None:
            return
        event.cancel()
        if self._was_enabled:
            gc.enable()
        # the cycles left since the last tick, and what was frozen, are freed here, on the
        # thread that stops
        gc.unfreeze()
        gc.collect()
