"""Every data file the packages load is installed with them.

The Pi installer (systemd/install.sh) makes a regular, non-editable install, so a file that no
``[options.package_data]`` pattern in setup.cfg names exists in the checkout but not on the Pi
(a reader's model weights, a translation, a kv layout): the tests pass here and the appliance
fails. This compares the files on disk with what the patterns cover.
"""

from __future__ import annotations

import configparser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE_SUFFIXES = {".py", ".pyc", ".pyi"}


def _package_data() -> dict[str, list[str]]:
    parser = configparser.ConfigParser()
    parser.read(ROOT / "setup.cfg")
    section = parser["options.package_data"]
    return {package: [p.strip() for p in value.replace("\n", ",").split(",") if p.strip()]
            for package, value in section.items()}


def _data_files(package: Path) -> set[Path]:
    return {path for path in package.rglob("*")
            if path.is_file() and path.suffix not in CODE_SUFFIXES
            and "__pycache__" not in path.parts and not path.name.startswith(".")}


def test_every_data_file_of_every_package_is_named_by_package_data() -> None:
    patterns = _package_data()
    missing = []
    for package in ("companion", "vision", "ui", "config", "hardware"):
        folder = ROOT / package
        covered = {path for pattern in patterns.get(package, []) for path in folder.glob(pattern)}
        missing += sorted(str(p.relative_to(ROOT)) for p in _data_files(folder) - covered)
    assert not missing, f"not installed by setup.cfg [options.package_data]: {missing}"


def test_the_check_sees_a_data_file_no_pattern_names(tmp_path: Path) -> None:
    (tmp_path / "weights.json").write_text("{}")
    (tmp_path / "reader.py").write_text("")
    assert _data_files(tmp_path) == {tmp_path / "weights.json"}
