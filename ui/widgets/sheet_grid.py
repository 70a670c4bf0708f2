"""A Second Chance sheet: 9x9 squares, the filled ones, the 1, a selection and a ghost.

``filled`` and ``bonus`` come from the engine's grid; ``selected`` are the squares the player
tapped (the drawing being entered); ``ghost`` a placement the engine found (shown for "fits?");
``doubtful`` the squares the camera could not tell, framed in orange with a "?" for the
players to check.
A tap toggles a square in ``selected`` and dispatches ``on_square``.

Where the whole sheet's squares would be under a touch target (9x9 squares beside the panel at
800x480 are 6 mm), the sheet zooms: a tap on the whole sheet shows the squares around it at
least 9 mm wide, which a tap then toggles. A strip beside the squares holds the whole sheet
small (a tap on it moves the view there, a drag on the squares does too) and "Whole sheet".
"""

from __future__ import annotations

from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.properties import ListProperty, NumericProperty, ObjectProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.widget import Widget

from ui import theme
from ui.i18n import _
from ui.touch import fit_width, min_target_px
from ui.widgets.curves import circle_line

SIZE = 9
#: the strip beside zoomed squares: the whole sheet small over the "Whole sheet" button
STRIP_FONT = theme.FONT_COMPACT


class SheetGrid(Widget):
    filled = ListProperty([])
    selected = ListProperty([])
    ghost = ListProperty([])
    doubtful = ListProperty([])
    bonus = ObjectProperty(None, allownone=True)
    #: the smallest square a finger may be asked to tap, in pixels
    min_side = NumericProperty(0)
    #: the top-left square (row, col) of the zoomed view; [] while the whole sheet is shown
    origin = ListProperty([])

    __events__ = ("on_square",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        from ui.widgets.buttons import TouchButton

        self.min_side = min_target_px()
        self.whole_button = TouchButton(text=_("Whole sheet"), font_size=STRIP_FONT,
                                        size_hint=(None, None), opacity=0, disabled=True)
        self.whole_button.bind(on_press=lambda *_a: self.zoom_out())
        self.add_widget(self.whole_button)
        self._focus = (SIZE // 2, SIZE // 2)
        self.bind(size=self._centre_on_focus)
        self.bind(filled=self.redraw, selected=self.redraw, ghost=self.redraw, doubtful=self.redraw,
                  bonus=self.redraw, origin=self.redraw, min_side=self.redraw,
                  size=self.redraw, pos=self.redraw)

    # --- zoom ---------------------------------------------------------------------------------
    def needs_zoom(self) -> bool:
        """Whether the whole sheet's squares are smaller than a touch target here."""
        return min(self.width, self.height) / SIZE < self.min_side - 0.5

    def _strip_width(self) -> float:
        return fit_width(_("Whole sheet"), STRIP_FONT, minimum=self.min_side * 2)

    def _squares_area(self) -> tuple[float, float, float, float]:
        """Where the squares are drawn (x, y, width, height): all of the widget, less the strip
        on the right while zoomed."""
        if not self.origin:
            return self.x, self.y, self.width, self.height
        return self.x, self.y, max(1.0, self.width - self._strip_width() - 4), self.height

    def view_size(self) -> tuple[int, int]:
        """Rows and columns shown: all of them, or while zoomed as many as fit at least
        ``min_side`` wide."""
        if not self.origin:
            return SIZE, SIZE
        _x, _y, width, height = self._squares_area()
        return (max(1, min(SIZE, int(height // self.min_side))),
                max(1, min(SIZE, int(width // self.min_side))))

    def zoom_to(self, square: tuple[int, int]) -> None:
        """Zoom in (or move the zoomed view) with ``square`` in the middle."""
        self._focus = (int(square[0]), int(square[1]))
        self.origin = [0, 0]  # the view's size depends on being zoomed
        self._centre_on_focus()

    def _centre_on_focus(self, *args: Any) -> None:
        # the screen widens a zoomed sheet a frame later: the view keeps the square it was
        # zoomed on in its middle, whatever size it gets
        if not self.origin:
            return
        rows, cols = self.view_size()
        row, col = self._focus
        origin = [max(0, min(SIZE - rows, row - rows // 2)),
                  max(0, min(SIZE - cols, col - cols // 2))]
        if origin != list(self.origin):
            self.origin = origin

    def zoom_out(self) -> None:
        self.origin = []

    def shows(self, square: tuple[int, int]) -> bool:
        """Whether ``square`` can be tapped now (shown, at least ``min_side`` wide)."""
        if not self.origin:
            return not self.needs_zoom()
        rows, cols = self.view_size()
        row0, col0 = self.origin
        return row0 <= square[0] < row0 + rows and col0 <= square[1] < col0 + cols

    def pointer_to(self, square: tuple[int, int]) -> tuple[float, float]:
        """Where a finger taps to bring ``square`` into a tappable view: on the whole sheet
        (the tap zooms in there), or on the small sheet of the strip."""
        if not self.origin:
            return self.centre_of(square)
        side, ox, oy = self._overview()
        return ox + (square[1] + 0.5) * side, oy - (square[0] + 0.5) * side

    def _overview(self) -> tuple[float, float, float]:
        """The small whole sheet in the strip: (side, left, top)."""
        width = self._strip_width()
        left = self.right - width
        side = min(width, self.height - self.min_side - 8) / SIZE
        return side, left + (width - side * SIZE) / 2, self.top

    # --- squares ------------------------------------------------------------------------------
    def geometry(self) -> tuple[float, float, float]:
        """(side, left, top) of square (0, 0)'s corner: the whole sheet, or zoomed the view's
        first square at the squares' area's top left (the others are off the view)."""
        x, y, width, height = self._squares_area()
        if not self.origin:
            side = min(width, height) / SIZE
            return side, x + width / 2 - side * SIZE / 2, y + height / 2 + side * SIZE / 2
        rows, cols = self.view_size()
        side = min(width / cols, height / rows)
        row0, col0 = self.origin
        return side, x - col0 * side, y + height - (height - rows * side) / 2 + row0 * side

    def square_at(self, x: float, y: float) -> tuple[int, int] | None:
        side, ox, oy = self.geometry()
        col = int((x - ox) // side)
        row = int((oy - y) // side)
        if 0 <= row < SIZE and 0 <= col < SIZE and (not self.origin or self.shows((row, col))):
            return (row, col)
        return None

    def centre_of(self, square: tuple[int, int]) -> tuple[float, float]:
        side, ox, oy = self.geometry()
        return (ox + (square[1] + 0.5) * side, oy - (square[0] + 0.5) * side)

    def on_touch_down(self, touch: Any) -> bool:
        if self.disabled or not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        if self.origin and self.whole_button.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        if self.origin and touch.x > self._squares_area()[2] + self.x:
            side, ox, oy = self._overview()
            row, col = int((oy - touch.y) // side), int((touch.x - ox) // side)
            if 0 <= row < SIZE and 0 <= col < SIZE:
                self.zoom_to((row, col))
            return True
        square = self.square_at(*touch.pos)
        if square is None:
            return super().on_touch_down(touch)
        if not self.origin and self.needs_zoom():
            self.zoom_to(square)
            return True
        if self.origin:
            # zoomed: the square is toggled when the finger lifts, unless it dragged the view
            touch.grab(self)
            touch.ud["sheet"] = (touch.pos, list(self.origin), square)
            return True
        self.dispatch("on_square", square)
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is not self or "sheet" not in touch.ud:
            return super().on_touch_move(touch)
        (x0, y0), origin, _square = touch.ud["sheet"]
        side = self.geometry()[0]
        rows, cols = self.view_size()
        # the squares follow the finger, a whole square at a time
        row = max(0, min(SIZE - rows, origin[0] + round((touch.y - y0) / side)))
        col = max(0, min(SIZE - cols, origin[1] - round((touch.x - x0) / side)))
        if [row, col] != list(self.origin):
            self.origin = [row, col]
            self._focus = (row + rows // 2, col + cols // 2)
            touch.ud["sheet_dragged"] = True
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        if "sheet" in touch.ud and not touch.ud.get("sheet_dragged"):
            self.dispatch("on_square", touch.ud["sheet"][2])
        return True

    def on_square(self, square: tuple[int, int]) -> None:
        pass

    def redraw(self, *args: Any) -> None:
        side, ox, oy = self.geometry()
        filled = {tuple(c) for c in self.filled}
        selected = {tuple(c) for c in self.selected}
        ghost = {tuple(c) for c in self.ghost}
        shown = [(r, c) for r in range(SIZE) for c in range(SIZE)
                 if not self.origin or self.shows((r, c))]
        self._place_strip()
        # drawn under the children (the "Whole sheet" button): clearing ``canvas`` would
        # take the button's own drawing away with it
        self.canvas.before.clear()
        with self.canvas.before:
            if self.origin:
                self._draw_overview(filled, selected)
            for cell in shown:
                row, col = cell
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
            if (4, 4) in shown:
                circle_line(cx, cy, side * 0.35, width=1.2)
            for row, col in (tuple(c) for c in self.doubtful if tuple(c) in shown):
                x, y = ox + col * side, oy - (row + 1) * side
                Color(0.95, 0.45, 0.1, 1)
                Line(rectangle=(x + 2, y + 2, side - 4, side - 4), width=2.5)
                mark = CoreLabel(text="?", font_size=side * 0.6, bold=True)
                mark.refresh()
                Rectangle(texture=mark.texture, size=mark.texture.size,
                          pos=(x + (side - mark.texture.width) / 2,
                               y + (side - mark.texture.height) / 2))
            if self.bonus is not None and tuple(self.bonus) in shown:
                label = CoreLabel(text="1", font_size=side * 0.7, bold=True)
                label.refresh()
                bx, by = self.centre_of(tuple(self.bonus))
                Color(1, 1, 1, 1)
                Rectangle(texture=label.texture, size=label.texture.size,
                          pos=(bx - label.texture.width / 2, by - label.texture.height / 2))

    def _place_strip(self) -> None:
        button = self.whole_button
        zoomed = bool(self.origin)
        button.opacity, button.disabled = (1, False) if zoomed else (0, True)
        button.size = (self._strip_width(), self.min_side)
        button.pos = (self.right - button.width, self.y)

    def _draw_overview(self, filled: set[Any], selected: set[Any]) -> None:
        """The whole sheet small in the strip, the zoomed view framed on it."""
        side, ox, oy = self._overview()
        for row in range(SIZE):
            for col in range(SIZE):
                cell = (row, col)
                Color(*((0.3, 0.45, 0.75, 1) if cell in filled else (0.95, 0.7, 0.2, 1)
                        if cell in selected else (0.8, 0.8, 0.78, 1)))
                Rectangle(pos=(ox + col * side + 0.5, oy - (row + 1) * side + 0.5),
                          size=(side - 1, side - 1))
        rows, cols = self.view_size()
        row0, col0 = self.origin
        Color(1, 0.45, 0.1, 1)
        Line(rectangle=(ox + col0 * side, oy - (row0 + rows) * side, cols * side, rows * side),
             width=2)


class ShapeButton(ButtonBehavior, Widget):
    """A card's shape drawn small, as a button (to enter a revealed card)."""

    def __init__(self, shape: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.shape = shape
        self.bind(size=self.redraw, pos=self.redraw, state=self.redraw)

    def show_shape(self, shape: Any) -> None:
        """Draw ``shape`` instead: a kept card row shows the next round's card."""
        self.shape = shape
        self.redraw()

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
