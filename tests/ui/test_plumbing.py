"""The app's plumbing without a display: worker queues, the device hub's fallbacks, platform
detection, and the settings overlay."""

from __future__ import annotations

import queue
import threading

import pytest
from polling import wait_until

from ui.workers import BackgroundJobs, CameraWorker, UiEvent, put_latest, run_job


def test_put_latest_keeps_only_the_newest_frame():
    frames: queue.Queue[int] = queue.Queue(maxsize=1)
    for n in range(5):
        put_latest(frames, n)
    assert frames.get_nowait() == 4
    assert frames.empty()


class _Flaky:
    """Three good frames, then failures until healed."""

    def __init__(self):
        self.n = 0
        self.healed = threading.Event()

    def read(self):
        self.n += 1
        if self.n <= 3 or self.healed.is_set():
            return self.n
        raise OSError("unplugged")


def _next_event(events, kind, timeout=5.0):
    while True:
        event = events.get(timeout=timeout)
        if event.kind == kind:
            return event


def test_camera_worker_reports_a_failure_once_then_recovery():
    events: queue.Queue[UiEvent] = queue.Queue()
    source = _Flaky()
    with CameraWorker(source, events, fps=200, max_failures=3).start() as worker:
        error = _next_event(events, "camera-error")
        assert "unplugged" in error.message
        source.healed.set()
        _next_event(events, "camera-ok")
        assert worker.frames.get(timeout=5) > 3
    kinds = []
    while not events.empty():
        kinds.append(events.get_nowait().kind)
    assert kinds.count("camera-error") == 0  # reported once, above


def test_run_job_hands_value_or_error_to_the_main_thread_queue():
    events: queue.Queue[UiEvent] = queue.Queue()
    seen = []
    run_job(events, lambda: 6 * 7, lambda v, e: seen.append((v, e))).join()
    run_job(events, lambda: 1 / 0, lambda v, e: seen.append((v, type(e)))).join()
    for _ in range(2):
        event = events.get_nowait()
        event.callback(event.value, event.error)  # what the app's Clock pump does
    assert seen == [(42, None), (None, ZeroDivisionError)]


def test_closing_the_jobs_waits_for_a_running_read_and_refuses_new_ones():
    # issue 23: a read left running into the interpreter's end aborted the process
    events: queue.Queue[UiEvent] = queue.Queue()
    jobs = BackgroundJobs(events)
    may_finish, finished = threading.Event(), []
    jobs.run(lambda: finished.append(may_finish.wait(60)), lambda v, e: None, name="read")
    closer = threading.Thread(target=jobs.close)
    closer.start()
    assert wait_until(lambda: jobs.closed)
    assert jobs.running == ["ui-read"]
    assert closer.is_alive()  # still waiting: the read cannot end before it may
    may_finish.set()
    closer.join(60)
    assert not closer.is_alive() and finished == [True] and jobs.running == []
    assert jobs.run(lambda: 1, lambda v, e: None) is None  # the app is ending
    assert events.get_nowait().name == "read" and events.empty()


class _Cfg:
    class gpio:  # noqa: N801 - a stand-in for the config section
        light_bar_pins = (5, 6, 13, 19)


def test_device_hub_without_hardware_reports_a_banner_off_the_demo(monkeypatch):
    import ui.devices as devices

    def broken(cfg, *, demo):
        raise RuntimeError("no pins here")

    monkeypatch.setattr(devices, "_open_backend", broken)
    events: queue.Queue[UiEvent] = queue.Queue()
    hub = devices.DeviceHub(_Cfg(), events, demo=False)
    assert events.get_nowait().kind == "hardware-error"
    hub.press("P1")  # the on-screen panel still works
    assert events.get_nowait() == UiEvent("button", name="P1")
    quiet: queue.Queue[UiEvent] = queue.Queue()
    devices.DeviceHub(_Cfg(), quiet, demo=True)
    assert quiet.empty()  # in the demo the panel is the hardware: no banner


def test_device_hub_turns_a_failing_device_into_one_banner(monkeypatch):
    import ui.devices as devices

    class Backend:
        def render(self, snapshot, events):
            raise OSError("bus error")

    monkeypatch.setattr(devices, "_open_backend", lambda cfg, *, demo: Backend())
    events: queue.Queue[UiEvent] = queue.Queue()
    hub = devices.DeviceHub(_Cfg(), events, demo=False)

    class Snap:
        fraction = 0.5

    hub.render_timer(Snap(), [])
    hub.render_timer(Snap(), [])
    assert [events.get_nowait().kind] == ["hardware-error"] and events.empty()
    assert hub.panel.levels == [1.0, 1.0, 0.0, 0.0]


@pytest.mark.parametrize(("model", "expected"), [
    (b"Raspberry Pi 5 Model B Rev 1.0\x00", True),
    (b"Raspberry Pi 4 Model B Rev 1.4\x00", True),
    (b"Generic x86\x00", False),
    (None, False),
])
def test_platform_detection(tmp_path, model, expected):
    from ui.platform import is_raspberry_pi, wants_demo

    path = tmp_path / "model"
    if model is not None:
        path.write_bytes(model)
    assert is_raspberry_pi(model_path=path) is expected
    assert wants_demo(None, model_path=path) is (not expected)
    assert wants_demo(True, model_path=path) is True
    assert wants_demo(False, model_path=path) is False


def test_settings_overlay_round_trips_and_skips_unknown_keys(tmp_path):
    from config import Config
    from ui import services

    db = tmp_path / "journal.sqlite3"
    services.save_settings(db, {"timer": {"duration_s": 45}, "gpio": {"player_button_pins":
                                                                       [17, 27]},
                                "old": {"x": 1}, "app": {"no_such_key": 2}})
    cfg = services.apply_settings(Config(), services.load_settings(db))
    assert cfg.timer.duration_s == 45
    assert cfg.gpio.player_button_pins == (17, 27)
    assert services.load_settings(tmp_path / "elsewhere" / "journal.sqlite3") == {}


def test_preview_is_made_small_on_the_camera_thread():
    import numpy as np

    from ui.app import PREVIEW_WIDTH, with_preview

    big = np.zeros((1296, 2304, 3), np.uint8)
    full, preview = with_preview(big)
    assert full is big and preview.shape == (540, PREVIEW_WIDTH, 3)
    small = np.zeros((48, 64, 3), np.uint8)
    assert with_preview(small) == (small, small)
