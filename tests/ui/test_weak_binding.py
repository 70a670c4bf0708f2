"""A screen's property followed by panels rebuilt at every move: the bindings of panels gone
do not pile up on the screen (a status set again to the same text is not dispatched, so a
binding that removed itself only at a change stayed, one per rebuilt panel)."""

from __future__ import annotations

import gc
import weakref

from kivy.event import EventDispatcher
from kivy.properties import StringProperty

from ui.weak_binding import follow_property


class Screen(EventDispatcher):
    status = StringProperty("")


class Line(EventDispatcher):
    text = StringProperty("")


def test_bindings_of_dropped_panels_do_not_pile_up() -> None:
    screen = Screen()
    screen.status = "Ana's turn"
    kept = []
    for _move in range(40):  # each move rebuilds the panel; the status says the same
        line = Line()
        follow_property(screen, "status", line)
        kept.append(weakref.ref(line))
        del line
        gc.collect()
        screen.status = "Ana's turn"
    assert all(ref() is None for ref in kept)
    assert len(screen.get_property_observers("status")) <= 2


def test_a_live_panel_follows_and_a_dropped_one_lets_go() -> None:
    screen = Screen()
    live, dropped = Line(), Line()
    follow_property(screen, "status", live)
    follow_property(screen, "status", dropped)
    gone = weakref.ref(dropped)
    del dropped
    gc.collect()
    screen.status = "Ben draws"
    assert live.text == "Ben draws" and gone() is None
    follow_property(screen, "status", Line())  # a third panel: the second's binding is gone
    assert len(screen.get_property_observers("status")) == 2
