"""Camera sources: one interface, clear errors, the caller keeps running."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.camera import PiCamera, RenderedCamera, ReplayCamera, UsbCamera, open_camera
from vision.errors import CameraError


def test_replay_folder_loops_in_sorted_order(tmp_path: Path) -> None:
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), np.full((4, 5, 3), i * 50, np.uint8))
    with ReplayCamera(tmp_path) as cam:
        values = [int(cam.read()[0, 0, 0]) for _ in range(4)]
    assert values == [0, 50, 100, 0]


def test_replay_missing_path_raises_camera_error(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="no such file"):
        ReplayCamera(tmp_path / "nope").open()


def test_replay_without_loop_reports_the_end(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((3, 3, 3), np.uint8))
    cam = ReplayCamera(tmp_path / "a.png", loop=False).open()
    cam.read()
    with pytest.raises(CameraError, match="no more images"):
        cam.read()
    cam.close()


def test_rendered_camera_turns_failures_into_camera_errors() -> None:
    calls = iter([np.zeros((2, 2, 3), np.uint8)])

    def render() -> np.ndarray:
        return next(calls)  # raises StopIteration the second time

    with RenderedCamera(render) as cam:
        assert cam.read().shape == (2, 2, 3)
        with pytest.raises(CameraError, match="rendering the frame failed"):
            cam.read()
        # the source is still usable after a failure
        assert cam.is_open


def test_read_before_open_is_an_error() -> None:
    with pytest.raises(CameraError, match="before open"):
        RenderedCamera(lambda: np.zeros((1, 1, 3), np.uint8)).read()


def test_absent_usb_device_raises_camera_error() -> None:
    with pytest.raises(CameraError, match="cannot open"):
        UsbCamera("/dev/definitely-not-a-camera").open()


def test_picamera_without_picamera2_says_how_to_install() -> None:
    try:
        import picamera2  # noqa: F401
    except ImportError:
        with pytest.raises(CameraError, match="picamera2"):
            PiCamera().open()
    else:  # pragma: no cover - on a Pi
        pytest.skip("picamera2 present")


def test_open_camera_factory() -> None:
    assert isinstance(open_camera({"source": "replay", "path": "x"}), ReplayCamera)
    assert isinstance(open_camera({"source": "usb", "device": "1"}), UsbCamera)
    assert isinstance(open_camera({"source": "picamera", "width": 640, "height": 480}), PiCamera)
    frame = np.zeros((2, 3), np.uint8)
    with open_camera({"source": "rendered"}, render=lambda: frame) as cam:
        assert cam.read().shape == (2, 3, 3)  # grey becomes BGR
    with pytest.raises(CameraError, match="unknown camera source"):
        open_camera({"source": "telescope"})
