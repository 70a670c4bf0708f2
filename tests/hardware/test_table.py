"""The table hardware rendering the sand timer: pin histories of a whole countdown on a
manual clock, a short real-time check, solver presses, and the fallback to the virtual panel."""

from __future__ import annotations

import queue
import time
from dataclasses import dataclass, replace
from typing import Any

import pytest
from gpiozero import LED
from gpiozero.tones import Tone

from companion.timer import (
    ManualClock,
    SandTimer,
    SolverAccepted,
    SolverRejected,
    Started,
    TimerEvent,
    TimerPhase,
    TimerSettings,
)
from config.schema import GpioConfig
from hardware.buttons import ButtonPanel, ButtonPressed
from hardware.buzzer import MELODIES, Buzzer, Melody, Note
from hardware.errors import HardwareUnavailableError, PinFactoryError
from hardware.light_bar import LEDLightBar, StripLightBar
from hardware.pins import make_pin_factory
from hardware.table import (
    HardwareLoop,
    TableHardware,
    apply_press,
    build_table_hardware,
    open_table_devices,
    open_table_hardware,
    sound_for,
)

STEP = 1 / 128  # exact in binary, so the clock lands on whole seconds exactly


def note_of(frequency: float | None) -> str | None:
    return None if frequency is None else Tone.from_frequency(frequency).note


def expected_notes(starts: list[tuple[float, str]]) -> list[tuple[float, str | None]]:
    """The buzzer's note changes for melodies started at the given times (from the data)."""
    changes: list[tuple[float, str | None]] = []
    for begin, name in starts:
        at = begin
        for note in MELODIES[name].notes:
            changes.append((at, note.tone))
            at += note.seconds
        changes.append((at, None))
    merged: list[tuple[float, str | None]] = []
    for at, tone in changes:
        if merged and merged[-1][1] == tone:
            continue
        merged.append((at, tone))
    return merged


@dataclass
class Countdown:
    """What one scripted 30 s countdown did, pin by pin."""

    started: list[TimerEvent]
    outcomes: list[TimerEvent]
    #: (time, the LEDs' values, the buzzer's note) at every step of the clock
    samples: list[tuple[float, tuple[float, ...], str | None]]
    #: the mock pin's own history of the last LED
    last_led_history: list[float]
    duty: Any


def play_scripted_countdown(factory: Any) -> Countdown:
    clock = ManualClock(0.0)
    timer = SandTimer(TimerSettings(), clock=clock)
    started: list[TimerEvent] = []
    timer.add_listener(lambda e: started.append(e) if isinstance(e, Started) else None)
    events: queue.Queue[ButtonPressed] = queue.Queue()
    hw = build_table_hardware(GpioConfig(), events=events, pin_factory=factory, clock=clock)
    timer.add_listener(hw.notify)
    players = ["Ana", "Ben", "Cleo", "Dan"]
    led_pins = [led.pin for led in hw.light_bar.graph]  # type: ignore[attr-defined]
    buzzer_pin = hw.buzzer.device.pwm_device.pin
    for pin in led_pins:
        pin.clear_states()

    def pin_of(name: str) -> Any:
        return hw.buttons.button(name).pin

    # Ben presses at 1 s with contact chatter, Cleo at 5 s, Dan after the end at 33 s.
    script = {
        128: [("P2", "low")],
        129: [("P2", "high")],
        130: [("P2", "low")],
        192: [("P2", "high")],
        640: [("P3", "low")],
        660: [("P3", "high")],
        33 * 128: [("P4", "low")],
        33 * 128 + 30: [("P4", "high")],
        # Ben again mid-countdown: already counted
        1280: [("P2", "low")],
        1300: [("P2", "high")],
    }
    outcomes: list[TimerEvent] = []
    samples: list[tuple[float, tuple[float, ...], str | None]] = []
    for k in range(0, 36 * 128):
        clock.now = k * STEP
        for name, level in script.get(k, []):
            pin_of(name).drive_low() if level == "low" else pin_of(name).drive_high()
        while not events.empty():
            outcomes.extend(apply_press(timer, events.get_nowait(), players=players))
        timer.poll()
        hw.render(timer.snapshot())
        samples.append((clock.now, tuple(p.state for p in led_pins), note_of(buzzer_pin.frequency)))
    hw.close()
    duty = hw.light_bar.duty  # type: ignore[attr-defined]
    return Countdown(started, outcomes, samples, [s.state for s in led_pins[7].states], duty)


def assert_solvers(run: Countdown) -> None:
    # the first solver started the glass, exactly once; later claims are told apart
    assert len(run.started) == 1 and run.started[0] == Started(at=1.0, duration_s=30.0, by="Ben")
    assert [e for e in run.outcomes if isinstance(e, SolverAccepted)] == [
        SolverAccepted(at=1.0, player="Ben", order=1, started_timer=True),
        SolverAccepted(at=5.0, player="Cleo", order=2, started_timer=False),
    ]
    rejected = [e for e in run.outcomes if isinstance(e, SolverRejected)]
    assert [(e.player, e.at, e.reason) for e in rejected] == [
        ("Ben", 10.0, "Ben already solved"),
        ("Dan", 33.0, "the sand has run out"),
    ]


def assert_light_bar(run: Countdown) -> None:
    # light bar: dark before the start, each LED full, then dimming alone through its
    # 3.75 s share (gamma 2.2), then dark; flashes 4 Hz for 3 s at the end, then dark
    for at, leds, _ in run.samples:
        if at < 1.0:
            assert leds == (0.0,) * 8
        elif at < 31.0:
            left = (31.0 - at) / 30.0
            for index, value in enumerate(leds):
                drains_from = 31.0 - 30.0 * (index + 1) / 8
                drains_to = 31.0 - 30.0 * index / 8
                if at < drains_from:
                    assert value == 1.0, (at, index)
                elif at >= drains_to:
                    assert value == 0.0, (at, index)
                else:
                    draining = run.duty(8 * left - index)
                    assert value == pytest.approx(draining, abs=0.002), (at, index)
    halfway = {at: leds for at, leds, _ in run.samples}[31.0 - 30.0 * 7.5 / 8]
    assert halfway[7] == pytest.approx(0.5**2.2, abs=0.002)
    end = [leds for at, leds, _ in run.samples if 31.0 <= at < 34.0]
    lit = [leds == (1.0,) * 8 for leds in end]
    assert all(leds in ((1.0,) * 8, (0.0,) * 8) for leds in end)
    assert lit[0] and sum(1 for a, b in zip(lit, lit[1:], strict=False) if a != b) == 23
    assert all(leds == (0.0,) * 8 for at, leds, _ in run.samples if at >= 34.0)
    # the mock pin's own history of the last LED: 0, then full, a monotonic fade, 12 flashes
    history = run.last_led_history
    fade = history[2 : history.index(0.0, 1) + 1]
    assert history[:2] == [0.0, 1.0] and fade == sorted(fade, reverse=True) and len(fade) > 50
    assert history.count(1.0) == 1 + 12


def assert_buzzer(run: Countdown) -> None:
    # buzzer: start chirp at 1 s, "solved" for Cleo at 5 s, Ben's repeat refused at 10 s,
    # warnings at 10 and 5 s left (each covering that second's tick), ticks in the other of
    # the last ten seconds, the alarm at 31 s, Dan's refused late press at 33 s
    starts = [(1.0, "start"), (5.0, "solved"), (10.0, "rejected"), (21.0, "warning")]
    starts += [(float(t), "tick") for t in range(22, 26)] + [(26.0, "warning")]
    starts += [(float(t), "tick") for t in range(27, 31)] + [(31.0, "alarm"), (33.0, "rejected")]
    changes = []
    for at, _, note in run.samples:
        if not changes or changes[-1][1] != note:
            changes.append((at, note))
    expected = [(0.0, None)] + expected_notes(starts)
    assert [note for _, note in changes] == [note for _, note in expected]
    for (at, note), (want_at, _) in zip(changes, expected, strict=True):
        assert abs(at - want_at) <= STEP, (note, at, want_at)


def test_a_whole_30_s_countdown_pin_by_pin(factory: Any) -> None:
    run = play_scripted_countdown(factory)
    assert_solvers(run)
    assert_light_bar(run)
    assert_buzzer(run)


def test_a_short_real_time_countdown_with_assert_states_and_times(factory: Any) -> None:
    """Real time, about 1.2 s: the buzzer pin's history checked with gpiozero's tolerance."""
    melodies = {name: Melody(name, (Note("A4", 0.05),), 0) for name in MELODIES}
    melodies["start"] = Melody("start", (Note("E5", 0.2),), 2)
    melodies["alarm"] = Melody("alarm", (Note("A5", 0.3),), 3)
    hw = TableHardware(
        light_bar=LEDLightBar((5, 6), pin_factory=factory),
        buzzer=Buzzer(18, melodies=melodies, pin_factory=factory),
        buttons=ButtonPanel(pin_factory=factory),
        pin_factory=factory,
    )
    timer = SandTimer(TimerSettings(duration_s=0.8, warnings_s=(), tick_from_s=0))
    pin = hw.buzzer.device.pwm_device.pin
    with hw, HardwareLoop(timer, hw, period_s=0.005):
        pin.clear_states()
        timer.start()
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline and len(pin.states) < 5:
            time.sleep(0.01)
    expected = [(0.0, 0.0), (0.0, 0.5), (0.2, 0.0), (0.6, 0.5), (0.3, 0.0)]
    assert len(pin.states) == len(expected)
    pin.assert_states_and_times(expected)


def test_hardware_loop_stops_cleanly_and_keeps_a_device_error(factory: Any) -> None:
    clock = ManualClock()
    timer = SandTimer(TimerSettings(duration_s=5.0), clock=clock)
    hw = build_table_hardware(None, pin_factory=factory, clock=clock)
    loop = HardwareLoop(timer, hw, period_s=0.002).start()
    timer.start()
    deadline = time.monotonic() + 1.0
    while hw.panel_state().phase != "running" and time.monotonic() < deadline:
        time.sleep(0.005)
    assert hw.panel_state().levels == (1.0,) * 8
    hw.light_bar.close()  # a device dies under the loop
    clock.now = 1.0  # the bar must change, so the loop writes to the dead device
    deadline = time.monotonic() + 1.0
    while loop.is_running and time.monotonic() < deadline:
        time.sleep(0.005)
    assert not loop.is_running and loop.error is not None
    loop.close()
    hw.close()
    assert hw.closed and timer.phase is TimerPhase.RUNNING


def test_panel_state_is_plain_data_for_the_virtual_panel(factory: Any) -> None:
    clock = ManualClock()
    with build_table_hardware(GpioConfig(), pin_factory=factory, clock=clock) as hw:
        timer = SandTimer(TimerSettings(duration_s=8.0), clock=clock)
        timer.add_listener(hw.notify)
        timer.start()
        clock.now = 3.0
        hw.render(timer.snapshot())
        hw.buttons.button("P1").pin.drive_low()
        panel = hw.panel_state()
        assert panel.levels == (1.0,) * 5 + (0.0,) * 3
        assert panel.colours is None and panel.phase == "running" and panel.is_virtual
        assert panel.pressed == frozenset({"P1"})
        assert [(b.name, b.pin) for b in panel.buttons][:2] == [("P1", 17), ("P2", 27)]
        assert hw.snapshot() == panel  # the name ui/devices.py looks for
        hw.buttons.button("P1").pin.drive_high()


def test_virtual_press_goes_through_the_pins_and_the_debouncer(factory: Any) -> None:
    clock = ManualClock(1.0)
    heard: list[str] = []
    with build_table_hardware(None, pin_factory=factory, clock=clock) as hw:
        hw.when_button(heard.append)
        hw.press("confirm")
        hw.press("confirm")  # same instant: chatter
        clock.now = 2.0
        hw.press("undo")
        assert heard == ["confirm", "undo"]
        assert [hw.events.get_nowait().button for _ in range(2)] == ["confirm", "undo"]


def test_strip_backend_chosen_by_config_with_an_injected_driver(factory: Any) -> None:
    class Driver:
        def __init__(self) -> None:
            self.frames: list[Any] = []
            self.closed = False

        def write(self, pixels: Any) -> None:
            self.frames.append(tuple(pixels))

        def close(self) -> None:
            self.closed = True

    driver = Driver()
    cfg = replace(GpioConfig(), light_bar="ws2812", strip_leds=12)
    clock = ManualClock()
    hw = build_table_hardware(cfg, pin_factory=factory, clock=clock, strip_driver=driver)
    assert isinstance(hw.light_bar, StripLightBar) and hw.light_bar.count == 12
    timer = SandTimer(TimerSettings(duration_s=10.0), clock=clock)
    timer.start()
    clock.now = 5.0
    hw.render(timer.snapshot())
    panel = hw.panel_state()
    assert panel.levels == (1.0,) * 6 + (0.0,) * 6
    assert panel.colours is not None and panel.colours[0] == (76, 76, 0)  # yellow at 0.3
    hw.close()
    assert driver.closed
    # on mock pins without an injected driver, a virtual strip stands in
    with build_table_hardware(cfg, pin_factory=factory) as virtual:
        assert type(virtual.light_bar.driver).__name__ == "VirtualPixelDriver"  # type: ignore[attr-defined]


def test_a_busy_pin_falls_back_to_the_virtual_panel_with_a_message(factory: Any) -> None:
    squatter = LED(18, pin_factory=factory)  # something else holds the buzzer's pin
    hw, warning = open_table_hardware(GpioConfig(), pin_factory=factory)
    with hw:
        assert warning is not None
        assert "buzzer on GPIO 18" in warning and "GPIOPinInUse" in warning
        assert "virtual panel" in warning
        assert hw.is_virtual and hw.pin_factory is not factory and hw.warning == warning
    # the light bar opened before the buzzer failed was closed again: its pins are free
    LEDLightBar(GpioConfig().light_bar_pins, pin_factory=factory).close()
    with pytest.raises(HardwareUnavailableError, match="GPIO 18"):
        build_table_hardware(GpioConfig(), pin_factory=factory)
    squatter.close()
    with build_table_hardware(GpioConfig(), pin_factory=factory) as real:
        assert real.warning is None


def test_a_missing_pin_factory_falls_back_with_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    import sys

    monkeypatch.setitem(sys.modules, "lgpio", None)
    monkeypatch.setitem(sys.modules, "RPi", None)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", None)
    with pytest.raises(
        PinFactoryError, match=r"no GPIO pin factory could be loaded \(lgpio: .*rpigpio: "
    ):
        make_pin_factory("auto")
    hw, warning = open_table_hardware(replace(GpioConfig(), pin_factory="lgpio"))
    with hw:
        assert warning is not None and warning.startswith("the lgpio pin factory cannot be loaded")
        assert hw.is_virtual
    hw, warning = open_table_hardware(GpioConfig())
    with hw:
        assert warning is not None and "no GPIO pin factory" in warning
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "nosuchfactory")
    with pytest.raises(PinFactoryError, match="'nosuchfactory'"):
        make_pin_factory("auto")


def test_mock_from_the_environment_means_pwm_capable_pins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    hw, warning = open_table_hardware(GpioConfig())
    with hw:
        assert warning is None and hw.is_virtual
    with open_table_devices(type("Cfg", (), {"gpio": GpioConfig()})(), demo=True) as demo:
        assert demo.is_virtual


@dataclass
class Press:
    seat: int | None


def test_apply_press_maps_seats_to_players() -> None:
    clock = ManualClock()
    timer = SandTimer(TimerSettings(), clock=clock)
    assert apply_press(timer, ButtonPressed("confirm", 0.0)) == []
    assert apply_press(timer, ButtonPressed("P4", 0.0, 3), players=["Ana", "Ben"]) == []
    events = apply_press(timer, ButtonPressed("P2", 0.0, 1), players=["Ana", "Ben"])
    assert [type(e).__name__ for e in events] == ["Started", "SolverAccepted"]
    assert apply_press(timer, ButtonPressed("P1", 0.0, 0))[-1] == SolverAccepted(
        at=0.0, player="P1", order=2, started_timer=False
    )


def test_sounds_for_events() -> None:
    assert sound_for(Started(at=0.0, duration_s=30.0, by=None)) == "start"
    assert sound_for(SolverAccepted(at=0.0, player="a", order=1, started_timer=True)) is None
    assert sound_for(SolverAccepted(at=0.0, player="a", order=2, started_timer=False)) == "solved"
    assert sound_for(SolverRejected(at=0.0, player="a", reason="x")) == "rejected"


def test_a_strip_that_fails_on_the_bus_falls_back(factory: Any) -> None:
    class BrokenDriver:
        closed = False

        def write(self, pixels: Any) -> None:
            raise OSError(5, "Input/output error")

        def close(self) -> None:
            self.closed = True

    cfg = replace(GpioConfig(), light_bar="ws2812")
    hw, warning = open_table_hardware(cfg, pin_factory=factory, strip_driver=BrokenDriver())
    with hw:
        assert warning is not None and "WS2812 strip on SPI bus 0" in warning
        assert "Input/output error" in warning and hw.is_virtual
