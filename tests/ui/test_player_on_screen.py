"""The player on screen is the player the next action is for, in every game where turns pass.

Each test plays a few turns with touches and, before every action, reads who the screen shows
(the marked tab or name, and the name in the prompt); the event the action journals must be
that player's.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui


def _start(driver, game_button):
    driver.tap(driver.screen("home").ids[game_button])
    driver.tap(driver.screen("setup").ids.start_button)
    assert driver.app.session is not None


def _button(panel, text):
    return next(w for w in panel.walk() if getattr(w, "text", None) == text
                and hasattr(w, "on_press"))


def _named_in(texts, players):
    """The players named in ``texts`` (prompts: "Ana: draw one of the two cards")."""
    lines = [line for text in texts for line in text.splitlines()]
    return {p for p in players for t in lines if t.startswith((p + ":", p + " "))}


def _last_event_player(driver):
    return driver.app.session.events[-1].get("player")


def _second_chance_shown(screen, players):
    """The tab pressed, the prompt's player and the sheet's squares: they must agree."""
    tabs = {name for name, tab in screen.tab_buttons.items() if tab.state == "down"}
    prompt = _named_in([getattr(w, "text", "") for w in screen.ids.panel.walk()], players)
    assert len(tabs) == 1 and prompt <= tabs, (tabs, prompt)
    (shown,) = tabs
    filled = sorted(map(tuple, screen.ids.sheet.filled))
    assert filled == sorted(screen.state().player(shown).grid.filled_cells)
    return shown


def test_second_chance_every_start_and_draw_is_for_the_player_shown(make_driver):
    driver = make_driver()
    _start(driver, "game_second_chance")
    screen = driver.screen("second_chance")
    sheet = screen.ids.sheet
    players = list(driver.app.session.players)
    for _ in players:
        shown = _second_chance_shown(screen, players)
        for col in range(8):
            driver.tap_square(sheet, (4, col))
        driver.tap(_button(screen.ids.panel, "Enter the start card"))
        assert _last_event_player(driver) == shown
    screen.rng.seed(5)
    driver.tap(_button(screen.ids.panel, "Demo: turn up two"))
    drawn = []
    for _ in players:
        shown = _second_chance_shown(screen, players)
        driver.tap(_button(screen.ids.panel, "Fits?"))
        assert sheet.ghost
        driver.tap(_button(screen.ids.panel, "Draw it"))
        assert _last_event_player(driver) == shown
        drawn.append(shown)
    assert sorted(drawn) == sorted(players)


def test_indigo_every_placement_is_for_the_player_marked(make_driver):
    from companion.indigo.state import all_legal_placements

    driver = make_driver()
    _start(driver, "game_indigo")
    screen = driver.screen("indigo")
    players = list(driver.app.session.players)
    for turn in range(len(players) + 1):
        marked = [b.player for b in screen.ids.players.children if b.text.startswith("»")]
        assert _named_in([screen.status], players) == set(marked)
        placement = all_legal_placements(screen.state())[turn]
        screen.ids.board.dispatch("on_cell", placement.cell)  # what a tap on the hexagon does
        driver.pump(2)
        choice = next(c for c in screen.picker.choices
                      if placement.tile.same_pattern(type(placement.tile)(c.kind, c.rotation)))
        driver.tap(choice)
        # the picker closes before the confirm button can be touched (it covers the screen)
        assert driver.wait_for(lambda: screen.picker.parent is None)
        assert screen.proposal is not None and screen.proposal[0] == placement.cell
        driver.tap(screen.ids.confirm_button)
        assert [_last_event_player(driver)] == marked


def test_enigma_every_placement_is_for_the_solver_shown(make_driver):
    from test_enigma_board import tile_picture

    from companion.timer import ManualClock

    driver = make_driver()
    _start(driver, "game_enigma")
    screen = driver.screen("enigma")
    screen.clock = ManualClock()
    players = list(driver.app.session.players)
    for player, category in zip(players, ("weight", "conduit", "fragment"), strict=False):
        driver.tap(screen.choice_toggles[(player, category)])
    driver.tap(screen.go_button)
    for player in players[1:]:
        driver.tap(screen.solver_toggles[player])
    driver.tap(_button(screen.ids.panel, "Round done"))
    for _ in players[1:]:
        if screen.phase == "scored":
            driver.tap(_button(screen.ids.panel, "Next"))
        texts = [getattr(w, "text", "") for w in screen.ids.panel.walk()]
        (shown,) = _named_in(texts, players)
        category = dict(screen.state().choices)[shown]
        entry = next(e for e in screen.catalogue().by_category(category)
                     if screen.state().legal_placements(e.conduit, distinct=True))
        driver.tap(tile_picture(screen, entry))
        (shown_again,) = _named_in([getattr(w, "text", "") for w in screen.ids.panel.walk()],
                                   players)
        assert shown_again == shown
        option = screen.state().legal_placements(entry.conduit, distinct=True)[0]
        screen.pick_placement(option)
        driver.tap(_button(screen.ids.panel, "No networker"))
        assert _last_event_player(driver) == shown


def test_break_the_code_every_question_and_guess_is_for_the_player_named(make_driver):
    import random

    driver = make_driver()
    screen = driver.start_break_the_code(3)
    screen.rng = random.Random(3)
    driver.tap(screen.deal_button)
    players = list(driver.app.session.players)
    for turn in range(len(players) + 1):
        texts = [getattr(w, "text", "") for w in screen.ids.panel.walk()]
        (shown,) = _named_in(texts, players)
        if turn == len(players):  # a guess, wrong on purpose
            driver.tap(screen.guess_button)
            for toggle in screen.tile_toggles[:screen.state().rack_size]:
                driver.tap(toggle)
            driver.tap(screen.submit_button)
        else:
            driver.tap(list(screen.card_buttons.values())[turn])
        assert _last_event_player(driver) == shown


def test_the_break_the_code_screen_builds_the_assistants_tables_ahead(make_driver):
    # a player's first long press must not wait half a second (seconds on a Pi) for them
    from companion.break_the_code.tables import code_table, twin_groups
    from ui.screens.break_the_code import BreakTheCodeScreen

    code_table.cache_clear()
    twin_groups.cache_clear()
    BreakTheCodeScreen.assistant_warmed = False
    driver = make_driver()
    driver.start_break_the_code(3)
    assert driver.wait_for(lambda: code_table.cache_info().currsize == 2
                           and twin_groups.cache_info().currsize == 2, frames=3000)
