"""The demo's simulated table: what a camera would see on a desktop without hardware.

The table is the accepted game state plus what "the players" did since: in the demo a button
makes the player to move put a tile down (a legal placement chosen by the engine, seeded), and
the rendered camera shows it until the app reads and confirms it. No rule lives here: the
placements come from the engine's ``all_legal_placements`` and ``predict``.
"""

from __future__ import annotations

import logging
import random
import threading
from typing import Any

log = logging.getLogger(__name__)

FRAME_SIZE = (1280, 720)


class DemoTable:
    """The physical table of the demo, for the rendered camera and the demo buttons."""

    def __init__(self, app: Any, *, seed: int = 7) -> None:
        self.app = app
        self.rng = random.Random(seed)
        self._lock = threading.Lock()
        self.pending: Any = None  # an indigo Placement on the table, not yet confirmed
        self._state: Any = None  # the accepted state the camera worker renders from
        self._pack: Any = None
        self._seed = seed
        self._frame: Any = None
        self._frame_key: Any = None

    def reset(self) -> None:
        with self._lock:
            self.pending = None

    def sync(self, state: Any) -> None:
        """The accepted state changed (main thread): render from it from now on."""
        with self._lock:
            self._state = state
            if self.pending is not None and state is not None:
                tiles = getattr(state, "tiles", {})
                if self.pending.cell in tiles:
                    self.pending = None

    def play_random(self, state: Any) -> Any:
        """Put a legal tile for the player to move on the table; returns the placement."""
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
            self.pending = chosen
            self._state = state
        return chosen

    def table_state(self) -> Any:
        """The state as it lies on the table (accepted state plus the pending tile)."""
        with self._lock:
            state, pending = self._state, self.pending
        if state is None or pending is None or not hasattr(state, "tiles"):
            return state
        from companion.indigo.state import apply

        try:
            return apply(state, pending)
        except Exception:
            return state

    def render(self) -> Any:
        """One BGR frame of the table (camera worker thread).

        Rendering a camera frame with its effects takes ~200 ms here (a second on a Pi), so a
        frame is rendered only when the table changed and is reused until then.
        """
        state = self.table_state()
        if state is None or not hasattr(state, "tiles"):
            from companion.indigo.state import new_game

            state = new_game(2)
        key = self._key(state)
        with self._lock:
            if self._frame_key == key and self._frame is not None:
                return self._frame
        frame = self._render_state(state)
        with self._lock:
            self._frame_key, self._frame = key, frame
        return frame

    @staticmethod
    def _key(state: Any) -> Any:
        return (tuple(sorted(state.tiles.items())), state.turn)

    def shows_table(self, frame: Any) -> bool:
        """True when ``frame`` is the rendering of the table as it is now (tests, the demo)."""
        state = self.table_state()
        if state is None or not hasattr(state, "tiles"):
            return False
        with self._lock:
            return frame is self._frame and self._frame_key == self._key(state)

    def _render_state(self, state: Any) -> Any:
        try:
            from vision.art_pack import load_indigo_pack
            from vision.indigo_render import render_frame
        except ImportError:
            return _sketch(state)
        if self._pack is None:
            self._pack = load_indigo_pack(getattr(self.app.cfg.vision, "pack", "") or None)
        self._seed += 1
        return render_frame(state, self._pack, cfg=self.app.cfg, seed=self._seed,
                            frame_size=FRAME_SIZE).image

    def camera(self) -> Any:
        from vision.camera import RenderedCamera

        return RenderedCamera(self.render, name="demo table").open()


def _sketch(state: Any) -> Any:
    """A plain top-down drawing of an Indigo table, used until the vision renderer is there."""
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
