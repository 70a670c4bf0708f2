"""The on-screen virtual panel of the demo: the light bar, the buzzer and clickable buttons.

It draws the device hub's snapshot (levels per LED, what the buzzer plays) and a click on a
button goes through :meth:`DeviceHub.press`, the same path as a real press on mock pins.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.properties import ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from ui import theme
from ui.i18n import _
from ui.touch import fit_width, min_target_px
from ui.widgets.buttons import TouchButton

#: the buzzer's word is body text (app.kv's Label), read at arm's length
BUZZER_FONT = theme.FONT_BODY
#: a sound lasts under a second (a tick, a beep); its word stays this long after it began, long
#: enough to be read by a player who looked up at the sound
BUZZER_SHOWN_S = 3.0


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
        gap = theme.GAP
        width = (self.width - gap * (n + 1)) / n
        with self.canvas:
            Color(*theme.PANEL)
            Rectangle(pos=self.pos, size=self.size)
            for i, level in enumerate(self.levels):
                Color(*theme.lamp(level))
                Rectangle(pos=(self.x + gap + i * (width + gap), self.y + gap),
                          size=(width, self.height - 2 * gap))


class VirtualPanel(BoxLayout):
    """Light bar, buzzer state and the six buttons, bound to the app's panel properties."""

    buzzer = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(orientation="horizontal", size_hint_y=None, height=min_target_px() + 8,
                         spacing=theme.GAP, padding=(theme.GAP, theme.GAP), **kwargs)
        app = App.get_running_app()
        self.bar = LightBar(size_hint_x=1)
        self.add_widget(self.bar)
        self.buzzer_label = Label(text="", size_hint_x=None, width=min_target_px() * 1.6,
                                  font_size=BUZZER_FONT)
        self._sound_began = -BUZZER_SHOWN_S
        self._quiet_later: Any = None
        self.add_widget(self.buzzer_label)
        self.buttons: dict[str, TouchButton] = {}
        labels = {"confirm": _("OK"), "undo": _("Undo")}
        for name in app.panel_buttons:
            text = labels.get(name, name)
            button = TouchButton(text=text, size_hint_x=None, font_size=theme.FONT_COMPACT,
                                 width=fit_width(text, theme.FONT_COMPACT,
                                                 minimum=min_target_px() * 1.15,
                                                 padding=theme.BUTTON_TEXT_ROOM))
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
        if self._quiet_later is not None:
            self._quiet_later.cancel()
            self._quiet_later = None
        if what:
            self._sound_began = Clock.get_boottime()
            self._show_sound(what)
            return
        left = self._sound_began + BUZZER_SHOWN_S - Clock.get_boottime()
        if left > 0 and self.buzzer_label.text != _("quiet"):
            self._quiet_later = Clock.schedule_once(lambda _dt: self._show_sound(""), left)
        else:
            self._show_sound("")

    def _show_sound(self, what: str) -> None:
        sounds = {"start": _("start"), "tick": _("tick"), "warning": _("warning"),
                  "alarm": _("alarm")}
        label = self.buzzer_label
        label.text = sounds.get(what, what) if what else _("quiet")
        label.color = theme.SOUND if what else theme.INK_QUIET
        label.width = fit_width(label.text, BUZZER_FONT, minimum=min_target_px() * 1.6)
