"""The app makes a screen when it is first shown: launch builds only the first one, and going
back and forth between screens makes none twice nor leaves widgets behind."""

from __future__ import annotations

from typing import Any

from live_widgets import live_widgets


def _made(driver: Any) -> list[str]:
    return [screen.name for screen in driver.app.root.ids.manager.screens]




def test_launch_makes_only_the_first_screen(make_driver: Any) -> None:
    driver = make_driver()
    assert _made(driver) == ["home"]
    driver.app.show("settings")
    assert driver.app.screen("settings").name == "settings"
    assert sorted(_made(driver)) == ["home", "settings"]
    assert driver.app.screen("history") is driver.screen("history")  # made when asked for


def test_screens_visited_again_add_no_widgets(make_driver: Any) -> None:
    driver = make_driver()
    counts = []
    for _visit in range(3):
        for name in ("setup", "history", "settings", "home"):
            driver.app.show(name)
            driver.pump(1)
        counts.append(live_widgets(driver))
    assert sorted(_made(driver)) == ["history", "home", "settings", "setup"]
    assert counts[2] <= counts[1], counts
