"""FreshFrames hands a read only a frame whose capture began after the read was asked for."""

from __future__ import annotations

from ui.fresh_frames import FreshFrames


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_a_frame_begun_before_the_tap_is_not_handed_one_begun_after_is():
    clock = Clock()
    frames = FreshFrames(clock)
    got = []
    frames.wait(got.append, timeout_s=5)
    frames.offer("old", taken=99.9)
    frames.offer("unknown", taken=None)
    assert got == [] and frames.waiting == 1
    frames.offer("new", taken=100.0)
    frames.offer("newer", taken=100.2)
    assert got == ["new"] and frames.waiting == 0


def test_a_read_gets_none_when_no_frame_comes_in_time_or_the_camera_rests():
    clock = Clock()
    frames = FreshFrames(clock)
    got = []
    frames.wait(got.append, timeout_s=5)
    clock.now = 104.9
    frames.expire()
    assert got == []
    clock.now = 105.0
    frames.expire()
    assert got == [None]
    frames.wait(got.append)
    frames.give_up()
    assert got == [None, None] and frames.waiting == 0
