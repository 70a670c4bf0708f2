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


@pytest.mark.parametrize("learning", [False, True])
def test_break_the_code_keeps_its_ask_panel_and_names_whose_turn_it_is(
        make_driver: Any, learning: bool) -> None:
    # made anew at every ask (its players' names, the assistant, the questions' grid), the
    # ask panel was the last of a game's cyclic garbage after session 20 (40-45k objects a
    # game of 7 steps). Kept, its prompt, the assistant and the questions follow each ask,
    # and a guess's panel between two asks does not keep it from being shown again
    driver = make_driver()
    screen = driver.start_break_the_code(3)
    screen.rng = random.Random(3)
    if learning:
        driver.tap(screen.learning_toggle)
    driver.tap(screen.deal_button)
    rng = random.Random(7)
    panels: list[Any] = []
    for turn in range(ASKS):
        (panel,) = [w for w in screen.ids.panel.walk() if type(w).__name__ == "BtcAskPanel"]
        panels.append(panel)
        player = screen.state().current_player
        assert panel.prompt.endswith(f"{player}: ask a card or guess"), panel.prompt
        assert [b.text for b in reversed(panel.ids.names.children)] == screen.players()
        if learning:  # the assistant, held, is for the player to move
            assert _in_panel(screen, screen.assistant_button.__self__)
            assert f"({player})" in screen.assistant_button.text
        asked = {getattr(w, "card_id", None) for w in panel.ids.cards.children}
        assert asked == set(screen.state().askable_cards)
        if turn == 1:  # a look at the guess's panel, and back
            driver.tap(screen.guess_button)
            assert not _in_panel(screen, panel)
            driver.tap(next(w for w in screen.ids.panel.walk()
                            if getattr(w, "text", "") == "Cancel"))
            assert _in_panel(screen, panel)
        driver.tap(screen.card_buttons[rng.choice(sorted(screen.card_buttons))])
        assert driver.app.session.events[-1]["player"] == player, driver.app.banner_text
    assert all(panel is panels[0] for panel in panels)


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
