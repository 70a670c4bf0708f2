"""A camera paused on a screen without a picture (Home, History) keeps no frame.

The demo table renders for up to a second on a Pi; a render that ends after the pause is
dropped, and neither the camera thread nor the demo table keeps it (or the last frame before
it) while the thread rests: together 4 MB that lived all the time the players spent on Home.
Every wait is a poll with a generous limit; nothing here asserts a duration.
"""

from __future__ import annotations

import gc
import queue
import threading
import weakref
from types import SimpleNamespace
from typing import Any

import numpy as np
from polling import wait_until


class HeldCamera:
    """Hands out a new frame at each read; ``gate`` can hold a read in flight."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.gate.set()
        self.held = threading.Event()
        self.last: weakref.ref[np.ndarray] | None = None

    def read(self) -> np.ndarray:
        if not self.gate.is_set():
            self.held.set()
        self.gate.wait(timeout=30)
        frame = np.zeros((48, 64, 3), np.uint8)
        self.last = weakref.ref(frame)
        return frame


def _with_preview(frame: Any) -> Any:
    return frame, frame[::2, ::2].copy()  # as the app's preview: a tuple made on the thread


def test_a_frame_read_while_the_camera_pauses_is_let_go() -> None:
    from ui.workers import CameraWorker, UiEvent

    camera = HeldCamera()
    worker = CameraWorker(camera, queue.Queue[UiEvent](), fps=50, prepare=_with_preview)
    worker.start()
    try:
        assert wait_until(lambda: worker.frames.qsize() == 1)
        camera.gate.clear()
        assert camera.held.wait(timeout=30)  # a read is in flight
        worker.pause()
        camera.gate.set()  # it ends after the pause
        assert worker.parked.wait(timeout=30)
        late = camera.last
        assert late is not None
        assert worker.frames.qsize() == 0  # not handed to the screen
        gc.collect()
        assert late() is None  # and not kept by the resting thread
        worker.resume()  # the camera works again after the rest
        assert wait_until(lambda: worker.frames.qsize() == 1)
    finally:
        camera.gate.set()
        worker.close()


def test_the_demo_table_lets_its_last_rendering_go_while_the_camera_rests() -> None:
    from ui.demo import DemoTable
    from ui.workers import CameraWorker, UiEvent

    app = SimpleNamespace(session=SimpleNamespace(game_id=1, game="indigo"), cfg=None)
    table = DemoTable(app)
    table.sync(SimpleNamespace(tiles={}))
    rendered: list[weakref.ref[np.ndarray]] = []

    def render_state(state: Any) -> Any:
        frame = np.zeros((48, 64, 3), np.uint8)
        rendered.append(weakref.ref(frame))
        return frame

    table._render_state = render_state  # type: ignore[method-assign]
    worker = CameraWorker(table.camera(), queue.Queue[UiEvent](), fps=50).start()
    try:
        assert wait_until(lambda: worker.frames.qsize() == 1)
        worker.pause()
        assert worker.parked.wait(timeout=30)
        gc.collect()
        assert rendered and all(ref() is None for ref in rendered)
        worker.resume()  # the table is rendered anew for the screen that shows it
        frame = worker.frames.get(timeout=30)
        assert table.shows_table(frame)
    finally:
        worker.close()
