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
