"""What an evening loads once (each game screen's code and kv rules, the demo table's packs
and renderers) is made ready while the app is idle after its first screen, not at each game's
first play: the memory the evening settles at is then reached before the first game ends
(bench/app_memory.py: "after first game" against "end")."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui


def test_each_games_screen_rules_and_the_demo_tables_packs_are_ready_before_its_first_play(
        make_driver: Any) -> None:
    from kivy.lang import Builder

    from ui.app import GAME_SCREENS, UI_DIR

    driver = make_driver()
    app = driver.app
    assert app.table.packs_loaded == []  # no frame rendered yet: nothing loaded
    app.warm_up.start()
    assert driver.wait_for(lambda: app.warm_up.finished)
    rules = {str(UI_DIR / "screens" / f"{name}.kv") for name in GAME_SCREENS.values()}
    assert rules <= set(Builder.files)
    assert app.table.packs_loaded == ["code", "enigma", "enigma-catalogue", "indigo"]
    # each game screen is then made from what is ready: no rules loaded at its first play
    loaded = list(Builder.files)
    for name in GAME_SCREENS.values():
        app.screen(name)
    assert list(Builder.files) == loaded

