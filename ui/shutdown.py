"""Releasing what the app holds when it ends, one step after another, each step on its own.

The app can end four ways: a normal stop (the window closed, ``App.stop()``), SIGTERM from
systemd (:func:`ui.main.run_app` turns it into ``App.stop()``), giving up after errors that
keep coming (:mod:`ui.main_thread_errors`), and any other exception escaping Kivy's loop. Only
the first two dispatch ``on_stop``; :meth:`ui.app.CompanionApp.run` releases in a ``finally``
for the others. Either way the same steps run, once, in :func:`release_in_order`.

Why every step is guarded: a buzzer that cannot be silenced must not leave the camera held
open (the restarted app could not open it) or the journal unclosed. A failure is logged with
its traceback and the next step runs anyway; nothing is raised, so the exception that ended
the app (and the exit status systemd's ``Restart=on-failure`` reads) stays the one reported.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from ui.workers import STOP_WAIT_SECONDS

log = logging.getLogger(__name__)

#: one step: what it does (for the log) and the call that does it
Step = tuple[str, Callable[[], object]]


def release_in_order(steps: Iterable[Step], logger: logging.Logger) -> list[str]:
    """Run every step in order; one that raises is logged and the rest still run.

    Returns what the failed steps do (empty when all went well). ``KeyboardInterrupt`` and
    ``SystemExit`` are not caught: someone insisting on the end is obeyed.
    """
    failed = []
    for what, step in steps:
        try:
            step()
        except Exception:
            logger.exception("%s failed while the app was ending", what)
            failed.append(what)
    return failed


class AppShutdown:
    """The app's end, as a part of :class:`ui.app.CompanionApp`: what it holds, released
    once, in :func:`release_in_order`, the order the players would notice first."""

    notifier: Any
    jobs: Any
    collector: Any
    devices: Any
    camera: Any
    journal: Any
    _screens: dict[str, Any]
    _clock_events: list[Any]
    _main_loop_handler: Any
    _shut_down: bool
    _on_first_flip: Callable[..., Any]
    _on_window_size: Callable[..., Any]

    def shutdown(self) -> list[str]:
        """Release everything, once: a second call does nothing. Returns the steps that failed.

        The order puts what the players would notice first: systemd hears that the app is
        stopping, nothing on the clock can light the bar again, the buzzer goes quiet and the
        bar dark, the pins are freed, then the camera thread is stopped (it closes the camera
        itself, after its current read: up to a second on a Pi), the background jobs (a board
        read) are waited for, and the journal closed last. No thread of ours is then left in
        OpenCV when the interpreter finalises (that aborted the process: issue 23). Each
        step is guarded (:func:`ui.shutdown.release_in_order`): one that fails is logged and
        the rest still run.
        """
        if self._shut_down:
            return []
        self._shut_down = True
        return release_in_order([
            ("telling systemd the app is stopping", self.notifier.stopping),
            ("stopping the screens' timers", self._stop_screen_timers),
            ("cancelling the app's clock events", self._cancel_clock_events),
            ("removing the main-loop error handler", self._remove_main_loop_handler),
            ("unbinding from the window", self._unbind_window),
            ("silencing the buzzer and darkening the light bar", self._devices_off),
            ("closing the GPIO pins", self._close_devices),
            ("stopping the camera thread and closing the camera", self._close_camera),
            ("waiting for the background jobs (a board read)", self.jobs.close),
            ("closing the journal", self._close_journal),
            ("giving garbage collection back to Python", self.collector.stop),
        ], log)

    def _stop_screen_timers(self) -> None:
        # each screen on its own: a timer that fails to stop must not keep the others ticking
        release_in_order([(f"stopping the {name} screen's timer", stop)
                          for name, screen in self._screens.items()
                          if callable(stop := getattr(screen, "stop_timer", None))], log)

    def _cancel_clock_events(self) -> None:
        events, self._clock_events = self._clock_events, []
        for event in events:
            event.cancel()

    def _remove_main_loop_handler(self) -> None:
        # Kivy's ExceptionManager is global: tests make many apps in one process
        handler, self._main_loop_handler = self._main_loop_handler, None
        if handler is not None:
            handler.remove()

    def _unbind_window(self) -> None:
        from kivy.core.window import Window  # made by the app long before it ends

        Window.unbind(on_flip=self._on_first_flip)
        Window.unbind(size=self._on_window_size)

    def _devices_off(self) -> None:
        if self.devices is not None:
            self.devices.off()

    def _close_devices(self) -> None:
        devices, self.devices = self.devices, None
        if devices is not None:
            devices.close()

    def _close_camera(self) -> None:
        camera, self.camera = self.camera, None
        if camera is not None:
            # a frame being rendered is OpenCV: its thread must end before the interpreter
            camera.close(timeout=STOP_WAIT_SECONDS)

    def _close_journal(self) -> None:
        journal, self.journal = self.journal, None
        closer = getattr(journal, "close", None)
        if callable(closer):
            closer()  # every event is on disk already (synchronous=FULL); this checkpoints
            # the WAL into the database file
