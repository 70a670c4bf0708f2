"""Debouncing is app logic (mock pins do not debounce): tested here with bouncing pins."""

from __future__ import annotations

import doctest
import queue

import pytest
from gpiozero.exc import GPIOPinInUse

import hardware.buttons as buttons_module
from companion.timer import ManualClock
from hardware.buttons import ButtonPanel, ButtonPressed, Debouncer, seat_of
from hardware.errors import HardwareSettingError


def test_doctests() -> None:
    assert doctest.testmod(buttons_module).failed == 0


@pytest.mark.parametrize(
    ("edges", "accepted"),
    [
        # a clean press and release
        ([(0.0, True), (0.3, False)], [True, False]),
        # contact chatter on the press: one press
        (
            [(0.0, True), (0.001, False), (0.003, True), (0.006, False), (0.009, True)],
            [True, False, False, False, False],
        ),
        # chatter on the release does not make a second press
        ([(0.0, True), (0.4, False), (0.402, True), (0.404, False)], [True, False, False, False]),
        # two real presses 200 ms apart both count
        ([(0.0, True), (0.1, False), (0.3, True), (0.4, False)], [True, False, True, False]),
        # a second press 30 ms after a release is chatter, not a press
        ([(0.0, True), (0.1, False), (0.13, True)], [True, False, False]),
        # the edge that counts is the first after 50 ms of quiet
        ([(0.0, True), (0.1, False), (0.15, True)], [True, False, True]),
    ],
)
def test_debouncer(edges: list[tuple[float, bool]], accepted: list[bool]) -> None:
    debouncer = Debouncer(0.05)
    assert [debouncer.edge(at, pressed) for at, pressed in edges] == accepted


def test_zero_window_accepts_every_press_and_negative_is_refused() -> None:
    debouncer = Debouncer(0.0)
    assert [debouncer.edge(t, True) for t in (0.0, 0.0, 0.001)] == [True, True, True]
    with pytest.raises(HardwareSettingError, match="-0.1"):
        Debouncer(-0.1)


def panel(factory: object, clock: ManualClock, events: queue.Queue[ButtonPressed]) -> ButtonPanel:
    return ButtonPanel(
        player_pins=(17, 27, 22, 23),
        confirm_pin=24,
        undo_pin=25,
        events=events,
        debounce_s=0.05,
        clock=clock,
        pin_factory=factory,
    )


def drain(events: queue.Queue[ButtonPressed]) -> list[ButtonPressed]:
    out = []
    while not events.empty():
        out.append(events.get_nowait())
    return out


def test_bouncing_mock_pins_give_one_event_per_press(factory: object) -> None:
    clock = ManualClock()
    events: queue.Queue[ButtonPressed] = queue.Queue()
    with panel(factory, clock, events) as buttons:
        assert buttons.names == ("P1", "P2", "P3", "P4", "confirm", "undo")
        pin = buttons.button("P2").pin
        # press with chatter, hold, release with chatter: gpiozero sees every edge
        for at, low in [(1.0, True), (1.001, False), (1.002, True), (1.004, False), (1.006, True)]:
            clock.now = at
            pin.drive_low() if low else pin.drive_high()
        assert buttons.states()["P2"] is True
        for at, low in [(1.5, False), (1.502, True), (1.503, False)]:
            clock.now = at
            pin.drive_low() if low else pin.drive_high()
        # a second real press
        clock.now = 2.0
        pin.drive_low()
        clock.now = 2.2
        pin.drive_high()
        # and the confirm button
        confirm = buttons.button("confirm").pin
        clock.now = 3.0
        confirm.drive_low()
        confirm.drive_high()
        assert drain(events) == [
            ButtonPressed("P2", 1.0, 1),
            ButtonPressed("P2", 2.0, 1),
            ButtonPressed("confirm", 3.0, None),
        ]


def test_buttons_are_debounced_each_on_its_own(factory: object) -> None:
    clock = ManualClock(5.0)
    events: queue.Queue[ButtonPressed] = queue.Queue()
    with panel(factory, clock, events) as buttons:
        buttons.button("P1").pin.drive_low()
        buttons.button("P4").pin.drive_low()  # same instant, another button: both count
        assert [(p.button, p.seat) for p in drain(events)] == [("P1", 0), ("P4", 3)]
        buttons.button("P1").pin.drive_high()  # a held button makes close() wait for hold_time
        buttons.button("P4").pin.drive_high()


def test_screen_presses_and_listeners(factory: object) -> None:
    clock = ManualClock(7.0)
    events: queue.Queue[ButtonPressed] = queue.Queue()
    heard: list[str] = []
    with panel(factory, clock, events) as buttons:
        buttons.add_listener(lambda press: heard.append(press.button))
        buttons.press("undo")
        assert drain(events) == [ButtonPressed("undo", 7.0, None, source="screen")]
        assert heard == ["undo"]
        with pytest.raises(HardwareSettingError, match="no button 'P9'"):
            buttons.press("P9")


def test_fewer_buttons_and_limits(factory: object) -> None:
    with ButtonPanel(player_pins=(17, 27), pin_factory=factory) as two:
        assert two.names == ("P1", "P2")
    with ButtonPanel(pin_factory=factory) as none:
        assert none.names == () and none.states() == {}
    with pytest.raises(HardwareSettingError, match="at most 4 player buttons"):
        ButtonPanel(player_pins=(2, 3, 4, 17, 27), pin_factory=factory)
    assert seat_of("P3") == 2 and seat_of("confirm") is None


def test_close_frees_the_pins(factory: object) -> None:
    clock = ManualClock()
    events: queue.Queue[ButtonPressed] = queue.Queue()
    buttons = panel(factory, clock, events)
    with pytest.raises(GPIOPinInUse):
        ButtonPanel(confirm_pin=24, pin_factory=factory)
    buttons.close()
    assert buttons.closed
    panel(factory, clock, events).close()
