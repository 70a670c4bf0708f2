"""Threads that feed the UI: the camera worker and background jobs.

Workers never touch a widget (Kivy is not thread-safe). The camera worker puts the newest frame
in a ``queue.Queue(maxsize=1)``, dropping the one the UI has not taken yet, and reports errors
as events; jobs (a board read that takes 200 ms on a Pi) post their result to the event queue.
The app drains both queues from ``Clock.schedule_interval`` on the main thread.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from companion.closing import Closing

log = logging.getLogger(__name__)


class FrameSource(Protocol):
    def read(self) -> Any: ...


@dataclass(frozen=True)
class UiEvent:
    """What a worker reports to the main thread.

    kind: ``button`` (name = button name), ``camera-error``, ``hardware-error``,
    ``camera-ok``, ``job`` (callback and value, or error).
    """

    kind: str
    name: str = ""
    message: str = ""
    callback: Callable[..., None] | None = None
    value: Any = None
    error: BaseException | None = None


def put_latest(frames: queue.Queue[Any], frame: Any) -> None:
    """Put ``frame`` in a one-slot queue, dropping a frame nobody has taken yet."""
    try:
        frames.put_nowait(frame)
    except queue.Full:
        try:
            frames.get_nowait()
        except queue.Empty:
            pass
        try:
            frames.put_nowait(frame)
        except queue.Full:  # another producer won the slot; the newest frame is there anyway
            pass


class CameraWorker(Closing):
    """Reads ``source`` at up to ``fps`` frames a second on its own thread.

    After ``max_failures`` failed reads in a row it reports ``camera-error`` once and keeps
    retrying slowly; a later good frame reports ``camera-ok``.
    """

    def __init__(
        self,
        source: FrameSource,
        events: queue.Queue[UiEvent],
        *,
        fps: float = 10.0,
        max_failures: int = 3,
        prepare: Callable[[Any], Any] | None = None,
    ) -> None:
        self.source = source
        self.events = events
        #: turns a frame into what the UI gets (e.g. the frame plus a small preview), on this
        #: thread, so the main thread never resizes a 2304x1296 picture
        self.prepare = prepare
        self.frames: queue.Queue[Any] = queue.Queue(maxsize=1)
        self.interval = 1.0 / max(fps, 0.5)
        self.max_failures = max_failures
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.failed = False

    def start(self) -> CameraWorker:
        self._thread = threading.Thread(target=self._run, name="camera-worker", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                frame = self.source.read()
                if frame is None:
                    raise RuntimeError("the camera returned no frame")
            except Exception as exc:  # any camera failure becomes a banner, never a crash
                failures += 1
                if failures >= self.max_failures and not self.failed:
                    self.failed = True
                    self.events.put(UiEvent("camera-error", message=str(exc) or type(exc).__name__))
                self._stop.wait(min(2.0, self.interval * 5))
                continue
            failures = 0
            if self.failed:
                self.failed = False
                self.events.put(UiEvent("camera-ok"))
            if self.prepare is not None:
                try:
                    frame = self.prepare(frame)
                except Exception:  # a preview failure must not stop the camera
                    log.exception("preparing a camera frame failed")
                    continue
            put_latest(self.frames, frame)
            self._stop.wait(max(0.0, self.interval - (time.monotonic() - started)))

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        closer = getattr(self.source, "close", None)
        if callable(closer):
            try:
                closer()
            except Exception:  # closing a broken camera must not stop the app closing
                log.exception("closing the camera failed")



def run_job(
    events: queue.Queue[UiEvent],
    work: Callable[[], Any],
    callback: Callable[[Any, BaseException | None], None],
    *,
    name: str = "job",
) -> threading.Thread:
    """Run ``work`` on a thread; ``callback(value, error)`` is later called on the main thread."""

    def target() -> None:
        try:
            value = work()
        except Exception as exc:  # reported to the UI, which shows it as a banner
            events.put(UiEvent("job", name=name, callback=callback, error=exc))
            return
        events.put(UiEvent("job", name=name, callback=callback, value=value))

    thread = threading.Thread(target=target, name=f"ui-{name}", daemon=True)
    thread.start()
    return thread
