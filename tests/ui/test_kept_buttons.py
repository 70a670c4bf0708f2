"""A move keeps the buttons that the next move shows again, and changes their words.

Kivy widgets hold each other in reference cycles (a parent its children, each child its
parent), so every widget dropped is cyclic garbage that only a full collection frees, and the
app's full collections walk all of it on the main thread. Made anew at every move, the
question buttons of Break the Code and the players' buttons of Indigo were most of their
games' garbage (bench/figures/app_memory_s20.txt).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pytestmark = pytest.mark.ui

ASKS = 4


def _in_panel(screen: Any, button: Any) -> bool:
    return any(widget is button for widget in screen.ids.panel.walk())


def test_break_the_code_keeps_each_questions_button_from_ask_to_ask(make_driver: Any) -> None:
    driver = make_driver()
    screen = driver.start_break_the_code(3)
    screen.rng = random.Random(3)
    driver.tap(screen.deal_button)
    rng = random.Random(5)
    seen: dict[str, Any] = {}
    for _ in range(ASKS):
        for label, button in screen.card_buttons.items():
            assert seen.setdefault(label, button) is button
            assert _in_panel(screen, button)
        label = rng.choice(sorted(screen.card_buttons))
        asker = screen.state().current_player
        driver.tap(screen.card_buttons[label])
        asked = driver.app.session.events[-1]
        assert (asked["type"], asked["player"], asked["card"]) == \
            ("ask", asker, label.split(":")[0]), driver.app.banner_text
        assert asked.get("number") == (int(label.split(": ")[1]) if ":" in label else None)
    # the questions asked are gone from the panel, the others are the same buttons
    assert set(seen) - set(screen.card_buttons)
    assert all(seen[label] is button for label, button in screen.card_buttons.items())


def test_indigo_keeps_the_players_buttons_and_marks_the_mover(make_driver: Any) -> None:
    driver = make_driver()
    driver.tap(driver.screen("home").ids.game_indigo)
    driver.tap(driver.screen("setup").ids.start_button)
    screen = driver.screen("indigo")
    players = list(driver.app.session.players)
    buttons = list(reversed(screen.ids.players.children))
    assert [b.player for b in buttons] == players
    for _ in range(len(players) + 1):
        placement = driver.app.table.play_random(screen.state())
        screen.propose(placement.cell, placement.tile.kind, placement.tile.rotation)
        driver.tap(screen.ids.confirm_button)
        driver.pump(2)
        assert list(reversed(screen.ids.players.children)) == buttons
        assert all(a is b for a, b in zip(reversed(screen.ids.players.children), buttons,
                                          strict=True))
        marked = [b.player for b in buttons if b.text.startswith("» ")]
        assert marked == [screen.mover()]
        assert [b.text.removeprefix("» ") for b in buttons] == players
