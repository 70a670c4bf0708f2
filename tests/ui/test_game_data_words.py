"""Names that come from the game data are worded in the player's language, and their counts take
the plural form of their number: Enigma's cell colours ("System closed: 2 red cells ..."),
Second Chance's solo series line, Break the Code's card texts and the tile colours in a code
written out (the engine's "b" is black, which a Spanish player reads as blanco).

Driven on the real screens; where the text comes from the engine's result (Enigma's scoring,
a finished game's empty squares) only that result is replaced, to choose the counts."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

pytestmark = pytest.mark.ui


def _texts(panel: Any) -> list[str]:
    return [w.text for w in panel.walk() if getattr(w, "text", "")]


# --- Enigma ---------------------------------------------------------------------------------
class _EnigmaScored:
    """An Enigma state just after one system closed: the engine's breakdown of it."""

    players = ("Ana", "Ben")
    pending = ()
    round = 1
    options = SimpleNamespace(target=12)

    def __init__(self, counts: tuple[tuple[str, int], ...], award_colour: str) -> None:
        award = SimpleNamespace(player="Ana", points=2, colour=award_colour)
        self.last_scored = [SimpleNamespace(colour_counts=counts, awards=(award,))]

    def score(self, player: str) -> int:
        return 2 if player == "Ana" else 0

    def is_over(self, *, record_ended: bool = True) -> bool:
        return False


@pytest.mark.parametrize(("language", "counts", "award", "shown"), [
    ("en", (("red", 1), ("blue", 3)), "red",
     "System closed: 1 red cell, 3 blue cells: Ana +2 (red)"),
    ("en", (("yellow", 2), ("green", 1), ("violet", 4)), "yellow",
     "System closed: 2 yellow cells, 1 green cell, 4 violet cells: Ana +2 (yellow)"),
    ("es", (("red", 1), ("blue", 3)), "red",
     "Sistema cerrado: 1 celda roja, 3 celdas azules: Ana +2 (rojo)"),
    ("es", (("yellow", 2), ("green", 1), ("violet", 4)), "yellow",
     "Sistema cerrado: 2 celdas amarillas, 1 celda verde, 4 celdas violet: Ana +2 (amarillo)"),
    # Ukrainian: 1 and 21 take one form, 2-4 another, 5-20 and 11 the third; the colour agrees
    ("uk", (("red", 1), ("blue", 3), ("yellow", 5)), "blue",
     "Систему закрито: 1 червона комірка, 3 сині комірки, 5 жовтих комірок: Ana +2 (синя)"),
    ("uk", (("green", 21), ("red", 11), ("violet", 2)), "green",
     "Систему закрито: 21 зелена комірка, 11 червоних комірок, 2 комірки violet: "
     "Ana +2 (зелена)"),
])
def test_a_closed_system_counts_its_cells_by_colour_in_the_players_words(
        in_language: Any, monkeypatch: Any, language: str, counts: tuple[tuple[str, int], ...],
        award: str, shown: str) -> None:
    from kivy.uix.boxlayout import BoxLayout

    driver = in_language(language)
    screen = driver.screen("enigma")
    state = _EnigmaScored(counts, award)
    monkeypatch.setattr(screen, "state", lambda: state)
    panel = BoxLayout(orientation="vertical")
    screen._panel_scored(panel)
    assert shown in _texts(panel)


@pytest.mark.parametrize(("language", "shown"), [
    ("en", ["Put a networker on the red cell", "Put a networker on the yellow cell",
            "Put a networker on the violet cell"]),
    ("es", ["Colocar un conector en la celda roja", "Colocar un conector en la celda amarilla",
            "Colocar un conector en la celda violet"]),
    ("uk", ["Поставити з’єднувача на червону комірку", "Поставити з’єднувача на жовту комірку",
            "Поставити з’єднувача на комірку violet"]),
])
def test_a_networkers_cells_are_named_by_their_colour_in_the_players_words(
        in_language: Any, monkeypatch: Any, language: str, shown: list[str]) -> None:
    from kivy.uix.gridlayout import GridLayout

    driver = in_language(language)
    screen = driver.screen("enigma")
    # the engine allows these cells of the tile just placed (its colours are the data's)
    monkeypatch.setattr(screen, "networker_cells", lambda: ("a", "b", "c"))
    screen.tile_entry = SimpleNamespace(id="C1", conduit=SimpleNamespace(
        cells=(("a", "red"), ("b", "yellow"), ("c", "violet"))))
    grid = GridLayout(cols=1)
    screen._networker_buttons(grid)
    texts = _texts(grid)
    assert sorted(t for t in texts if t in shown) == sorted(shown)
    assert not screen.ids.table.cell_marks  # one cell a colour: nothing to tell apart


@pytest.mark.parametrize(("language", "shown"), [
    ("en", ["Put a networker on the red cell marked 1", "Put a networker on the red cell "
            "marked 2", "Put a networker on the blue cell"]),
    ("uk", ["Поставити з’єднувача на червону комірку з позначкою 1",
            "Поставити з’єднувача на червону комірку з позначкою 2",
            "Поставити з’єднувача на синю комірку"]),
])
def test_two_cells_of_one_colour_are_told_apart_by_a_mark_on_the_board(
        in_language: Any, monkeypatch: Any, language: str, shown: list[str]) -> None:
    from kivy.uix.gridlayout import GridLayout

    driver = in_language(language)
    screen = driver.screen("enigma")
    monkeypatch.setattr(screen, "networker_cells", lambda: ("a", "b", "c"))
    screen.tile_entry = SimpleNamespace(id="C1", conduit=SimpleNamespace(
        cells=(("a", "red"), ("b", "blue"), ("c", "red"))))
    grid = GridLayout(cols=1)
    screen._networker_buttons(grid)
    assert sorted(t for t in _texts(grid) if t in shown) == sorted(shown)
    assert dict(screen.ids.table.cell_marks) == {"a": "1", "c": "2"}


# --- Second Chance: the solo series ---------------------------------------------------------
def _solo_line(driver: Any) -> str:
    text = " | ".join(driver.texts())
    return next(part for part in text.replace("\n", " | ").split(" | ")
                if part.startswith(("Solo game", "Partida en solitario", "Соло-гра")))


@pytest.mark.parametrize(("language", "shown"), [
    ("en", {1: "Solo game 1 of 3: 1 empty square, 1 in all (goal: under 10)",
            3: "Solo game 1 of 3: 3 empty squares, 3 in all (goal: under 10)"}),
    ("es", {1: "Partida en solitario 1 de 3: 1 casilla vacía, 1 en total "
               "(objetivo: menos de 10)",
            3: "Partida en solitario 1 de 3: 3 casillas vacías, 3 en total "
               "(objetivo: menos de 10)"}),
    ("uk", {1: "Соло-гра 1 з 3: 1 порожня клітинка, разом 1 (мета: менше ніж 10)",
            3: "Соло-гра 1 з 3: 3 порожні клітинки, разом 3 (мета: менше ніж 10)",
            5: "Соло-гра 1 з 3: 5 порожніх клітинок, разом 5 (мета: менше ніж 10)",
            21: "Соло-гра 1 з 3: 21 порожня клітинка, разом 21 (мета: менше ніж 10)"}),
])
def test_the_solo_line_counts_a_first_games_empty_squares_in_their_form(
        in_language: Any, monkeypatch: Any, language: str, shown: dict[int, str]) -> None:
    from kivy.uix.boxlayout import BoxLayout

    driver = in_language(language)
    app = driver.app
    app.new_game("second-chance", ["Sol"], {"deck_size": 2})
    screen = driver.screen("second_chance")
    for empty, line in shown.items():
        # the engine's result of the finished game, with this many empty squares
        monkeypatch.setattr(app, "result", lambda n=empty: {"empty": {"Sol": n}, "winners": []})
        panel = BoxLayout(orientation="vertical")
        screen._panel_over(panel)
        solo = [t for t in _texts(panel) if line.split(":")[0] in t]
        assert solo and solo[0].split("\n")[1] == line


@pytest.mark.parametrize(("language", "second", "third"), [
    ("en", "Solo game 2 of 3: 72 + 72 empty squares, 144 in all (goal: under 10)",
     "Solo game 3 of 3: 72 + 72 + 72 empty squares, 216 in all (goal: under 10)"),
    ("es", "Partida en solitario 2 de 3: 72 + 72 casillas vacías, 144 en total "
           "(objetivo: menos de 10)",
     "Partida en solitario 3 de 3: 72 + 72 + 72 casillas vacías, 216 en total "
     "(objetivo: menos de 10)"),
    # the noun agrees with the sum: 144 takes the form of 4, 216 that of 6
    ("uk", "Соло-гра 2 з 3: 72 + 72 порожні клітинки, разом 144 (мета: менше ніж 10)",
     "Соло-гра 3 з 3: 72 + 72 + 72 порожніх клітинок, разом 216 (мета: менше ніж 10)"),
])
def test_the_solo_line_counts_a_series_in_the_form_of_its_sum(
        in_language: Any, language: str, second: str, third: str) -> None:
    driver = in_language(language)
    app = driver.app
    lines = []
    for game in range(3):
        app.new_game("second-chance", ["Sol"], {"deck_size": 2})
        assert app.apply({"type": "start", "player": "Sol",
                          "cells": [[4, c] for c in range(8)]})
        assert app.apply({"type": "reveal", "cards": ["#", "##"]})
        assert app.apply({"type": "draw", "player": "Sol", "card": 0, "cells": [[0, game]]})
        assert app.apply({"type": "end"}), app.banner_text
        lines.append(_solo_line(driver))
        driver.tap(app.root.ids.home_button)  # the game becomes history
    assert lines[1:] == [second, third]


# --- Break the Code -------------------------------------------------------------------------
def test_every_card_has_its_text_in_each_language() -> None:
    from companion.break_the_code.cards import CARDS
    from ui.i18n import current_language, set_language
    from ui.screens.break_the_code import card_text

    before = current_language()
    try:
        set_language("en")
        english = {card_id: card_text(card_id, "?") for card_id in CARDS}
        assert english == {card_id: card.text for card_id, card in CARDS.items()}
        for language in ("es", "uk"):
            set_language(language)
            for card_id, card in CARDS.items():
                assert card_text(card_id, card.text) != card.text, (language, card_id)
    finally:
        set_language(before)


@pytest.mark.parametrize(("language", "card", "shown"), [
    ("en", "Q11", "How many of your tiles have a black number? "),
    ("es", "Q11", "¿Cuántas de tus fichas tienen el número negro? "),
    ("uk", "Q11", "Скільки ваших плиток мають чорне число? "),
    ("es", "Q18", "¿Cuánto suman tus números blancos? "),
    ("uk", "Q18", "Яка сума ваших білих чисел? "),
    ("es", "Q02: 2", "¿Dónde están tus fichas #2? "),
    ("uk", "Q02: 2", "Де ваші плитки #2? "),
])
def test_an_asked_card_is_read_out_in_the_players_language(
        in_language: Any, language: str, card: str, shown: str) -> None:
    driver = in_language(language)
    screen = driver.start_break_the_code(2)
    screen.rng = random.Random(7)
    driver.tap(screen.deal_button)
    driver.tap(screen.card_buttons[card])
    assert screen.status.startswith(shown), driver.app.banner_text
    assert shown in " | ".join(driver.texts())


@pytest.mark.parametrize(("language", "letters"), [("en", "bwg"), ("es", "nbv"),
                                                   ("uk", "чбз")])
def test_a_held_rack_marks_each_colour_by_its_initial_in_the_players_language(
        in_language: Any, language: str, letters: str) -> None:
    from ui.widgets.buttons import LongPressButton

    driver = in_language(language)
    screen = driver.start_break_the_code(2)
    screen.rng = random.Random(11)
    driver.tap(screen.deal_button)
    rack = driver.app.session.events[0]["racks"]["Ana"]
    assert any(colour in rack for colour in "bw")  # the engine's letters, to be reworded
    held = next(w for w in screen.walk() if isinstance(w, LongPressButton)
                and getattr(w, "player", "") == "Ana")
    screen.peek(held, True)
    assert held.text == rack.translate(str.maketrans("bwg", letters))
    screen.peek(held, False)
    assert held.text == "Ana"


# --- Break the Code: why the camera's read of a rack was not stored -------------------------
def _rack_refused(driver: Any, reading: Any) -> str:
    """The entry note after the tile reader's answer for the first player's rack (as the
    worker hands it to the screen), and that note is on the screen."""
    screen = driver.start_break_the_code(2)
    screen.start_entry()
    player = driver.app.session.players[0]
    screen.reading_rack = player  # the read under way, as "Show your tiles to the camera" sets
    screen._rack_read(player, reading, None)
    driver.pump(2)
    assert screen.entry_note in " | ".join(driver.texts())
    return str(screen.entry_note)


@pytest.mark.parametrize(("language", "reading", "shown"), [
    # the reader's own lines are English: the player reads the words for its tag instead
    ("en", dict(problem="refused", reason="too-small",
                detail="the marked area covers 3.0% of the frame (needs 8%): move the camera "
                       "closer"),
     "Not stored: the mat is too small in the picture: move the camera closer"),
    ("es", dict(problem="refused", reason="too-small",
                detail="the marked area covers 3.0% of the frame (needs 8%): move the camera "
                       "closer"),
     "No guardado: el tapete se ve demasiado pequeño en la imagen: acerca la cámara"),
    ("uk", dict(problem="refused", reason="ambiguous-layout",
                detail="two tiles lie on slot C2; lay one tile per slot"),
     "Не збережено: на місці C2 лежать дві плитки: кладіть по одній плитці на місце"),
    ("es", dict(problem="refused", reason="something-new", detail="an English line"),
     "No guardado: la cámara no puede usar esta imagen"),
    ("uk", dict(problem="unsure", detail="the tile on slot B1 seems upside down"),
     "Не збережено: камера не впевнена в кожній плитці (перевірте місце B1)"),
    ("es", dict(problem="unsure", detail=""),
     "No guardado: la cámara no está segura de todas las fichas"),
])
def test_a_refused_rack_read_says_why_in_the_players_language(
        in_language: Any, language: str, reading: dict[str, str], shown: str) -> None:
    from ui.reading import RackReading

    driver = in_language(language)
    assert _rack_refused(driver, RackReading(**reading)) == shown


# --- Indigo and Enigma: a placement the engine refuses --------------------------------------
def _indigo(driver: Any) -> Any:
    driver.tap(driver.screen("home").ids.game_indigo)
    driver.tap(driver.screen("setup").ids.start_button)
    return driver.screen("indigo")


def _blocking_placement(state: Any) -> tuple[tuple[int, int], int, int]:
    """A route cell and tile the engine refuses by the blocking rule (found by asking it)."""
    from companion.errors import CompanionError
    from companion.indigo.geometry import ROUTE_CELL_SET
    from companion.indigo.state import Placement, predict
    from companion.indigo.tiles import Tile

    for cell in sorted(ROUTE_CELL_SET):
        for kind in range(5):
            for rotation in range(6):
                try:
                    predict(state, Placement(cell, Tile(kind, rotation)))
                except CompanionError as exc:
                    if "blocking rule:" in str(exc):
                        return cell, kind, rotation
    raise AssertionError("the engine refuses no placement by the blocking rule")


@pytest.mark.parametrize(("language", "shown"), [
    ("en", {"centre": "Not legal: a treasure tile is on this cell",
            "taken": "Not legal: this cell already holds a tile",
            "gateway": "Not legal: here the tile would join the two exits of the gateway"}),
    ("es", {"centre": "No es legal: en esta casilla hay una loseta de tesoro",
            "taken": "No es legal: esta casilla ya tiene una loseta",
            "gateway": "No es legal: aquí la loseta uniría las dos salidas de la puerta"}),
    ("uk", {"centre": "Недопустимо: на цій клітинці лежить плитка зі скарбом",
            "taken": "Недопустимо: на цій клітинці вже є плитка",
            "gateway": "Недопустимо: тут плитка з’єднала б обидва виходи брами"}),
])
def test_indigo_says_which_rule_a_placement_breaks_in_the_players_language(
        in_language: Any, language: str, shown: dict[str, str]) -> None:
    from companion.indigo.geometry import ROUTE_CELL_SET

    driver = in_language(language)
    screen = _indigo(driver)
    screen.propose((0, 0), 0, 0)  # the centre holds the treasure tile
    assert screen.status == shown["centre"] and screen.proposal is None
    cell, kind, rotation = _blocking_placement(screen.state())
    screen.propose(cell, kind, rotation)
    assert screen.status == shown["gateway"]
    first = next(c for c in sorted(ROUTE_CELL_SET) if c != cell)
    for rotation in range(6):  # a legal placement on another cell, confirmed
        screen.propose(first, 0, rotation)
        if screen.proposal is not None:
            break
    screen.confirm()
    driver.pump(2)
    assert first in screen.state().tiles
    screen.propose(first, 1, 0)
    assert screen.status == shown["taken"]
    assert shown["taken"] in " | ".join(driver.texts())


@pytest.mark.parametrize(("language", "shown"), [
    ("en", "The tile cannot go where it was read (From the start tile: 9 squares right, 9 "
           "squares down; not turned): choose its square on the board, or tap Other tile"),
    ("es", "La loseta no puede ir donde se leyó (Desde la loseta inicial: 9 casillas a la "
           "derecha, 9 casillas abajo; sin girar): elige su casilla en el tablero, o toca "
           "Otra loseta"),
    ("uk", "Плитку не можна покласти туди, де її зчитано (Від стартової плитки: 9 клітинок "
           "праворуч, 9 клітинок нижче; без повороту): оберіть її клітинку на полі або "
           "торкніться «Інша плитка»"),
])
def test_enigma_says_a_tile_read_at_a_square_it_cannot_take_and_goes_back(
        in_language: Any, language: str, shown: str) -> None:
    from test_camera_read_words import enigma_placing

    from companion.enigma.board import Placement

    driver = in_language(language)
    screen = enigma_placing(driver)
    # what a misread gives: a conduit tile of the catalogue, at a square far off the table
    entry = screen.catalogue().by_category("conduit")[0]
    screen.tile_entry, screen.placement = entry, Placement((9, 9), 0)
    screen.build_panel()
    driver.pump(2)
    assert screen.status == shown
    assert screen.status in " | ".join(driver.texts())
    # its square is chosen again on the board, where the tile glows wherever it may go
    assert screen.placement is None and screen.ids.table.ghosts
    driver.tap(screen.other_tile_button)
    assert screen.tile_entry is None and screen.status == ""
