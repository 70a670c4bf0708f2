"""The Break the Code reader takes its thresholds from config ``[vision.code]``, and its
command line reads image files strictly (exit 2, one line, for anything unreadable)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from config import config_from_dict
from config.schema import CodeReaderConfig, Config
from ui.cli import main
from vision.break_the_code.settings import DEFAULT_SETTINGS, CodeReaderSettings

# every key of [vision.code] but ``pack`` (which tiles' look to read with, not a threshold)
THRESHOLDS = [f.name for f in dataclasses.fields(CodeReaderConfig) if f.name != "pack"]


def test_every_config_key_is_a_reader_threshold_with_the_same_default() -> None:
    reader_fields = {f.name for f in dataclasses.fields(CodeReaderSettings)}
    assert set(THRESHOLDS) <= reader_fields
    for name in THRESHOLDS:
        assert getattr(DEFAULT_SETTINGS, name) == getattr(Config().vision.code, name), name
    assert CodeReaderSettings.from_config(Config()) == DEFAULT_SETTINGS
    # the defaults live in config/schema.py only
    assert all(f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
               for f in dataclasses.fields(CodeReaderSettings))


@pytest.mark.parametrize(
    ("key", "value"),
    [("px_per_mm", 5.0), ("foreground", 30.0), ("min_area", 0.5), ("max_area", 2.0),
     ("ignore_area", 0.2), ("max_offset_mm", 10.0), ("accept", 0.9)],
)
def test_an_override_reaches_the_reader(key: str, value: float) -> None:
    cfg = config_from_dict({"vision": {"code": {key: value}}})
    got = CodeReaderSettings.from_config(cfg)
    assert getattr(got, key) == value
    others = [n for n in THRESHOLDS if n != key]
    assert all(getattr(got, n) == getattr(DEFAULT_SETTINGS, n) for n in others)


@pytest.fixture(scope="module")
def rack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    image = tmp_path_factory.mktemp("code") / "rack.png"
    assert main(["render", "code", "0b 1w 5g 5g 9b", "-o", str(image), "--seed", "3"]) == 0
    return image


def test_read_code_uses_the_config_file(
    rack: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a foreground threshold above any tile's contrast finds no tile: the file was used
    strict = tmp_path / "strict.toml"
    strict.write_text("[vision.code]\nforeground = 250.0\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["read", "code", str(rack), "--config", str(strict)]) == 4
    assert "no tile" in capsys.readouterr().err
    assert main(["read", "code", str(rack)]) == 0
    assert json.loads(capsys.readouterr().out)["code"] == "0b 1w 5g 5g 9b"


def test_a_bad_threshold_is_one_line_naming_key_and_file(
    rack: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[vision.code]\naccept = 2\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["read", "code", str(rack), "--config", str(bad)]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "vision.code.accept" in err and "bad.toml" in err


def test_unreadable_images_exit_2_with_one_line(
    rack: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = rack.read_bytes()
    truncated = tmp_path / "half.png"
    truncated.write_bytes(data[: len(data) // 2])
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    cases = {
        tmp_path / "missing.png": "cannot read",
        tmp_path: "cannot read",
        empty: "empty",
        truncated: "truncated",
    }
    for path, words in cases.items():
        capsys.readouterr()
        assert main(["read", "code", str(path)]) == 2, path
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err and "WARN" not in err, err


def test_render_code_to_a_file_type_it_cannot_write_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rack.txt"
    assert main(["render", "code", "0b 1w", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ".png or .jpg" in err and "OpenCV" not in err
    assert not out.exists()
