"""What the app keeps of an evening's past is bounded: the banner's messages and the timer's
sounds are kept for the tests and the screen, the newest last, and never pile up all evening
(the log has every one). A list of every one grew with each sand-timer tick and each refusal
(issue 23, item 10: no growth after the first game)."""

from __future__ import annotations

import queue
import random
from typing import Any

from ui.workers import UiEvent


class _Cfg:
    class gpio:  # noqa: N801 - a stand-in for the config section
        light_bar_pins = (5, 6, 13, 19)


class _Snapshot:
    fraction = 0.5


class _Tick:
    """Stands for the timer's event of that name: the hub sounds events by their type's name."""


_Tick.__name__ = "Tick"


def test_the_timer_sounds_kept_stay_bounded_over_an_evening(monkeypatch: Any) -> None:
    import ui.devices as devices

    monkeypatch.setattr(devices, "_open_backend", lambda cfg, *, demo: None)
    events: queue.Queue[UiEvent] = queue.Queue()
    hub = devices.DeviceHub(_Cfg(), events, demo=True)
    rounds = random.Random(23).randint(60, 90)  # an evening of Enigma rounds, 45 ticks each
    for _round in range(rounds):
        hub.render_timer(_Snapshot(), [_Tick() for _second in range(45)])
    assert len(hub.played) == devices.SOUNDS_KEPT < rounds * 45
    assert list(hub.played) == ["tick"] * devices.SOUNDS_KEPT
    hub.render_timer(_Snapshot(), [type("Expired", (), {})()])
    assert hub.played[-1] == "alarm"  # the newest is kept, last


def test_the_banner_messages_kept_stay_bounded_over_an_evening(make_driver: Any) -> None:
    from ui.app import ERRORS_KEPT

    app = make_driver().app
    shown = [f"Not accepted: move {n}" for n in range(random.Random(23).randint(300, 500))]
    for message in shown:
        app.report_error(message)
    assert list(app.errors) == shown[-ERRORS_KEPT:]
    assert app.banner_text.endswith(shown[-1])
