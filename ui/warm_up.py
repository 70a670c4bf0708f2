"""Made ready while the app waits for its first touch: what an evening loads once.

Each game's first play loaded its screen's code and kv rules and, in the demo, its table's
pack and renderer. Loaded once and kept all evening, they came with the first play of the other
three games, after the first game: the memory rose from 221 MB after the first game to the
247-252 MB the evening then kept (bench/app_memory.py, bench/figures/app_memory_s21.txt; the
other games' renderers alone, 75 modules, are 11 MB here). Made ready while the app is idle
after its first screen, they are part of the level from the start, and no game's first play
waits for them.

What is per game (its screen's widgets, the frames, the reads) is not made here: a game screen
is let go on Home (``CompanionApp._let_go_of_game_screens``).

The first screen is never delayed: the warm-up begins :data:`WARM_UP_DELAY_S` after the first
frame is drawn; the demo's packs load on a worker thread; the screens' code and kv rules (on the
main thread: Kivy's Builder is not thread-safe) one screen a clock tick.
"""

from __future__ import annotations

import logging
from typing import Any

from kivy.clock import Clock

log = logging.getLogger(__name__)

#: seconds after the first frame before the warm-up begins: the first screen is drawn and
#: answers its first touch before any of it
WARM_UP_DELAY_S = 1.0
#: seconds between two screens made ready on the main thread (each 20-180 ms of CPU here)
STEP_S = 0.1


class WarmUp:
    """Makes ``screens`` ready (``app.prepare_screen(name)``) and the demo table's packs
    (``app.table.get_ready()``, on a worker thread), once; :attr:`finished` then holds."""

    def __init__(self, app: Any, screens: list[str]) -> None:
        self.app = app
        self.screens = list(screens)
        self._left: list[str] = []
        self._started = False
        self._packs_pending = False

    @property
    def finished(self) -> bool:
        return self._started and not self._left and not self._packs_pending

    def start_later(self) -> None:
        """Begin after :data:`WARM_UP_DELAY_S` (called when the first frame is drawn)."""
        Clock.schedule_once(lambda _dt: self.start(), WARM_UP_DELAY_S)

    def start(self) -> None:
        if self._started:
            return
        self._started = True
        self._left = list(self.screens)
        table = getattr(self.app, "table", None)
        if table is not None:
            self._packs_pending = True
            self.app.run_in_background(table.get_ready, self._packs_ready, name="warm-up")
        Clock.schedule_once(self._next_screen, 0)

    def _next_screen(self, _dt: float) -> None:
        if not self._left:
            return
        name = self._left.pop(0)
        try:
            self.app.prepare_screen(name)
        except Exception:  # the screen is made (and fails, with a banner) when it is shown
            log.exception("making the %s screen ready failed", name)
        Clock.schedule_once(self._next_screen, STEP_S)

    def _packs_ready(self, _value: Any, error: BaseException | None) -> None:
        self._packs_pending = False
        if error is not None:  # the table loads them at its first frame instead
            log.warning("loading the demo table's packs ahead failed: %s",
                        type(error).__name__)
