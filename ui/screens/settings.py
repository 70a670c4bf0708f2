"""Settings: sand-timer length, language, camera source, GPIO pins, the light bar (an LED
bar graph on its own pins, or a WS2812 strip with its LED count and brightness), and
calibration.

Changes are checked with the config loader's own validation (ranges, pins used twice) before
they are kept in ``settings.json`` beside the journal; the devices or the camera are reopened
when their settings change.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from kivy.properties import StringProperty

from ui.i18n import LANGUAGES, N_, _
from ui.screens.base import BaseScreen, made

log = logging.getLogger(__name__)

CAMERA_SOURCES = ("auto", "picamera2", "usb", "render")
#: each camera source in words: "picamera2" and "render" are the names of a library and of a
#: mode of the code, not of what the player holds
CAMERA_SOURCE_NAMES = {"auto": N_("auto"), "picamera2": N_("Pi camera"),
                       "usb": N_("USB camera"), "render": N_("demo")}
PIN_SETTINGS = (("buzzer_pin", N_("Buzzer")), ("confirm_pin", N_("Confirm button")),
                ("undo_pin", N_("Undo button")))
LIGHT_BARS = (("leds", N_("LED bar")), ("ws2812", N_("WS2812 strip")))
BCM_PINS = range(2, 28)  # the loader's own range refuses anything else anyway


def config_refusal_words(message: str, labels: dict[str, str]) -> str:
    """The config loader's refusal (English, with the config's keys: "settings:
    gpio.undo_pin = 99 is out of range (allowed an integer 2..27)") in the players' words,
    with each key named as its row on this screen (``labels``: key -> the row's label)."""
    import re

    def named(key: str) -> str:
        return labels.get(key, _("this setting"))

    clash = re.search(r"(\S+) = (\S+) clashes with (\S+) =", message)
    if clash:
        return _("Not kept: GPIO {pin} would be used twice, by {one} and {other}").format(
            pin=clash[2], one=named(clash[1]), other=named(clash[3]))
    limits = re.search(r"(\S+) = \S+ is out of range \(allowed an? \w+ "
                       r"([-\d.]+)\.\.([-\d.]+)\)", message)
    if limits:
        return _("Not kept: {setting} goes from {low} to {high}").format(
            setting=named(limits[1]), low=limits[2], high=limits[3])
    return _("Not kept: this value is not allowed")


class SettingsScreen(BaseScreen):
    message = StringProperty("")

    def title(self) -> str:
        return _("Settings")

    def refresh(self) -> None:
        box = self.ids.rows
        box.clear_widgets()
        cfg = self.app.cfg
        self.rows: dict[str, Any] = {}
        #: each setting's key (as the config loader names it) -> its row's label, to word a
        #: refusal
        self.labels: dict[str, str] = {}
        self._stepper(box, "timer", "duration_s", _("Sand timer"), cfg.timer.duration_s, 5,
                      shown_as=_("{n} s"))
        self._choices(box, "app", "language", _("Language"), list(LANGUAGES),
                      cfg.app.language, labels=LANGUAGES)
        self._choices(box, "camera", "source", _("Camera"), list(CAMERA_SOURCES),
                      cfg.camera.source,
                      labels={k: _(name) for k, name in CAMERA_SOURCE_NAMES.items()})
        for key, label in PIN_SETTINGS:
            self._stepper(box, "gpio", key, _(label) + " " + _("GPIO"), getattr(cfg.gpio, key), 1)
        for i, pin in enumerate(cfg.gpio.player_button_pins):
            self._pin_in_list(box, "player_button_pins", i, _("Player {n} button").format(n=i + 1),
                              pin)
        self._light_bar(box, cfg.gpio)

    def _light_bar(self, box: Any, gpio: Any) -> None:
        """The light bar's kind, then only the settings that kind uses."""
        self._choices(box, "gpio", "light_bar", _("Light bar"), [k for k, _l in LIGHT_BARS],
                      gpio.light_bar, labels={k: _(label) for k, label in LIGHT_BARS})
        if gpio.light_bar == "ws2812":
            self._stepper(box, "gpio", "strip_leds", _("Strip LEDs"), gpio.strip_leds, 1)
            self._stepper(box, "gpio", "strip_brightness", _("Strip brightness"),
                          gpio.strip_brightness, 0.1)
            return
        pins = list(gpio.light_bar_pins)
        used = {gpio.buzzer_pin, gpio.confirm_pin, gpio.undo_pin, *gpio.player_button_pins,
                *pins}
        free = [p for p in BCM_PINS if p not in used]
        # one more LED takes the lowest free pin; with none free the loader says why not
        more = pins + [free[0] if free else pins[-1]]
        self._stepper_row(box, "gpio.light_bar_pins", _("Light bar LEDs"), str(len(pins)),
                          lambda: self.change("gpio", "light_bar_pins", pins[:-1]),
                          lambda: self.change("gpio", "light_bar_pins", more))
        for i, pin in enumerate(pins):
            self._pin_in_list(box, "light_bar_pins", i, _("Light bar LED {n}").format(n=i + 1),
                              pin)

    def _stepper_row(self, box: Any, name: str, label: str, shown: str,
                     down: Callable[[], None], up: Callable[[], None]) -> None:
        """A StepperRow (settings.kv) for the setting ``name``: ``down`` and ``up`` are what
        its - and + do."""
        row = made("StepperRow", label=label, shown=shown)
        row.ids.minus.bind(on_press=lambda *_a: down())
        row.ids.plus.bind(on_press=lambda *_a: up())
        box.add_widget(row)
        self.rows[name] = (row.ids.minus, row.ids.shown, row.ids.plus)
        self.labels[name] = label

    def _stepper(self, box: Any, section: str, key: str, label: str, value: float,
                 step: float, *, shown_as: str = "{n}") -> None:
        def stepped(delta: float) -> float:
            # 0.3 + 0.1 must be 0.4, not 0.4000000000000001, in settings.json and on screen
            return round(value + delta, 6) if isinstance(step, float) else value + delta

        self._stepper_row(box, f"{section}.{key}", label, shown_as.format(n=f"{value:g}"),
                          lambda: self.change(section, key, stepped(-step)),
                          lambda: self.change(section, key, stepped(step)))

    def _pin_in_list(self, box: Any, key: str, index: int, label: str, value: int) -> None:
        pins = list(getattr(self.app.cfg.gpio, key))

        def with_pin(new: int) -> list[int]:
            out = list(pins)
            out[index] = new
            return out

        self._stepper_row(box, f"gpio.{key}[{index}]", label, str(value),
                          lambda: self.change("gpio", key, with_pin(value - 1)),
                          lambda: self.change("gpio", key, with_pin(value + 1)))

    def _choices(self, box: Any, section: str, key: str, label: str, values: list[str],
                 current: str, *, labels: dict[str, str] | None = None) -> None:
        row = made("SettingRow", label=label)
        for value in values:
            t = made("ChoiceToggle", text=(labels or {}).get(value, value),
                     group=f"{section}.{key}", state="down" if value == current else "normal")
            t.bind(on_press=lambda _t, v=value: self.change(section, key, v))
            row.add_widget(t)
        box.add_widget(row)
        self.rows[f"{section}.{key}"] = row

    def change(self, section: str, key: str, value: Any) -> None:
        """Validate with the config loader, keep it, and reopen what depends on it."""
        from config import ConfigError, config_from_dict

        overrides = {s: dict(v) for s, v in self.app.settings_overrides.items()}
        overrides.setdefault(section, {})[key] = value
        try:
            config_from_dict(overrides, source="settings")
        except ConfigError as exc:
            log.info("the settings refused %s.%s = %r: %s", section, key, value, exc)
            self.message = config_refusal_words(str(exc), getattr(self, "labels", {}))
            return
        self.message = ""
        self.app.save_settings(section, key, value)
        if section == "app" and key == "language":
            self.app.rebuild()
            return
        if section == "camera":
            self.app.restart_camera()
        if section == "gpio":
            self.app.restart_devices()
        self.refresh()
