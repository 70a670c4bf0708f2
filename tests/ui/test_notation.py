"""No notation on screen (issue 23): question cards are their sentences, and a walk through
each game's screens in Spanish and Ukrainian finds no shape strings, card or tile ids, no
"turn N" and no English in any widget's text."""

from __future__ import annotations

import random
from typing import Any

import pytest
from notation import english_in, english_texts, notation_in, notation_texts

pytestmark = pytest.mark.ui


@pytest.mark.parametrize(("text", "found"), [
    ("##./###/..# fits, for example here", ["##./###/..#"]),
    ("Demo: Ana drew ## on paper", ["##"]),
    ("Q01: 3", ["Q01"]),
    ("tile C-06", ["C-06"]),
    ("0,-1 turn 0", ["turn 0"]),
    ("3p-alt", ["3p-alt"]),
    ("Where are your #0 tiles?", []),
    ("Loading...", []),
    ("Camera error: OSError: [Errno 19] No such device", ["OSError", "Errno"]),
    ("picamera2", ["picamera2"]),
    ("P1", []),
])
def test_notation_is_recognised(text: str, found: list[str]) -> None:
    assert notation_in(text) == found


@pytest.mark.parametrize(("text", "found"), [
    ("Cannot undo: the journal could not take the move back",
     ["Cannot", "undo", "the", "not", "the"]),
    ("event 3 (start): a start tile has 8 cells", ["tile", "has"]),
    ("Nueva partida de Break the Code", []),
    ("Ana ha elegido Peso", []),
    ("Скасовано: плитку, яку поклала Ana", []),
])
def test_english_is_recognised(text: str, found: list[str]) -> None:
    assert english_in(text) == found


@pytest.mark.parametrize(("language", "asked", "sentence"), [
    ("es", "Q02: 1", "¿Dónde están tus fichas #1?"),
    ("uk", "Q07", "Які сусідні плитки мають послідовні числа?"),
])
def test_break_the_code_cards_are_their_sentences(
        in_language: Any, language: str, asked: str, sentence: str) -> None:
    driver = in_language(language)
    screen = driver.start_break_the_code(2)
    screen.rng = random.Random(7)
    driver.tap(screen.learning_toggle)
    driver.tap(screen.deal_button)
    assert screen.card_buttons[asked].text == sentence
    screen.assistant_button.dispatch("on_long_press")
    driver.pump(2)
    found = [f for top in driver.window.children for f in notation_texts(top)]
    assert not found, found
    screen.assistant_button.dispatch("on_long_release")
    driver.tap(screen.card_buttons[asked])
    assert screen.status.startswith(sentence), driver.app.banner_text
    found = [f for top in driver.window.children for f in notation_texts(top)]
    assert not found, found


def _extra_steps(game: str) -> list[Any]:
    """Steps past the shared walk that put a card into a sentence (Second Chance's "Fits?",
    its demo drawing and a card read by the camera)."""
    if game != "second-chance":
        return []

    def fits(d: Any) -> None:
        screen = d.screen("second_chance")
        screen.show_fit(screen.state().revealed[0])

    def demo_draw(d: Any) -> None:
        d.screen("second_chance").demo_draw()

    def card_read(d: Any) -> None:
        from types import SimpleNamespace

        screen = d.screen("second_chance")
        screen.chosen_cards = []
        screen._card_done(SimpleNamespace(shape="##./###/..#", doubtful=True), None)

    return [fits, demo_draw, card_read]


def _three_player_setup(d: Any) -> None:
    d.app.show("home")
    d.tap(d.screen("home").ids.game_indigo)
    setup = d.screen("setup")
    while len(setup.rows()) < 3:
        d.tap(setup.ids.add_player)
    while len(setup.rows()) > 3:
        setup.row_action(setup.rows()[-1], "remove")


@pytest.mark.parametrize("language", ["es", "uk"])
@pytest.mark.parametrize("game", [
    "setup", "indigo", "enigma", "second-chance", "break-the-code", "other screens"])
def test_no_notation_on_a_games_screens(make_driver: Any, language: str, game: str) -> None:
    from test_layout_text_fits import views

    driver = make_driver()
    driver.screen("settings").change("app", "language", language)
    found = []
    try:
        others = ("home", "history", "settings", "calibration", "banner")
        steps = ([_three_player_setup] if game == "setup" else
                 [step for name, step in views() if name in others] if game == "other screens"
                 else [step for name, step in views() if name.startswith(game)])
        for step in [*steps, *_extra_steps(game)]:
            step(driver)
            driver.pump(3)
            for top in list(driver.window.children):
                found += [(getattr(step, "__name__", ""), *f) for f in notation_texts(top)]
                found += [(getattr(step, "__name__", ""), "English", *f)
                          for f in english_texts(top)]
    finally:
        driver.screen("settings").change("app", "language", "en")
    assert not found, "\n".join(map(str, found))
