# ruff: noqa: E501  (the table of refused values reads best one case per line)
"""The config loader: defaults, precedence, and one-line refusals naming file, key and limits."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

import config
from config import Config, ConfigError, config_from_dict, load_config, to_toml
from config.loader import DEFAULT_TOML, config_fields
from config.schema import is_section


def _schema_keys(cls: type = Config, prefix: str = "") -> dict[str, Any]:
    keys: dict[str, Any] = {}
    for name, (_, value_type) in config_fields(cls).items():
        if is_section(value_type):
            keys.update(_schema_keys(value_type, f"{prefix}{name}."))
        else:
            keys[prefix + name] = value_type
    return keys


def _toml_keys(data: dict[str, Any], prefix: str = "") -> set[str]:
    keys = set()
    for key, value in data.items():
        if isinstance(value, dict):
            keys |= _toml_keys(value, f"{prefix}{key}.")
        else:
            keys.add(prefix + key)
    return keys


def _load(tmp_path: Path, text: str, **kwargs: Any) -> Config:
    file = tmp_path / "override.toml"
    file.write_text(text, encoding="utf-8")
    return load_config(file, environ={}, system_file=None, user_file=tmp_path / "no-user.toml",
                       **kwargs)


# --- defaults ---------------------------------------------------------------------------------

def test_default_toml_alone_gives_the_built_in_defaults(tmp_path: Path) -> None:
    cfg = load_config(environ={}, system_file=None, user_file=tmp_path / "absent.toml")
    assert cfg == Config()
    assert cfg.sources == (str(DEFAULT_TOML),)


def test_default_toml_has_exactly_the_schema_keys() -> None:
    data = tomllib.loads(DEFAULT_TOML.read_text(encoding="utf-8"))
    assert _toml_keys(data) == set(_schema_keys())


def test_every_key_in_default_toml_is_documented_by_a_comment() -> None:
    # a key is documented when a comment line comes before it, above it or above the keys
    # it is grouped with (e.g. width/height share one comment)
    undocumented = []
    lines = DEFAULT_TOML.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^\w+ = ", line):
            j = i - 1
            while j >= 0 and re.match(r"^\w+ = ", lines[j]):
                j -= 1
            if j < 0 or not lines[j].startswith("#"):
                undocumented.append(line)
    assert not undocumented


def test_the_keys_others_rely_on_have_their_documented_defaults() -> None:
    cfg = Config()
    assert (cfg.app.language, cfg.app.data_dir, cfg.app.demo) == ("en", "", "auto")
    assert (cfg.display.width, cfg.display.height, cfg.display.fullscreen) == (800, 480, False)
    assert (cfg.timer.duration_s, cfg.timer.warnings_s, cfg.timer.tick_from_s) == (30, (10, 5), 10)
    gpio = cfg.gpio
    assert gpio.light_bar_pins == (5, 6, 13, 19, 26, 16, 20, 21)
    assert (gpio.pin_factory, gpio.light_bar, gpio.strip_leds, gpio.strip_spi_bus) == (
        "auto", "leds", 30, 0)
    assert (gpio.buzzer_pin, gpio.buzzer_octaves, gpio.confirm_pin, gpio.undo_pin) == (
        18, 2, 24, 25)
    assert gpio.player_button_pins == (17, 27, 22, 23)
    assert (gpio.strip_brightness, gpio.debounce_ms) == (0.3, 50)
    cam = cfg.camera
    assert (cam.source, cam.device, cam.path, cam.width, cam.height, cam.fps) == (
        "auto", 0, "", 2304, 1296, 10)
    vis = cfg.vision
    assert (vis.marker_dictionary, vis.min_confidence, vis.max_reprojection) == (
        "DICT_4X4_50", 0.85, 0.15)
    assert (vis.min_board_area, vis.blur_min_variance, vis.pack) == (0.05, 40.0, "")
    assert vis.indigo.board_center_mm == (0.0, 0.0)


def test_config_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Config().timer.duration_s = 45  # type: ignore[misc]


# --- precedence -------------------------------------------------------------------------------

def test_precedence_cli_env_system_user_default(tmp_path: Path) -> None:
    files = {}
    for name, seconds in [("user", 40), ("system", 50), ("env", 60), ("cli", 70)]:
        files[name] = tmp_path / f"{name}.toml"
        files[name].write_text(
            f"[timer]\nduration_s = {seconds}\n[display]\nwidth = {seconds * 10}\n"
            if name != "cli" else f"[timer]\nduration_s = {seconds}\n",
            encoding="utf-8",
        )

    def load(*, cli: bool, env: bool, system: bool, user: bool) -> Config:
        return load_config(
            files["cli"] if cli else None,
            environ={"COMPANION_CONFIG": str(files["env"])} if env else {},
            system_file=files["system"] if system else tmp_path / "none.toml",
            user_file=files["user"] if user else tmp_path / "none.toml",
        )

    assert load(cli=True, env=True, system=True, user=True).timer.duration_s == 70
    assert load(cli=False, env=True, system=True, user=True).timer.duration_s == 60
    assert load(cli=False, env=False, system=True, user=True).timer.duration_s == 50
    assert load(cli=False, env=False, system=False, user=True).timer.duration_s == 40
    assert load(cli=False, env=False, system=False, user=False).timer.duration_s == 30
    both = load(cli=True, env=True, system=True, user=True)
    # a key the highest file leaves alone comes from the next one down
    assert both.display.width == 600
    assert both.sources == (str(DEFAULT_TOML), str(files["user"]), str(files["system"]),
                            str(files["env"]), str(files["cli"]))


def test_missing_optional_files_are_skipped_but_named_files_must_exist(tmp_path: Path) -> None:
    cfg = load_config(environ={}, system_file=tmp_path / "x.toml", user_file=tmp_path / "y.toml")
    assert cfg.sources == (str(DEFAULT_TOML),)
    with pytest.raises(ConfigError, match=r"missing\.toml: no such config file"):
        load_config(tmp_path / "missing.toml", environ={}, system_file=None,
                    user_file=tmp_path / "y.toml")
    with pytest.raises(ConfigError, match=r"env\.toml: no such config file"):
        load_config(environ={"COMPANION_CONFIG": str(tmp_path / "env.toml")}, system_file=None,
                    user_file=tmp_path / "y.toml")


def test_the_real_environment_variable_is_read(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    env_file = tmp_path / "env.toml"
    env_file.write_text('[app]\nlanguage = "uk"\n', encoding="utf-8")
    monkeypatch.setenv("COMPANION_CONFIG", str(env_file))
    cfg = load_config(system_file=None, user_file=tmp_path / "none.toml")
    assert cfg.app.language == "uk"


def test_user_config_path_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert config.user_config_path() == tmp_path / "tabletop-companion" / "config.toml"


# --- values accepted --------------------------------------------------------------------------

def test_overrides_are_typed(tmp_path: Path) -> None:
    cfg = _load(tmp_path, """
[timer]
duration_s = 45
warnings_s = []
[gpio]
strip_brightness = 1          # an integer where a float is expected is fine
player_button_pins = [2, 3]
[vision.indigo]
board_center_mm = [12, -3.5]
""")
    assert cfg.timer.duration_s == 45 and cfg.timer.warnings_s == ()
    assert cfg.gpio.strip_brightness == 1.0 and isinstance(cfg.gpio.strip_brightness, float)
    assert cfg.gpio.player_button_pins == (2, 3)
    assert cfg.vision.indigo.board_center_mm == (12.0, -3.5)
    assert cfg.vision.indigo.board_radius_mm == 250.0  # untouched keys keep their default


def test_ws2812_frees_the_light_bar_pins() -> None:
    # with a strip the LED pins are unused, so a button may take one of them
    cfg = config_from_dict({"gpio": {"light_bar": "ws2812", "confirm_pin": 5}})
    assert cfg.gpio.confirm_pin == 5


def test_to_toml_round_trips(tmp_path: Path) -> None:
    cfg = config_from_dict({"app": {"language": "es", "data_dir": '~/my "games"'},
                            "timer": {"warnings_s": [20, 10, 5]},
                            "vision": {"min_confidence": 0.9, "indigo": {"rotation_deg": -1.5e-3}}})
    again = _load(tmp_path, to_toml(cfg))
    assert again == cfg


# --- values refused: one line, naming the file, the key and what is allowed --------------------

REFUSED = [
    ("[timer]\nduration_s = -3\n",
     "timer.duration_s = -3 is out of range (allowed an integer 5..600)"),
    ("[timer]\nduration_s = 30.5\n",
     "timer.duration_s = 30.5 has the wrong type (allowed an integer 5..600)"),
    ("[timer]\nduraton_s = 30\n", "unknown key timer.duraton_s (did you mean timer.duration_s?"),
    ("[timers]\nduration_s = 30\n", "unknown section [timers] (did you mean timer?"),
    ("timer = 30\n", "timer = 30 must be a table [timer]"),
    ('[display]\nwidth = "800"\n', 'display.width = "800" has the wrong type (allowed an integer 200..4096)'),
    ("[display]\nfullscreen = 1\n",
     "display.fullscreen = 1 has the wrong type (allowed true or false)"),
    ('[app]\nlanguage = "fr"\n', 'app.language = "fr" is not allowed (allowed "en", "es" or "uk")'),
    ('[app]\ndata_dir = "data"\n', 'app.data_dir = "data" is not allowed (allowed an absolute path'),
    ('[camera]\nsource = "webcam"\n', 'camera.source = "webcam" is not allowed (allowed "auto", "picamera2", "usb", "replay" or "render")'),
    ("[gpio]\nbuzzer_pin = 40\n",
     "gpio.buzzer_pin = 40 is out of range (allowed an integer 2..27)"),
    ("[gpio]\nplayer_button_pins = [17, 1]\n",
     "gpio.player_button_pins[1] = 1 is out of range (allowed 2..27)"),
    ("[gpio]\nplayer_button_pins = [2, 3, 4, 5, 6]\n",
     "gpio.player_button_pins = [2, 3, 4, 5, 6] has 5 items (allowed a list of integers (0..4 items), each 2..27)"),
    ('[gpio]\nlight_bar_pins = ["5"]\n', 'gpio.light_bar_pins = ["5"] has the wrong type'),
    ("[gpio]\nstrip_brightness = 1.5\n",
     "gpio.strip_brightness = 1.5 is out of range (allowed a number 0..1)"),
    ("[vision]\nmin_confidence = nan\n", "vision.min_confidence = nan is out of range"),
    ("[vision]\nmax_reprojection = inf\n", "vision.max_reprojection = inf is out of range"),
    ("[vision]\nmax_reprojection_px = 3.0\n", "unknown key vision.max_reprojection_px"),
    ('[vision]\nmarker_dictionary = "DICT_4X4_51"\n', 'vision.marker_dictionary = "DICT_4X4_51" is not allowed'),
    ("[vision.indigo]\nboard_center_mm = [1.0]\n",
     "vision.indigo.board_center_mm = [1.0] has 1 item (allowed a list of numbers (2 items)"),
    ("[vision.indigo]\nradius = 3\n", "unknown key vision.indigo.radius"),
    ("[gpio]\nconfirm_pin = 17\n",
     "gpio.confirm_pin = 17 clashes with gpio.player_button_pins[0] = 17 from "),
    ("[gpio]\nlight_bar_pins = [5, 6, 5]\n",
     "gpio.light_bar_pins[2] = 5 clashes with gpio.light_bar_pins[0] = 5 (allowed: each GPIO pin once)"),
    ('[gpio]\nlight_bar = "ws2812"\nundo_pin = 10\n', "gpio.undo_pin = 10 clashes with gpio.strip_spi_bus = 0 (the strip uses SPI0 MOSI, GPIO 10)"),
    ("[timer\n", "not valid TOML"),
]


@pytest.mark.parametrize(("text", "expected"), REFUSED, ids=[e[:40] for _, e in REFUSED])
def test_bad_values_are_refused_with_one_line(tmp_path: Path, text: str, expected: str) -> None:
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, text)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{tmp_path / 'override.toml'}: ")
    assert expected in message


def test_a_pin_clash_blames_the_higher_file_and_names_the_other(tmp_path: Path) -> None:
    user = tmp_path / "user.toml"
    user.write_text("[gpio]\nundo_pin = 3\n", encoding="utf-8")
    system = tmp_path / "system.toml"
    system.write_text("[gpio]\nconfirm_pin = 3\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(environ={}, system_file=system, user_file=user)
    assert str(caught.value) == (
        f"{system}: gpio.confirm_pin = 3 clashes with gpio.undo_pin = 3 from {user} "
        "(allowed: each GPIO pin once)"
    )


def test_an_unreadable_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a directory"):
        load_config(tmp_path, environ={}, system_file=None, user_file=tmp_path / "n.toml")
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b'[app]\nlanguage = "\xe9"\n')
    with pytest.raises(ConfigError, match="latin1.toml: not (UTF-8 text|valid TOML)"):
        load_config(bad, environ={}, system_file=None, user_file=tmp_path / "n.toml")


def test_config_error_is_a_value_error() -> None:
    assert issubclass(ConfigError, ValueError)


def test_config_from_dict_names_its_source() -> None:
    with pytest.raises(ConfigError, match=r"^<test>: timer\.tick_from_s = -1 is out of range"):
        config_from_dict({"timer": {"tick_from_s": -1}}, source="<test>")


# --- paths ------------------------------------------------------------------------------------

def test_data_dir_and_db_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert config.data_dir(Config()) == tmp_path / "xdg" / "tabletop-companion"
    assert config.default_db_path(Config()) == (
        tmp_path / "xdg" / "tabletop-companion" / "journal.sqlite3")
    cfg = config_from_dict({"app": {"data_dir": "~/tc"}})
    assert config.default_db_path(cfg) == tmp_path / "home" / "tc" / "journal.sqlite3"
    cfg = config_from_dict({"app": {"data_dir": "/srv/tc"}})
    assert config.data_dir(cfg) == Path("/srv/tc")


def test_docs_config_md_lists_every_key() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "config.md").read_text(encoding="utf-8")
    missing = []
    for dotted in _schema_keys():
        section, _, key = dotted.rpartition(".")
        start = doc.find(f"### `[{section}]`")
        end = doc.find("### ", start + 1)
        if start < 0 or f"| `{key}` |" not in doc[start:end if end > 0 else None]:
            missing.append(dotted)
    assert not missing
