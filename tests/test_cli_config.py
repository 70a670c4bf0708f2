"""``companion config check [FILE]`` and ``companion config show``: exit 0 with the files
merged, or exit 1 with the loader's one-line error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config import DEFAULT_TOML
from ui.cli import main

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))


def test_check_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "check"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"config OK: {DEFAULT_TOML}") and err == ""


def test_check_a_valid_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = tmp_path / "mine.toml"
    file.write_text("[timer]\nduration_s = 45\n", encoding="utf-8")
    assert main(["config", "check", str(file)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("config OK: ") and out.rstrip().endswith(str(file))


def test_check_honours_the_environment_and_user_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    user = tmp_path / "xdg-config" / "tabletop-companion" / "config.toml"
    user.parent.mkdir(parents=True)
    user.write_text('[app]\nlanguage = "es"\n', encoding="utf-8")
    env = tmp_path / "env.toml"
    env.write_text("[display]\nwidth = 720\nheight = 1280\n", encoding="utf-8")
    monkeypatch.setenv("COMPANION_CONFIG", str(env))
    assert main(["config", "check"]) == 0
    out = capsys.readouterr().out
    assert out.index(str(user)) < out.index(str(env))
    assert main(["config", "show"]) == 0
    shown = capsys.readouterr().out
    assert 'language = "es"' in shown and "width = 720" in shown


@pytest.mark.parametrize(("text", "expected"), [
    ("[timer]\nduration_s = -3\n",
     "timer.duration_s = -3 is out of range (allowed an integer 5..600)"),
    ("[gpio]\nundo_pin = 17\n", "gpio.undo_pin = 17 clashes with gpio.player_button_pins[0] = 17"),
    ("[camera]\nzoom = 2\n", "unknown key camera.zoom"),
    ("[[timer]]\n", "timer = [{}] must be a table [timer]"),
    ("= 3\n", "not valid TOML"),
])
def test_check_an_invalid_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               text: str, expected: str) -> None:
    file = tmp_path / "bad.toml"
    file.write_text(text, encoding="utf-8")
    assert main(["config", "check", str(file)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(f"companion: error: {file}: ")
    assert expected in err


def test_check_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "check", str(tmp_path / "nope.toml")]) == 1
    assert "nope.toml: no such config file" in capsys.readouterr().err


def test_the_installed_command_exits_with_these_codes(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text("[timer]\nduration_s = 45\n", encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text("[timer]\nduration_s = -3\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_CONFIG"}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "xdg-config")
    ok = subprocess.run([sys.executable, "-m", "ui.cli", "config", "check", str(good)],
                        capture_output=True, text=True, env=env, cwd=REPO)
    assert (ok.returncode, ok.stderr) == (0, "")
    assert ok.stdout.startswith("config OK: ")
    refused = subprocess.run([sys.executable, "-m", "ui.cli", "config", "check", str(bad)],
                             capture_output=True, text=True, env=env, cwd=REPO)
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.strip() == (
        f"companion: error: {bad}: timer.duration_s = -3 is out of range "
        "(allowed an integer 5..600)"
    )
    assert "Traceback" not in refused.stderr
