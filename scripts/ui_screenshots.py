"""Screenshots of every screen and the main dialogs, per language and size, for a visual review.

Run under a virtual display, e.g.::

    KIVY_NO_ARGS=1 KIVY_HOME=$(mktemp -d) nice xvfb-run -a -s "-screen 0 1280x1280x24" \
        .venv/bin/python scripts/ui_screenshots.py --out /tmp/shots --languages es uk

It drives the app with the test Driver (tests/ui/conftest.py) in demo mode and saves
``<out>/<language>-<size>-<view>.png``, the pictures for a person to look at. Under each it
prints what tests/ui/test_layout_text_fits.py would flag there (text spilling or shortened, a
button cut or small, English left on a translated screen), so a new screen can be checked
before it has a test.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "ui")]

SIZES = {"landscape": (800, 480), "portrait": (720, 1280)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "artifacts" / "screenshots" / "review")
    parser.add_argument("--languages", nargs="+", default=["es", "uk"])
    parser.add_argument("--sizes", nargs="+", default=sorted(SIZES), choices=sorted(SIZES))
    args = parser.parse_args()

    from conftest import Driver
    from kivy.config import Config
    from test_layout_text_fits import (
        cut_buttons,
        english_only_words,
        english_texts,
        spilling_labels,
        views,
    )

    Config.set("graphics", "maxfps", "0")
    english = english_only_words()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for language in args.languages:
            for size_name in args.sizes:
                driver = Driver(Path(tmp) / f"{language}-{size_name}.sqlite3",
                                size=SIZES[size_name], start_camera=False)
                driver.screen("settings").change("app", "language", language)
                driver.set_size(SIZES[size_name])
                for name, step in views():
                    try:
                        step(driver)
                    except Exception as error:  # noqa: BLE001 - report and go on to the next
                        print(f"{language} {size_name} {name}: step failed: {error!r}")
                        continue
                    driver.pump(3)
                    target = args.out / f"{language}-{size_name}-{name}.png"
                    driver.app.root.export_to_png(str(target))
                    if len(driver.window.children) > 1:
                        # a popup sits on the window beside the root: the window's own picture
                        # (Kivy numbers it: <name>.window0001.png)
                        driver.window.screenshot(str(target.with_suffix(".window.png")))
                    print(target)
                    for top in list(driver.window.children):
                        for text, texture, box in spilling_labels(top):
                            print(f"  SPILLS {text!r}: text {texture} in {box}")
                        for text, box in cut_buttons(top):
                            print(f"  BUTTON CUT OR SMALL {text!r}: {box}")
                        for text, words in english_texts(top, english):
                            print(f"  ENGLISH {text!r}: {words}")
                driver.screen("settings").change("app", "language", "en")
                driver.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
