"""A question that must be answered before something that cannot be taken back happens."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from ui import theme
from ui.i18n import _
from ui.touch import min_target_px
from ui.widgets.buttons import TouchButton

#: the question's share of the screen: wide enough for two lines of a sentence at 800x480
WIDTH_SHARE = 0.9


class Confirm(ModalView):
    """``question`` with two buttons: Cancel (or a tap outside) does nothing; ``yes_text``
    calls ``on_yes()``. The buttons are ``no_button`` and ``yes_button``."""

    def __init__(self, question: str, yes_text: str, on_yes: Callable[[], None],
                 **kwargs: Any) -> None:
        target = min_target_px()
        super().__init__(size_hint=(WIDTH_SHARE, None), height=target * 4.2,
                         auto_dismiss=True, **kwargs)
        box = BoxLayout(orientation="vertical", spacing=theme.GAP_LOOSE, padding=theme.GAP_LOOSE)
        label = Label(text=question, halign="center", valign="middle")
        label.bind(size=lambda w, s: setattr(w, "text_size", (s[0] - 8, None)))
        box.add_widget(label)
        row = BoxLayout(size_hint_y=None, height=target, spacing=theme.GAP_LOOSE)
        self.no_button = TouchButton(text=_("Cancel"))
        self.no_button.bind(on_press=lambda *_a: self.dismiss())
        self.yes_button = TouchButton(text=yes_text, background_color=theme.DANGER)
        self.yes_button.bind(on_press=lambda *_a: self._yes(on_yes))
        row.add_widget(self.no_button)
        row.add_widget(self.yes_button)
        box.add_widget(row)
        self.add_widget(box)

    def _yes(self, on_yes: Callable[[], None]) -> None:
        self.dismiss()
        on_yes()
