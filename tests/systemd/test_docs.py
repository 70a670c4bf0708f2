"""The maker's docs agree with the config: the pin table and the wiring picture's source."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _wiring_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("draw_wiring", REPO / "scripts/draw_wiring.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pin_table_in_the_pi_guide_matches_default_config() -> None:
    gpio = tomllib.loads((REPO / "config/default.toml").read_text())["gpio"]
    wiring = _wiring_module()
    doc = (REPO / "docs/raspberry-pi.md").read_text()
    table = doc.split("<!-- pins:")[1].split("<!-- /pins -->")[0]
    rows = {
        cells[0]: (cells[1], cells[2])
        for line in table.splitlines()
        if (cells := [c.strip() for c in line.strip("|").split("|")]) and len(cells) == 3
    }

    def as_text(pins: list[int]) -> tuple[str, str]:
        return (", ".join(map(str, pins)),
                ", ".join(str(wiring.BCM_TO_PHYSICAL[p]) for p in pins))

    assert rows["light bar LED 1-8"] == as_text(gpio["light_bar_pins"])
    assert rows["buzzer"] == as_text([gpio["buzzer_pin"]])
    assert rows["player buttons 1-4"] == as_text(gpio["player_button_pins"])
    assert rows["confirm button"] == as_text([gpio["confirm_pin"]])
    assert rows["undo button"] == as_text([gpio["undo_pin"]])


def test_wiring_picture_is_drawn_from_the_config(tmp_path: Path) -> None:
    wiring = _wiring_module()
    rows = wiring.wiring_from_config(REPO / "config/default.toml")
    assert len({bcm for bcm, _, _ in rows}) == len(rows), "a pin is used twice"
    out = tmp_path / "wiring.png"
    wiring.draw(rows, out)
    assert out.stat().st_size > 10_000
    assert (REPO / "docs/wiring.png").exists()
    guide = (REPO / "docs/raspberry-pi.md").read_text()
    assert re.search(r"!\[Wiring diagram\]\(wiring\.png\)", guide)
