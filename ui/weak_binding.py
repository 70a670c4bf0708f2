"""A widget that shows a screen's property, without the screen keeping the widget alive.

The game screens rebuild their panels on every move, and a panel's status line or countdown
follows a property of the screen. ``screen.bind(status=label.setter("text"))`` gives the screen
a strong reference to the label (the setter is a partial of it), and through the label's
``parent`` to the whole old panel: every rebuilt panel then lived as long as the screen, a few
hundred widgets and their text textures per game, all evening.
"""

from __future__ import annotations

import weakref
from typing import Any

#: the source's attribute that lists, per property, (target's weak reference, update) of its
#: bindings: on the source itself, so that a dropped screen takes them with it
FOLLOWERS_ATTR = "_weak_followers"


def follow_property(source: Any, name: str, target: Any, attr: str = "text") -> None:
    """Keep ``target.attr`` equal to ``source.name`` while ``target`` lives.

    ``source`` holds ``target`` only weakly; the binding removes itself at the first change
    after ``target`` is gone, or at the next binding to ``source.name``, whichever comes first
    (a screen's status is often set again to the same text, which Kivy does not dispatch:
    a panel rebuilt at every move then left its binding behind, one per move, all evening).
    """
    alive = weakref.ref(target)
    followers = _followers(source, name)

    def update(_source: Any, value: Any) -> None:
        widget = alive()
        if widget is None:
            _unbind(source, name, update)
            return
        setattr(widget, attr, value)

    for _gone, dead_update in [f for f in followers if f[0]() is None]:
        _unbind(source, name, dead_update)
    followers.append((alive, update))
    source.fbind(name, update)


def _unbind(source: Any, name: str, update: Any) -> None:
    source.funbind(name, update)
    followers = _followers(source, name)
    followers[:] = [f for f in followers if f[1] is not update]


def _followers(source: Any, name: str) -> list[tuple[weakref.ref[Any], Any]]:
    by_name: dict[str, list[tuple[weakref.ref[Any], Any]]] | None = \
        getattr(source, FOLLOWERS_ATTR, None)
    if by_name is None:
        by_name = {}
        setattr(source, FOLLOWERS_ATTR, by_name)
    return by_name.setdefault(name, [])
