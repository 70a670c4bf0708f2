"""The Enigma table as squares: each placed tile's channels and power cells, drawn from the
engine's ``Board``; optional highlighted squares (where a tile may go)."""

from __future__ import annotations

import math
from typing import Any

from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import ListProperty, ObjectProperty
from kivy.uix.widget import Widget

CELL_RGBA = {"red": (0.9, 0.2, 0.2, 1), "blue": (0.2, 0.4, 0.95, 1),
             "yellow": (0.95, 0.85, 0.2, 1), "green": (0.2, 0.75, 0.3, 1)}
SIDE_DIR = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


class EnigmaBoard(Widget):
    board = ObjectProperty(None, allownone=True)
    highlights = ListProperty([])  # positions [x, y]
    networker_rgba = ObjectProperty(None, allownone=True)  # player -> rgba callable

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(board=self.redraw, highlights=self.redraw, size=self.redraw, pos=self.redraw)

    def redraw(self, *args: Any) -> None:
        self.canvas.clear()
        tiles = dict(getattr(self.board, "tiles", {}) or {})
        spots = list(tiles) + [tuple(h) for h in self.highlights]
        if not spots:
            return
        xs = [p[0] for p in spots]
        ys = [p[1] for p in spots]
        cols, rows = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
        size = min(self.width / cols, self.height / rows, self.width / 3)
        ox = self.center_x - size * (min(xs) + max(xs) + 1) / 2
        oy = self.center_y + size * (min(ys) + max(ys) + 1) / 2  # y grows downward on the table
        occupied = dict(getattr(self.board, "occupied", {}) or {})

        def corner(pos: tuple[int, int]) -> tuple[float, float]:
            return (ox + pos[0] * size, oy - (pos[1] + 1) * size)

        with self.canvas:
            for pos in self.highlights:
                x, y = corner(tuple(pos))
                Color(0.95, 0.8, 0.2, 0.35)
                Rectangle(pos=(x + 2, y + 2), size=(size - 4, size - 4))
            for pos, placed in tiles.items():
                x, y = corner(pos)
                Color(0.3, 0.28, 0.25, 1)
                Rectangle(pos=(x + 2, y + 2), size=(size - 4, size - 4))
                tile = placed.turned
                cx, cy = x + size / 2, y + size / 2
                cells = dict(tile.cells)
                spot: dict[str, tuple[float, float]] = {}
                for i, cell in enumerate(sorted(cells)):
                    a = 2 * math.pi * i / max(1, len(cells))
                    spot[cell] = (cx + size * 0.2 * math.cos(a), cy + size * 0.2 * math.sin(a))

                def point(end: Any, spot: Any = spot, cx: float = cx,
                          cy: float = cy) -> tuple[float, float]:
                    if isinstance(end, str):
                        return spot.get(end, (cx, cy))
                    dx, dy = SIDE_DIR[end.side]
                    along = (end.position - 1) * size * 0.25
                    # positions run clockwise along a side
                    tx, ty = (dy, -dx)
                    return (cx + dx * size * 0.48 + tx * along, cy + dy * size * 0.48 + ty * along)

                Color(0.85, 0.85, 0.8, 1)
                for a, b in tile.links:
                    pa, pb = point(a), point(b)
                    Line(points=[*pa, *pb], width=max(1.0, size * 0.03))
                for cell, colour in cells.items():
                    px, py = spot[cell]
                    m = size * 0.08
                    Color(*CELL_RGBA.get(colour, (0.8, 0.8, 0.8, 1)))
                    Ellipse(pos=(px - m, py - m), size=(2 * m, 2 * m))
                    worker = occupied.get((pos[0], pos[1], cell))
                    if worker is not None and self.networker_rgba is not None:
                        Color(*self.networker_rgba(worker.player))
                        Line(circle=(px, py, m * 1.6), width=2)
