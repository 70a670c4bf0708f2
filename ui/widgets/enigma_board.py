"""The Enigma table drawn with the art pack: each placed tile with its channels and power
cells where the camera sees them (:func:`vision.enigma.layout.layout_tile`), the networkers
standing on their cells in the players' colours, and every closed conduit system lit up and
marked with the points it gave.

While a solver places a tile, the squares where it may go hold it as a faint *ghost*; the
square chosen holds it solid, turned as chosen. A tap on a ghost or on the chosen square
dispatches ``on_spot(at)``: the screen decides what it means (pick it, turn it).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import BooleanProperty, DictProperty, ListProperty, ObjectProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.stencilview import StencilView
from kivy.uix.widget import Widget

from companion.enigma.tiles import Port, Tile
from ui.widgets.curves import circle_line

# vision's layout and packs are imported where they are used: they bring OpenCV and numpy,
# which the app's start (this module is imported with the screens' kv) must not wait for

log = logging.getLogger(__name__)

Pos = tuple[int, int]
Point = tuple[float, float]
Rgba = tuple[float, float, float, float]

#: a ghost tile is this opaque: seen as "it could go here", never taken for a placed one
GHOST_ALPHA = 0.3
#: the glow around ghost squares and the chosen one, and under closed systems' channels
GLOW_RGBA: Rgba = (1.0, 0.84, 0.25, 1.0)
#: a power cell and a networker are drawn this much larger than the pack's sizes (tile units
#: are a few dozen pixels here): the pawn still leaves a ring of the cell's colour round it
CELL_SCALE = 1.35
#: a networker's token is this much larger than the drawn cell it stands on
PAWN_SCALE = 1.6
#: the dot of the cell's colour in the middle of a networker's token, against the cell
HEART_SCALE = 0.5
#: a closed system's channels glow this many channel widths wide under their ink
GLOW_WIDTH = 3.0
#: the mark (1, 2) beside one of two cells of one colour, against the drawn cell's radius
MARK_SCALE = 0.8
#: a closed system's score badge: its radius, in tile sides
BADGE_RADIUS = 0.17
#: a closed system that gave no points (no networker on it) shows this badge colour
NO_POINTS_RGBA: Rgba = (0.55, 0.55, 0.58, 1.0)
#: room (px) round a tile's picture on its button
PICTURE_MARGIN = 4
#: 9 mm on the 7" 800x480 display is about this many pixels (issue 23): a square to tap on
#: the board is never smaller
MIN_SQUARE_PX = 57
#: a close view's squares are this many touch targets wide
ZOOM_TARGETS = 1.3
#: the largest a square is drawn, in widget widths (a table of one tile is not a giant)
MAX_TILE_SHARE = 1 / 3
#: cells less than this far apart (tile units) up and down are read as one row
ROW_BAND = 0.12
#: rounding for matching a stroke's end to the port or cell it starts at (tile units)
POINT_DIGITS = 6


@dataclass(frozen=True)
class Ghost:
    """A tile shown where it may go (or where it was chosen to go), turned ``rotation``."""

    tile: Tile
    at: Pos
    rotation: int


@dataclass(frozen=True)
class Look:
    """The pack's colours (rgba) and sizes (tile units) the board draws with."""

    table: Rgba
    tile: Rgba
    edge: Rgba
    channel: Rgba
    cells: dict[str, Rgba]
    ports: tuple[float, float, float]
    cell_radius: float
    channel_width: float
    spacing: float


def finger_px() -> float:
    """The smallest square a finger picks: a touch target, and never under
    :data:`MIN_SQUARE_PX`."""
    from ui.touch import min_target_px

    return max(min_target_px(), MIN_SQUARE_PX)


def _rgba(bgr: Any, alpha: float = 1.0) -> Rgba:
    b, g, r = (float(v) / 255 for v in bgr)
    return (r, g, b, alpha)


def look_of(pack: Any) -> Look:
    """The drawing colours and sizes of an :class:`vision.enigma.pack.EnigmaPack`."""
    from vision.enigma.layout import spacing_for

    return Look(
        table=_rgba(pack.colour("table")), tile=_rgba(pack.colour("tile")),
        edge=_rgba(pack.colour("tile_edge")), channel=_rgba(pack.colour("channel")),
        cells={name: _rgba(bgr) for name, bgr in pack.cells.items()},
        ports=pack.ports, cell_radius=pack.cell_radius, channel_width=pack.channel_width,
        spacing=spacing_for(pack))


@lru_cache(maxsize=1)
def demo_look() -> Look:
    from vision.enigma.pack import load_enigma_pack

    return look_of(load_enigma_pack())


@lru_cache(maxsize=512)
def _layout(tile: Tile, ports: tuple[float, float, float], spacing: float) -> Any:
    """The tile's :class:`vision.enigma.layout.TileLayout`: where the camera sees its parts.
    The relaxation that places the cells takes a few ms: once per tile, not per frame."""
    from vision.enigma.layout import layout_tile

    return layout_tile(tile, ports, spacing=spacing)


def turn_point(point: Point, rotation: int) -> Point:
    from vision.enigma.layout import turn_point as turned

    return turned(point, rotation)


def _key(point: Point) -> tuple[float, float]:
    return (round(point[0], POINT_DIGITS), round(point[1], POINT_DIGITS))


def stroke_ends(tile: Tile, look: Look) -> list[tuple[tuple[Point, ...], Any]]:
    """Each channel stroke of ``tile`` (unturned, tile units) with the cell id or port it
    starts at: which conduit system it belongs to follows from that end."""
    from vision.enigma.layout import port_point

    layout = _layout(tile, look.ports, look.spacing)
    ends: dict[tuple[float, float], Any] = {
        _key(point): cell for cell, point in layout.cells.items()}
    for a, b in tile.links:
        for end in (a, b):
            if isinstance(end, Port):
                ends[_key(port_point(end, look.ports))] = end
    return [(stroke, ends.get(_key(stroke[0]))) for stroke in layout.strokes]


def _on_square(rect: tuple[float, float, float], point: Point, rotation: int) -> Point:
    """A unit-tile point (y down) of a tile turned ``rotation`` drawn in ``rect`` (x, y of its
    lower left corner, side), on screen (y up)."""
    u, v = turn_point(point, rotation)
    x, y, size = rect
    return (x + u * size, y + (1 - v) * size)


def paint_tile(tile: Tile, rotation: int, rect: tuple[float, float, float], look: Look, *,
               alpha: float = 1.0, glowing: Any = None) -> None:
    """Draw ``tile`` turned ``rotation`` on the current canvas in the square ``rect``: its
    face, channels and power cells. ``glowing(end)`` says which ports and cells belong to a
    closed system; those glow under their ink."""
    x, y, size = rect
    inset = max(1.0, size * 0.02)
    Color(*look.tile[:3], alpha)
    Rectangle(pos=(x + inset, y + inset), size=(size - 2 * inset, size - 2 * inset))
    Color(*look.edge[:3], alpha)
    Line(rectangle=(x + inset, y + inset, size - 2 * inset, size - 2 * inset),
         width=max(1.0, size * 0.012))
    strokes = stroke_ends(tile, look)
    width = max(1.0, look.channel_width * size / 2)

    def points(stroke: tuple[Point, ...]) -> list[float]:
        return [c for p in stroke for c in _on_square(rect, p, rotation)]

    if glowing is not None:
        Color(*GLOW_RGBA[:3], alpha)
        for stroke, end in strokes:
            if glowing(end):
                Line(points=points(stroke), width=width * GLOW_WIDTH)
    Color(*look.channel[:3], alpha)
    for stroke, _end in strokes:
        Line(points=points(stroke), width=width)
    layout = _layout(tile, look.ports, look.spacing)
    radius = max(3.0, look.cell_radius * size * CELL_SCALE)
    for cell, colour in tile.cells:
        cx, cy = _on_square(rect, layout.cells[cell], rotation)
        if glowing is not None and glowing(cell):
            Color(*GLOW_RGBA[:3], alpha)
            glow = radius + width * (GLOW_WIDTH - 1)
            Ellipse(pos=(cx - glow, cy - glow), size=(2 * glow, 2 * glow))
        Color(*look.cells.get(colour, (0.8, 0.8, 0.8, 1.0))[:3], alpha)
        Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius))


class TilePicture(ButtonBehavior, Widget):
    """A button that is a tile's picture (its conduit side, as it lies on the table)."""

    tile = ObjectProperty(None, allownone=True)
    pack = ObjectProperty(None, allownone=True)
    #: what the picture stands for (a catalogue entry), for whoever handles the press
    entry = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._redraw = Clock.create_trigger(lambda dt: self.redraw())
        self.bind(tile=self._redraw, pack=self._redraw, size=self._redraw, pos=self._redraw,
                  state=self._redraw)

    def redraw(self) -> None:
        self.canvas.clear()
        if self.tile is None:
            return
        look = demo_look() if self.pack is None else look_of(self.pack)
        side = min(self.width, self.height) - 2 * PICTURE_MARGIN
        rect = (self.center_x - side / 2, self.center_y - side / 2, side)
        with self.canvas:
            pressed = self.state == "down"
            Color(*(GLOW_RGBA if pressed else look.table))
            Rectangle(pos=self.pos, size=self.size)
            paint_tile(self.tile, 0, rect, look)


class EnigmaBoard(StencilView):
    """The table: ``board`` is the engine's :class:`companion.enigma.board.Board`."""

    board = ObjectProperty(None, allownone=True)
    #: the :class:`vision.enigma.pack.EnigmaPack` to draw with (None: the demo pack)
    pack = ObjectProperty(None, allownone=True)
    #: player -> rgba, for the networkers and the score badges
    player_rgba = DictProperty({})
    #: :class:`Ghost` tiles where the tile being placed may go
    ghosts = ListProperty([])
    #: the :class:`Ghost` chosen (drawn solid), or None
    proposal = ObjectProperty(None, allownone=True)
    #: the chosen tile turns on its square (another turn fits there): it shows an arrow
    turnable = BooleanProperty(True)
    #: cell id of the chosen tile -> a short mark drawn on it (telling same-coloured cells apart)
    cell_marks = DictProperty({})
    #: system id -> ((player, points), ...) each closed system gave when it closed
    scores = DictProperty({})
    #: the square a close view is centred on (a table too large for a finger), or None
    zoom_at = ObjectProperty(None, allownone=True)

    __events__ = ("on_spot",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: what the last redraw put on the table, where (window-independent widget coords):
        #: "networkers" [(at, cell, player, point, radius)],
        #: "scores" [(system, text, point, radius, player or None)],
        #: "ghosts" [at], "proposal" [at]
        self.drawn: dict[str, list[Any]] = {}
        self._frame: tuple[float, float, float] = (0.0, 0.0, 0.0)
        self._redraw = Clock.create_trigger(lambda dt: self.redraw())
        self.bind(board=self._redraw, pack=self._redraw, player_rgba=self._redraw,
                  ghosts=self._redraw, proposal=self._redraw, cell_marks=self._redraw,
                  scores=self._redraw, size=self._redraw, pos=self._redraw,
                  zoom_at=self._redraw, turnable=self._redraw)

    def on_spot(self, at: Pos) -> None:
        pass

    # --- geometry --------------------------------------------------------------------------
    def look(self) -> Look:
        return demo_look() if self.pack is None else look_of(self.pack)

    def _spots(self) -> list[Pos]:
        tiles = dict(getattr(self.board, "tiles", {}) or {})
        spots = [tuple(p) for p in tiles] + [tuple(g.at) for g in self.ghosts]
        if self.proposal is not None:
            spots.append(tuple(self.proposal.at))
        return [(int(p[0]), int(p[1])) for p in spots]

    def _whole_table(self) -> tuple[float, float, float]:
        """(left, top, side): square [0, 0]'s corner and the square size that hold every
        spot in view."""
        spots = self._spots() or [(0, 0)]
        xs, ys = [p[0] for p in spots], [p[1] for p in spots]
        cols, rows = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
        size = max(1.0, min(self.width / cols, self.height / rows,
                            self.width * MAX_TILE_SHARE))
        left = self.center_x - size * (min(xs) + max(xs) + 1) / 2
        top = self.center_y + size * (min(ys) + max(ys) + 1) / 2  # the table's y grows down
        return (left, top, size)

    def needs_zoom(self) -> bool:
        """The glowing squares are smaller than a finger on the whole table."""
        return bool(self.tappable()) and self._whole_table()[2] < finger_px()

    def _fit(self) -> None:
        if self.zoom_at is None or not self.needs_zoom():
            self._frame = self._whole_table()
            return
        # the part of the table round ``zoom_at``, its squares a finger wide
        size = finger_px() * ZOOM_TARGETS
        x, y = self.zoom_at
        self._frame = (self.center_x - size * (x + 0.5), self.center_y + size * (y + 0.5), size)

    @property
    def square(self) -> float:
        """The side of one square on screen, in pixels."""
        return self._frame[2]

    def spot_rect(self, at: Pos) -> tuple[float, float, float]:
        """(x, y, side) of square ``at``: its lower left corner in widget coordinates."""
        left, top, size = self._frame
        return (left + at[0] * size, top - (at[1] + 1) * size, size)

    def spot_centre(self, at: Pos) -> Point:
        x, y, size = self.spot_rect(at)
        return (x + size / 2, y + size / 2)

    def to_screen(self, at: Pos, point: Point, rotation: int = 0) -> Point:
        """A unit-tile point (y down) of the tile on ``at`` turned ``rotation``, on screen."""
        return _on_square(self.spot_rect(at), point, rotation)

    def spot_at(self, x: float, y: float) -> Pos:
        left, top, size = self._frame
        return (int((x - left) // size), int((top - y) // size))

    # --- touch -----------------------------------------------------------------------------
    def tappable(self) -> set[Pos]:
        spots = {tuple(g.at) for g in self.ghosts}
        if self.proposal is not None:
            spots.add(tuple(self.proposal.at))
        return {(int(p[0]), int(p[1])) for p in spots}

    def on_touch_down(self, touch: Any) -> bool:
        """A glowing square is tapped; on a table too large for a finger the first tap
        looks closer where it fell, and a tap beside the glowing squares looks at the
        whole table again."""
        if not self.collide_point(*touch.pos) or not self.tappable():
            return bool(super().on_touch_down(touch))
        spot = self.spot_at(*touch.pos)
        if self.needs_zoom() and self.zoom_at is None:
            self.zoom_at = spot
        elif spot in self.tappable():
            self.dispatch("on_spot", spot)
        elif self.zoom_at is not None:
            self.zoom_at = None
        else:
            return bool(super().on_touch_down(touch))
        return True

    def on_proposal(self, _board: Any, proposal: Any) -> None:
        # Previous/Next square may choose one out of the close view: it follows the choice
        if self.zoom_at is not None and proposal is not None:
            self.zoom_at = tuple(proposal.at)

    # --- drawing ---------------------------------------------------------------------------
    def redraw(self) -> None:
        self.canvas.clear()
        if not self.tappable():
            self.zoom_at = None  # the tile is down: the whole table again
        self._fit()
        look = self.look()
        self.drawn = {"networkers": [], "scores": [], "ghosts": [], "proposal": []}
        with self.canvas:
            Color(*look.table)
            Rectangle(pos=self.pos, size=self.size)
            for ghost in self.ghosts:
                if self.proposal is None or tuple(ghost.at) != tuple(self.proposal.at):
                    self._draw_ghost(ghost, look)
            closed = self._closed_systems()
            for at, placed in self._placed():
                self._draw_tile(placed.tile, at, placed.rotation, look, closed=closed)
            self._draw_networkers(look)
            self._draw_scores(look, closed)
            if self.proposal is not None:
                self._draw_proposal(self.proposal, look)

    def _placed(self) -> Iterator[tuple[Pos, Any]]:
        for at, placed in dict(getattr(self.board, "tiles", {}) or {}).items():
            yield (int(at[0]), int(at[1])), placed

    def _closed_systems(self) -> set[int]:
        systems = dict(getattr(self.board, "systems", {}) or {})
        return {sid for sid, system in systems.items() if system.is_closed}

    def _system_of(self, at: Pos, rotation: int, end: Any) -> int | None:
        board = self.board
        if board is None or end is None:
            return None
        if isinstance(end, Port):
            turned = end.rotated(rotation)
            return board.port_system.get((at[0], at[1], turned.side, turned.position))
        return board.cell_system.get((at[0], at[1], end))

    def _draw_tile(self, tile: Tile, at: Pos, rotation: int, look: Look, *,
                   alpha: float = 1.0, closed: set[int] | None = None) -> None:
        def glowing(end: Any) -> bool:
            return bool(closed) and self._system_of(at, rotation, end) in (closed or ())

        paint_tile(tile, rotation, self.spot_rect(at), look, alpha=alpha, glowing=glowing)

    def cell_point(self, at: Pos, cell: str) -> Point:
        """Where the power cell ``cell`` of the tile on ``at`` is drawn (widget coordinates)."""
        placed = self.board.tiles[at]
        look = self.look()
        layout = _layout(placed.tile, look.ports, look.spacing)
        return self.to_screen(at, layout.cells[cell], placed.rotation)

    def _draw_networkers(self, look: Look) -> None:
        if self.board is None:
            return
        cell_radius = max(3.0, look.cell_radius * self.square * CELL_SCALE)
        radius = cell_radius * PAWN_SCALE
        colours = {(int(x), int(y), c): colour for system in self.board.systems.values()
                   for (x, y, c), colour in system.cells}
        for (x, y, cell), worker in dict(self.board.occupied).items():
            at = (int(x), int(y))
            cx, cy = self.cell_point(at, cell)
            rgba = self.player_rgba.get(worker.player, (1, 1, 1, 1))
            # a token larger than the cell, in the player's colour and rimmed dark or light
            # to stand out on any tile; the cell's colour stays in view at its heart
            rim = 0.1 if sum(rgba[:3]) > 1.5 else 0.95
            Color(rim, rim, rim, 1)
            Ellipse(pos=(cx - radius - 2, cy - radius - 2), size=(2 * radius + 4, 2 * radius + 4))
            Color(*rgba[:3], 1)
            Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius))
            heart = cell_radius * HEART_SCALE
            Color(*look.cells.get(colours.get((at[0], at[1], cell), ""),
                                  (0.8, 0.8, 0.8, 1.0))[:3], 1)
            Ellipse(pos=(cx - heart, cy - heart), size=(2 * heart, 2 * heart))
            Color(rim, rim, rim, 1)  # the heart stays in view on a token of its own colour
            circle_line(cx, cy, heart, width=1.2)
            self.drawn["networkers"].append((at, cell, worker.player, (cx, cy), radius))

    def _draw_scores(self, look: Look, closed: set[int]) -> None:
        """A badge on each closed system with cells: the points each networker on it earned
        when it closed, in its player's colour; "0" when nobody stood on it."""
        if self.board is None:
            return
        for sid in sorted(closed):
            system = self.board.systems[sid]
            if not system.cells:
                continue  # a closed channel without cells has nothing to score
            points = [self.cell_point((int(x), int(y)), cell) for (x, y, cell), _c in
                      system.cells]
            cx = sum(p[0] for p in points) / len(points)
            cy = sum(p[1] for p in points) / len(points)
            awards = list(self.scores.get(sid, ())) or [(None, 0)]
            radius = max(10.0, BADGE_RADIUS * self.square)
            for i, (player, gained) in enumerate(awards):
                bx = cx + (i - (len(awards) - 1) / 2) * 2.1 * radius
                rgba = (NO_POINTS_RGBA if player is None
                        else self.player_rgba.get(player, NO_POINTS_RGBA))
                text = f"+{gained}" if player is not None else "0"
                _badge(bx, cy, radius, rgba, text)
                self.drawn["scores"].append((sid, text, (bx, cy), radius, player))

    def _draw_ghost(self, ghost: Ghost, look: Look) -> None:
        at = (int(ghost.at[0]), int(ghost.at[1]))
        x, y, size = self.spot_rect(at)
        self._draw_tile(ghost.tile, at, ghost.rotation, look, alpha=GHOST_ALPHA)
        Color(*GLOW_RGBA[:3], 0.8)
        Line(rectangle=(x + 3, y + 3, size - 6, size - 6), width=1.5, dash_length=6,
             dash_offset=4)
        self.drawn["ghosts"].append(at)

    def _draw_proposal(self, ghost: Ghost, look: Look) -> None:
        at = (int(ghost.at[0]), int(ghost.at[1]))
        x, y, size = self.spot_rect(at)
        self._draw_tile(ghost.tile, at, ghost.rotation, look)
        Color(*GLOW_RGBA)
        Line(rectangle=(x + 1, y + 1, size - 2, size - 2), width=max(2.0, size * 0.04))
        if self.turnable:  # a turning arrow in the corner: another tap turns the tile
            r = size * 0.12
            ax, ay = x + size - r * 1.4, y + size - r * 1.4
            circle_line(ax, ay, r, width=max(1.5, size * 0.02), degrees=(30, 300))
            Line(points=[ax + r * 0.5, ay + r * 0.9, ax, ay + r, ax + r * 0.2, ay + r * 0.45],
                 width=max(1.5, size * 0.02))
        layout = _layout(ghost.tile, look.ports, look.spacing)
        radius = max(3.0, look.cell_radius * size * CELL_SCALE)
        for cell, mark in self.cell_marks.items():
            if cell in layout.cells:
                # beside the cell, below right: the cell's colour stays in view
                cx, cy = self.to_screen(at, layout.cells[cell], ghost.rotation)
                small = max(8.0, radius * MARK_SCALE)
                _badge(cx + radius + small * 0.4, cy - radius - small * 0.4, small,
                       (0.1, 0.1, 0.1, 1.0), str(mark))
        self.drawn["proposal"].append(at)


def _badge(x: float, y: float, radius: float, rgba: Any, text: str) -> None:
    """A filled disc with ``text`` in the middle, its ink dark or light against the disc."""
    Color(0.05, 0.05, 0.05, 0.9)
    Ellipse(pos=(x - radius - 2, y - radius - 2), size=(2 * radius + 4, 2 * radius + 4))
    Color(*rgba[:3], 1)
    Ellipse(pos=(x - radius, y - radius), size=(2 * radius, 2 * radius))
    label = CoreLabel(text=text, font_size=max(10.0, radius * 1.1), bold=True)
    label.refresh()
    texture = label.texture
    ink = 0.05 if sum(float(c) for c in rgba[:3]) > 1.5 else 1.0
    Color(ink, ink, ink, 1)
    Rectangle(texture=texture, pos=(x - texture.width / 2, y - texture.height / 2),
              size=texture.size)


def scores_by_system(board: Any, scored: Any) -> dict[int, tuple[tuple[str, int], ...]]:
    """System id on ``board`` -> (player, points) of the awards of each
    :class:`companion.enigma.board.ScoredSystem` in ``scored``. A closed system is never
    joined again, so its first cell finds it on any later board."""
    out: dict[int, tuple[tuple[str, int], ...]] = {}
    for system in scored:
        if not system.cells:
            continue
        (x, y, cell), _colour = system.cells[0]
        sid = board.cell_system.get((x, y, cell))
        if sid is not None:
            out[sid] = tuple((a.player, a.points) for a in system.awards)
    return out


def closed_scores(session: Any) -> dict[int, tuple[tuple[str, int], ...]]:
    """System id -> (player, points) of each networker every closed system paid when it
    closed, from the game's events (the state keeps only the last placement's)."""
    rules, scored = session.rules, []
    state = rules.new_game(session.players, session.options)
    for index, event in enumerate(session.events, start=1):
        state = rules.apply_event(state, event, index=index)
        if event.get("type") == "place":
            scored += state.last_scored
    return scores_by_system(state.board, scored)


def pack_for(config: Any) -> Any:
    """The art pack the camera reads the table with (``[vision.enigma] pack``): the board is
    drawn in the same colours. None (the demo look) for a pack that cannot be loaded."""
    from config import art_pack_folder

    folder = art_pack_folder(config, config.vision.enigma.pack)
    return _pack_in(None if folder is None else str(folder))


@lru_cache(maxsize=4)
def _pack_in(folder: str | None) -> Any:
    # the reads' own pack object (loaded once for both), not a second copy of it
    from vision.enigma.pack_cache import cached_enigma_pack
    from vision.errors import ArtPackError

    try:
        return cached_enigma_pack(folder)
    except (ArtPackError, OSError) as exc:
        log.warning("the Enigma board is drawn with the demo pack: %s", exc)
        return None


def in_reading_order(tile: Tile, rotation: int, cells: Any, look: Look | None = None
                     ) -> list[str]:
    """``cells`` of ``tile`` turned ``rotation`` as they are drawn: top row first, each row
    from the left (so the marks 1, 2 read the way a player reads the tile)."""
    look = look or demo_look()
    layout = _layout(tile, look.ports, look.spacing)

    def where(cell: str) -> tuple[float, float]:
        u, v = turn_point(layout.cells[cell], rotation)
        return (round(v / ROW_BAND), u)

    return sorted(cells, key=where)


def distinct_tiles(entries: Any) -> list[Any]:
    """The catalogue entries whose conduit sides differ, even turned: tiles alike on the
    table are one picture to choose (the engine needs only the conduit side)."""
    kept: list[Any] = []
    seen: set[Any] = set()
    for entry in entries:
        turns = {entry.conduit.rotated(r).signature() for r in range(4)}
        if not turns & seen:
            kept.append(entry)
        seen |= turns
    return kept
