"""Threads that feed the UI: the camera worker and background jobs.

Workers never touch a widget (Kivy is not thread-safe). The camera worker opens, reads and
closes the camera on its own thread, puts the newest frame in a ``queue.Queue(maxsize=1)``,
dropping the one the UI has not taken yet, and reports errors as events; jobs (a board read
that takes 200 ms on a Pi) post their result to the event queue. The app drains both queues
from ``Clock.schedule_interval`` on the main thread.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import traceback
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.closing import Closing

log = logging.getLogger(__name__)

#: how much lower than the UI's the camera thread's CPU priority is (a nice increment)
WORKER_NICE = 10
#: how long the app's stop waits for the camera thread, then for the background jobs: a
#: rendered frame or a board read takes a second on a Pi, several on a loaded one; a thread
#: left inside OpenCV aborts the process at exit (see :class:`BackgroundJobs`). Both bounds
#: together stay well inside systemd's 90 s before it kills the kiosk.
STOP_WAIT_SECONDS = 20.0
#: every thread started here (the camera's, the jobs'): they call into OpenCV, and the
#: process's end waits for them (:func:`worker_threads_running`); a thread is in
#: ``threading``'s own table while it runs, so none running is missing here
_started_threads: weakref.WeakSet[threading.Thread] = weakref.WeakSet()


def worker_threads_running() -> list[threading.Thread]:
    """The camera and job threads of this process still running."""
    return [thread for thread in list(_started_threads) if thread.is_alive()]


def _start(thread: threading.Thread) -> threading.Thread:
    _started_threads.add(thread)
    thread.start()
    return thread


class FrameSource(Protocol):
    """A camera. A source that renders scenes (the demo table) may also have ``last_scene``,
    the scene its last frame was rendered for, and ``is_current(scene)``: is that scene still
    the one on the table (see :class:`FrameQueue`)."""

    def read(self) -> Any: ...


@dataclass(frozen=True)
class UiEvent:
    """What a worker reports to the main thread.

    kind: ``button`` (name = button name), ``camera-unavailable`` (it could not be opened),
    ``camera-error``, ``hardware-error``, ``camera-ok``, ``job`` (callback and value, or
    error). ``at`` is when it happened (``time.monotonic``), not when the main thread gets to
    it: a button pressed on one screen must not act on the next one.
    """

    kind: str
    name: str = ""
    message: str = ""
    callback: Callable[..., None] | None = None
    value: Any = None
    error: BaseException | None = None
    at: float = field(default_factory=time.monotonic, compare=False)


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


class FrameQueue(queue.Queue[Any]):
    """The one-slot queue of the newest frame, each frame with the scene it shows.

    A rendered frame takes 200 ms (a second on a Pi) and is queued for the UI when it is done;
    by then the players may have started another game, whose screen would show the previous
    game's table. ``is_current(scene)`` (the source's) says whether a frame's scene is still
    the table's: :meth:`get` drops a frame whose scene is not, as if none had come. A real
    camera has no scenes: its frames are always current.
    """

    def __init__(self) -> None:
        super().__init__(maxsize=1)
        self.is_current: Callable[[Any], bool] | None = None
        #: the scene of the last frame handed out (None: none, or a camera without scenes)
        self.handed_scene: Any = None
        #: when the capture of the last frame handed out began (time.monotonic), or None
        self.handed_taken: float | None = None

    def put_frame(self, frame: Any, scene: Any = None, taken: float | None = None) -> None:
        """Queue ``frame`` (rendered for ``scene``, its capture begun at ``taken``), dropping
        a frame nobody has taken yet."""
        try:
            self.put_nowait((frame, scene, taken))
        except queue.Full:
            self.discard()
            try:
                self.put_nowait((frame, scene, taken))
            except queue.Full:  # another producer won the slot; the newest frame is there
                pass

    def discard(self) -> None:
        """Drop the frame waiting, if any (it is not handed out)."""
        try:
            super().get(False)
        except queue.Empty:
            pass

    def get(self, block: bool = True, timeout: float | None = None) -> Any:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            frame, scene, taken = super().get(block, left)
            if self.scene_is_current(scene):
                self.handed_scene = scene
                self.handed_taken = taken
                return frame
            log.debug("dropped a camera frame of another scene")

    def scene_is_current(self, scene: Any) -> bool:
        check = self.is_current
        return scene is None or check is None or check(scene)

    def handed_current(self) -> bool:
        """Whether the last frame handed out still shows the table's scene."""
        return self.scene_is_current(self.handed_scene)


class CameraWorker(Closing):
    """Opens, reads and closes a camera on its own thread, at up to ``fps`` frames a second.

    Everything slow about a camera happens here, never on the Kivy main thread: opening it
    (Picamera2's start and autofocus cycle take seconds, a USB device can hang), each read (a
    capture, or the demo's rendered table: ~200 ms here, a second on a Pi) and closing it. The
    source is given ready (``source``) or made on this thread by ``open_source()``; a failure
    to open is reported once as ``camera-unavailable`` and ends the thread. After
    ``max_failures`` failed reads in a row it reports ``camera-error`` once and keeps retrying
    slowly; a later good frame reports ``camera-ok``.

    ``pause()`` parks the thread between reads with the camera kept open (reopening a Pi
    camera takes seconds), for the screens that use no camera; ``resume()`` wakes it.

    ``after``: a worker being stopped whose camera this one takes over; this thread waits for
    it to finish and close its source first (one camera cannot be opened twice), so a restart
    never waits on the main thread.
    """

    def __init__(
        self,
        source: FrameSource | None,
        events: queue.Queue[UiEvent],
        *,
        open_source: Callable[[], FrameSource] | None = None,
        after: CameraWorker | None = None,
        fps: float = 10.0,
        max_failures: int = 3,
        prepare: Callable[[Any], Any] | None = None,
    ) -> None:
        if (source is None) == (open_source is None):
            raise ValueError("CameraWorker needs a source or an open_source, not both")
        self.source = source
        self.open_source = open_source
        self.after = after
        self.events = events
        #: turns a frame into what the UI gets (e.g. the frame plus a small preview), on this
        #: thread, so the main thread never resizes a 2304x1296 picture
        self.prepare = prepare
        self.frames = FrameQueue()
        self.interval = 1.0 / max(fps, 0.5)
        self.max_failures = max_failures
        self._stop = threading.Event()
        self._wanted = threading.Event()  # cleared: paused
        self._wanted.set()
        #: set while the thread is parked by pause() (it reads nothing until resume())
        self.parked = threading.Event()
        self._thread: threading.Thread | None = None
        self.failed = False

    @property
    def is_running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> CameraWorker:
        self._thread = _start(threading.Thread(target=self._run, name="camera-worker",
                                               daemon=True))
        return self

    def _run(self) -> None:
        _yield_cpu_to_the_ui()
        try:
            if self.after is not None:
                while not self.after.join(0.2):
                    if self._stop.is_set():  # stopped before the camera was handed over
                        return
                self.after = None
            if self.source is None and self.open_source is not None:
                try:
                    self.source = self.open_source()
                except Exception as exc:  # no camera: a banner, and manual entry takes over
                    if not self._stop.is_set():
                        self.events.put(UiEvent("camera-unavailable", message=_said(exc)))
                    return
            self._read_until_stopped()
        finally:
            self._close_source()

    def _read_until_stopped(self) -> None:
        assert self.source is not None
        self.frames.is_current = getattr(self.source, "is_current", None)
        failures = 0
        while not self._stop.is_set():
            if not self._wanted.is_set():
                self._rest()
                self._wanted.wait()  # stop() sets it too
                self.parked.clear()
                continue
            failures = self._read_one(failures)

    def _rest(self) -> None:
        """Paused: the source lets go of what it keeps between reads (the demo table's last
        rendering, a few MB), then the thread is parked. A frame read since the pause is gone
        by now: :meth:`_read_one` dropped it and its locals with it."""
        rest = getattr(self.source, "rest", None)
        if callable(rest):
            try:
                rest()
            except Exception:  # a source that cannot let go still rests
                log.exception("resting the camera failed")
        self.parked.set()

    def _read_one(self, failures: int) -> int:
        """Read, prepare and queue one frame; returns the failed reads in a row. Its own
        function so that the frame is let go at its return: a frame held by the loop's locals
        lived on while the thread was parked, all the time the players spent on Home."""
        assert self.source is not None
        started = time.monotonic()
        try:
            frame = self.source.read()
            if frame is None:
                raise RuntimeError("the camera returned no frame")
            scene = getattr(self.source, "last_scene", None)
        except Exception as exc:  # any camera failure becomes a banner, never a crash
            failures += 1
            if failures >= self.max_failures and not self.failed and not self._stop.is_set():
                self.failed = True
                self.events.put(UiEvent("camera-error", message=_said(exc)))
            self._stop.wait(min(2.0, self.interval * 5))
            return failures
        if self.failed:
            self.failed = False
            self.events.put(UiEvent("camera-ok"))
        if not self._wanted.is_set():  # paused during the read: the frame is already old
            return 0
        if self.prepare is not None:
            try:
                frame = self.prepare(frame)
            except Exception:  # a preview failure must not stop the camera
                log.exception("preparing a camera frame failed")
                return 0
        if self._wanted.is_set():  # paused meanwhile: this frame is already old
            # stamped with the moment its read began: a read asked for after a tap takes
            # only a frame begun after it (ui.fresh_frames)
            self.frames.put_frame(frame, scene, started)
        self._stop.wait(max(0.0, self.interval - (time.monotonic() - started)))
        return 0

    def _close_source(self) -> None:
        source, self.source = self.source, None
        closer = getattr(source, "close", None)
        if callable(closer):
            try:
                closer()
            except Exception:  # closing a broken camera must not stop the app closing
                log.exception("closing the camera failed")

    @property
    def is_paused(self) -> bool:
        return not self._wanted.is_set()

    def pause(self) -> None:
        """Read no more frames (after the one in progress) until :meth:`resume`."""
        self._wanted.clear()
        self._drop_frame()

    def resume(self) -> None:
        self._drop_frame()  # one taken just before the pause: the table has changed since
        self._wanted.set()

    def _drop_frame(self) -> None:
        self.frames.discard()

    def stop(self) -> None:
        """Ask the thread to finish its current read, close the camera and end; do not wait."""
        self._stop.set()
        self._wanted.set()  # a parked thread wakes to end

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the thread to end; True when it has (or never started)."""
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
            return not thread.is_alive()
        return True

    def close(self, *, timeout: float = 5.0) -> None:
        """Stop and wait for the thread (it closes the camera itself), e.g. when the app stops.

        A read in progress finishes first: up to a second for a rendered frame on a Pi.
        """
        self.stop()
        if self._thread is None:
            self._close_source()  # never started: nothing else will close it
        elif not self.join(timeout):
            log.warning("the camera thread did not stop within %.0f s", timeout)
        before = self.after  # a predecessor still finishing its last read
        if before is not None:
            before.close(timeout=timeout)


def _said(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


def _yield_cpu_to_the_ui() -> None:
    """Give this thread a lower CPU priority than the main (UI) thread, where Linux allows.

    A frame being rendered (or a board being read) competes with the main loop for the CPU
    on a loaded machine; niced, the kernel runs the UI first (bench/main_loop_hold.py
    --one-core: the longest hold while the demo renders about halves). Raising one's own nice
    value needs no privilege; elsewhere this does nothing.
    """
    import os

    try:
        thread = threading.get_native_id()
        # relative to the app's own nice value (a service or `nice` may have set one)
        nice = os.getpriority(os.PRIO_PROCESS, thread) + WORKER_NICE
        os.setpriority(os.PRIO_PROCESS, thread, min(nice, 19))
    except (AttributeError, OSError):  # not Linux, or not allowed: the default priority
        pass


def run_job(
    events: queue.Queue[UiEvent],
    work: Callable[[], Any],
    callback: Callable[[Any, BaseException | None], None],
    *,
    name: str = "job",
) -> threading.Thread:
    """Run ``work`` on a thread; ``callback(value, error)`` is later called on the main thread
    (by the app's pump, which turns an error raised by the callback itself into a banner).

    An error of ``work`` goes to the callback, whose screen says what to do; its traceback is
    logged here at debug level, without the error's text (a Break the Code rack is secret and
    an error from deep in its reader could name a tile).
    """

    def target() -> None:
        _yield_cpu_to_the_ui()  # a board read takes a Pi core for 200 ms: the UI goes first
        try:
            value = work()
        # handed to the callback, whose screen says what to do; BaseException too: a library's
        # sys.exit() would otherwise end this thread and leave the screen waiting for ever
        except BaseException as exc:
            log.debug("background job %s failed with %s\n%s", name, type(exc).__name__,
                      "".join(traceback.format_tb(exc.__traceback__)))
            events.put(UiEvent("job", name=name, callback=callback, error=exc))
            return
        events.put(UiEvent("job", name=name, callback=callback, value=value))

    return _start(threading.Thread(target=target, name=f"ui-{name}", daemon=True))


class BackgroundJobs(Closing):
    """The app's jobs (:func:`run_job`), kept until they end, so that the app's stop waits for
    them.

    A job is daemonic (a read that hangs must not keep the app from ending), but a daemon
    thread still inside OpenCV when the interpreter finalises aborts the process: the thread
    is killed as it takes the GIL back, inside OpenCV's C++ (``terminate called without an
    active exception``, exit status 134; issue 23). A board read cannot be interrupted, so
    :meth:`close` waits for the jobs running, up to a bound, and refuses new ones.
    """

    def __init__(self, events: queue.Queue[UiEvent]) -> None:
        self.events = events
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self.closed = False

    def run(
        self,
        work: Callable[[], Any],
        callback: Callable[[Any, BaseException | None], None],
        *,
        name: str = "job",
    ) -> threading.Thread | None:
        """:func:`run_job`, kept; None once closed (the app is ending: nobody would take the
        result)."""
        with self._lock:
            if self.closed:
                log.debug("background job %s not started: the app is ending", name)
                return None
            self._threads = [thread for thread in self._threads if thread.is_alive()]
            thread = run_job(self.events, work, callback, name=name)
            self._threads.append(thread)
            return thread

    @property
    def running(self) -> list[str]:
        """The names of the jobs' threads still running."""
        with self._lock:
            return [thread.name for thread in self._threads if thread.is_alive()]

    def close(self, *, timeout: float = STOP_WAIT_SECONDS) -> None:
        """Start no more jobs and wait for those running, ``timeout`` seconds in all; a job
        still running then is named in the log (the app ends anyway)."""
        with self._lock:
            self.closed = True
            threads = list(self._threads)
        deadline = time.monotonic() + timeout
        for thread in threads:
            if thread is not threading.current_thread():
                thread.join(max(0.0, deadline - time.monotonic()))
        if left := self.running:
            log.warning("background jobs still running after %.0f s: %s", timeout,
                        ", ".join(left))
