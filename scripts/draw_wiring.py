"""Draw docs/wiring.png: the Pi's 40-pin header wired to the light bar, buzzer and buttons,
with the pins taken from config/default.toml (so the picture never disagrees with the code).

    .venv/bin/python scripts/draw_wiring.py [-o docs/wiring.png]
"""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

REPO = Path(__file__).resolve().parent.parent

#: BCM number -> physical header pin (Pi 2/3/4/5, 40-pin header)
BCM_TO_PHYSICAL = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
    13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
    1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}
GROUND = {6, 9, 14, 20, 25, 30, 34, 39}
POWER = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V"}


def wiring_from_config(path: Path) -> list[tuple[int, str, str]]:
    """(BCM pin, part, how it is wired) for every GPIO the default config uses."""
    gpio = tomllib.loads(path.read_text(encoding="utf-8"))["gpio"]
    rows: list[tuple[int, str, str]] = []
    for i, pin in enumerate(gpio["light_bar_pins"]):
        rows.append((pin, f"light bar LED {i + 1}", "LED + 220 ohm to GND"))
    rows.append((gpio["buzzer_pin"], "buzzer (passive piezo)", "piezo + to pin, - to GND"))
    for i, pin in enumerate(gpio["player_button_pins"]):
        rows.append((pin, f"player {i + 1} button", "button to GND (pull-up)"))
    rows.append((gpio["confirm_pin"], "confirm button", "button to GND (pull-up)"))
    rows.append((gpio["undo_pin"], "undo button", "button to GND (pull-up)"))
    return rows


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    for name in ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "DejaVuSans.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default()


def draw(rows: list[tuple[int, str, str]], out: Path) -> None:
    width, height = 1200, 900
    image = Image.new("RGB", (width, height), "white")
    pen = ImageDraw.Draw(image)
    small, big = _font(15), _font(22)
    pen.text((30, 20), "Tabletop Companion wiring (pins from config/default.toml, BCM numbering)",
             fill="black", font=big)
    # The header: two columns, odd pins left, even pins right, pin 1 at the top.
    x_odd, x_even, top, step = 130, 160, 80, 38
    pen.rectangle((x_odd - 25, top - 25, x_even + 25, top + 19 * step + 25), outline="black",
                  width=2, fill="#2e7d32")
    positions: dict[int, tuple[int, int]] = {}
    for physical in range(1, 41):
        row = (physical - 1) // 2
        x = x_odd if physical % 2 else x_even
        y = top + row * step
        positions[physical] = (x, y)
        colour = "gold"
        if physical in GROUND:
            colour = "black"
        elif physical in POWER:
            colour = "red"
        pen.ellipse((x - 9, y - 9, x + 9, y + 9), fill=colour, outline="white")
        if physical % 2:
            text = f"{physical:>2}" + (" GND" if physical in GROUND else "")
            text += f" {POWER[physical]}" if physical in POWER else ""
            pen.text((x_odd - 100, y - 9), text, fill="black", font=small)
        elif physical in (2, 40):
            pen.text((x_even + 30, y - 9), str(physical), fill="black", font=small)
    # Parts on the right, one line each, joined to their header pin.
    part_x, part_top = 470, 80
    part_step = (19 * step) / max(len(rows) - 1, 1)
    for i, (bcm, part, how) in enumerate(rows):
        physical = BCM_TO_PHYSICAL[bcm]
        px, py = positions[physical]
        y = int(part_top + i * part_step)
        colour = "#c62828" if "LED" in part else "#1565c0" if "button" in part else "#6a1b9a"
        pen.line((px, py, 400, y, part_x - 10, y), fill=colour, width=3)
        pen.ellipse((px - 5, py - 5, px + 5, py + 5), fill=colour)
        pen.text((part_x, y - 10), f"GPIO{bcm} (pin {physical})  {part}: {how}", fill="black",
                 font=small)
    pen.text((30, height - 60),
             "Every part returns to a GND pin (black). LEDs need a series resistor; buttons use "
             "the Pi's internal pull-ups.", fill="black", font=small)
    pen.text((30, height - 35),
             "A WS2812 strip instead of the LEDs: data to GPIO10 (SPI MOSI, pin 19), 5 V supply "
             "of its own, common GND.", fill="black", font=small)
    out.parent.mkdir(parents=True, exist_ok=True)
    image.save(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-o", "--output", type=Path, default=REPO / "docs" / "wiring.png")
    parser.add_argument("--config", type=Path, default=REPO / "config" / "default.toml")
    args = parser.parse_args()
    draw(wiring_from_config(args.config), args.output)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
