"""Touch buttons that are never smaller than 9 mm, and a long-press button.

Nothing here relies on a double tap or a hover: a press is a press, and the long press
(used to peek at a hidden haul) is a held touch with a timer, cancelled on release.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, NumericProperty
from kivy.uix.button import Button
from kivy.uix.togglebutton import ToggleButton

from ui.touch import min_target_px


class _TargetSize:
    """Mixin: enforce the minimum touch size and shrink the font to keep text inside."""

    def _init_target(self) -> None:
        floor = min_target_px()
        self.min_target = floor
        if self.size_hint_y is None and self.height < floor:
            self.height = floor
        if self.size_hint_x is None and self.width < floor:
            self.width = floor
        self.halign = "center"
        self.valign = "middle"
        self.shorten = True
        self.shorten_from = "right"
        self.bind(size=self._fit_text, text=self._fit_text)

    def _fit_text(self, *args: Any) -> None:
        # Kivy's shorten puts everything on one line: only for one-line texts; a button that
        # wraps (a sentence on it) lays its text over the lines it needs instead
        self.shorten = "\n" not in self.text and not self.wrap
        self.text_size = (max(1.0, self.width - 8), max(1.0, self.height - 4))


class TouchButton(_TargetSize, Button):
    """A button at least 9 mm both ways."""

    min_target = NumericProperty(0)
    wrap = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", min_target_px())
        super().__init__(**kwargs)
        self._init_target()


class TouchToggle(_TargetSize, ToggleButton):
    """A toggle button at least 9 mm both ways."""

    min_target = NumericProperty(0)
    wrap = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", min_target_px())
        super().__init__(**kwargs)
        self._init_target()

    def _release_group(self, current: Any) -> None:
        # a group is the toggles of one row: Kivy keeps its groups by name for the whole app,
        # so a panel rebuilt after a move shares them with the toggles of the panel it replaced.
        # Kivy 2.3's loop also sets a dead member's state (AttributeError on None): a toggle
        # collected after the loop copied the group took a tap on a live one down with it
        if self.group is None:
            return
        for member in self.get_widgets(self.group):
            if member is not current and member.parent is current.parent:
                member.state = "normal"


class LongPressButton(TouchButton):
    """Fires ``on_long_press`` while held for ``hold_s`` and ``on_long_release`` after."""

    hold_s = NumericProperty(0.6)
    is_held = BooleanProperty(False)
    tint = ListProperty([1, 1, 1, 1])

    __events__ = ("on_long_press", "on_long_release")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._timer: Any = None

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos):
            self._timer = Clock.schedule_once(self._held, self.hold_s)
        return super().on_touch_down(touch)

    def on_touch_up(self, touch: Any) -> bool:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.is_held:
            self.is_held = False
            self.dispatch("on_long_release")
        return super().on_touch_up(touch)

    def _held(self, dt: float) -> None:
        self._timer = None
        self.is_held = True
        self.dispatch("on_long_press")

    def on_long_press(self) -> None:
        pass

    def on_long_release(self) -> None:
        pass
