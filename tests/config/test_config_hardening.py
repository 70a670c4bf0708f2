"""``companion config check`` refuses what used to pass and fail later: thresholds out of
order, paths with NUL or of absurd length, pack folders that do not exist; it accepts a BOM."""

from __future__ import annotations

from pathlib import Path

import pytest

from config import ConfigError, load_config
from ui.cli import main


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))


def _check(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str],
           *, raw: bytes | None = None) -> tuple[int, str, Path]:
    file = tmp_path / "mine.toml"
    if raw is None:
        file.write_text(text, encoding="utf-8")
    else:
        file.write_bytes(raw)
    code = main(["config", "check", str(file)])
    err = capsys.readouterr().err
    assert err.count("\n") == (0 if code == 0 else 1), err
    return code, err, file


@pytest.mark.parametrize(("section", "low", "high", "values"), [
    ("vision.sheet", "join", "cut", (0.2, 0.13)),
    ("vision.sheet", "empty_score", "filled_score", (2.0, 1.7)),
    ("vision.sheet", "one_min_ink", "one_max_ink", (0.5, 0.4)),
    ("vision.code", "min_area", "max_area", (1.0, 1.0)),
    ("vision.code", "ignore_area", "min_area", (0.7, 0.6)),
])
def test_thresholds_out_of_order_are_refused_naming_both_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
    section: str, low: str, high: str, values: tuple[float, float],
) -> None:
    text = f"[{section}]\n{low} = {values[0]}\n{high} = {values[1]}\n"
    code, err, file = _check(tmp_path, text, capsys)
    assert code == 1
    assert f"{file}: {section}.{low} = {values[0]} must be below {section}.{high}" in err


def test_the_file_that_breaks_the_order_is_blamed(tmp_path: Path) -> None:
    base = tmp_path / "base.toml"
    base.write_text("[vision.sheet]\ncut = 0.05\njoin = 0.04\n", encoding="utf-8")
    mine = tmp_path / "mine.toml"
    mine.write_text("[vision.sheet]\njoin = 0.1\n", encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_config(mine, environ={"COMPANION_CONFIG": str(base)}, system_file=None,
                    user_file=tmp_path / "none.toml")
    assert str(refused.value) == (f"{mine}: vision.sheet.join = 0.1 must be below "
                                  f"vision.sheet.cut = 0.05 (from {base})")


@pytest.mark.parametrize(("value", "says"), [
    ('"/srv/tc\\u0000x"', "holds a NUL character"),
    ('"/' + "d" * 100_000 + '"', "is 100001 characters long (allowed at most 4096)"),
    ('"/srv/' + "n" * 300 + '"', "has a folder name of 300 characters"),
])
def test_bad_data_dir_paths_are_refused_in_a_short_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, says: str
) -> None:
    code, err, file = _check(tmp_path, f"[app]\ndata_dir = {value}\n", capsys)
    assert code == 1 and err.startswith(f"companion: error: {file}: app.data_dir")
    assert says in err and len(err) < 300


@pytest.mark.parametrize("key", ["vision.pack", "vision.code.pack", "vision.enigma.pack"])
def test_a_pack_folder_that_does_not_exist_is_refused_naming_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str
) -> None:
    section, name = key.rsplit(".", 1)
    data = tmp_path / "data"
    text = f'[app]\ndata_dir = "{data}"\n[{section}]\n{name} = "my-tiles"\n'
    code, err, file = _check(tmp_path, text, capsys)
    assert code == 1
    assert f'{file}: {key} = "my-tiles": the art pack folder {data / "my-tiles"} does not ' \
           "exist" in err
    (data / "my-tiles").mkdir(parents=True)
    assert _check(tmp_path, text, capsys)[0] == 0
    # "" is the demo pack shipped with the app, never a folder to look for
    assert _check(tmp_path, f'[{section}]\n{name} = ""\n', capsys)[0] == 0


def test_a_utf8_bom_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = "\ufeff[timer]\nduration_s = 45\n".encode()
    code, _, file = _check(tmp_path, "", capsys, raw=raw)
    assert code == 0
    assert load_config(file, system_file=None).timer.duration_s == 45
