"""Enigma's scoring wheel: 16 fields 0..15+, each player's marker on their score."""

from __future__ import annotations

import math
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import ListProperty, NumericProperty
from kivy.uix.widget import Widget

FIELDS = 16  # 0..14 and "15+"


class ScoringWheel(Widget):
    """``markers`` is a list of (score, rgba); scores of 15 and more share the last field."""

    markers = ListProperty([])
    target = NumericProperty(15)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(markers=self.redraw, size=self.redraw, pos=self.redraw, target=self.redraw)

    @staticmethod
    def field_of(score: int) -> int:
        return max(0, min(FIELDS - 1, int(score)))

    def redraw(self, *args: Any) -> None:
        self.canvas.clear()
        r = min(self.width, self.height) / 2 * 0.9
        cx, cy = self.center
        with self.canvas:
            Color(0.18, 0.18, 0.22, 1)
            Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
            for i in range(FIELDS):
                angle = math.radians(90 - i * 360 / FIELDS)
                Color(0.5, 0.5, 0.55, 1)
                Line(points=[cx, cy, cx + r * math.cos(angle - math.pi / FIELDS),
                             cy + r * math.sin(angle - math.pi / FIELDS)], width=1)
                label = CoreLabel(text="15+" if i == FIELDS - 1 else str(i),
                                  font_size=max(10, r * 0.13))
                label.refresh()
                tex = label.texture
                tx = cx + r * 0.8 * math.cos(angle) - tex.width / 2
                ty = cy + r * 0.8 * math.sin(angle) - tex.height / 2
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(tx, ty), size=tex.size)
            per_field: dict[int, int] = {}
            for score, rgba in self.markers:
                f = self.field_of(score)
                k = per_field.get(f, 0)
                per_field[f] = k + 1
                angle = math.radians(90 - f * 360 / FIELDS)
                reach = r * (0.55 - 0.13 * k)
                m = r * 0.08
                Color(*rgba)
                Ellipse(pos=(cx + reach * math.cos(angle) - m, cy + reach * math.sin(angle) - m),
                        size=(2 * m, 2 * m))
