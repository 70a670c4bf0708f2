"""Closing the devices leaves nothing sounding or lit, frees every pin even when a part fails,
and a second close does nothing: the app closes them however it ends (tests/ui/test_app_ending.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from hardware.buttons import ButtonPanel
from hardware.buzzer import Buzzer
from hardware.errors import HardwareError
from hardware.light_bar import BarFrame, LEDLightBar
from hardware.table import build_table_hardware

BAR_PINS = (5, 6, 13)


def _broken(*args: Any) -> None:
    raise OSError("the pin driver refused")


def test_a_buzzer_closes_silent_and_a_second_close_does_nothing(factory: Any) -> None:
    buzzer = Buzzer(18, pin_factory=factory)
    buzzer.play("alarm", 0.0)
    assert buzzer.note is not None and factory.pin(18).state > 0
    buzzer.close()
    assert buzzer.closed and buzzer.note is None and buzzer.melody is None
    assert factory.pin(18).state == 0
    buzzer.close()
    assert buzzer.closed


def test_a_buzzer_that_cannot_be_silenced_still_frees_its_pin(
        factory: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    buzzer = Buzzer(18, pin_factory=factory)
    buzzer.play("alarm", 0.0)
    monkeypatch.setattr(buzzer.device, "stop", _broken)
    with pytest.raises(OSError, match="refused"):
        buzzer.close()
    assert buzzer.closed
    Buzzer(18, pin_factory=factory).close()  # the pin is free again


def test_a_light_bar_closes_dark_and_a_second_close_does_nothing(factory: Any) -> None:
    bar = LEDLightBar(BAR_PINS, pin_factory=factory)
    bar.show(BarFrame((1.0, 1.0, 0.5)))
    bar.close()
    assert bar.closed and bar.levels == (0.0, 0.0, 0.0)
    assert {factory.pin(pin).state for pin in BAR_PINS} == {0}
    bar.close()
    assert bar.closed


def test_a_light_bar_that_cannot_be_darkened_still_frees_its_pins(
        factory: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    bar = LEDLightBar(BAR_PINS, pin_factory=factory)
    bar.show(BarFrame((1.0, 1.0, 1.0)))
    monkeypatch.setattr(bar.graph, "off", _broken)
    with pytest.raises(OSError, match="refused"):
        bar.close()
    assert bar.closed
    LEDLightBar(BAR_PINS, pin_factory=factory).close()  # the pins are free again


def test_one_button_that_fails_to_close_does_not_keep_the_others_open(
        factory: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    buttons = ButtonPanel(player_pins=(17, 27), confirm_pin=24, undo_pin=25,
                          pin_factory=factory)
    tries: list[str] = []

    def refuses() -> None:
        tries.append("P1")
        _broken()

    monkeypatch.setattr(buttons.button("P1"), "close", refuses)
    with pytest.raises(HardwareError, match="closing the buttons failed"):
        buttons.close()
    assert buttons.closed
    assert [buttons.button(name).closed for name in ("P2", "confirm", "undo")] == [True] * 3
    buttons.close()  # a second close does nothing
    assert tries == ["P1"]


def test_the_table_closes_every_device_once_even_when_one_fails(
        factory: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    hardware = build_table_hardware(None, pin_factory=factory)
    hardware.buzzer.play("alarm", 0.0)
    hardware.light_bar.show(BarFrame((1.0,) * hardware.light_bar.count))
    # the buttons are closed first: the buzzer and the bar come after them
    monkeypatch.setattr(hardware.buttons, "close", _broken)
    with pytest.raises(HardwareError, match="closing the table hardware failed"):
        hardware.close()
    assert hardware.closed and hardware.buzzer.closed and hardware.light_bar.closed
    assert hardware.buzzer.note is None and set(hardware.light_bar.levels) == {0.0}
    hardware.close()  # a second close does nothing (and raises nothing)
