"""A Break the Code tile to tap: the number on the tile's own colour, as on the table.

The tile names ("3b", "5g") are the engine's; their letters are English (black, white, green),
so a Spanish or Ukrainian player read "0w" as a code to decipher. The toggle shows the number
on a black, white or green face instead, and a thick yellow frame when it is picked.
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Line, Rectangle
from kivy.properties import StringProperty
from kivy.uix.label import Label

from ui import theme
from ui.widgets.buttons import TouchToggle

#: tile colour letter -> (face, number) colours
FACES = theme.CODE_TILE_FACES
PICKED = theme.PICKED


class CodeTileToggle(TouchToggle):
    """A toggle for one tile: ``tile`` is the engine's name, the face shows its number."""

    tile = StringProperty("")

    def __init__(self, tile: str, **kwargs: Any) -> None:
        face, ink = FACES.get(tile[-1:], FACES["b"])
        kwargs.setdefault("font_size", theme.FONT_LARGE)
        super().__init__(text=tile[:-1], background_normal="", background_down="",
                         background_color=face, color=ink, bold=True, **kwargs)
        self.tile = tile
        with self.canvas.after:
            # an edge, or a black tile is lost on the app's near-black background
            Color(*theme.EDGE)
            self._edge = Line(width=1)
            self._frame_colour = Color(*PICKED[:3], 0)
            self._frame = Line(width=3)
        self.bind(pos=self._draw_frame, size=self._draw_frame, state=self._draw_frame)

    def _draw_frame(self, *args: Any) -> None:
        self._edge.rectangle = (self.x, self.y, self.width, self.height)
        self._frame.rectangle = (self.x + 3, self.y + 3, self.width - 6, self.height - 6)
        self._frame_colour.a = 1 if self.state == "down" else 0


class CodeTileFace(Label):
    """A tile as a picture, not to tap: the number on the tile's own colour (the teach
    screen's mat, and the tiles a test rack was read as)."""

    tile = StringProperty("")

    def __init__(self, tile: str, **kwargs: Any) -> None:
        face, ink = FACES.get(tile[-1:], FACES["b"])
        kwargs.setdefault("font_size", theme.FONT_LARGE)
        super().__init__(text=tile[:-1], color=ink, bold=True, **kwargs)
        self.tile = tile
        with self.canvas.before:
            Color(*face)
            self._face = Rectangle()
            Color(*theme.EDGE)  # the edge: a black tile on a dark background
            self._edge = Line(width=1)
        self.bind(pos=self._draw, size=self._draw)

    def _draw(self, *args: Any) -> None:
        self._face.pos, self._face.size = self.pos, self.size
        self._edge.rectangle = (self.x, self.y, self.width, self.height)
