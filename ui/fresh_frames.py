"""A camera frame taken after a tap, for a read that must see the move just made.

The app's newest frame (``app.last_frame``) was taken before the tap: up to a frame interval
before, plus the time the camera thread takes to render or prepare it (a rendered table takes
~200 ms here, a second on a Pi). A read right after a move saw the table without it and told
the players to enter the move by hand. So a read asks :class:`FreshFrames` for the first frame
whose capture began after the tap; the camera worker stamps each frame with that moment
(:attr:`ui.workers.FrameQueue.handed_taken`).

Everything here runs on the Kivy main thread: frames are offered by the app's pump, and the
callbacks run there too.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

#: how long a read waits for a frame taken after the tap before it gives up (a rendered frame
#: takes a second on a Pi, and the camera thread may be reading one already)
FRESH_FRAME_WAIT_S = 6.0


@dataclass
class FrameWait:
    """One read waiting for a frame: ``callback(frame)``, or ``callback(None)`` on time-out."""

    after: float
    callback: Callable[[Any], None]
    deadline: float
    done: bool = field(default=False)

    def cancel(self) -> None:
        self.done = True


class FreshFrames:
    """The reads waiting for a frame taken after their tap, and the frames offered to them."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._waiting: list[FrameWait] = []

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def wait(self, callback: Callable[[Any], None], *,
             timeout_s: float = FRESH_FRAME_WAIT_S) -> FrameWait:
        """Call ``callback`` with the first frame whose capture begins from now on."""
        now = self.clock()
        wait = FrameWait(after=now, callback=callback, deadline=now + timeout_s)
        self._waiting.append(wait)
        return wait

    def offer(self, frame: Any, taken: float | None) -> None:
        """A frame has come (``taken``: when its capture began; None: not known, so it cannot
        count as taken after anything). Hands it to every read asked before ``taken``."""
        if taken is None or frame is None:
            return
        ready = [w for w in self._waiting if not w.done and taken >= w.after]
        self._settle(ready, frame)

    def expire(self) -> None:
        """Give ``None`` to the reads that have waited too long (called from the pump)."""
        now = self.clock()
        late = [w for w in self._waiting if not w.done and now >= w.deadline]
        if late:
            log.warning("no camera frame came within %.0f s of a read's tap",
                        late[0].deadline - late[0].after)
        self._settle(late, None)

    def give_up(self) -> None:
        """Give ``None`` to every read waiting (the camera rests or stops: no frame comes)."""
        self._settle([w for w in self._waiting if not w.done], None)

    def _settle(self, waits: list[FrameWait], frame: Any) -> None:
        for wait in waits:
            wait.done = True
        self._waiting = [w for w in self._waiting if not w.done]
        for wait in waits:
            wait.callback(frame)
