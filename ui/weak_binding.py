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


def follow_property(source: Any, name: str, target: Any, attr: str = "text") -> None:
    """Keep ``target.attr`` equal to ``source.name`` while ``target`` lives.

    ``source`` holds ``target`` only weakly; the binding removes itself at the first change
    after ``target`` is gone.
    """
    alive = weakref.ref(target)

    def update(_source: Any, value: Any) -> None:
        widget = alive()
        if widget is None:
            source.funbind(name, update)
            return
        setattr(widget, attr, value)

    source.fbind(name, update)
