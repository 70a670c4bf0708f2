"""``companion hardware test`` on mock pins driven by the test."""

from __future__ import annotations

import io
from typing import Any

import pytest

from companion.timer import ManualClock
from config.schema import GpioConfig
from hardware.table import build_table_hardware
from hardware.wiring_check import run_wiring_check
from ui.cli import main


def fake_time() -> tuple[ManualClock, Any]:
    clock = ManualClock()
    return clock, clock.advance


def test_every_led_sound_and_button_is_checked(factory: Any) -> None:
    clock, sleep = fake_time()
    out = io.StringIO()
    with build_table_hardware(GpioConfig(), pin_factory=factory, clock=clock) as hw:
        led_pins = [led.pin for led in hw.light_bar.graph]  # type: ignore[attr-defined]
        buzzer_pin = hw.buzzer.device.pwm_device.pin
        for pin in [*led_pins, buzzer_pin]:
            pin.clear_states()
        asked: list[str] = []

        def press(name: str) -> None:
            asked.append(name)
            pin = hw.buttons.button(name).pin
            if name == "P3":  # a swapped wire: P4 answers first, then P3
                other = hw.buttons.button("P4").pin
                other.drive_low()
                clock.advance(0.2)
                other.drive_high()
                clock.advance(0.2)
            if name != "undo":  # nobody presses undo: it times out
                pin.drive_low()
                clock.advance(0.1)
                pin.drive_high()

        report = run_wiring_check(
            hw, out=out, timeout_s=2.0, step_s=0.5, on_prompt=press, clock=clock, sleep=sleep
        )
    text = out.getvalue()
    assert report.leds == 8 and all(
        [s.state for s in p.states] == [0.0, 1.0, 0.0] for p in led_pins
    )
    assert "LED 8 on GPIO 21" in text
    assert report.sounds == ["start", "tick", "warning", "alarm", "solved", "rejected"]
    assert sum(1 for s in buzzer_pin.states if s.state == 0.5) >= 6  # each sound made noise
    assert asked == ["P1", "P2", "P3", "P4", "confirm", "undo"]
    assert report.buttons_ok == ["P1", "P2", "P3", "P4", "confirm"]
    assert report.buttons_missing == ["undo"] and not report.ok
    assert report.wrong_presses == [("P3", "P4")]
    assert "wires swapped" in text and "NO PRESS: check the wire from GPIO 25" in text


def test_cli_self_test_on_mock_pins(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["hardware", "test", "--mock", "--auto-press", "--step", "0", "--timeout", "2"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "6/6 buttons answered" in out and "pin factory: mock" in out


def test_cli_without_presses_fails_and_names_the_pins(capsys: pytest.CaptureFixture[str]) -> None:
    config = "[gpio]\nplayer_button_pins = [17]\n"
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.toml"
        path.write_text(config, encoding="utf-8")
        code = main(
            [
                "hardware",
                "test",
                "--mock",
                "--config",
                str(path),
                "--step",
                "0",
                "--timeout",
                "0.05",
                "--skip",
                "sounds",
            ]
        )
    out = capsys.readouterr().out
    assert code == 1
    assert "0/3 buttons answered" in out and "GPIO 17" in out
    assert "0 sounds played" in out and "8 LEDs lit" in out
    assert "0 sounds played" in out and "8 LEDs lit" in out


def test_cli_refuses_auto_press_on_real_pins(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "test", "--auto-press"]) == 1
    assert "--auto-press needs --mock" in capsys.readouterr().err


def test_cli_without_a_pin_factory_is_one_line_pointing_to_mock(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import hardware.table
    from hardware.errors import PinFactoryError

    def no_factory(*args: object, **kwargs: object) -> None:
        raise PinFactoryError("no GPIO pin factory could be loaded (lgpio: not installed)")

    monkeypatch.setattr(hardware.table, "build_table_hardware", no_factory)
    assert main(["hardware", "test"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "no GPIO pin factory" in err and "--mock" in err
