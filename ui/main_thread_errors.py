"""What the app does when code on the Kivy main thread raises.

Two doors lead here. The app's pump runs every job callback, hardware button and camera frame
inside a guard (:meth:`ui.app.CompanionApp.recover_from`); anything else that raises on the main
loop (a touch handler, a property observer, a ``Clock`` callback of a screen) reaches Kivy's
``ExceptionManager``, where :class:`KeepRunningHandler` is registered while the app runs.

Why the app keeps running after an unexpected error instead of letting systemd restart it:

- Nothing of the game lives only in memory. ``Session.apply`` computes the new (frozen) state
  first, stores the event in one SQLite transaction, and only then moves its own state; an
  error anywhere before the commit leaves journal and session untouched, an error after it
  finds the move already on disk. So the one thing an error can leave wrong is what a screen
  holds (a half-built proposal): the guard redraws the current screen from the session, which
  drops it, and the banner says whether the game moved.
- A restart costs the table seconds (reopening a Pi camera, a new window), and a bug behind a
  button would come back with the same screen and state at the next tap: systemd's start
  limit (``StartLimitBurst=5`` in 300 s, systemd/tabletop-companion.service) then stops the
  kiosk for good, which is worse than a banner.

One thing Kivy does makes "carry on" need care: its clock drops an interval callback that
raised (``schedule_interval``), for good. A screen's timer poll or an animation would silently
stop. :func:`revive_dropped_intervals` puts such an event back on the clock; if it raises again
and again, the burst limit below ends the app.

Not every error is worth surviving: a fault that repeats (:class:`ErrorBurst`: more than five
in ten seconds, e.g. something that raises on every frame) or one that is not an ``Exception``
(``MemoryError`` included) ends the app with the error, and ``Restart=on-failure`` brings it
back in the same screen and state, which the journal makes safe. Kivy's loop ends without
``on_stop`` then; :meth:`ui.app.CompanionApp.run` still silences the buzzer, darkens the bar,
frees the pins, closes the camera and the journal (:mod:`ui.shutdown`) before the error goes on
to the command line, whose exit status (1) is the failure systemd restarts on.
"""

from __future__ import annotations

import logging
import time
import traceback
from collections import deque
from collections.abc import Callable
from typing import Any

from ui.i18n import N_, _

log = logging.getLogger(__name__)

#: background job name (``run_in_background(..., name=)``) -> what the players call it
JOB_TITLES = {
    "read-indigo": N_("Reading the board"),
    "read-enigma": N_("Reading the table"),
    "read-sheet": N_("Reading the sheet"),
    "read-card": N_("Reading the card"),
    "read-rack": N_("Reading the rack"),
    "teach-code": N_("Teaching the camera your tiles"),
    "save-code-pack": N_("Saving your tiles' look"),
    "markers": N_("The marker check"),
}
#: jobs whose error text stays in the log: a Break the Code rack is secret, and an error from
#: deep in its reader could name a tile (the screen hides its own read errors for that reason)
SECRET_JOBS = frozenset({"read-rack"})
#: screens where an unexpected error's text stays in the log, for the same reason
SECRET_SCREENS = frozenset({"break_the_code"})


def job_title(name: str) -> str:
    """What failed, in the players' words, for the job called ``name``."""
    title = JOB_TITLES.get(name)
    return _(title) if title else _("A background job ({name})").format(name=name)


def error_words(error: BaseException, *, quote: bool = True) -> str:
    """The error as the banner shows it: its type, and its text unless ``quote`` is False.

    A rule's or journal's own error (``CompanionError``) already says what and why; for any
    other the type tells a ``KeyError: 'x'`` from a plain ``'x'``.
    """
    from companion.errors import CompanionError

    kind = type(error).__name__
    said = str(error)
    if not quote or not said:
        return kind
    return said if isinstance(error, CompanionError) else f"{kind}: {said}"


def failure_message(what: str, error: str, *, game_moved: bool) -> str:
    """The banner line for a failure: what failed, why, and what became of the game."""
    if game_moved:
        return _("{what} failed: {error}. The game moved: check the screen, or Undo").format(
            what=what, error=error)
    return _("{what} failed: {error}; nothing was applied").format(what=what, error=error)


class ErrorBurst:
    """Counts main-thread errors; :meth:`record` says when there have been too many.

    More than ``limit`` errors within ``window_s`` seconds is a fault that repeats (something
    raising on every frame, a broken graphics context): continuing would only fill the log
    and the banner, so the app ends and systemd restarts it.
    """

    def __init__(self, *, limit: int = 5, window_s: float = 10.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window_s = window_s
        self.clock = clock
        self._times: deque[float] = deque()

    def record(self) -> bool:
        """Note one error now; True when it makes the errors too many to continue."""
        now = self.clock()
        self._times.append(now)
        while self._times and now - self._times[0] > self.window_s:
            self._times.popleft()
        return len(self._times) > self.limit


def log_failure(logger: logging.Logger, what: str, error: BaseException, *,
                quote: bool = True) -> None:
    """Log ``error`` with its traceback; without its text when ``quote`` is False (a secret
    rack's reader), so the log keeps where it happened but not what it was about."""
    if quote:
        logger.error("%s failed", what, exc_info=error)
        return
    frames = "".join(traceback.format_tb(error.__traceback__))
    logger.error("%s failed: %s (its text is not logged)\nTraceback:\n%s", what,
                 type(error).__name__, frames)


def running_intervals() -> list[Any]:
    """The clock's repeating events now (taken by the pump, for after an error)."""
    from kivy.clock import Clock

    return [event for event in Clock.get_events() if event.loop]


def revive_dropped_intervals(intervals: list[Any], error: BaseException) -> list[Any]:
    """Re-schedule those of ``intervals`` that Kivy's clock dropped because their callback
    raised ``error`` (its code is in the traceback); returns them.

    An event that is off the clock for another reason (cancelled by the app) stays off.
    """
    codes = set()
    frame = error.__traceback__
    while frame is not None:
        codes.add(frame.tb_frame.f_code)
        frame = frame.tb_next
    revived = []
    for event in intervals:
        if event.is_triggered:
            continue
        callback = event.get_callback()
        code = getattr(getattr(callback, "__func__", callback), "__code__", None)
        if code is not None and code in codes:
            event()  # a ClockEvent called is scheduled again, with its own interval
            revived.append(event)
    return revived


class KeepRunningHandler:
    """Kivy's last stop for an error on the main loop: ``recover(error)`` reports it and says
    whether the app may go on (then the loop continues with the next frame).

    Only an ``Exception`` other than ``MemoryError`` is offered to ``recover``; anything else
    (``KeyboardInterrupt``, ``SystemExit``, no memory left) ends the app as before.
    """

    def __init__(self, recover: Callable[[Exception], bool]) -> None:
        self.recover = recover

    def handle_exception(self, inst: BaseException) -> int:
        """Kivy's ``ExceptionHandler`` interface: PASS goes on, RAISE ends the main loop."""
        from kivy.base import ExceptionManagerBase

        if not isinstance(inst, Exception) or isinstance(inst, MemoryError):
            return ExceptionManagerBase.RAISE
        try:
            keep_running = self.recover(inst)
        except Exception:  # reporting failed too: nothing is known any more, so restart
            log.exception("reporting an error on the main loop failed")
            return ExceptionManagerBase.RAISE
        return ExceptionManagerBase.PASS if keep_running else ExceptionManagerBase.RAISE

    def install(self) -> KeepRunningHandler:
        from kivy.base import ExceptionManager

        ExceptionManager.add_handler(self)
        return self

    def remove(self) -> None:
        from kivy.base import ExceptionManager

        ExceptionManager.remove_handler(self)
