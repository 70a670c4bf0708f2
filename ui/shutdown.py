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
