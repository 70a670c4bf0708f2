"""The installer rehearsed in a scratch root with its system commands recorded, not run."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "systemd" / "install.sh"
UNINSTALL = REPO / "systemd" / "uninstall.sh"
UNIT = "tabletop-companion.service"


def _scratch_root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (root / "etc" / "group").write_text(
        "video:x:44:\nrender:x:105:\ninput:x:106:\ngpio:x:997:\nspi:x:999:\n"
    )
    autologin = root / "etc/systemd/system/getty@tty1.service.d/autologin.conf"
    autologin.parent.mkdir(parents=True)
    autologin.write_text("[Service]\nExecStart=\nExecStart=-/sbin/agetty --autologin pi\n")
    return root


def _run(script: Path, root: Path, record: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, ROOT=str(root), RECORD=str(record))
    return subprocess.run(
        ["sh", str(script), *args], env=env, capture_output=True, text=True, check=False
    )


def _commands(record: Path) -> list[str]:
    return record.read_text().splitlines() if record.exists() else []


def test_install_does_what_a_pi_needs(tmp_path: Path) -> None:
    root = _scratch_root(tmp_path)
    record = tmp_path / "commands.txt"
    done = _run(INSTALL, root, record)
    assert done.returncode == 0, done.stderr
    commands = _commands(record)
    apt = next(c for c in commands if c.startswith("apt-get install"))
    assert "--no-install-recommends" in apt
    for package in ("python3-picamera2", "libmtdev1", "libegl1", "python3-lgpio"):
        assert package in apt.split()
    assert any(c.startswith("useradd --system") and c.endswith(" tabletop") for c in commands)
    for group in ("video", "render", "input", "gpio", "spi"):
        assert f"usermod -a -G {group} tabletop" in commands
    assert "python3 -m venv --system-site-packages /opt/tabletop-companion/venv" in commands
    pip = next(c for c in commands if "/venv/bin/pip install" in c)
    assert "-c /opt/tabletop-companion/pi-constraints.txt" in pip
    constraints = (root / "opt/tabletop-companion/pi-constraints.txt").read_text()
    assert "opencv-python-headless==4.10.0.84" in constraints
    assert "systemctl enable tabletop-companion.service" in commands
    unit = root / "etc/systemd/system" / UNIT
    assert unit.read_text() == (REPO / "systemd" / UNIT).read_text()
    config = (root / "etc/tabletop-companion/config.toml").read_text()
    assert 'data_dir = "/var/lib/tabletop-companion"' in config
    assert (root / "var/lib/tabletop-companion").is_dir()
    autologin = root / "etc/systemd/system/getty@tty1.service.d/autologin.conf"
    assert not autologin.exists() and autologin.with_suffix(".conf.disabled").exists()
    # It never edits the firmware config.
    assert not any("config.txt" in c for c in commands)


def test_install_is_idempotent_and_keeps_an_edited_config(tmp_path: Path) -> None:
    root = _scratch_root(tmp_path)
    first = tmp_path / "first.txt"
    assert _run(INSTALL, root, first).returncode == 0
    # What the first run's useradd/usermod would have done on a real system:
    (root / "etc/passwd").write_text(
        (root / "etc/passwd").read_text() + "tabletop:x:996:996::/var/lib/tabletop-companion:"
        "/usr/sbin/nologin\n"
    )
    groups = (root / "etc/group").read_text().splitlines()
    (root / "etc/group").write_text("\n".join(g + "tabletop" for g in groups) + "\n")
    config = root / "etc/tabletop-companion/config.toml"
    config.write_text(config.read_text() + '\n[gpio]\nlight_bar = "ws2812"\n')
    snapshot = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}

    second = tmp_path / "second.txt"
    done = _run(INSTALL, root, second)
    assert done.returncode == 0, done.stderr
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert after == snapshot, "a second run changed files"
    commands = _commands(second)
    assert not any(c.startswith(("useradd", "usermod")) for c in commands)
    assert "dtparam=spi=on" in done.stdout  # documented for the strip, not written


def test_install_refuses_a_scratch_root_without_recording(tmp_path: Path) -> None:
    env = dict(os.environ, ROOT=str(tmp_path))
    env.pop("RECORD", None)
    done = subprocess.run(["sh", str(INSTALL)], env=env, capture_output=True, text=True)
    assert done.returncode == 2 and "RECORD" in done.stderr


@pytest.mark.parametrize("purge", [False, True])
def test_uninstall_keeps_game_data_unless_asked(tmp_path: Path, purge: bool) -> None:
    root = _scratch_root(tmp_path)
    assert _run(INSTALL, root, tmp_path / "i.txt").returncode == 0
    journal = root / "var/lib/tabletop-companion/journal.sqlite3"
    journal.write_bytes(b"games")
    args = ("--purge",) if purge else ()
    done = _run(UNINSTALL, root, tmp_path / "u.txt", *args)
    assert done.returncode == 0, done.stderr
    assert not (root / "etc/systemd/system" / UNIT).exists()
    assert not (root / "opt/tabletop-companion").exists()
    assert journal.exists() is (not purge)
    assert (root / "etc/systemd/system/getty@tty1.service.d/autologin.conf").exists()
    assert "systemctl disable --now tabletop-companion.service" in _commands(tmp_path / "u.txt")
