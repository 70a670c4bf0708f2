"""The demo's simulated table: what a camera would see on a desktop without hardware.

The table is the accepted game state plus what "the players" did since: in the demo a button
makes the player to move put a piece down (a legal placement found by the engine, seeded), and
the rendered camera shows it until the app reads and confirms it. No rule lives here: Indigo
placements come from the engine's ``all_legal_placements`` and ``predict``, Enigma ones from
``legal_placements``; the table is drawn by vision's renderers.
"""

from __future__ import annotations

import logging
import random
import threading
from typing import Any

from config import art_pack_folder

log = logging.getLogger(__name__)

FRAME_SIZE = (1280, 720)
#: the game a rendered frame shows, by what lies on the table (pending's kind, else the state)
GAME_OF_PENDING = {"sheet": "second-chance", "card": "second-chance", "code": "break-the-code"}
#: the scene of the players' own Break the Code tiles laid out for the teach screen: no game's
OWN_TILES = "own-tiles"
#: the look of the demo players' own tiles: a renderer style the demo pack does not hold, so
#: teaching the camera has something to learn
OWN_TILES_STYLE = "plastic"
#: the scene of an Enigma puzzle laid on its mat for the puzzle check screen: no game's
PUZZLE = "puzzle"
#: the puzzle's table in the demo: a wooden table, a lamp off to the side; the frame is the
#: size the puzzle checks are sure at (the demo's other scenes are smaller)
PUZZLE_TABLE, PUZZLE_STRENGTH, PUZZLE_FRAME = "wood", "mild", (1920, 1080)
#: one seed for the puzzle's scene and its wrong solutions: the same taps show the same table
PUZZLE_SEED = 1


class DemoTable:
    """The physical table of the demo, for the rendered camera and the demo buttons."""

    def __init__(self, app: Any, *, seed: int = 7) -> None:
        self.app = app
        self.rng = random.Random(seed)
        self._lock = threading.Lock()
        #: a piece on the table, not yet confirmed: an Indigo ``Placement`` or an Enigma
        #: place event
        self.pending: Any = None
        self._state: Any = None  # the accepted state the camera worker renders from
        #: the art packs the table is drawn with, by name, loaded at their first frame
        self.packs: dict[str, Any] = {}
        #: the seed of the frame drawn last: each new frame is drawn with the next
        self.seed = seed
        self._frame: Any = None
        self._frame_key: Any = None
        self._frame_scene: Any = None
        #: the journal id of the game whose pieces lie on the table (set by the main thread
        #: with them): the worker renders an empty table for any other game
        self._owner: Any = None
        #: the pending piece of the frame being rendered (camera worker thread only)
        self._rendering: Any = None
        #: the scene of the last frame :meth:`render` returned (camera worker thread only)
        self.last_scene: Any = None
        #: Break the Code: the demo players' real tiles (player -> code notation)
        self.code_racks: dict[str, str] = {}
        #: what was on the table before the teach screen laid out the players' own tiles
        self._before_own: Any = None
        #: what was on the table before the puzzle check screen laid a puzzle out
        self._before_puzzle: Any = None

    def reset(self) -> None:
        """Nothing pending on the table; a new game also clears the previous game's table."""
        with self._lock:
            self.pending = None
            self._own()

    def _own(self) -> None:
        """What is on the table now belongs to the app's game (main thread, under the lock)."""
        game = self.game_now()
        if game != self._owner:
            self._state = None  # the previous game's pieces leave the table
        self._owner = game

    def game_now(self) -> Any:
        """The journal id of the game being played (None: none)."""
        from ui.services import session_game_id

        session = getattr(self.app, "session", None)
        return session_game_id(session) if session is not None else None

    def sync(self, state: Any) -> None:
        """The accepted state changed (main thread): render from it from now on."""
        with self._lock:
            self._own()
            if state is not self._state:
                self.pending = None
            self._state = state

    # --- the demo players' moves ----------------------------------------------------------
    def play_random(self, state: Any) -> Any:
        """Put a legal Indigo tile for the player to move on the table; returns it."""
        from companion.indigo.state import all_legal_placements, predict

        candidates = all_legal_placements(state)
        if not candidates:
            return None
        self.rng.shuffle(candidates)
        chosen = candidates[0]
        for placement in candidates[:60]:  # prefer a move that makes gems travel
            try:
                if predict(state, placement).moves:
                    chosen = placement
                    break
            except Exception:
                continue
        with self._lock:
            self._own()
            self._state = state
            self.pending = chosen
        return chosen

    def place_enigma(self, state: Any, player: str, entries: list[Any]) -> Any:
        """The Enigma solver puts one of ``entries`` (their category) on a legal square."""
        from companion.enigma.tiles import format_tile

        options = [(entry, p) for entry in entries
                   for p in state.legal_placements(entry.conduit, distinct=True)]
        if not options:
            return None
        entry, placement = self.rng.choice(options)
        event = {"type": "place", "player": player, "tile": format_tile(entry.conduit),
                 "at": [placement.at[0], placement.at[1]], "rotation": placement.rotation,
                 "networker": None}
        with self._lock:
            self._own()
            self._state = state
            self.pending = event
        return entry, placement

    def show_sheet(self, player: str, tiles: list[Any]) -> None:
        """Second Chance: the sheet under the camera is ``player``'s, as drawn so far."""
        sheet = ("sheet", player, tuple(tuple(map(tuple, t)) for t in tiles), ())
        with self._lock:
            self._own()
            if not (isinstance(self.pending, tuple) and self.pending[:3] == sheet[:3]):
                self.pending = sheet

    def draw_on_sheet(self, player: str, tiles: list[Any], cells: list[Any]) -> None:
        """Second Chance: the player draws ``cells`` on their paper sheet (not yet entered)."""
        with self._lock:
            self._own()
            self.pending = ("sheet", player, tuple(tuple(map(tuple, t)) for t in tiles),
                            tuple(tuple(c) for c in cells))

    def show_card(self, shape_text: str) -> None:
        """Second Chance: a card is turned up under the camera."""
        with self._lock:
            self._own()
            self.pending = ("card", shape_text)

    def deal_code(self, players: list[str]) -> dict[str, str]:
        """Break the Code: the demo players are dealt real tiles (the engine's deal, seeded)."""
        from companion.break_the_code import deal_tiles, format_code

        dealt = deal_tiles(len(players), self.rng)
        self.code_racks = {p: format_code(r) for p, r in zip(players, dealt.racks, strict=True)}
        return self.code_racks

    def show_code(self, tiles: str) -> None:
        """Break the Code: ``tiles`` (a code's notation; "" for none) lie on the code mat."""
        with self._lock:
            self._own()
            self.pending = ("code", tiles)

    def show_own_tiles(self, tiles: str, slots: Any = None) -> None:
        """The teach screen: the players' own tiles (``tiles``: notation, in the order laid)
        lie on the code mat, on ``slots`` (default A1, B1, ... row by row)."""
        laid = tuple(slots) if slots is not None else tuple(range(len(tiles.split())))
        with self._lock:
            self._own()
            if not _is_own_tiles(self.pending):
                self._before_own = self.pending
            self.pending = (OWN_TILES, tiles, laid)

    def lay_test_rack(self) -> str:
        """The teach screen's check: a rack of 5 of the players' own tiles (seeded) lies on the
        mat, in rack order from A1; returns it (notation)."""
        from companion.break_the_code import ALL_TILES, Code, format_code

        rack = format_code(Code.of(self.rng.sample(list(ALL_TILES), 5)))
        self.show_own_tiles(rack)
        return rack

    def show_puzzle(self, kind: str, card_id: str, miss: int | None = None) -> None:
        """The puzzle check screen: the demo players lay Enigma puzzle ``card_id`` on the mat,
        solved (``miss`` None) or as the ``miss``-th near miss of
        :func:`vision.enigma.synth.puzzles.near_misses` (a wrong solution)."""
        with self._lock:
            self._own()
            if not _is_puzzle(self.pending):
                self._before_puzzle = self.pending
            self.pending = (PUZZLE, kind, card_id, miss)

    def put_away_puzzle(self) -> None:
        """The puzzle check screen is left: the table is as it was before."""
        with self._lock:
            if _is_puzzle(self.pending):
                self.pending = self._before_puzzle
            self._before_puzzle = None

    def forget_looks(self) -> None:
        """A new pack was taught: the next frames are drawn with it (the look is reloaded)."""
        with self._lock:
            self.packs.pop("code", None)

    def put_away_own_tiles(self) -> None:
        """The teach screen is left: the table is as it was before."""
        with self._lock:
            if _is_own_tiles(self.pending):
                self.pending = self._before_own
            self._before_own = None

    # --- what the camera sees -------------------------------------------------------------
    def _on_table(self) -> tuple[Any, Any, Any]:
        """(accepted state, pending piece, game) as the camera sees them now: nothing of
        another game than the app's (under the lock)."""
        game = self.game_now()
        if self._owner != game:
            return None, None, game
        return self._state, self.pending, game

    def table_state(self) -> Any:
        """The state as it lies on the table (the accepted state plus the pending piece)."""
        with self._lock:
            state, pending, _game = self._on_table()
        return self._with_pending(state, pending)

    @staticmethod
    def _with_pending(state: Any, pending: Any) -> Any:
        if state is None or pending is None or isinstance(pending, tuple):
            return state
        try:
            if isinstance(pending, dict):
                from companion.engine import load_rules

                return load_rules("enigma").apply_event(state, pending, index=0)
            from companion.indigo.state import apply

            return apply(state, pending)
        except Exception:  # a stale pending piece: show the accepted table
            return state

    def render(self) -> Any:
        """One BGR frame of the table (camera worker thread); :attr:`last_scene` is then the
        scene it shows."""
        frame, self.last_scene = self._render_scene()
        return frame

    def _render_scene(self) -> tuple[Any, Any]:
        """One BGR frame of the table and the scene it shows: (game's journal id, which game's
        table: indigo, enigma, second-chance or break-the-code).

        Rendering a camera frame with its effects takes ~200 ms here (a second on a Pi), so a
        frame is rendered only when the table changed and is reused until then.
        """
        with self._lock:
            key = self._on_table()
            if self._frame is not None and _same_key(self._frame_key, key):
                return self._frame, self._frame_scene
        state, pending, game = key
        self._rendering = pending
        frame = self._render_state(self._with_pending(state, pending))
        scene = (game, _game_shown(state, pending))
        with self._lock:
            self._frame_key, self._frame, self._frame_scene = key, frame, scene
        return frame, scene

    def forget_rendering(self) -> None:
        """Let go of the last frame rendered (camera worker thread, while it rests): kept for
        reuse while the table does not change, it lived all the time the players spent on
        Home or History (2.8 MB; a Pi renders it again in a second when a game is shown)."""
        with self._lock:
            self._frame_key = self._frame = self._frame_scene = None

    def is_current(self, scene: Any) -> bool:
        """Whether a frame of ``scene`` shows the game being played (main thread): a frame
        rendered before another game began, or an empty table drawn as another game's, is
        not."""
        game, shown = scene
        with self._lock:  # the teach screen's tiles are no game's: current while they lie
            pending = self.pending  # there, as they lie, and then nothing else is
        if _is_own_tiles(pending) or str(shown).startswith(OWN_TILES):
            return bool(_is_own_tiles(pending) and shown == _game_shown(None, pending))
        if _is_puzzle(pending) or str(shown).startswith(PUZZLE):
            return bool(_is_puzzle(pending) and shown == _game_shown(None, pending))
        session = getattr(self.app, "session", None)
        return game == self.game_now() and (session is None or session.game == shown)

    def shows_table(self, frame: Any) -> bool:
        """True when ``frame`` is the rendering of the table as it is now (tests, the demo)."""
        with self._lock:
            return frame is self._frame and _same_key(self._frame_key, self._on_table())

    def _render_state(self, state: Any) -> Any:
        self.seed += 1
        pending = self._rendering
        if isinstance(pending, tuple) and pending[0] == "sheet":
            return self._render_sheet(pending)
        if isinstance(pending, tuple) and pending[0] == "card":
            from vision.second_chance.synth.card import render_card

            return render_card(pending[1], seed=self.seed, frame_size=FRAME_SIZE).image
        if isinstance(pending, tuple) and pending[0] == "code":
            return self._render_code(pending[1])
        if _is_own_tiles(pending):
            return self._render_own_tiles(pending[1], pending[2])
        if _is_puzzle(pending):
            return self._render_puzzle(*pending[1:])
        if state is not None and hasattr(state, "board"):
            return self.render_enigma(state)
        indigo = getattr(state, "state", state)  # the engine's IndigoGame wraps the state
        if indigo is None or not hasattr(indigo, "tiles"):
            from companion.indigo.state import new_game

            indigo = new_game(2)
        try:
            from vision.indigo.pack_cache import cached_indigo_pack
            from vision.indigo.settings import IndigoSettings
            from vision.indigo.synth.render import render_frame
        except ImportError:
            return _sketch(indigo)
        if "indigo" not in self.packs:
            cfg = self.app.cfg
            self.packs["indigo"] = cached_indigo_pack(art_pack_folder(cfg, cfg.vision.pack))
        settings = IndigoSettings.from_config(self.app.cfg)
        return render_frame(indigo, self.packs["indigo"], settings=settings, seed=self.seed,
                            frame_size=FRAME_SIZE).image

    def render_enigma(self, state: Any) -> Any:
        """The camera frame of the Enigma table ``state``, drawn with :attr:`seed` (camera
        worker thread)."""
        from companion.enigma.catalogue import load_catalogue
        from vision.enigma.settings import TableSettings
        from vision.enigma.synth.render import TableView, render_camera_image

        pack = self._enigma_pack()
        if "enigma-catalogue" not in self.packs:
            self.packs["enigma-catalogue"] = load_catalogue()
        view = TableView.of_state(state, pack, catalogue=self.packs["enigma-catalogue"])
        # the frame alone: render_frame's scene and truth are for tests and benches, and its
        # pieces' mask (read by no effect of the demo's) lived through the camera effects
        return render_camera_image(view, pack, table=TableSettings.from_config(self.app.cfg),
                                   seed=self.seed, frame_size=FRAME_SIZE)

    def _enigma_pack(self) -> Any:
        """The Enigma pack the table is drawn with: the one the app's reads load
        (:func:`vision.enigma.pack_cache.cached_enigma_pack`), not a copy of its own, taken
        at the first frame and kept, as before."""
        from vision.enigma.pack_cache import cached_enigma_pack

        if "enigma" not in self.packs:
            cfg = self.app.cfg
            self.packs["enigma"] = cached_enigma_pack(
                art_pack_folder(cfg, cfg.vision.enigma.pack))
        return self.packs["enigma"]

    def _render_sheet(self, pending: Any) -> Any:
        from vision.second_chance.synth.sheet import SheetContent, render_sheet

        _kind, player, tiles, new = pending
        drawn = tiles + ((new,) if new else ())
        content = SheetContent(tiles=drawn, bonus=None, name=player)
        return render_sheet(content, seed=self.seed, frame_size=FRAME_SIZE).image

    def _render_code(self, tiles: str) -> Any:
        from companion.break_the_code import parse_code
        from vision.break_the_code.synth.render import render_frame as render_code

        if "code" not in self.packs:
            # a taught look is drawn from its photos; none: the demo style's own drawing
            from vision.break_the_code.pack import load_code_pack

            folder = art_pack_folder(self.app.cfg, self.app.cfg.vision.code.pack)
            self.packs["code"] = load_code_pack(folder) if folder else None
        laid = list(parse_code(tiles).tiles) if tiles.strip() else []
        result, _scene = render_code(laid, seed=self.seed, frame_size=FRAME_SIZE,
                                     look=self.packs["code"])
        return result.image

    def _render_own_tiles(self, tiles: str, slots: Any) -> Any:
        from companion.break_the_code.tiles import parse_tile
        from vision.break_the_code.synth.art import STYLES
        from vision.break_the_code.synth.render import render_frame as render_code

        laid = [parse_tile(t) for t in tiles.split()]
        result, _scene = render_code(laid, seed=self.seed, frame_size=FRAME_SIZE,
                                     slots=list(slots), look=STYLES[OWN_TILES_STYLE])
        return result.image

    def _render_puzzle(self, kind: str, card_id: str, miss: int | None) -> Any:
        import random as seeded

        from companion.enigma.puzzles import load_puzzles
        from vision.enigma.synth.puzzle_table import TableCondition, render_table_frame
        from vision.enigma.synth.puzzles import default_solution, near_misses

        pack = self._enigma_pack()
        box = load_puzzles()
        card = getattr(box, kind).cards[card_id]
        solution = default_solution(kind, card, box)
        extra: dict[str, Any] = {}
        if miss is not None:
            misses = near_misses(kind, card, solution, box, seeded.Random(PUZZLE_SEED))
            _what, solution, extra = misses[miss % len(misses)]
        return render_table_frame(kind, card, pack, solution=solution,
                                  condition=TableCondition(PUZZLE_TABLE, PUZZLE_STRENGTH),
                                  seed=PUZZLE_SEED, frame_size=PUZZLE_FRAME, **extra)

    def camera(self) -> Any:
        from ui.camera import SceneCamera

        return SceneCamera(self).open()


def _same_key(a: Any, b: Any) -> bool:
    return a is not None and a[0] is b[0] and a[1] == b[1] and a[2] == b[2]


def _is_own_tiles(pending: Any) -> bool:
    return isinstance(pending, tuple) and pending[0] == OWN_TILES


def _is_puzzle(pending: Any) -> bool:
    return isinstance(pending, tuple) and pending[0] == PUZZLE


def _game_shown(state: Any, pending: Any) -> str:
    """Which game's table a frame of ``state`` and ``pending`` shows (as _render_state draws
    it: an empty table is drawn as Indigo's)."""
    if _is_own_tiles(pending):  # which tiles, on which slots: each layout is a scene
        return f"{OWN_TILES} {pending[1]} {pending[2]}"
    if _is_puzzle(pending):  # which card, solved or which wrong solution
        return f"{PUZZLE} {pending[1]} {pending[2]} {pending[3]}"
    if isinstance(pending, tuple) and pending[0] in GAME_OF_PENDING:
        return GAME_OF_PENDING[pending[0]]
    if isinstance(pending, dict) or (state is not None and hasattr(state, "board")):
        return "enigma"
    return "indigo"


def _sketch(state: Any) -> Any:
    """A plain top-down drawing of an Indigo table, used when the vision renderer is absent."""
    import cv2
    import numpy as np

    from companion.indigo.geometry import CELLS, CENTRE, CORNER_BY_CELL, edge_midpoint, hex_corners
    from companion.indigo.tiles import paths_of

    width, height = FRAME_SIZE
    frame = np.full((height, width, 3), (60, 90, 70), np.uint8)
    radius = 36.0
    cx, cy = width / 2, height / 2
    tiles = dict(getattr(state, "tiles", {}) or {})
    for cell in CELLS:
        pts = np.array([[cx + x, cy + y] for x, y in hex_corners(cell, radius * 0.97)], np.int32)
        colour = (150, 60, 20) if cell == CENTRE else (230, 200, 140) if cell in CORNER_BY_CELL \
            else (70, 90, 110) if cell in tiles else (40, 50, 45)
        cv2.fillConvexPoly(frame, pts, colour)
        if cell in tiles:
            tile = tiles[cell]
            for a, b in paths_of(tile.kind, tile.rotation):
                pa = edge_midpoint(cell, a, radius)
                pb = edge_midpoint(cell, b, radius)
                cv2.line(frame, (int(cx + pa[0]), int(cy + pa[1])),
                         (int(cx + pb[0]), int(cy + pb[1])), (220, 230, 240), 3)
    return frame
