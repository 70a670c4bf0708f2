"""No notation on screen (issue 23): question cards are their sentences, and a walk through
each game's screens in Spanish and Ukrainian finds no shape strings, card or tile ids and no
"turn N" in any widget's text."""

from __future__ import annotations

import random
from typing import Any

import pytest
from notation import notation_in, notation_texts

pytestmark = pytest.mark.ui


@pytest.mark.parametrize(("text", "found"), [
    ("##./###/..# fits, for example here", ["##./###/..#"]),
    ("Demo: Ana drew ## on paper", ["##"]),
    ("Q01: 3", ["Q01"]),
    ("tile C-06", ["C-06"]),
    ("0,-1 turn 0", ["turn 0"]),
    ("Where are your #0 tiles?", []),
    ("Loading...", []),
])
def test_notation_is_recognised(text: str, found: list[str]) -> None:
    assert notation_in(text) == found


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
