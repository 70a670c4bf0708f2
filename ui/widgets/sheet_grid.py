"""A Second Chance sheet: 9x9 squares, the filled ones, the 1, a selection and a ghost.

``filled`` and ``bonus`` come from the engine's grid; ``selected`` are the squares the player
tapped (the drawing being entered); ``ghost`` a placement the engine found (shown for "fits?");
``doubtful`` the squares the camera could not tell, framed in orange with a "?" for the
players to check.
A tap toggles a square in ``selected`` and dispatches ``on_square``.
"""

from __future__ import annotations

from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.properties import ListProperty, ObjectProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.widget import Widget

SIZE = 9


class SheetGrid(Widget):
    filled = ListProperty([])
    selected = ListProperty([])
    ghost = ListProperty([])
    doubtful = ListProperty([])
    bonus = ObjectProperty(None, allownone=True)

    __events__ = ("on_square",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(filled=self.redraw, selected=self.redraw, ghost=self.redraw, doubtful=self.redraw,
                  bonus=self.redraw,
                  size=self.redraw, pos=self.redraw)

    def geometry(self) -> tuple[float, float, float]:
        side = min(self.width, self.height) / SIZE
        ox = self.center_x - side * SIZE / 2
        oy = self.center_y + side * SIZE / 2
        return side, ox, oy

    def square_at(self, x: float, y: float) -> tuple[int, int] | None:
        side, ox, oy = self.geometry()
        col = int((x - ox) // side)
        row = int((oy - y) // side)
        if 0 <= row < SIZE and 0 <= col < SIZE:
            return (row, col)
        return None

    def centre_of(self, square: tuple[int, int]) -> tuple[float, float]:
        side, ox, oy = self.geometry()
        return (ox + (square[1] + 0.5) * side, oy - (square[0] + 0.5) * side)

    def on_touch_down(self, touch: Any) -> bool:
        if self.disabled or not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        square = self.square_at(*touch.pos)
        if square is None:
            return super().on_touch_down(touch)
        self.dispatch("on_square", square)
        return True

    def on_square(self, square: tuple[int, int]) -> None:
        pass

    def redraw(self, *args: Any) -> None:
        side, ox, oy = self.geometry()
        filled = {tuple(c) for c in self.filled}
        selected = {tuple(c) for c in self.selected}
        ghost = {tuple(c) for c in self.ghost}
        self.canvas.clear()
        with self.canvas:
            for row in range(SIZE):
                for col in range(SIZE):
                    cell = (row, col)
                    if cell in filled:
                        Color(0.3, 0.45, 0.75, 1)
                    elif cell in selected:
                        Color(0.95, 0.7, 0.2, 1)
                    elif cell in ghost:
                        Color(0.35, 0.7, 0.35, 0.7)
                    else:
                        Color(0.93, 0.93, 0.9, 1)
                    Rectangle(pos=(ox + col * side + 1, oy - (row + 1) * side + 1),
                              size=(side - 2, side - 2))
            Color(0.2, 0.2, 0.2, 1)
            cx, cy = self.centre_of((4, 4))
            Line(circle=(cx, cy, side * 0.35), width=1.2)
            for row, col in (tuple(c) for c in self.doubtful):
                x, y = ox + col * side, oy - (row + 1) * side
                Color(0.95, 0.45, 0.1, 1)
                Line(rectangle=(x + 2, y + 2, side - 4, side - 4), width=2.5)
                mark = CoreLabel(text="?", font_size=side * 0.6, bold=True)
                mark.refresh()
                Rectangle(texture=mark.texture, size=mark.texture.size,
                          pos=(x + (side - mark.texture.width) / 2,
                               y + (side - mark.texture.height) / 2))
            if self.bonus is not None:
                label = CoreLabel(text="1", font_size=side * 0.7, bold=True)
                label.refresh()
                bx, by = self.centre_of(tuple(self.bonus))
                Color(1, 1, 1, 1)
                Rectangle(texture=label.texture, size=label.texture.size,
                          pos=(bx - label.texture.width / 2, by - label.texture.height / 2))


class ShapeButton(ButtonBehavior, Widget):
    """A card's shape drawn small, as a button (to enter a revealed card)."""

    def __init__(self, shape: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.shape = shape
        self.bind(size=self.redraw, pos=self.redraw, state=self.redraw)

    def redraw(self, *args: Any) -> None:
        cells = list(self.shape.cells)
        rows = max(r for r, _ in cells) + 1
        cols = max(c for _, c in cells) + 1
        side = min((self.width - 8) / max(cols, 1), (self.height - 8) / max(rows, 1), 14)
        ox = self.center_x - side * cols / 2
        oy = self.center_y + side * rows / 2
        self.canvas.clear()
        with self.canvas:
            Color(0.35, 0.35, 0.38, 1) if self.state == "normal" else Color(0.6, 0.5, 0.2, 1)
            Rectangle(pos=self.pos, size=self.size)
            Color(0.9, 0.9, 0.85, 1)
            for r, c in cells:
                Rectangle(pos=(ox + c * side + 1, oy - (r + 1) * side + 1),
                          size=(side - 2, side - 2))
