"""Curves are drawn with as many pieces as their length on screen needs (issue 23, memory):
Kivy's default of 180 pieces per curve made a full Indigo board's paths hold 28 MB of vertex
data, for pieces a third of a pixel long; its rings round small marks were no better."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

pytestmark = pytest.mark.ui

#: a drawn piece of a path shorter than this is memory spent on nothing the eye can see
MIN_PIECE_PX = 1.0
#: a piece of a curve longer than this shows as a corner
SMOOTH_PIECE_PX = 4.0
#: enough moves that most of the board holds tiles
MOVES = 40


def _full_board(seed: int) -> Any:
    from companion.indigo.state import all_legal_placements, apply, new_game

    rng = random.Random(seed)
    state = new_game(3)
    for _ in range(MOVES):
        placements = all_legal_placements(state)
        if not placements:
            break
        state = apply(state, rng.choice(placements))
    return state


def _curves(canvas: Any) -> list[Any]:
    """The lines of ``canvas`` that are curves cut into pieces (a hexagon's outline has 7
    points, a path's curve many more)."""
    from kivy.graphics import Line

    return [i for i in canvas.children if isinstance(i, Line) and len(i.points) > 16]


def _piece_length(line: Any) -> float:
    """The mean length of the straight pieces ``line`` is drawn with."""
    points = list(zip(line.points[0::2], line.points[1::2], strict=True))
    length = sum(math.dist(a, b) for a, b in zip(points, points[1:], strict=False))
    return length / (len(points) - 1)


def _drawn(widget: Any, driver: Any) -> list[Any]:
    """The curves of ``widget``'s canvas once Kivy has drawn it (it cuts a curve into pieces
    when it first draws it)."""
    from kivy.core.window import Window

    Window.add_widget(widget)
    try:
        widget.redraw()
        driver.pump()
        return _curves(widget.canvas.before) + _curves(widget.canvas)
    finally:
        Window.remove_widget(widget)


def test_a_full_boards_paths_are_cut_into_visible_pieces(make_driver: Any) -> None:
    from ui.widgets.hex_board import HexBoard

    driver = make_driver()
    board = HexBoard(size_hint=(None, None), size=(480, 480))  # the board at 800x480
    board.state = _full_board(seed=1)
    curves = _drawn(board, driver)
    assert len(curves) > 60  # the tiles' paths are there
    assert min(_piece_length(line) for line in curves) >= MIN_PIECE_PX


def test_the_tile_pickers_paths_are_cut_into_visible_pieces(make_driver: Any) -> None:
    from ui.widgets.tile_picker import TileChoice

    driver = make_driver()
    curves = _drawn(TileChoice(kind=1, rotation=0, size_hint=(None, None), size=(70, 70)),
                    driver)
    assert curves
    assert min(_piece_length(line) for line in curves) >= MIN_PIECE_PX


def test_rings_round_a_mark_are_cut_into_visible_pieces(make_driver: Any) -> None:
    """The rings round a read's question marks, an Enigma networker's heart, a sheet's
    centre cell: 5 to 40 px across, where Kivy's one piece per 2 degrees is a tenth of a
    pixel."""
    from kivy.graphics import Color
    from kivy.uix.widget import Widget

    from ui.widgets.curves import circle_line

    class Rings(Widget):
        def redraw(self) -> None:
            self.canvas.clear()
            with self.canvas:
                Color(1, 1, 1, 1)
                for radius in (5.0, 12.0, 40.0):
                    circle_line(100, 100, radius, width=1.5)
                circle_line(100, 100, 30, width=2, degrees=(30, 300))

    driver = make_driver()
    curves = _drawn(Rings(size_hint=(None, None), size=(200, 200)), driver)
    assert len(curves) == 4
    assert min(_piece_length(line) for line in curves) >= MIN_PIECE_PX
    assert max(_piece_length(line) for line in curves) <= SMOOTH_PIECE_PX  # still round
