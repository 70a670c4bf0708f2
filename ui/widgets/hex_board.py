"""The Indigo board: camera image underneath, the accepted state, the read and the animation.

It draws what it is given and decides nothing: ``state`` (the engine's ``IndigoState``),
``proposal`` (a placement waiting for confirmation, drawn translucent), ``marks`` (cells the
read is unsure about) and ``moves`` (the engine's predicted ``GemMove``s, animated along their
edge points). A tap on a cell dispatches ``on_cell``.

Where the whole board's hexagons would be under a touch target (43 px beside the panel at
800x480, 7 mm), the board zooms: a tap on the whole board enlarges it around the tap until a
hexagon is 9 mm across, a tap then picks a cell, a drag moves the view, and "Whole board" goes
back.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle, ScissorPop, ScissorPush
from kivy.properties import DictProperty, ListProperty, NumericProperty, ObjectProperty
from kivy.uix.widget import Widget

from ui import theme
from ui.i18n import _
from ui.touch import fit_width, min_target_px
from ui.widgets.curves import path_curve

#: a zoomed hexagon is this much over the touch target, so a finger on its edge still hits it
ZOOM_MARGIN = 1.05
WHOLE_BOARD_FONT = theme.FONT_COMPACT

GEM_RGBA = {
    "amber": (1.0, 0.78, 0.1, 1),
    "emerald": (0.1, 0.75, 0.3, 1),
    "sapphire": (0.15, 0.35, 1.0, 1),
}


class HexBoard(Widget):
    state = ObjectProperty(None, allownone=True)
    texture = ObjectProperty(None, allownone=True)
    proposal = ObjectProperty(None, allownone=True)  # (cell, kind, rotation)
    selected = ObjectProperty(None, allownone=True)
    marks = DictProperty({})  # cell -> rgba for questions / low confidence
    moves = ListProperty([])
    progress = NumericProperty(1.0)
    owners_rgba = ListProperty([])  # per gateway, list of rgba (chips)
    #: the smallest hexagon (across its flats) a finger may be asked to tap, in pixels
    min_across = NumericProperty(0)
    #: how much the board is enlarged (1: the whole board), and the board point (at radius 1)
    #: in the middle of the view
    zoom = NumericProperty(1.0)
    focus = ListProperty([0.0, 0.0])

    __events__ = ("on_cell",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        from ui.widgets.buttons import TouchButton

        self._anim: Any = None
        self.min_across = min_target_px()
        text = _("Whole board")
        self.whole_button = TouchButton(
            text=text, font_size=WHOLE_BOARD_FONT, size_hint=(None, None), opacity=0,
            disabled=True, width=fit_width(text, WHOLE_BOARD_FONT, minimum=self.min_across * 2))
        self.whole_button.bind(on_press=lambda *_a: self.zoom_out())
        self.add_widget(self.whole_button)
        for prop in ("state", "texture", "proposal", "selected", "marks", "moves", "progress",
                     "size", "pos", "owners_rgba", "zoom", "focus"):
            self.bind(**{prop: self._trigger})
        self._redraw = Clock.create_trigger(lambda dt: self.redraw(), 0)

    def _trigger(self, *args: Any) -> None:
        self._redraw()

    # --- geometry --------------------------------------------------------------------------
    def whole_radius(self) -> float:
        """The hexagons' radius with the whole board shown."""
        from companion.indigo.geometry import board_extent

        half_w, half_h = board_extent(1.0)
        return max(1.0, min(self.width / (2 * half_w), self.height / (2 * half_h)) * 0.98)

    def radius(self) -> float:
        return self.whole_radius() * self.zoom

    def to_screen(self, point: tuple[float, float]) -> tuple[float, float]:
        r = self.radius()
        return (self.center_x + point[0] - self.focus[0] * r,
                self.center_y - (point[1] - self.focus[1] * r))

    # --- zoom -----------------------------------------------------------------------------
    def needs_zoom(self) -> bool:
        """Whether the whole board's hexagons are narrower than a touch target here."""
        return math.sqrt(3) * self.whole_radius() < self.min_across - 0.5

    def zoom_to(self, cell: Any) -> None:
        """Enlarge the board until a hexagon is a touch target, ``cell`` in the middle."""
        from companion.indigo.geometry import cell_centre

        self.zoom = max(1.0, self.min_across * ZOOM_MARGIN / (math.sqrt(3) * self.whole_radius()))
        self._look_at(cell_centre(cell, 1.0))

    def zoom_out(self) -> None:
        self.zoom, self.focus = 1.0, [0.0, 0.0]

    def _look_at(self, point: tuple[float, float]) -> None:
        # the view never leaves the board: its middle stays where the board fills the widget
        from companion.indigo.geometry import board_extent

        half_w, half_h = board_extent(1.0)
        r = self.radius()
        room_x = max(0.0, half_w - self.width / (2 * r))
        room_y = max(0.0, half_h - self.height / (2 * r))
        self.focus = [max(-room_x, min(room_x, point[0])), max(-room_y, min(room_y, point[1]))]

    def cell_point(self, cell: Any) -> tuple[float, float]:
        """The middle of ``cell`` in the widget's coordinates, as drawn now."""
        from companion.indigo.geometry import cell_centre

        return self.to_screen(cell_centre(cell, self.radius()))

    def shows(self, cell: Any) -> bool:
        """Whether a finger can tap ``cell`` now (in view, a touch target wide, not under
        the Whole board button)."""
        if self.zoom == 1.0:
            return not self.needs_zoom()
        x, y = self.cell_point(cell)
        half = self.radius() * 0.8
        inside = (self.x + half <= x <= self.right - half and self.y + half <= y <= self.top - half)
        return inside and not self.whole_button.collide_point(x, y)

    def cell_at(self, x: float, y: float) -> Any:
        from companion.indigo.geometry import CELLS, cell_centre

        r = self.radius()
        best, best_d = None, r
        for cell in CELLS:
            cx, cy = self.to_screen(cell_centre(cell, r))
            d = math.hypot(cx - x, cy - y)
            if d < best_d:
                best, best_d = cell, d
        return best

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos) or self.disabled:
            return super().on_touch_down(touch)
        if self.zoom > 1.0 and self.whole_button.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        cell = self.cell_at(*touch.pos)
        if cell is not None and self.zoom == 1.0 and self.needs_zoom():
            self.zoom_to(cell)
            return True
        if self.zoom > 1.0:
            # zoomed: the cell is picked when the finger lifts, unless it dragged the view
            touch.grab(self)
            touch.ud["hex_board"] = (touch.pos, tuple(self.focus), cell)
            return True
        if cell is not None:
            self.dispatch("on_cell", cell)
            return True
        return super().on_touch_down(touch)

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is not self or "hex_board" not in touch.ud:
            return super().on_touch_move(touch)
        (x0, y0), focus, _cell = touch.ud["hex_board"]
        r = self.radius()
        if math.hypot(touch.x - x0, touch.y - y0) > r * 0.5:
            touch.ud["hex_board_dragged"] = True
        if touch.ud.get("hex_board_dragged"):
            # the board follows the finger
            self._look_at((focus[0] - (touch.x - x0) / r, focus[1] + (touch.y - y0) / r))
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        cell = touch.ud.get("hex_board", (None, None, None))[2]
        if cell is not None and not touch.ud.get("hex_board_dragged"):
            self.dispatch("on_cell", cell)
        return True

    def on_cell(self, cell: Any) -> None:
        pass

    # --- animation ------------------------------------------------------------------------
    def animate(self, moves: list[Any], *, duration: float = 1.2) -> None:
        """Run the predicted gem moves once from start to end."""
        if self._anim is not None:
            self._anim.cancel()
        self.moves = list(moves)
        self.progress = 0.0
        steps = max(1, int(duration * 30))

        def step(dt: float) -> bool:
            self.progress = min(1.0, self.progress + 1.0 / steps)
            return self.progress < 1.0

        self._anim = Clock.schedule_interval(step, 1 / 30)

    def clear_proposal(self) -> None:
        """Drop the translucent placement and stop its gem animation (nothing waits for
        Confirm any more)."""
        if self._anim is not None:
            self._anim.cancel()
            self._anim = None
        self.proposal = None
        self.moves = []
        self.progress = 0.0

    # --- drawing --------------------------------------------------------------------------
    def redraw(self) -> None:
        r = self.radius()
        zoomed = self.zoom > 1.0
        self._place_whole_button(zoomed)
        # under the children (the Whole board button), and kept inside the widget when zoomed
        self.canvas.before.clear()
        with self.canvas.before:
            if zoomed:
                left, bottom = self.to_window(self.x, self.y)
                ScissorPush(x=int(left), y=int(bottom), width=int(self.width),
                            height=int(self.height))
            if self.texture is not None and not zoomed:
                self._draw_camera_picture()
            self._draw_cells(r)
            self._draw_proposal_and_marks(r)
            self._draw_gems(r)
            if zoomed:
                ScissorPop()

    def _place_whole_button(self, zoomed: bool) -> None:
        button = self.whole_button
        button.opacity, button.disabled = (1, False) if zoomed else (0, True)
        button.height = self.min_across
        button.pos = (self.right - button.width, self.y)

    def _draw_camera_picture(self) -> None:
        Color(1, 1, 1, 0.55)
        tw, th = self.texture.size
        scale = min(self.width / tw, self.height / th)
        w, h = tw * scale, th * scale
        Rectangle(texture=self.texture, pos=(self.center_x - w / 2, self.center_y - h / 2),
                  size=(w, h))

    def _draw_cells(self, r: float) -> None:
        """Every hexagon, coloured by what it is, and the paths of the tiles laid."""
        from companion.indigo.geometry import CELLS, CENTRE, CORNER_BY_CELL, hex_corners
        from companion.indigo.tiles import paths_of

        tiles = dict(getattr(self.state, "tiles", {}) or {})
        for cell in CELLS:
            corners = [self.to_screen(p) for p in hex_corners(cell, r * 0.96)]
            if cell == CENTRE:
                rgba = (0.1, 0.2, 0.55, 0.9)
            elif cell in CORNER_BY_CELL:
                rgba = (0.45, 0.7, 0.95, 0.9)
            elif cell in tiles:
                rgba = (0.35, 0.3, 0.25, 0.92)
            else:
                rgba = (0.2, 0.22, 0.2, 0.55 if self.texture is not None else 0.9)
            Color(*rgba)
            _fill_polygon(corners)
            Color(0.05, 0.05, 0.05, 1)
            Line(points=[c for p in corners + corners[:1] for c in p], width=1)
        for cell, tile in tiles.items():
            self._draw_paths(cell, paths_of(tile.kind, tile.rotation), r, (0.95, 0.9, 0.8, 1))

    def _draw_proposal_and_marks(self, r: float) -> None:
        """The placement waiting for Confirm, the read's doubtful cells and the selection."""
        from companion.indigo.geometry import hex_corners
        from companion.indigo.tiles import paths_of

        if self.proposal is not None:
            cell, kind, rotation = self.proposal
            corners = [self.to_screen(p) for p in hex_corners(cell, r * 0.96)]
            Color(0.95, 0.75, 0.2, 0.45)
            _fill_polygon(corners)
            self._draw_paths(cell, paths_of(kind, rotation), r, (1, 1, 1, 1))
        for cell, rgba in self.marks.items():
            corners = [self.to_screen(p) for p in hex_corners(cell, r * 0.9)]
            Color(*rgba)
            Line(points=[c for p in corners + corners[:1] for c in p], width=2)
        if self.selected is not None:
            corners = [self.to_screen(p) for p in hex_corners(self.selected, r * 0.92)]
            Color(1, 1, 0.2, 1)
            Line(points=[c for p in corners + corners[:1] for c in p], width=3)

    def _draw_gems(self, r: float) -> None:
        """The gems at rest on the edges, those left in the centre, and the moving ones."""
        from companion.indigo.geometry import CENTRE, cell_centre, edge_midpoint

        state = self.state
        moving = {m.start for m in self.moves} if self.progress < 1.0 else set()
        gem_r = r * 0.22
        for (cell, edge), gem in dict(getattr(state, "gems", {}) or {}).items():
            if (cell, edge) in moving:
                continue
            x, y = self.to_screen(edge_midpoint(cell, edge, r, fraction=0.78))
            Color(*GEM_RGBA.get(str(gem.value if hasattr(gem, "value") else gem), (1, 1, 1, 1)))
            Ellipse(pos=(x - gem_r, y - gem_r), size=(2 * gem_r, 2 * gem_r))
        left = int(getattr(state, "centre_left", 0) or 0)
        cx, cy = self.to_screen(cell_centre(CENTRE, r))
        for i in range(left):
            angle = math.radians(60 * i)
            gem = "sapphire" if i == 0 else "emerald"  # the sapphire leaves last
            Color(*GEM_RGBA[gem])
            Ellipse(pos=(cx + r * 0.45 * math.cos(angle) - gem_r,
                         cy + r * 0.45 * math.sin(angle) - gem_r), size=(2 * gem_r, 2 * gem_r))
        if self.progress < 1.0:
            for move in self.moves:
                path = [move.start, *move.points]
                pts = [self.to_screen(edge_midpoint(c, e, r, fraction=0.78)) for c, e in path]
                x, y = _along(pts, self.progress)
                Color(*GEM_RGBA.get(str(move.gem.value), (1, 1, 1, 1)))
                Ellipse(pos=(x - gem_r * 1.2, y - gem_r * 1.2), size=(2.4 * gem_r, 2.4 * gem_r))

    def _draw_paths(self, cell: Any, paths: Any, r: float, rgba: Any) -> None:
        from companion.indigo.geometry import cell_centre, edge_midpoint

        centre = self.to_screen(cell_centre(cell, r))
        Color(*rgba)
        for a, b in paths:
            pa = self.to_screen(edge_midpoint(cell, a, r))
            pb = self.to_screen(edge_midpoint(cell, b, r))
            bend = 0.0 if (b - a) % 6 == 3 else 0.6
            mid = (centre[0] * bend + (pa[0] + pb[0]) / 2 * (1 - bend),
                   centre[1] * bend + (pa[1] + pb[1]) / 2 * (1 - bend))
            path_curve([*pa, *mid, *pb], width=max(1.0, r * 0.07))


def _fill_polygon(points: list[tuple[float, float]]) -> None:
    vertices: list[float] = []
    for x, y in points:
        vertices.extend((x, y, 0, 0))
    Mesh(vertices=vertices, indices=list(range(len(points))), mode="triangle_fan")


def _along(points: list[tuple[float, float]], t: float) -> tuple[float, float]:
    if len(points) == 1:
        return points[0]
    lengths = [math.dist(points[i], points[i + 1]) for i in range(len(points) - 1)]
    total = sum(lengths) or 1.0
    goal = t * total
    for i, seg in enumerate(lengths):
        if goal <= seg or i == len(lengths) - 1:
            f = 0.0 if seg == 0 else min(1.0, goal / seg)
            (x0, y0), (x1, y1) = points[i], points[i + 1]
            return (x0 + (x1 - x0) * f, y0 + (y1 - y0) * f)
        goal -= seg
    return points[-1]
