"""Counts on the Setup, Break the Code, History, Enigma and Indigo screens take the plural form
of their number: "1 player", "2 players"; Ukrainian has three forms (1, 21 ...; 2-4, 22-24 ...;
the rest). Each text is checked for 1, 2-4 and 5+ (where the screen can show them) in en, es and
uk, on the real screen; where the count comes from the solver, the journal or the engine's
result, only that source is replaced."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

pytestmark = pytest.mark.ui


# --- Setup ----------------------------------------------------------------------------------
def _setup(driver: Any, game_button: str, players: int) -> Any:
    driver.tap(driver.screen("home").ids[game_button])
    setup = driver.screen("setup")
    while len(setup.rows()) < players:
        setup.add_player()
    while len(setup.rows()) > players:
        setup.row_action(setup.rows()[-1], "remove")
    return setup


@pytest.mark.parametrize(("language", "shown"), [
    ("en", {1: "1 player", 3: "3 players", 5: "5 players"}),
    ("es", {1: "1 jugador", 3: "3 jugadores", 5: "5 jugadores"}),
    ("uk", {1: "1 гравець", 3: "3 гравці", 5: "5 гравців"}),
])
def test_setup_counts_the_players(in_language: Any, language: str,
                                  shown: dict[int, str]) -> None:
    driver = in_language(language)
    for players, text in shown.items():  # Second Chance takes 1 to 6 players
        setup = _setup(driver, "game_second_chance", players)
        assert setup.ids.count_label.text == text
        driver.app.show("home")


@pytest.mark.parametrize(("language", "fewest", "most"), [
    ("en", {"game_second_chance": "Second Chance needs at least 1 player",
            "game_indigo": "Indigo needs at least 2 players"},
     {"game_indigo": "Indigo takes at most 4 players",
      "game_second_chance": "Second Chance takes at most 6 players"}),
    ("es", {"game_second_chance": "Second Chance necesita al menos 1 jugador",
            "game_indigo": "Indigo necesita al menos 2 jugadores"},
     {"game_indigo": "Indigo admite como máximo 4 jugadores",
      "game_second_chance": "Second Chance admite como máximo 6 jugadores"}),
    ("uk", {"game_second_chance": "Second Chance: щонайменше 1 гравець",
            "game_indigo": "Indigo: щонайменше 2 гравці"},
     {"game_indigo": "Indigo: щонайбільше 4 гравці",
      "game_second_chance": "Second Chance: щонайбільше 6 гравців"}),
])
def test_setup_says_the_fewest_and_most_players_in_their_form(
        in_language: Any, language: str, fewest: dict[str, str], most: dict[str, str]) -> None:
    driver = in_language(language)
    for button, text in fewest.items():
        setup = _setup(driver, button, 2 if button == "game_indigo" else 1)
        setup.row_action(setup.rows()[-1], "remove")
        assert setup.message == text
        driver.app.show("home")
    for button, text in most.items():
        setup = _setup(driver, button, 4 if button == "game_indigo" else 6)
        setup.add_player()
        assert setup.message == text
        driver.app.show("home")


# --- Break the Code -------------------------------------------------------------------------
#: the card the fake assistant suggests
CARD = "Q07"


class _Candidates:
    """The assistant's candidates, as many as asked for, all alike."""

    def __init__(self, count: int) -> None:
        self._ranked = [("0b 1w 2b 3w 5g", 1.0 / count)] * count

    def __len__(self) -> int:
        return len(self._ranked)

    def ranked(self, top: int | None = None) -> list[tuple[str, float]]:
        return self._ranked[:top]


def _advice(count: int, card: str | None) -> Any:
    question = SimpleNamespace(card=card, number=None) if card else None
    return SimpleNamespace(candidates=_Candidates(count), question=question)


def _solver_says(monkeypatch: Any, count: int, card: str | None) -> None:
    from companion.break_the_code import solver

    monkeypatch.setattr(solver, "view_of", lambda state, player: None)
    monkeypatch.setattr(solver, "suggest", lambda view: _advice(count, card))


@pytest.mark.parametrize(("language", "shown"), [
    ("en", {(1, None): "1 code possible; time to guess",
            (3, CARD): "3 codes possible; ask {card}", (5, CARD): "5 codes possible; ask {card}"}),
    ("es", {(1, None): "1 código posible; hora de adivinar",
            (2, None): "2 códigos posibles; hora de adivinar",
            (5, CARD): "5 códigos posibles; pregunta {card}"}),
    ("uk", {(1, None): "1 можливий код; час вгадувати",
            (21, CARD): "21 можливий код; запитайте {card}",
            (4, CARD): "4 можливі коди; запитайте {card}",
            (5, None): "5 можливих кодів; час вгадувати",
            (12, CARD): "12 можливих кодів; запитайте {card}"}),
])
def test_the_assistant_counts_the_codes_still_possible(
        in_language: Any, monkeypatch: Any, language: str,
        shown: dict[tuple[int, str | None], str]) -> None:
    from ui.screens.break_the_code import card_text

    driver = in_language(language)
    screen = driver.start_break_the_code(2)
    button = SimpleNamespace(text="")
    for (count, card), text in shown.items():
        _solver_says(monkeypatch, count, card)
        screen.assist(button, True)
        # the card is named by its sentence in the player's language, never by its id
        assert button.text == text.replace("{card}", card_text(CARD, ""))


@pytest.mark.parametrize(("language", "shown"), [
    ("en", {1: "Ana: 1 code was still possible: 0b 1w 2b 3w 5g (100%)",
            3: "Ana: 3 codes were still possible: " + ", ".join(["0b 1w 2b 3w 5g (33%)"] * 3),
            5: "Ana: 5 codes were still possible; {card} would have told most"}),
    ("es", {1: "Ana: aún era posible 1 código: 0n 1b 2n 3b 5v (100%)",
            4: "Ana: aún eran posibles 4 códigos; {card} habría dicho más"}),
    ("uk", {1: "Ana: ще залишався 1 можливий код: 0ч 1б 2ч 3б 5з (100%)",
            21: "Ana: ще залишався 21 можливий код; найбільше підказала б {card}",
            2: "Ana: ще залишалися 2 можливі коди: " + ", ".join(["0ч 1б 2ч 3б 5з (50%)"] * 2),
            4: "Ana: ще залишалися 4 можливі коди; найбільше підказала б {card}",
            5: "Ana: ще залишалося 5 можливих кодів; найбільше підказала б {card}"}),
])
def test_the_analysis_counts_the_codes_still_possible(
        in_language: Any, monkeypatch: Any, language: str, shown: dict[int, str]) -> None:
    from ui.screens.break_the_code import card_text

    driver = in_language(language)
    screen = driver.start_break_the_code(2)
    for count, text in shown.items():
        _solver_says(monkeypatch, count, CARD)
        assert screen.analysis()[0] == text.replace("{card}", card_text(CARD, ""))


@pytest.mark.parametrize(("language", "shown"), [
    ("en", {1: "Not stored: the camera sees 1 tile, not 5",
            4: "Not stored: the camera sees 4 tiles, not 5",
            6: "Not stored: the camera sees 6 tiles, not 5"}),
    ("es", {1: "No guardado: la cámara ve 1 ficha, no 5",
            6: "No guardado: la cámara ve 6 fichas, no 5"}),
    ("uk", {1: "Не збережено: камера бачить 1 плитку, а не 5",
            3: "Не збережено: камера бачить 3 плитки, а не 5",
            6: "Не збережено: камера бачить 6 плиток, а не 5",
            11: "Не збережено: камера бачить 11 плиток, а не 5"}),
])
def test_a_rack_read_with_the_wrong_count_says_how_many_tiles_it_saw(
        in_language: Any, language: str, shown: dict[int, str]) -> None:
    driver = in_language(language)
    screen = driver.start_break_the_code(2)
    screen.start_entry()
    for seen, text in shown.items():
        screen._rack_not_stored(screen._why_not(SimpleNamespace(problem="count", seen=seen)))
        assert screen.entry_note == text


@pytest.mark.parametrize(("language", "stored"), [
    ("en", {1: "code stored: 1 tile", 3: "code stored: 3 tiles", 5: "code stored: 5 tiles"}),
    ("es", {1: "código guardado: 1 ficha", 5: "código guardado: 5 fichas"}),
    ("uk", {1: "код збережено: 1 плитка", 4: "код збережено: 4 плитки",
            5: "код збережено: 5 плиток"}),
])
def test_a_stored_rack_counts_its_tiles(in_language: Any, language: str,
                                       stored: dict[int, str]) -> None:
    from companion.break_the_code import parse_code

    driver = in_language(language)
    screen = driver.start_break_the_code(3)  # three racks: storing one does not deal
    tiles = ["0b", "1w", "2b", "3w", "5g"]
    for count, text in stored.items():
        screen.start_entry()
        screen._store_rack(screen._entry_player(), parse_code(" ".join(tiles[:count])))
        assert screen.entry_note == text


@pytest.mark.parametrize(("language", "players", "tap", "pick"), [
    ("en", 4, "Ana: tap your 4 tiles, then Done", "Ana: pick 4 tiles, unseen by the others"),
    ("es", 2, "Ana: toca tus 5 fichas y luego Hecho", "Ana: elige 5 fichas sin que te vean"),
    ("uk", 4, "Ana: торкніться своїх 4 плиток, потім «Готово»",
     "Ana: виберіть 4 плитки так, щоб інші не бачили"),
    ("uk", 2, "Ana: торкніться своїх 5 плиток, потім «Готово»",
     "Ana: виберіть 5 плиток так, щоб інші не бачили"),
])
def test_the_rack_size_is_counted_in_its_form(in_language: Any, language: str, players: int,
                                              tap: str, pick: str) -> None:
    driver = in_language(language)
    screen = driver.start_break_the_code(players)
    screen.start_entry()
    screen.covered = False
    for panel_of, text in ((screen._entry_panel, tap), (screen._guess_panel, pick)):
        panel = panel_of()
        assert text in [getattr(w, "text", "") for w in panel.walk()]


# --- History --------------------------------------------------------------------------------
@pytest.mark.parametrize(("language", "shown"), [
    ("en", {(1, ("Ana",)): "1 event; winner: Ana",
            (3, ("Ana", "Ben")): "3 events; winners: Ana, Ben",
            (5, ()): "5 events; winners: -"}),
    ("es", {(1, ("Ana",)): "1 evento; gana: Ana",
            (2, ("Ana", "Ben")): "2 eventos; ganan: Ana, Ben"}),
    ("uk", {(1, ("Ana",)): "1 подія; переможець: Ana", (21, ("Ana",)): "21 подія; переможець: Ana",
            (3, ("Ana", "Ben")): "3 події; переможці: Ana, Ben",
            (5, ("Ana",)): "5 подій; переможець: Ana", (11, ()): "11 подій; переможці: -"}),
])
def test_history_counts_a_games_events_and_winners(
        in_language: Any, monkeypatch: Any, language: str,
        shown: dict[tuple[int, tuple[str, ...]], str]) -> None:
    from ui import services

    driver = in_language(language)
    _setup(driver, "game_second_chance", 2)
    driver.tap(driver.screen("setup").ids.start_button)  # a game in the journal
    driver.app.show("history")
    screen = driver.screen("history")
    summary = next(iter(driver.app.journal.games()))
    for (events, winners), text in shown.items():
        monkeypatch.setattr(driver.app.journal, "events", lambda _id, n=events: [{}] * n)
        monkeypatch.setattr(services, "replay_events",
                            lambda *_a, w=winners: [{"scores": {}, "winners": list(w)}])
        screen.select(summary)
        assert screen.detail == text


# --- Enigma and Indigo results --------------------------------------------------------------
class _EnigmaOver:
    players = ("Ana", "Ben")

    def __init__(self, points: int, networkers: int, winners: tuple[str, ...]) -> None:
        self.points, self.networkers, self._winners = points, networkers, winners

    def score(self, player: str) -> int:
        return self.points if player == "Ana" else 0

    def networkers_on_board(self, player: str) -> int:
        return self.networkers if player == "Ana" else 0

    def winners(self) -> tuple[str, ...]:
        return self._winners


@pytest.mark.parametrize(("language", "shown"), [
    ("en", {(1, 1, ("Ana",)): ["1. Ana: 1 point, 1 networker on the board", "Winner: Ana"],
            (3, 2, ("Ana", "Ben")): ["1. Ana: 3 points, 2 networkers on the board",
                                     "Winners: Ana, Ben"],
            (5, 6, ("Ana",)): ["1. Ana: 5 points, 6 networkers on the board", "Winner: Ana"]}),
    ("es", {(1, 1, ("Ana",)): ["1. Ana: 1 punto, 1 conector en la mesa", "Gana: Ana"],
            (12, 3, ("Ana", "Ben")): ["1. Ana: 12 puntos, 3 conectores en la mesa",
                                      "Ganan: Ana, Ben"]}),
    ("uk", {(1, 21, ("Ana",)): ["1. Ana: 1 очко, 21 з’єднувач на столі", "Переможець: Ana"],
            (3, 4, ("Ana", "Ben")): ["1. Ana: 3 очки, 4 з’єднувачі на столі",
                                     "Переможці: Ana, Ben"],
            (25, 5, ("Ana",)): ["1. Ana: 25 очок, 5 з’єднувачів на столі", "Переможець: Ana"],
            (11, 14, ("Ana",)): ["1. Ana: 11 очок, 14 з’єднувачів на столі",
                                 "Переможець: Ana"]}),
])
def test_enigmas_ranking_counts_points_networkers_and_winners(
        in_language: Any, monkeypatch: Any, language: str,
        shown: dict[tuple[int, int, tuple[str, ...]], list[str]]) -> None:
    from kivy.uix.boxlayout import BoxLayout

    driver = in_language(language)
    screen = driver.screen("enigma")
    for (points, networkers, winners), lines in shown.items():
        state = _EnigmaOver(points, networkers, winners)
        monkeypatch.setattr(screen, "state", lambda s=state: s)
        panel = BoxLayout(orientation="vertical")
        screen._panel_over(panel)
        ranking = [w.text for w in panel.walk() if "\n" in getattr(w, "text", "")][0]
        rows = ranking.split("\n")
        assert [rows[0], rows[-1]] == lines


@pytest.mark.parametrize(("language", "shown"), [
    ("en", {(1, (1, 0, 0), ("Ana",)): ("1. Ana: 1 point, 1 gem", "Winner: Ana",
                                        "1 amber, 0 emeralds, 0 sapphires"),
            (4, (1, 2, 5), ("Ana", "Ben")): ("1. Ana: 4 points, 8 gems", "Winners: Ana, Ben",
                                            "1 amber, 2 emeralds, 5 sapphires")}),
    ("es", {(1, (1, 0, 0), ("Ana",)): ("1. Ana: 1 punto, 1 gema", "Gana: Ana",
                                        "1 ámbar, 0 esmeraldas, 0 zafiros"),
            (4, (2, 1, 3), ("Ana", "Ben")): ("1. Ana: 4 puntos, 6 gemas", "Ganan: Ana, Ben",
                                            "2 ámbares, 1 esmeralda, 3 zafiros")}),
    ("uk", {(1, (1, 0, 0), ("Ana",)): ("1. Ana: 1 очко, 1 самоцвіт", "Переможець: Ana",
                                        "1 бурштин, 0 смарагдів, 0 сапфірів"),
            (2, (2, 1, 0), ("Ana", "Ben")): ("1. Ana: 2 очки, 3 самоцвіти", "Переможці: Ana, Ben",
                                            "2 бурштини, 1 смарагд, 0 сапфірів"),
            (5, (1, 5, 15), ("Ana",)): ("1. Ana: 5 очок, 21 самоцвіт", "Переможець: Ana",
                                         "1 бурштин, 5 смарагдів, 15 сапфірів")}),
])
def test_indigos_result_and_haul_count_points_gems_and_winners(
        in_language: Any, monkeypatch: Any, language: str,
        shown: dict[tuple[int, tuple[int, int, int], tuple[str, ...]], tuple[str, str, str]]
) -> None:
    driver = in_language(language)
    screen = driver.screen("indigo")
    for (points, (amber, emerald, sapphire), winners), (first, last, haul) in shown.items():
        gems = {"Ana": {"amber": amber, "emerald": emerald, "sapphire": sapphire},
                "Ben": {"amber": 0, "emerald": 0, "sapphire": 0}}
        result = {"scores": {"Ana": points, "Ben": 0}, "gems": gems, "winners": list(winners)}
        monkeypatch.setattr(driver.app, "result", lambda r=result: r)
        screen._show_result()
        rows = screen.result_text.split("\n")
        assert (rows[0], rows[-1]) == (first, last)
        assert screen.haul_text("Ana") == haul


def test_the_extractor_finds_plural_texts_in_kv_files_too(tmp_path: Any) -> None:
    from ui.i18n import extract_messages

    (tmp_path / "a.kv").write_text(
        '    text: ngettext("{n} tile", "{n} tiles", root.n).format(n=root.n)\n'
        '    hint: _("One {n}")\n')
    assert extract_messages(tmp_path) == ["{n} tile\0{n} tiles", "One {n}"]
