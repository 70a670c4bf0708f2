"""The sd_notify protocol: READY=1 after the first screen is drawn, WATCHDOG=1 at half the
watchdog interval, and nothing at all without NOTIFY_SOCKET."""

from __future__ import annotations

import os
import socket

import pytest

from ui.sdnotify import Notifier


@pytest.fixture
def notify_socket(tmp_path):
    path = tmp_path / "notify.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(path))
    server.settimeout(2.0)
    yield str(path), server
    server.close()


def test_without_socket_everything_is_a_no_op():
    notifier = Notifier(environ={})
    assert not notifier.is_enabled
    assert notifier.ready() is False
    assert notifier.watchdog_interval is None


def test_ready_and_ping_reach_the_socket(notify_socket):
    path, server = notify_socket
    notifier = Notifier(environ={"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "20000000"})
    assert notifier.watchdog_interval == 10.0
    assert notifier.ready()
    assert server.recv(64) == b"READY=1"
    assert notifier.ping()
    assert server.recv(64) == b"WATCHDOG=1"


def test_watchdog_for_another_process_is_ignored(notify_socket):
    path, _server = notify_socket
    env = {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"}
    assert Notifier(environ=env).watchdog_interval is None
    env["WATCHDOG_PID"] = str(os.getpid())
    assert Notifier(environ=env).watchdog_interval == 10.0


def test_a_dead_socket_does_not_raise(tmp_path):
    notifier = Notifier(environ={"NOTIFY_SOCKET": str(tmp_path / "gone.sock")})
    assert notifier.ready() is False


@pytest.mark.ui
def test_app_sends_ready_after_first_frame_then_pings(notify_socket, make_driver, monkeypatch):
    path, server = notify_socket
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "200000")  # pings every 0.1 s
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    driver = make_driver()
    received = []
    server.settimeout(0.05)

    def drain():
        try:
            while True:
                received.append(server.recv(64))
        except (TimeoutError, BlockingIOError):
            pass
        return received

    assert driver.wait_for(lambda: b"READY=1" in drain())
    assert driver.wait_for(lambda: drain().count(b"WATCHDOG=1") >= 2, frames=200)
    assert received.index(b"READY=1") < received.index(b"WATCHDOG=1")
