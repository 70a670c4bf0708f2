"""Camera sources behind one interface: ``with source: frame = source.read()`` (BGR ndarray).

- :class:`PiCamera`: a Raspberry Pi camera through Picamera2 (imported only when opened);
  ``RGB888`` arrays are BGR in memory, so frames need no conversion. Autofocus runs one cycle
  and is then locked, because the camera sits on a fixed arm and hunting focus mid-game blurs
  frames.
- :class:`UsbCamera`: any OpenCV ``VideoCapture`` device (a USB webcam).
- :class:`ReplayCamera`: an image file, a folder of images (sorted, looping) or a video file.
- :class:`RenderedCamera`: calls a function for the current frame (the demo's rendered table).

A camera that cannot open, or stops delivering frames, raises :class:`~vision.errors.CameraError`
with a message naming the source; the caller (a worker thread) reports it and keeps running,
and may ``open()`` again later.

Example::

    >>> import numpy as np
    >>> with RenderedCamera(lambda: np.zeros((4, 6, 3), np.uint8)) as cam:
    ...     cam.read().shape
    (4, 6, 3)
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

import cv2
import numpy as np

from vision.errors import CameraError

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".mjpeg", ".h264")


class CameraSource:
    """Base of every source: ``open()``, ``read() -> BGR ndarray``, ``close()``, context manager."""

    name = "camera"

    def __init__(self) -> None:
        self._open = False

    @property
    def is_open(self) -> bool:
        return self._open

    def open(self) -> CameraSource:
        self._open = True
        return self

    def read(self) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def close(self) -> None:
        self._open = False

    def __enter__(self) -> CameraSource:
        return self.open()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _require_open(self) -> None:
        if not self._open:
            raise CameraError(f"{self.name}: read() before open()")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} {'open' if self._open else 'closed'}>"


def _as_bgr(frame: np.ndarray, source: str) -> np.ndarray:
    if frame is None or not isinstance(frame, np.ndarray) or frame.size == 0:
        raise CameraError(f"{source}: delivered an empty frame")
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return np.ascontiguousarray(frame[:, :, :3])
    return frame


class PiCamera(CameraSource):
    """A Raspberry Pi camera module via Picamera2 (only importable on a Pi)."""

    def __init__(
        self,
        *,
        size: tuple[int, int] = (2304, 1296),
        camera_num: int = 0,
        lock_focus: bool = True,
        focus_timeout_s: float = 3.0,
    ) -> None:
        super().__init__()
        self.size = size
        self.camera_num = camera_num
        self.lock_focus = lock_focus
        self.focus_timeout_s = focus_timeout_s
        self.name = f"picamera{camera_num}"
        self._cam: Any = None

    def open(self) -> PiCamera:
        try:
            from picamera2 import Picamera2  # only on a Pi (python3-picamera2 from apt)
        except ImportError as exc:
            raise CameraError(
                f"{self.name}: picamera2 is not installed (on a Pi: apt install "
                f"python3-picamera2 and a venv with --system-site-packages)"
            ) from exc
        try:
            cam = Picamera2(self.camera_num)
            # RGB888 is laid out B, G, R in memory: exactly OpenCV's BGR
            config = cam.create_still_configuration(
                main={"size": self.size, "format": "RGB888"}, buffer_count=2
            )
            cam.configure(config)
            cam.start()
            if self.lock_focus:
                self._focus_once_then_lock(cam)
        except CameraError:
            raise
        except Exception as exc:  # picamera2/libcamera raise many types; name the source
            raise CameraError(f"{self.name}: cannot start the camera: {exc}") from exc
        self._cam = cam
        self._open = True
        return self

    def _focus_once_then_lock(self, cam: Any) -> None:
        try:
            from libcamera import controls  # comes with picamera2
        except ImportError:  # pragma: no cover - only without libcamera
            return
        if "AfMode" not in getattr(cam, "camera_controls", {}):
            return  # fixed-focus module (Camera Module 2, HQ without motor)
        cam.set_controls({"AfMode": controls.AfModeEnum.Auto})
        deadline = time.monotonic() + self.focus_timeout_s
        job = cam.autofocus_cycle(wait=False)
        while time.monotonic() < deadline:
            if cam.wait(job, timeout=0.1) is not None:
                break
        # Manual keeps the lens where the cycle left it: a fixed arm needs no more hunting
        cam.set_controls({"AfMode": controls.AfModeEnum.Manual})

    def read(self) -> np.ndarray:
        self._require_open()
        try:
            frame = self._cam.capture_array("main")
        except Exception as exc:
            raise CameraError(f"{self.name}: capture failed: {exc}") from exc
        return _as_bgr(frame, self.name)

    def close(self) -> None:
        cam, self._cam = self._cam, None
        if cam is not None:
            try:
                cam.stop()
                cam.close()
            except Exception as exc:  # closing a vanished camera must not crash the app
                log.warning("%s: close failed: %s", self.name, exc)
        super().close()


class UsbCamera(CameraSource):
    """An OpenCV VideoCapture device: index (``0``) or a device path (``/dev/video0``)."""

    def __init__(
        self,
        device: int | str = 0,
        *,
        size: tuple[int, int] | None = None,
        retries: int = 3,
    ) -> None:
        super().__init__()
        self.device = device
        self.size = size
        self.retries = retries
        self.name = f"usb:{device}"
        self._cap: cv2.VideoCapture | None = None

    def open(self) -> UsbCamera:
        cap = cv2.VideoCapture(self.device)
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"{self.name}: cannot open the video device (unplugged or busy?)")
        if self.size is not None:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._cap = cap
        self._open = True
        return self

    def read(self) -> np.ndarray:
        self._require_open()
        assert self._cap is not None
        for _ in range(max(1, self.retries)):
            ok, frame = self._cap.read()
            if ok and frame is not None:
                return _as_bgr(frame, self.name)
        raise CameraError(f"{self.name}: no frame after {self.retries} tries (disconnected?)")

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
        super().close()


class ReplayCamera(CameraSource):
    """Frames from an image file, a folder of images (sorted, looping) or a video file."""

    def __init__(self, path: str | Path, *, loop: bool = True) -> None:
        super().__init__()
        self.path = Path(path)
        self.loop = loop
        self.name = f"replay:{self.path}"
        self._files: list[Path] = []
        self._index = 0
        self._video: cv2.VideoCapture | None = None

    def open(self) -> ReplayCamera:
        p = self.path
        if p.is_dir():
            self._files = sorted(f for f in p.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES)
            if not self._files:
                raise CameraError(f"{self.name}: the folder holds no images")
        elif p.is_file() and p.suffix.lower() in VIDEO_SUFFIXES:
            video = cv2.VideoCapture(str(p))
            if not video.isOpened():
                raise CameraError(f"{self.name}: cannot open the video")
            self._video = video
        elif p.is_file():
            self._files = [p]
        else:
            raise CameraError(f"{self.name}: no such file or folder")
        self._index = 0
        self._open = True
        return self

    def read(self) -> np.ndarray:
        self._require_open()
        if self._video is not None:
            ok, frame = self._video.read()
            if not ok and self.loop:
                self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, frame = self._video.read()
            if not ok:
                raise CameraError(f"{self.name}: end of video")
            return _as_bgr(frame, self.name)
        if self._index >= len(self._files):
            if not self.loop:
                raise CameraError(f"{self.name}: no more images")
            self._index = 0
        path = self._files[self._index]
        self._index += 1
        # a name of its own: ``frame`` above is typed by VideoCapture.read, imread may give None
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise CameraError(f"{self.name}: cannot decode {path.name}")
        return image

    def close(self) -> None:
        if self._video is not None:
            self._video.release()
            self._video = None
        super().close()


class RenderedCamera(CameraSource):
    """A camera whose frame is whatever ``render()`` returns now (the demo's rendered table).

    ``render`` may raise; the error is re-raised as CameraError so the caller treats it like
    any failing camera.
    """

    def __init__(self, render: Callable[[], np.ndarray], *, name: str = "rendered") -> None:
        super().__init__()
        self.render = render
        self.name = name

    def read(self) -> np.ndarray:
        self._require_open()
        try:
            frame = self.render()
        except CameraError:
            raise
        except Exception as exc:
            raise CameraError(f"{self.name}: rendering the frame failed: {exc}") from exc
        return _as_bgr(frame, self.name)


def open_camera(
    camera_cfg: Mapping[str, Any] | Any,
    *,
    render: Callable[[], np.ndarray] | None = None,
) -> CameraSource:
    """Build (not yet open) the source that ``camera_cfg`` names.

    ``camera_cfg`` is a mapping or an object with attributes: ``source`` is one of
    ``"picamera"`` (or ``"picamera2"``), ``"usb"``, ``"replay"``, ``"rendered"`` (or
    ``"render"``); then ``width``/``height``,
    ``device`` (usb index or path), ``path`` (replay), ``camera_num`` and ``lock_focus``
    (picamera). ``render`` is the frame function of a rendered source.
    """

    def get(key: str, default: Any = None) -> Any:
        if isinstance(camera_cfg, Mapping):
            return camera_cfg.get(key, default)
        return getattr(camera_cfg, key, default)

    source = str(get("source", "rendered"))
    # the config file's names ([camera] source) are accepted as well
    source = {"picamera2": "picamera", "render": "rendered"}.get(source, source)
    width, height = get("width"), get("height")
    size = (int(width), int(height)) if width and height else None
    if source == "picamera":
        return PiCamera(
            size=size or (2304, 1296),
            camera_num=int(get("camera_num", 0)),
            lock_focus=bool(get("lock_focus", True)),
        )
    if source == "usb":
        device = get("device", 0)
        if isinstance(device, str) and device.isdigit():
            device = int(device)
        return UsbCamera(device, size=size)
    if source == "replay":
        path = get("path")
        if not path:
            raise CameraError("camera source 'replay' needs a path")
        return ReplayCamera(path, loop=bool(get("loop", True)))
    if source == "rendered":
        if render is None:
            raise CameraError("camera source 'rendered' needs a render function")
        return RenderedCamera(render)
    raise CameraError(f"unknown camera source {source!r}; use picamera, usb, replay or rendered")
