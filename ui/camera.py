"""Camera sources for the app: the configured camera on a Pi, a rendered table in the demo."""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)


def make_camera_source(cfg: Any, *, demo: bool, table: Any = None) -> Any:
    """An open source with ``read()`` returning BGR frames (raises when no camera can be
    opened). Called on the camera worker's thread: opening a Pi camera takes seconds."""
    wanted = getattr(cfg.camera, "source", "auto")
    if demo and table is not None and wanted in ("auto", "render"):
        return table.camera()
    from ui.platform import is_raspberry_pi
    from vision.camera import open_camera

    name = {"picamera2": "picamera", "render": "rendered"}.get(wanted, wanted)
    if name == "auto":
        name = "picamera" if is_raspberry_pi() else "usb"
    settings = {
        "source": name,
        "device": cfg.camera.device,
        "path": cfg.camera.path,
        "width": cfg.camera.width,
        "height": cfg.camera.height,
    }
    render = table.render if table is not None else None
    return open_camera(settings, render=render).open()


class SceneCamera:
    """The demo table as a camera whose frames say which scene they show: ``last_scene`` is
    the scene of the last frame read, ``is_current(scene)`` whether it is still the table's
    (the camera worker's :class:`ui.workers.FrameQueue` drops frames of another game)."""

    def __init__(self, table: Any) -> None:
        from vision.camera import RenderedCamera

        self.table = table
        self.last_scene: Any = None
        self._camera = RenderedCamera(self._render, name="demo table")

    def _render(self) -> Any:
        frame = self.table.render()
        self.last_scene = self.table.last_scene
        return frame

    def open(self) -> SceneCamera:
        self._camera.open()
        return self

    def read(self) -> Any:
        return self._camera.read()

    def is_current(self, scene: Any) -> bool:
        return bool(self.table.is_current(scene))

    def rest(self) -> None:
        """The camera worker is paused (a screen without a picture): the table's last
        rendering is let go; the next read renders the table anew."""
        self.table.forget_rendering()

    def close(self) -> None:
        self._camera.close()


class FailingSource:
    """A source that works for ``good_frames`` reads and then fails (tests, fault drills)."""

    def __init__(self, inner: Any, *, good_frames: int) -> None:
        self.inner = inner
        self.remaining = good_frames
        self.broken = False

    def read(self) -> Any:
        if self.broken or self.remaining <= 0:
            self.broken = True
            raise OSError("camera disconnected")
        self.remaining -= 1
        return self.inner.read()

    def break_now(self) -> None:
        self.broken = True
