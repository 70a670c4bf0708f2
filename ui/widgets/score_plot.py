"""Score over time for one game, drawn with Kivy graphics: one line per player."""

from __future__ import annotations

from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.properties import DictProperty, ListProperty
from kivy.uix.widget import Widget

from ui.i18n import _


def _text(text: str, size: float) -> Any:
    label = CoreLabel(text=text, font_size=size)
    label.refresh()
    return label.texture


class ScorePlot(Widget):
    """``series``: player -> scores after each event; ``colours``: player -> rgba."""

    series = DictProperty({})
    colours = DictProperty({})
    #: what to show with no scores (one text); empty: "no scores" in the player's language,
    #: worded when drawn, as the language may change after the widget is made
    empty_text = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(series=self.redraw, colours=self.redraw, size=self.redraw, pos=self.redraw,
                  empty_text=self.redraw)

    def redraw(self, *args: Any) -> None:
        self.canvas.clear()
        values = [v for line in self.series.values() for v in line]
        with self.canvas:
            Color(0.12, 0.13, 0.15, 1)
            Rectangle(pos=self.pos, size=self.size)
            if not values:
                tex = _text(self.empty_text[0] if self.empty_text else _("no scores"), 16)
                Color(0.8, 0.8, 0.8, 1)
                Rectangle(texture=tex, size=tex.size,
                          pos=(self.center_x - tex.width / 2, self.center_y - tex.height / 2))
                return
            low, high = min(0, min(values)), max(1, max(values))
            steps = max(len(line) for line in self.series.values()) - 1 or 1
            legend_w = 110.0
            left, bottom = self.x + 40, self.y + 24
            width = max(10.0, self.width - 40 - legend_w - 8)
            height = max(10.0, self.height - 36)

            def point(i: int, v: float) -> tuple[float, float]:
                return (left + width * i / steps, bottom + height * (v - low) / (high - low))

            Color(0.6, 0.6, 0.6, 1)
            Line(points=[left, bottom + height, left, bottom, left + width, bottom], width=1)
            for value in (low, high):
                tex = _text(str(int(value)), 13)
                Rectangle(texture=tex, size=tex.size,
                          pos=(left - tex.width - 4, point(0, value)[1] - tex.height / 2))
            tex = _text(str(steps), 13)
            Rectangle(texture=tex, size=tex.size, pos=(left + width - tex.width / 2, self.y + 4))
            for k, (player, line) in enumerate(self.series.items()):
                rgba = self.colours.get(player, (1, 1, 1, 1))
                Color(*rgba)
                pts = [c for i, v in enumerate(line) for c in point(i, v)]
                if len(pts) >= 4:
                    Line(points=pts, width=2)
                tex = _text(f"{player} {line[-1] if line else ''}", 14)
                ly = self.top - 24 - k * 22
                Rectangle(pos=(self.right - legend_w, ly + 4), size=(14, 10))
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, size=tex.size, pos=(self.right - legend_w + 20, ly))
