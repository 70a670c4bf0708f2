"""How many widgets are alive once the garbage is collected: what the leak tests compare."""

from __future__ import annotations

import gc


def live_widgets() -> int:
    """The live widgets, after the animations in flight are stopped: a running animation holds
    its widget, and a scroll bar fading out for a few seconds after a panel was rebuilt kept
    that whole old panel alive at one count and not at the next (tile pictures, CI)."""
    from kivy.animation import Animation

    gc.collect()
    for widget in _widgets():
        Animation.cancel_all(widget)
    gc.collect()
    return len(_widgets())


def _widgets() -> list[object]:
    from kivy.uix.widget import Widget

    # type(), not isinstance(): a weak proxy to a collected widget raises on any attribute
    return [o for o in gc.get_objects() if issubclass(type(o), Widget)]
