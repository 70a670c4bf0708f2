"""Load the configuration: ``default.toml`` plus override files, validated against the schema.

Precedence, highest first:

1. the file given as ``--config FILE`` (the ``path`` argument of :func:`load_config`);
2. the file named by ``$COMPANION_CONFIG``;
3. ``/etc/tabletop-companion/config.toml``;
4. ``config.toml`` in the user config directory (``platformdirs.user_config_dir``);
5. ``config/default.toml``, shipped with the package.

A file named by ``--config`` or ``$COMPANION_CONFIG`` must exist; the system and user files are
optional. Each file may set any subset of keys. Every value is checked as its file is read, so
a refusal names the file that holds the bad value; cross-key checks (a GPIO pin used twice)
run on the merged result and name both keys and where each came from.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints

import platformdirs

from config.errors import ConfigError
from config.schema import Config, GpioConfig, Limits, is_internal, is_section, limits_of

APP_NAME = "tabletop-companion"
ENV_VAR = "COMPANION_CONFIG"
SYSTEM_CONFIG = Path("/etc/tabletop-companion/config.toml")
DEFAULT_TOML = Path(__file__).with_name("default.toml")
BUILT_IN = "built-in defaults"

#: dotted key -> (validated value, file it came from)
_Values = dict[str, tuple[Any, str]]

UTF8_BOM = b"\xef\xbb\xbf"

#: the longest text setting, and the longest name of one folder in a path (Linux's limits)
MAX_TEXT = 4096
MAX_NAME = 255
#: settings that are paths: their folder names are checked against MAX_NAME
PATH_KEYS = ("app.data_dir", "camera.path", "vision.pack", "vision.code.pack",
             "vision.enigma.pack")

#: (lower, higher): settings whose values must stay in this order, the first strictly below
ORDERED_PAIRS = (
    ("vision.sheet.join", "vision.sheet.cut"),
    ("vision.sheet.empty_score", "vision.sheet.filled_score"),
    ("vision.sheet.one_min_ink", "vision.sheet.one_max_ink"),
    ("vision.code.min_area", "vision.code.max_area"),
    ("vision.code.ignore_area", "vision.code.min_area"),
)

#: SPI bus -> the MOSI pin a WS2812 strip on that bus occupies (BCM)
SPI_MOSI = {0: 10, 1: 20}


def user_config_path() -> Path:
    """``config.toml`` in the user's config directory (it need not exist)."""
    return platformdirs.user_config_path(APP_NAME) / "config.toml"


def config_files(
    path: str | Path | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    system_file: Path | None = SYSTEM_CONFIG,
    user_file: Path | None = None,
) -> list[tuple[Path, bool]]:
    """The files to merge, lowest precedence first, each with whether it must exist."""
    env = os.environ if environ is None else environ
    files: list[tuple[Path, bool]] = [(DEFAULT_TOML, True)]
    files.append((user_config_path() if user_file is None else user_file, False))
    if system_file is not None:
        files.append((system_file, False))
    if env.get(ENV_VAR):
        files.append((Path(env[ENV_VAR]).expanduser(), True))
    if path is not None:
        files.append((Path(path).expanduser(), True))
    return files


def load_config(
    path: str | Path | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    system_file: Path | None = SYSTEM_CONFIG,
    user_file: Path | None = None,
) -> Config:
    """Merge ``default.toml`` and the override files into a validated :class:`Config`.

    ``environ``, ``system_file`` and ``user_file`` exist for tests; the app passes only
    ``path``. Raises :class:`ConfigError` with one line naming the file, the key and what is
    allowed.
    """
    values: _Values = {}
    merged: list[str] = []
    precedence: dict[str, int] = {BUILT_IN: -1}
    for rank, (file, required) in enumerate(
        config_files(path, environ=environ, system_file=system_file, user_file=user_file)
    ):
        if not required and not file.exists():
            continue
        source = str(file)
        data = read_toml(file)
        _merge(data, Config, "", source, values)
        merged.append(source)
        precedence.setdefault(source, rank)
    return _build_config(values, precedence, tuple(merged))


def config_from_dict(data: Mapping[str, Any], *, source: str = "<overrides>") -> Config:
    """A :class:`Config` from the built-in defaults plus ``data`` (TOML-shaped), validated.

    Meant for tests and tools: ``config_from_dict({"timer": {"duration_s": 45}})``.
    """
    values: _Values = {}
    _merge(data, Config, "", source, values)
    return _build_config(values, {BUILT_IN: -1, source: 0}, (source,))


def read_toml(file: Path) -> dict[str, Any]:
    """Parse one TOML file; unreadable or malformed files raise :class:`ConfigError`."""
    try:
        with open(file, "rb") as handle:
            raw = handle.read()
        # Windows editors start UTF-8 files with a BOM; TOML itself does not allow one
        return tomllib.loads(raw.removeprefix(UTF8_BOM).decode("utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{file}: no such config file") from None
    except IsADirectoryError:
        raise ConfigError(f"{file}: is a directory, not a config file") from None
    except OSError as exc:
        raise ConfigError(f"{file}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{file}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{file}: not valid TOML: {exc}") from None


def show(value: Any) -> str:
    """A value as it would be written in TOML, for messages and :func:`to_toml`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def config_fields(cls: type) -> dict[str, tuple[dataclasses.Field[Any], Any]]:
    hints = get_type_hints(cls)
    return {
        f.name: (f, hints[f.name])
        for f in dataclasses.fields(cls)
        if not is_internal(f)
    }


def _merge(data: Mapping[str, Any], cls: type, prefix: str, source: str, into: _Values) -> None:
    known = config_fields(cls)
    for key, value in data.items():
        dotted = prefix + key
        if key not in known:
            raise ConfigError(f"{source}: {_unknown(dotted, prefix, key, known)}")
        f, value_type = known[key]
        if is_section(value_type):
            if not isinstance(value, dict):
                raise ConfigError(
                    f"{source}: {dotted} = {_clipped(value)} must be a table [{dotted}]"
                )
            _merge(value, value_type, dotted + ".", source, into)
        else:
            into[dotted] = (_check(value, value_type, limits_of(f), dotted, source), source)


def _unknown(dotted: str, prefix: str, key: str, known: Mapping[str, Any]) -> str:
    names = sorted(known)
    guess = difflib.get_close_matches(key, names, n=1)
    hint = f"did you mean {prefix}{guess[0]}? " if guess else ""
    if prefix:
        where = f"keys of [{prefix.rstrip('.')}]"
        return f"unknown key {dotted} ({hint}{where}: {', '.join(names)})"
    return f"unknown section [{dotted}] ({hint}sections: {', '.join(names)})"


_TYPE_NAMES = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}


def _allowed(value_type: Any, limits: Limits) -> str:
    origin = get_origin(value_type)
    if origin is tuple:
        item = get_args(value_type)[0]
        text = f"a list of {_TYPE_NAMES[item].split(' ', 1)[-1]}s"
        if limits.length is not None:
            low, high = limits.length
            text += f" ({low}..{high} items)" if low != high else f" ({low} items)"
        bounds = limits.describe()
        return f"{text}, each {bounds}" if bounds else text
    bounds = limits.describe()
    if limits.choices is not None:
        return bounds
    return f"{_TYPE_NAMES[value_type]} {bounds}".strip()


def _has_type(value: Any, value_type: Any) -> bool:
    if value_type is bool:
        return isinstance(value, bool)
    if value_type is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if value_type is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, value_type)


def _in_range(value: Any, limits: Limits) -> bool:
    # written as "not inside" so that NaN, which compares false with everything, is refused
    if limits.low is not None and not value >= limits.low:
        return False
    return not (limits.high is not None and not value <= limits.high)


def _check(value: Any, value_type: Any, limits: Limits, dotted: str, source: str) -> Any:
    """Return ``value`` converted to the field's Python type, or raise ConfigError."""
    allowed = _allowed(value_type, limits)
    if get_origin(value_type) is tuple:
        item_type = get_args(value_type)[0]
        if not isinstance(value, list) or not all(_has_type(v, item_type) for v in value):
            raise ConfigError(f"{source}: {dotted} = {_clipped(value)} has the wrong type "
                              f"(allowed {allowed})")
        if limits.length is not None and not limits.length[0] <= len(value) <= limits.length[1]:
            count = f"{len(value)} item" + ("" if len(value) == 1 else "s")
            raise ConfigError(f"{source}: {dotted} = {_clipped(value)} has {count} "
                              f"(allowed {allowed})")
        for i, item in enumerate(value):
            if not _in_range(item, limits):
                raise ConfigError(f"{source}: {dotted}[{i}] = {show(item)} is out of range "
                                  f"(allowed {limits.describe()})")
        return tuple(item_type(v) for v in value)
    if not _has_type(value, value_type):
        raise ConfigError(f"{source}: {dotted} = {_clipped(value)} has the wrong type "
                          f"(allowed {allowed})")
    if isinstance(value, str):
        _check_text(value, dotted, source)
    if limits.choices is not None and value not in limits.choices:
        raise ConfigError(f"{source}: {dotted} = {_clipped(value)} is not allowed "
                          f"(allowed {allowed})")
    if not _in_range(value, limits):
        raise ConfigError(f"{source}: {dotted} = {show(value)} is out of range "
                          f"(allowed {allowed})")
    if limits.check is not None:
        refusal = limits.check(value)
        if refusal is not None:
            raise ConfigError(f"{source}: {dotted} = {_clipped(value)} is not allowed "
                              f"(allowed {refusal})")
    return value_type(value)


def _clipped(value: Any) -> str:
    # a 100,000-character value must not make a 100,000-character error line
    text = show(value)
    return text if len(text) <= 80 else text[:76] + "...\""


def _check_text(value: str, dotted: str, source: str) -> None:
    """NUL and overlong text, refused before the app dies of them naming neither key nor file."""
    if "\0" in value:
        raise ConfigError(f"{source}: {dotted} = {_clipped(value)} holds a NUL character "
                          "(allowed: text without one)")
    if len(value) > MAX_TEXT:
        raise ConfigError(f"{source}: {dotted} is {len(value)} characters long "
                          f"(allowed at most {MAX_TEXT})")
    if dotted in PATH_KEYS:
        longest = max(value.split("/"), key=len)
        if len(longest) > MAX_NAME:
            raise ConfigError(f"{source}: {dotted} has a folder name of {len(longest)} "
                              f"characters (allowed at most {MAX_NAME} per name)")


def _check_order(config: Config, values: _Values, precedence: Mapping[str, int]) -> None:
    """Pairs of thresholds whose order matters (:data:`ORDERED_PAIRS`); names both keys."""
    for low_key, high_key in ORDERED_PAIRS:
        low, high = (_value_at(config, key) for key in (low_key, high_key))
        if low < high:
            continue
        low_file = values.get(low_key, (None, BUILT_IN))[1]
        high_file = values.get(high_key, (None, BUILT_IN))[1]
        # blame the file with the higher precedence: that is where the clash was introduced
        file, other = ((low_file, high_file) if precedence.get(low_file, -1)
                       >= precedence.get(high_file, -1) else (high_file, low_file))
        where = "" if other == file else f" (from {other})"
        raise ConfigError(f"{file}: {low_key} = {show(low)} must be below {high_key} = "
                          f"{show(high)}{where}")


def _value_at(config: Config, dotted: str) -> Any:
    value: Any = config
    for part in dotted.split("."):
        value = getattr(value, part)
    return value


def _build(cls: type, prefix: str, values: _Values) -> Any:
    kwargs: dict[str, Any] = {}
    for name, (_, value_type) in config_fields(cls).items():
        dotted = prefix + name
        if is_section(value_type):
            kwargs[name] = _build(value_type, dotted + ".", values)
        elif dotted in values:
            kwargs[name] = values[dotted][0]
    return cls(**kwargs)


def _build_config(
    values: _Values, precedence: Mapping[str, int], merged: tuple[str, ...]
) -> Config:
    config: Config = _build(Config, "", values)
    _check_pins(config.gpio, values, precedence)
    _check_order(config, values, precedence)
    return dataclasses.replace(config, sources=merged)


def _check_pins(gpio: GpioConfig, values: _Values, precedence: Mapping[str, int]) -> None:
    """Every GPIO pin in use must be used once; the message names both keys."""

    def source(key: str) -> str:
        return values.get(key, (None, BUILT_IN))[1]

    uses: list[tuple[str, int, str]] = []  # (key = value, pin, file)
    for key in ("buzzer_pin", "confirm_pin", "undo_pin"):
        pin = getattr(gpio, key)
        uses.append((f"gpio.{key} = {pin}", pin, source(f"gpio.{key}")))
    for i, pin in enumerate(gpio.player_button_pins):
        uses.append((f"gpio.player_button_pins[{i}] = {pin}", pin,
                     source("gpio.player_button_pins")))
    if gpio.light_bar == "leds":
        for i, pin in enumerate(gpio.light_bar_pins):
            uses.append((f"gpio.light_bar_pins[{i}] = {pin}", pin, source("gpio.light_bar_pins")))
    else:
        bus = gpio.strip_spi_bus
        uses.append((f"gpio.strip_spi_bus = {bus} (the strip uses SPI{bus} MOSI, GPIO "
                     f"{SPI_MOSI[bus]})", SPI_MOSI[bus], source("gpio.strip_spi_bus")))
    seen: dict[int, tuple[str, str]] = {}
    for label, pin, file in uses:
        if pin not in seen:
            seen[pin] = (label, file)
            continue
        other_label, other_file = seen[pin]
        # blame the file with the higher precedence: that is where the clash was introduced
        if precedence.get(other_file, -1) > precedence.get(file, -1):
            label, file, other_label, other_file = other_label, other_file, label, file
        where = "" if other_file == file else f" from {other_file}"
        raise ConfigError(
            f"{file}: {label} clashes with {other_label}{where} (allowed: each GPIO pin once)"
        )


def to_toml(config: Config) -> str:
    """Write ``config`` as TOML that :func:`load_config` reads back to an equal Config."""
    lines: list[str] = []

    def section(obj: Any, name: str) -> None:
        lines.append(f"[{name}]")
        tables = []
        for field_name, (_, value_type) in config_fields(type(obj)).items():
            value = getattr(obj, field_name)
            if is_section(value_type):
                tables.append((value, f"{name}.{field_name}"))
            else:
                lines.append(f"{field_name} = {show(value)}")
        lines.append("")
        for value, table_name in tables:
            section(value, table_name)

    for field_name in config_fields(Config):
        section(getattr(config, field_name), field_name)
    return "\n".join(lines)
