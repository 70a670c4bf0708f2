"""The sheet reader takes its thresholds from config ``[vision.sheet]``."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from config import config_from_dict
from config.schema import Config, SheetReaderSettings
from ui.cli import main
from vision.second_chance.settings import DEFAULT_SETTINGS

KEYS = [f.name for f in dataclasses.fields(SheetReaderSettings)]


def test_the_reader_takes_the_section_and_its_defaults() -> None:
    assert isinstance(DEFAULT_SETTINGS, SheetReaderSettings)
    for name in KEYS:
        assert getattr(DEFAULT_SETTINGS, name) == getattr(Config().vision.sheet, name), name
    assert Config().vision.sheet == SheetReaderSettings()
    # and the picture check's limits, shared by every reader but the burnt-out share, which
    # is the sheet's own ([vision.sheet] max_clipped: paper at 250 loses nothing)
    shared = dataclasses.replace(Config().vision.picture, max_clipped=1.0)
    assert DEFAULT_SETTINGS.picture == shared


@pytest.mark.parametrize(("key", "value"), [("cut", 0.2), ("join", 0.01), ("outline_margin", 0.3),
                                            ("filled_score", 2.0), ("sure_hue_factor", 3.0)])
def test_an_override_reaches_the_reader(key: str, value: float) -> None:
    got = config_from_dict({"vision": {"sheet": {key: value}}}).vision.sheet
    assert getattr(got, key) == value
    assert all(getattr(got, n) == getattr(DEFAULT_SETTINGS, n) for n in KEYS if n != key)


def test_read_sheet_uses_the_config_file(tmp_path: Path, record_file: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    record = record_file
    frame = tmp_path / "ana.png"
    assert main(["render", "sheet", str(record), "--player", "Ana", "-o", str(frame),
                 "--style", "pen", "--seed", "4", "--effects", "none"]) == 0
    # a filled score no mark reaches: every drawn cell is doubtful, so asked about
    strict = tmp_path / "strict.toml"
    strict.write_text("[vision.sheet]\nfilled_score = 10.0\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["read", "sheet", str(frame), "--config", str(strict)]) == 0
    asked = json.loads(capsys.readouterr().out)
    assert main(["read", "sheet", str(frame)]) == 0
    plain = json.loads(capsys.readouterr().out)
    cells_asked = sum(q["kind"] == "cell" for q in asked["questions"])
    assert cells_asked >= 10 + sum(q["kind"] == "cell" for q in plain["questions"])
    bad = tmp_path / "bad.toml"
    bad.write_text("[vision.sheet]\ncut = 7.0\n", encoding="utf-8")
    assert main(["read", "sheet", str(frame), "--config", str(bad)]) != 0
    assert "cut" in capsys.readouterr().err


def test_the_sheets_burnt_out_share_comes_from_its_own_section() -> None:
    from config import config_from_dict
    from vision.second_chance.settings import SheetSettings

    cfg = config_from_dict({"vision": {"sheet": {"max_clipped": 0.4},
                                       "picture": {"max_clipped": 0.05, "max_noise": 9.0}}})
    picture = SheetSettings.from_config(cfg).picture
    assert (picture.max_clipped, picture.max_noise) == (0.4, 9.0)
