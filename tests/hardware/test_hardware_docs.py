"""docs/hardware.md's pin table agrees with the [gpio] defaults."""

from __future__ import annotations

import re
from pathlib import Path

from config.schema import GpioConfig

DOC = Path(__file__).resolve().parents[2] / "docs" / "hardware.md"


def test_the_pin_table_matches_the_config_defaults() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("<!-- pins:") : text.index("<!-- /pins -->")]
    rows = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 4 and cells[1].startswith("`"):
            rows[cells[1].strip("`").split()[0]] = tuple(
                int(p) for p in re.findall(r"\d+", cells[2])
            )
    gpio = GpioConfig()
    assert rows["light_bar_pins"] == tuple(gpio.light_bar_pins)
    assert rows["buzzer_pin"] == (gpio.buzzer_pin,)
    assert rows["player_button_pins"] == tuple(gpio.player_button_pins)
    assert rows["confirm_pin"] == (gpio.confirm_pin,)
    assert rows["undo_pin"] == (gpio.undo_pin,)
    assert "never edits" in text and "dtparam=spi=on" in text
