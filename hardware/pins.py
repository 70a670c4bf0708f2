"""Choosing a gpiozero pin factory, and the mock one the desktop and CI run on.

``make_pin_factory("auto")`` honours ``GPIOZERO_PIN_FACTORY`` (``mock`` means mock pins *with*
PWM, which the light bar and buzzer need: gpiozero's own ``mock`` default has no PWM); without
it, it tries lgpio (every Pi, the Pi 5 included) and then RPi.GPIO. Anything that fails raises
:class:`~hardware.errors.PinFactoryError` naming every factory tried and why, so the caller can
fall back to the virtual panel with a clear message.
"""

from __future__ import annotations

import os
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from gpiozero import Factory
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.errors import PinFactoryError

FACTORY_NAMES = ("auto", "mock", "lgpio", "rpigpio")
MODEL_FILE = Path("/proc/device-tree/model")


def mock_pin_factory() -> MockFactory:
    """A fresh mock factory whose pins support PWM (``MockPWMPin``)."""
    return MockFactory(pin_class=MockPWMPin)


def is_mock_factory(factory: Any) -> bool:
    return isinstance(factory, MockFactory)


def _load_builtin(name: str) -> Factory:
    # Imported here: lgpio and RPi.GPIO exist only on a Pi.
    if name == "lgpio":
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    if name == "rpigpio":
        from gpiozero.pins.rpigpio import RPiGPIOFactory

        return RPiGPIOFactory()
    raise PinFactoryError(f"unknown pin factory {name!r}; choose one of {', '.join(FACTORY_NAMES)}")


def _load_entry_point(name: str) -> Factory:
    for point in entry_points(group="gpiozero_pin_factories"):
        if point.name == name or point.name == name.lower():
            factory: Factory = point.load()()
            return factory
    raise PinFactoryError(f"GPIOZERO_PIN_FACTORY={name!r} names no installed gpiozero pin factory")


def _why(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return f"{type(exc).__name__}: {text}" if not isinstance(exc, PinFactoryError) else text


def make_pin_factory(name: str = "auto") -> Factory:
    """The pin factory the config's ``[gpio] pin_factory`` names."""
    name = name.lower()
    if name == "mock":
        return mock_pin_factory()
    if name == "auto":
        env = os.environ.get("GPIOZERO_PIN_FACTORY", "").strip()
        if env.lower() == "mock":
            return mock_pin_factory()
        if env:
            try:
                return _load_entry_point(env)
            except Exception as exc:
                raise PinFactoryError(
                    f"the pin factory GPIOZERO_PIN_FACTORY={env!r} cannot be loaded ({_why(exc)})"
                ) from exc
        reasons = []
        for candidate in ("lgpio", "rpigpio"):
            try:
                return _load_builtin(candidate)
            except Exception as exc:  # ImportError off a Pi, OSError without /dev/gpiochip*
                reasons.append(f"{candidate}: {_why(exc)}")
        raise PinFactoryError("no GPIO pin factory could be loaded (" + "; ".join(reasons) + ")")
    if name not in FACTORY_NAMES:
        raise PinFactoryError(
            f"unknown pin factory {name!r}; choose one of {', '.join(FACTORY_NAMES)}"
        )
    try:
        return _load_builtin(name)
    except Exception as exc:
        raise PinFactoryError(f"the {name} pin factory cannot be loaded ({_why(exc)})") from exc


NO_PWM_HINT = (
    "these pins have no PWM; for mock pins use hardware.pins.mock_pin_factory() or set "
    "GPIOZERO_MOCK_PIN_CLASS=mockpwmpin next to GPIOZERO_PIN_FACTORY=mock"
)


def describe_factory(factory: Any) -> str:
    """A short name for messages: ``mock``, ``lgpio``, ``rpigpio`` or the class name."""
    if factory is None:
        return "gpiozero default"
    if is_mock_factory(factory):
        return "mock"
    return {"LGPIOFactory": "lgpio", "RPiGPIOFactory": "rpigpio"}.get(
        type(factory).__name__, type(factory).__name__
    )


def pi_model(model_file: Path = MODEL_FILE) -> str | None:
    """The board's model string (``Raspberry Pi 5 Model B Rev 1.0``), or None off a Pi."""
    try:
        return model_file.read_bytes().rstrip(b"\x00\n").decode("ascii", "replace")
    except OSError:
        return None


def is_pi5(model: str | None) -> bool:
    return model is not None and ("Raspberry Pi 5" in model or "Compute Module 5" in model)
