"""``companion hardware test``: an interactive check for a maker wiring up a Pi.

It lights each LED of the bar in turn, plays each sound, then asks for each button in turn
and waits for it (with a timeout), naming the GPIO pin so that a wrong wire is easy to find.
A press of another button than the one asked for is reported (two wires swapped?).
Everything it prints goes to ``out``; ``on_prompt`` is called when a button is asked for
(``--auto-press`` and the tests use it to press mock pins).
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import TextIO

from hardware.buttons import ButtonPressed
from hardware.errors import HardwareSettingError
from hardware.light_bar import BarFrame
from hardware.pins import describe_factory
from hardware.table import TableHardware

WHITE = (255, 255, 255)
PARTS = ("leds", "sounds", "buttons")


@dataclass
class WiringReport:
    leds: int = 0
    sounds: list[str] = field(default_factory=list)
    buttons_ok: list[str] = field(default_factory=list)
    buttons_missing: list[str] = field(default_factory=list)
    #: (asked for, pressed instead)
    wrong_presses: list[tuple[str, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.buttons_missing


def _drain(events: queue.Queue[object]) -> None:
    while True:
        try:
            events.get_nowait()
        except queue.Empty:
            return


def run_wiring_check(
    hardware: TableHardware,
    *,
    out: TextIO,
    timeout_s: float = 10.0,
    step_s: float = 0.4,
    on_prompt: Callable[[str], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    parts: Collection[str] = PARTS,
) -> WiringReport:
    """Check the ``parts`` (``leds``, ``sounds``, ``buttons``) in that order."""
    unknown = set(parts) - set(PARTS)
    if unknown:
        raise HardwareSettingError(f"unknown parts {sorted(unknown)}; choose from {PARTS}")
    report = WiringReport()
    kind = "virtual panel (mock pins)" if hardware.is_virtual else "GPIO"
    print(
        f"Wiring check on {kind}, pin factory: {describe_factory(hardware.pin_factory)}", file=out
    )
    if hardware.warning:
        print(f"note: {hardware.warning}", file=out)

    if "leds" in parts:
        _check_leds(hardware, report, out=out, step_s=step_s, sleep=sleep)
    if "sounds" in parts:
        _check_sounds(hardware, report, out=out, step_s=step_s, clock=clock, sleep=sleep)
    if "buttons" in parts:
        _check_buttons(
            hardware,
            report,
            out=out,
            timeout_s=timeout_s,
            on_prompt=on_prompt,
            clock=clock,
            sleep=sleep,
        )
    print(
        f"\n{report.leds} LEDs lit, {len(report.sounds)} sounds played, "
        f"{len(report.buttons_ok)}/{len(hardware.buttons.names) if 'buttons' in parts else 0} "
        "buttons answered.",
        file=out,
    )
    return report


def _check_leds(
    hardware: TableHardware,
    report: WiringReport,
    *,
    out: TextIO,
    step_s: float,
    sleep: Callable[[float], None],
) -> None:
    bar = hardware.light_bar
    pins = getattr(bar, "pins", None)
    print(f"\n1. Light bar ({bar.kind}, {bar.count} LEDs): each lights in turn.", file=out)
    per_led = step_s if bar.count <= 16 else step_s * 16 / bar.count
    for index in range(bar.count):
        levels = tuple(1.0 if i == index else 0.0 for i in range(bar.count))
        bar.show(BarFrame(levels, WHITE))
        where = f" on GPIO {pins[index]}" if pins else ""
        if bar.count <= 16 or index % 5 == 0:
            print(f"   LED {index + 1}{where}", file=out, flush=True)
        sleep(per_led)
        report.leds += 1
    bar.show(BarFrame.dark(bar.count))


def _check_sounds(
    hardware: TableHardware,
    report: WiringReport,
    *,
    out: TextIO,
    step_s: float,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
) -> None:
    buzzer = hardware.buzzer
    print(f"\n2. Buzzer on GPIO {buzzer.pin}: each sound in turn.", file=out)
    for name, melody in buzzer.melodies.items():
        print(f"   {name} ({melody.seconds:.2f} s)", file=out, flush=True)
        start = clock()
        buzzer.play(name, start)
        while buzzer.melody is not None:
            sleep(0.005)
            buzzer.update(clock())
        buzzer.stop()
        sleep(min(step_s, 0.3))
        report.sounds.append(name)


def _check_buttons(
    hardware: TableHardware,
    report: WiringReport,
    *,
    out: TextIO,
    timeout_s: float,
    on_prompt: Callable[[str], None] | None,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
) -> None:
    buttons = hardware.buttons
    events = hardware.events
    print(f"\n3. Buttons: press each one when asked ({timeout_s:g} s each).", file=out)
    if not buttons.names:
        print("   no buttons configured", file=out)
    _drain(events)
    for name in buttons.names:
        print(f"   press {name} (GPIO {buttons.pins[name]}) ...", end=" ", file=out, flush=True)
        if on_prompt is not None:
            on_prompt(name)
        deadline = clock() + timeout_s
        got = False
        while not got and clock() < deadline:
            try:
                press = events.get_nowait()
            except queue.Empty:
                sleep(0.01)
                continue
            if not isinstance(press, ButtonPressed):
                continue
            if press.button == name:
                got = True
            else:
                report.wrong_presses.append((name, press.button))
                print(f"(got {press.button} instead: wires swapped?)", end=" ", file=out)
        if got:
            report.buttons_ok.append(name)
            print("ok", file=out, flush=True)
        else:
            report.buttons_missing.append(name)
            print(
                f"NO PRESS: check the wire from GPIO {buttons.pins[name]} through the button "
                "to GND",
                file=out,
                flush=True,
            )
