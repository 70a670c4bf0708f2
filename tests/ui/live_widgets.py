"""How many widgets are alive once the garbage is collected: what the leak tests compare."""

from __future__ import annotations

import gc
import time
from typing import Any

#: how long a count may take to settle: a worker thread or a scheduled callback still running
#: holds the panel it was started from for a moment after the screen has moved on
SETTLE_S = 5.0


def live_widgets(driver: Any) -> int:
    """The live widgets once what holds an old panel for a moment has let go: animations in
    flight are stopped (a scroll bar fading out for a few seconds after a panel was rebuilt
    kept that whole old panel alive at one count and not at the next, CI), and the main loop
    is pumped until two counts a moment apart agree (a camera read on its worker thread held
    the tile pictures of the panel it began on)."""
    deadline = time.monotonic() + SETTLE_S
    last = _count()
    while time.monotonic() < deadline:
        driver.pump(2)
        time.sleep(0.1)
        count = _count()
        if count == last:
            return count
        last = count
    return last


def _count() -> int:
    from kivy.animation import Animation

    # the app's collector freezes what lives when Home is shown (ui.main_thread_gc): frozen
    # objects are neither listed by gc.get_objects() nor collected, so a count after a
    # settling would leave out every widget older than it
    gc.unfreeze()
    gc.collect()
    for widget in _widgets():
        Animation.cancel_all(widget)
    gc.collect()
    return len(_widgets())


def _widgets() -> list[object]:
    from kivy.uix.widget import Widget

    # type(), not isinstance(): a weak proxy to a collected widget raises on any attribute
    return [o for o in gc.get_objects() if issubclass(type(o), Widget)]
