"""The kiosk unit: systemd accepts it, and it is hardened without hiding the devices."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "tabletop-companion.service"
ANALYZE = shutil.which("systemd-analyze")
SYSTEM_UNITS = next(
    (p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")) if p.is_dir()),
    None,
)
needs_systemd = pytest.mark.skipif(
    ANALYZE is None or SYSTEM_UNITS is None, reason="systemd-analyze is not installed"
)


def _settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def test_unit_has_what_the_kiosk_needs() -> None:
    s = _settings()
    assert s["Type"] == ["notify"] and s["Restart"] == ["on-failure"]
    assert s["User"] == ["tabletop"] and "StartLimitBurst" in s
    assert int(s["WatchdogSec"][0]) > 0
    assert s["TTYPath"] == ["/dev/tty1"] and s["Conflicts"] == ["getty@tty1.service"]
    env = dict(e.split("=", 1) for e in s["Environment"])
    assert env["KIVY_WINDOW"] == "sdl2" and env["KIVY_NO_ARGS"] == "1"
    assert env["GPIOZERO_PIN_FACTORY"] == "lgpio" and "KIVY_HOME" in env
    groups = s["SupplementaryGroups"][0].split()
    assert set(groups) == {"video", "render", "input", "gpio", "spi"}
    for key in ("NoNewPrivileges", "ProtectHome", "PrivateTmp", "RestrictNamespaces"):
        assert s[key] == ["yes"], key
    assert s["ProtectSystem"] == ["strict"] and s["StateDirectory"] == ["tabletop-companion"]
    assert "PrivateDevices" not in s, "PrivateDevices hides the camera, GPIO and DRM"
    assert s["StandardOutput"] == ["journal"]
    # the config parser agrees it is one well-formed INI-like file
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.read_string(UNIT.read_text())
    assert parser.sections() == ["Unit", "Service", "Install"]


def _scratch_root(tmp_path: Path) -> Path:
    assert SYSTEM_UNITS is not None
    root = tmp_path / "root"
    exe = root / "opt/tabletop-companion/venv/bin/companion"
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    (root / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(UNIT, root / "etc/systemd/system" / UNIT.name)
    shutil.copytree(SYSTEM_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    return root


@needs_systemd
def test_systemd_analyze_verify_accepts_the_unit(tmp_path: Path) -> None:
    root = _scratch_root(tmp_path)
    done = subprocess.run(
        [str(ANALYZE), "verify", f"--root={root}", UNIT.name],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr + done.stdout


@needs_systemd
def test_systemd_analyze_security_exposure_is_low() -> None:
    done = subprocess.run(
        [str(ANALYZE), "security", "--offline=yes", "--no-pager", str(UNIT)],
        capture_output=True, text=True, check=False,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert match, done.stdout[-500:] + done.stderr
    exposure = float(match.group(1))
    print(f"systemd-analyze security exposure: {exposure}")
    assert exposure <= 2.0
