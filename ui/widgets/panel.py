"""The on-screen virtual panel of the demo: the light bar, the buzzer and clickable buttons.

It draws the device hub's snapshot (levels per LED, what the buzzer plays) and a click on a
button goes through :meth:`DeviceHub.press`, the same path as a real press on mock pins.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.graphics import Color, Rectangle
from kivy.properties import ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from ui.i18n import _
from ui.touch import fit_width, min_target_px
from ui.widgets.buttons import TouchButton


class LightBar(Widget):
    """One lamp per LED; brightness is the level (0..1)."""

    levels = ListProperty([])

    def on_levels(self, *args: Any) -> None:
        self.redraw()

    def on_size(self, *args: Any) -> None:
        self.redraw()

    def on_pos(self, *args: Any) -> None:
        self.redraw()

    def redraw(self) -> None:
        self.canvas.clear()
        n = max(1, len(self.levels))
        gap = 4
        width = (self.width - gap * (n + 1)) / n
        with self.canvas:
            Color(0.1, 0.1, 0.1, 1)
            Rectangle(pos=self.pos, size=self.size)
            for i, level in enumerate(self.levels):
                Color(0.25 + 0.75 * level, 0.2 + 0.6 * level, 0.1, 1)
                Rectangle(pos=(self.x + gap + i * (width + gap), self.y + gap),
                          size=(width, self.height - 2 * gap))


class VirtualPanel(BoxLayout):
    """Light bar, buzzer state and the six buttons, bound to the app's panel properties."""

    buzzer = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(orientation="horizontal", size_hint_y=None, height=min_target_px() + 8,
                         spacing=4, padding=(4, 4), **kwargs)
        app = App.get_running_app()
        self.bar = LightBar(size_hint_x=1)
        self.add_widget(self.bar)
        self.buzzer_label = Label(text="", size_hint_x=None, width=min_target_px() * 1.6,
                                  font_size="13sp")
        self.add_widget(self.buzzer_label)
        self.buttons: dict[str, TouchButton] = {}
        labels = {"confirm": _("OK"), "undo": _("Undo")}
        for name in app.panel_buttons:
            text = labels.get(name, name)
            button = TouchButton(text=text, size_hint_x=None, font_size="15sp",
                                 width=fit_width(text, "15sp", minimum=min_target_px() * 1.15,
                                                 padding=12))
            button.bind(on_press=lambda _b, n=name: App.get_running_app().devices.press(n))
            self.buttons[name] = button
            self.add_widget(button)
        app.bind(panel_levels=self._levels, panel_buzzer=self._buzzer)
        self._levels(app, app.panel_levels)
        self._buzzer(app, app.panel_buzzer)

    def _levels(self, app: Any, levels: list[float]) -> None:
        self.bar.levels = list(levels)

    def _buzzer(self, app: Any, what: str) -> None:
        self.buzzer = what
        sounds = {"start": _("start"), "tick": _("tick"), "warning": _("warning"),
                  "alarm": _("alarm")}
        self.buzzer_label.text = sounds.get(what, what) if what else _("quiet")
        self.buzzer_label.color = (1, 0.4, 0.3, 1) if what else (0.6, 0.6, 0.6, 1)
