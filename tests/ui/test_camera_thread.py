"""The camera lives on its own thread: it is opened, read and closed there, its frames reach
the screen through the app's pump, its failures reach the banner, and it ends with the app.

Every wait is a poll with a generous limit; nothing here asserts a duration.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

pytestmark = pytest.mark.ui

BGR = (10, 200, 30)


class RecordingCamera:
    """A camera that notes which thread opened, read and closed it; ``gate`` can hold reads."""

    def __init__(self, name: str, log: list[tuple[str, str, threading.Thread]]) -> None:
        self.name = name
        self.log = log
        self.frame = np.full((48, 64, 3), BGR, np.uint8)
        self.gate = threading.Event()
        self.gate.set()
        #: set when a read waits at the closed gate
        self.held = threading.Event()

    def _note(self, what: str) -> None:
        self.log.append((what, self.name, threading.current_thread()))

    def open(self) -> RecordingCamera:
        self._note("open")
        return self

    def read(self) -> np.ndarray:
        if not self.gate.is_set():
            self.held.set()
        self.gate.wait(timeout=30)
        self._note("read")
        return self.frame

    def close(self) -> None:
        self._note("close")


def _cameras(monkeypatch: pytest.MonkeyPatch, *names: str):
    """``make_camera_source`` hands out these cameras in turn; returns them and their log."""
    import ui.camera

    log: list[tuple[str, str, threading.Thread]] = []
    cameras = [RecordingCamera(name, log) for name in names]
    queue = list(cameras)

    def make_camera_source(cfg, *, demo, table=None):
        return queue.pop(0).open()

    monkeypatch.setattr(ui.camera, "make_camera_source", make_camera_source)
    return cameras, log


def _start_indigo(driver):
    driver.tap(driver.screen("home").ids.game_indigo)
    driver.tap(driver.screen("setup").ids.start_button)
    return driver.screen("indigo")


def test_a_frame_reaches_the_screen_through_the_camera_thread(make_driver, monkeypatch):
    (camera,), log = _cameras(monkeypatch, "table")
    driver = make_driver(start_camera=True)
    screen = _start_indigo(driver)
    app = driver.app
    assert driver.wait_for(lambda: app.last_frame is camera.frame, frames=3000)
    assert app.camera_texture is not None
    assert driver.wait_for(lambda: screen.ids.camera.texture is app.camera_texture)
    # the frame was opened and read off the main thread; the pump blitted it, BGR -> RGB
    assert [what for what, _name, _t in log[:2]] == ["open", "read"]
    assert all(thread is not threading.main_thread() for _w, _n, thread in log)
    assert app.last_frame is camera.frame
    red, green, blue = app.camera_texture.pixels[:3]
    assert (blue, green, red) == BGR
    driver.screenshot("camera-thread-frame-on-indigo")


def test_the_demo_table_is_rendered_on_the_camera_thread_and_shown(make_driver, monkeypatch):
    import ui.demo

    render = ui.demo.DemoTable.render
    rendered_on: list[threading.Thread] = []

    def noting_render(self):
        rendered_on.append(threading.current_thread())
        return render(self)

    monkeypatch.setattr(ui.demo.DemoTable, "render", noting_render)
    driver = make_driver(start_camera=True)
    screen = _start_indigo(driver)
    app = driver.app
    assert driver.wait_for(lambda: app.table.shows_table(app.last_frame), frames=5000)
    assert screen.ids.camera.texture is app.camera_texture
    assert rendered_on and threading.main_thread() not in rendered_on
    driver.screenshot("camera-thread-demo-indigo")


def test_a_camera_that_cannot_open_is_named_on_the_banner(make_driver, monkeypatch, caplog):
    import ui.camera
    from vision.errors import CameraError

    def make_camera_source(cfg, *, demo, table=None):
        raise CameraError("usb:0: cannot open the video device (unplugged or busy?)")

    monkeypatch.setattr(ui.camera, "make_camera_source", make_camera_source)
    driver = make_driver(start_camera=True)
    app = driver.app
    assert driver.wait_for(lambda: "Camera unavailable" in app.banner_text, frames=3000)
    # the players read it in their words; the driver's own line, naming the device, is logged
    assert "no camera was found" in app.banner_text and "usb:0" not in app.banner_text
    assert any("usb:0: cannot open the video device" in r.getMessage() for r in caplog.records)
    assert app.camera_failed
    assert driver.wait_for(lambda: not app.camera.is_running, frames=3000)
    screen = _start_indigo(driver)  # the app goes on; the read button says to enter by hand
    driver.tap(screen.ids.read_button)
    assert "tap" in screen.status.lower()


def test_a_demo_frame_that_fails_to_render_is_worded_on_the_banner_and_named_in_the_log(
        make_driver, monkeypatch, caplog):
    import ui.demo

    def broken(self, state):
        raise RuntimeError("the art pack has no tile faces")

    monkeypatch.setattr(ui.demo.DemoTable, "_render_state", broken)
    driver = make_driver(start_camera=True)
    _start_indigo(driver)
    app = driver.app
    assert driver.wait_for(lambda: "Camera error" in app.banner_text, frames=5000)
    # the players read what happened in their words; the camera's own line is for the log
    assert "it stopped giving pictures" in app.banner_text
    assert "art pack" not in app.banner_text
    assert any("rendering the frame failed: the art pack has no tile faces" in r.getMessage()
               for r in caplog.records)
    assert app.camera.is_running  # it keeps trying, slowly; the app keeps running
    driver.pump(5)


def test_the_camera_thread_ends_and_closes_the_camera_when_the_app_stops(make_driver,
                                                                          monkeypatch):
    (camera,), log = _cameras(monkeypatch, "table")
    driver = make_driver(start_camera=True)
    _start_indigo(driver)
    worker = driver.app.camera
    assert driver.wait_for(lambda: driver.app.last_frame is camera.frame, frames=3000)
    driver.close()
    assert not worker.is_running
    closes = [thread for what, _name, thread in log if what == "close"]
    assert len(closes) == 1 and closes[0] is not threading.main_thread()
    assert log[-1][0] == "close"  # nothing read after the camera was closed


def test_a_restart_hands_the_camera_over_without_the_screen_waiting(make_driver, monkeypatch):
    (first, second), log = _cameras(monkeypatch, "first", "second")
    driver = make_driver(start_camera=True)
    _start_indigo(driver)
    app = driver.app
    assert driver.wait_for(lambda: app.last_frame is first.frame, frames=3000)
    first.gate.clear()  # the first camera's next read hangs, like a frame being rendered
    assert first.held.wait(timeout=30)
    old = app.camera
    app.restart_camera()
    # the main thread came back although the old camera is still inside a read
    assert old.is_running and not first.gate.is_set()
    driver.pump(5)
    first.gate.set()
    assert driver.wait_for(lambda: app.last_frame is second.frame, frames=3000)
    assert not old.is_running
    order = [(what, name) for what, name, _t in log if what != "read"]
    assert order == [("open", "first"), ("close", "first"), ("open", "second")]


def test_the_camera_rests_on_screens_without_a_camera(make_driver, monkeypatch):
    (camera,), log = _cameras(monkeypatch, "table")
    driver = make_driver(start_camera=True)
    app = driver.app
    worker = app.camera
    assert driver.screen().name == "home"
    assert worker.parked.wait(timeout=30)  # open, and parked between reads
    reads = sum(1 for what, _n, _t in log if what == "read")
    driver.pump(10)
    assert sum(1 for what, _n, _t in log if what == "read") == reads
    _start_indigo(driver)
    assert driver.wait_for(lambda: app.last_frame is camera.frame, frames=3000)
    driver.tap(app.root.ids.home_button)
    assert driver.screen().name == "home"
    assert app.last_frame is None  # nothing from before the pause can be read later
    assert worker.parked.wait(timeout=30)
    assert worker.is_running and [what for what, _n, _t in log].count("open") == 1
    driver.close()  # a resting camera wakes to end
    assert not worker.is_running and log[-1][0] == "close"


def test_a_marker_check_that_ends_after_the_camera_rests_still_draws(make_driver,
                                                                      monkeypatch):
    import types

    import vision.markers

    (camera,), _log = _cameras(monkeypatch, "table")
    release = threading.Event()
    corners = [(1, 1), (30, 1), (30, 30), (1, 30)]

    def detect_markers(frame, *, dictionary_name):
        release.wait(timeout=30)
        return {7: types.SimpleNamespace(corners=corners)}, 1.0

    monkeypatch.setattr(vision.markers, "detect_markers", detect_markers)
    driver = make_driver(start_camera=True)
    app = driver.app
    app.show("calibration")
    assert driver.wait_for(lambda: app.last_frame is camera.frame, frames=3000)
    screen = driver.screen("calibration")
    screen.check()
    app.show("home")  # the camera rests and forgets its last frame meanwhile
    assert app.last_frame is None
    release.set()
    assert driver.wait_for(lambda: "7" in screen.status, frames=3000)
