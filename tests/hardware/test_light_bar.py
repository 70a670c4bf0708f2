"""The light bar: its pure frames, the LED bar graph and the WS2812 strip (fake driver)."""

from __future__ import annotations

import doctest
import sys
from collections.abc import Sequence

import pytest
from gpiozero.exc import GPIOPinInUse
from hypothesis import given
from hypothesis import strategies as st

import hardware.light_bar as light_bar_module
from companion.timer import ManualClock, SandTimer, TimerPhase, TimerSettings, TimerSnapshot
from hardware.errors import HardwareSettingError, StripDriverError
from hardware.light_bar import (
    GREEN,
    RED,
    BarFrame,
    LEDLightBar,
    StripLightBar,
    bar_frame,
    bar_levels,
    ramp_colour,
)
from hardware.strip_drivers import open_strip_driver

PINS = (5, 6, 13, 19, 26, 16, 20, 21)


def snap(
    phase: TimerPhase, fraction: float, *, now: float = 0.0, ended_at: float | None = None
) -> TimerSnapshot:
    return TimerSnapshot(
        phase=phase,
        now=now,
        remaining_s=30.0 * fraction,
        total_s=30.0,
        fraction=fraction,
        started_at=0.0,
        ended_at=ended_at,
        started_by=None,
    )


def test_doctests() -> None:
    assert doctest.testmod(light_bar_module).failed == 0


@given(fraction=st.floats(min_value=0.0, max_value=1.0), count=st.integers(1, 40))
def test_bar_levels_hold_the_fraction_as_a_draining_bar(fraction: float, count: int) -> None:
    levels = bar_levels(fraction, count)
    assert len(levels) == count
    assert sum(levels) == pytest.approx(fraction * count, abs=1e-4)
    assert list(levels) == sorted(levels, reverse=True)  # full first, dark last
    assert sum(1 for level in levels if 0.0 < level < 1.0) <= 1  # one smooth last LED


@pytest.mark.parametrize(
    ("fraction", "expected"),
    [
        (1.0, (0, 255, 0)),
        (0.75, (128, 255, 0)),
        (0.5, (255, 255, 0)),
        (0.25, (255, 128, 0)),
        (0.0, (255, 0, 0)),
    ],
)
def test_ramp_goes_green_to_red(fraction: float, expected: tuple[int, int, int]) -> None:
    assert ramp_colour(fraction) == expected


def test_frames_per_phase() -> None:
    assert bar_frame(snap(TimerPhase.IDLE, 1.0), 4).levels == (0.0,) * 4
    assert bar_frame(snap(TimerPhase.CANCELLED, 0.0), 4).levels == (0.0,) * 4
    running = bar_frame(snap(TimerPhase.RUNNING, 0.625), 4)
    assert running.levels == (1.0, 1.0, 0.5, 0.0)
    paused = bar_frame(snap(TimerPhase.PAUSED, 0.625), 4)
    assert paused.levels[0] < 1.0 and paused.levels[3] == 0.0 and paused.colour == running.colour
    # expired: red flashes, 4 Hz for 3 s, then dark
    expired = [
        bar_frame(snap(TimerPhase.EXPIRED, 0.0, now=10.0 + dt, ended_at=10.0), 2)
        for dt in (0.0, 0.13, 0.26, 3.1)
    ]
    assert [f.levels for f in expired] == [(1.0, 1.0), (0.0, 0.0), (1.0, 1.0), (0.0, 0.0)]
    assert expired[0].colour == RED


def test_led_bar_writes_gamma_corrected_duty_and_only_changes(factory: object) -> None:
    with LEDLightBar(PINS[:4], gamma=2.0, pin_factory=factory) as bar:
        pins = [led.pin for led in bar.graph]
        for pin in pins:
            pin.clear_states()
        bar.show(BarFrame((1.0, 0.5, 0.0, 0.0)))
        bar.show(BarFrame((1.0, 0.5, 0.0, 0.0)))  # same frame: no writes
        assert [pin.state for pin in pins] == [1.0, 0.25, 0.0, 0.0]
        assert [len(pin.states) for pin in pins] == [2, 2, 1, 1]
        assert bar.levels == (1.0, 0.5, 0.0, 0.0) and bar.colours is None
        with pytest.raises(HardwareSettingError, match="3 levels for a bar of 4"):
            bar.show(BarFrame((1.0, 1.0, 1.0)))


def test_led_bar_close_frees_its_pins(factory: object) -> None:
    bar = LEDLightBar(PINS, pin_factory=factory)
    with pytest.raises(GPIOPinInUse):
        LEDLightBar(PINS[2:3], pin_factory=factory)
    bar.close()
    assert bar.closed
    with LEDLightBar(PINS, pin_factory=factory) as again:
        assert again.count == 8


def test_led_bar_needs_pins(factory: object) -> None:
    with pytest.raises(HardwareSettingError, match="at least one pin"):
        LEDLightBar((), pin_factory=factory)


class FakeDriver:
    """Stands in for Pi5Neo / rpi_ws281x: records every frame written."""

    def __init__(self) -> None:
        self.frames: list[tuple[tuple[int, int, int], ...]] = []
        self.closed = False

    def write(self, pixels: Sequence[tuple[int, int, int]]) -> None:
        assert not self.closed
        self.frames.append(tuple(pixels))

    def close(self) -> None:
        self.closed = True


def test_strip_ramps_green_to_red_and_flashes_at_the_end() -> None:
    driver = FakeDriver()
    clock = ManualClock()
    timer = SandTimer(TimerSettings(duration_s=10.0), clock=clock)
    with StripLightBar(10, driver=driver, brightness=1.0) as strip:
        assert driver.frames == [((0, 0, 0),) * 10]  # dark on open
        timer.start()
        seen = []
        for step in range(0, 1400):
            clock.now = step / 100
            timer.poll()
            strip.show(bar_frame(timer.snapshot(), strip.count))
            seen.append((clock.now, strip.colours))
        first_pixel = [pixels[0] for t, pixels in seen if t < 9.0]  # pixel 0 full until 9 s
        assert first_pixel[0] == GREEN
        reds = [p[0] for p in first_pixel]
        greens = [p[1] for p in first_pixel]
        assert reds == sorted(reds) and greens == sorted(greens, reverse=True)
        assert first_pixel[-1][0] == 255 and first_pixel[-1][1] < 60  # nearly red
        # the last lit pixel dims smoothly: halfway through pixel 9's share it is half bright
        at_half = dict(seen)[0.5]
        assert at_half[9][1] == pytest.approx(255 * 0.5, abs=3)
        # flashing red 4 Hz for 3 s after the end, then dark
        flashing = [pixels for t, pixels in seen if 10.0 <= t < 13.0]
        on = [pixels == (RED,) * 10 for pixels in flashing]
        toggles = sum(1 for a, b in zip(on, on[1:], strict=False) if a != b)
        assert on[0] and toggles == 23
        assert all(pixels == ((0, 0, 0),) * 10 for t, pixels in seen if t >= 13.0)
    assert driver.closed and driver.frames[-1] == ((0, 0, 0),) * 10


def test_strip_scales_by_brightness_and_skips_unchanged_frames() -> None:
    driver = FakeDriver()
    strip = StripLightBar(3, driver=driver, brightness=0.2)
    strip.show(BarFrame((1.0, 0.5, 0.0), GREEN))
    strip.show(BarFrame((1.0, 0.5, 0.0), GREEN))
    assert driver.frames[1:] == [((0, 51, 0), (0, 26, 0), (0, 0, 0))]
    strip.close()
    strip.close()  # twice is fine
    with pytest.raises(HardwareSettingError, match="brightness"):
        StripLightBar(3, driver=FakeDriver(), brightness=1.5)


def test_strip_drivers_are_lazy_and_say_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("pi5neo", "rpi_ws281x", "neopixel", "board"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails like off a Pi
    with pytest.raises(StripDriverError, match="pip install pi5neo"):
        open_strip_driver(30, model="Raspberry Pi 5 Model B Rev 1.0")
    with pytest.raises(StripDriverError, match="rpi_ws281x"):
        open_strip_driver(30, model="Raspberry Pi 4 Model B Rev 1.4")
    assert "pi5neo" not in {m for m in sys.modules if sys.modules[m] is not None}


def test_pins_without_pwm_get_a_hint_not_a_bare_gpiozero_error() -> None:
    from gpiozero.pins.mock import MockFactory, MockPin

    from hardware.errors import HardwareUnavailableError

    with pytest.raises(HardwareUnavailableError, match="no PWM.*mockpwmpin"):
        LEDLightBar(PINS, pin_factory=MockFactory(pin_class=MockPin))
