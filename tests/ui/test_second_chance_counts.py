"""Counts on the Second Chance screen take the plural form of their number in every language:
"1 new square", "2 new squares"; Ukrainian has three forms (1, 21 ...; 2-4, 22-24 ...; the rest)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

pytestmark = pytest.mark.ui

START = [[4, col] for col in range(8)]
#: a seeded game's start and first two rounds, each with draws by several players
EVENTS = 10


def _screen(driver: Any, language: str) -> Any:
    driver.screen("settings").change("app", "language", language)
    driver.tap(driver.screen("home").ids.game_second_chance)
    driver.tap(driver.screen("setup").ids.start_button)
    return driver.screen("second_chance")


def _read(new: int, missing: int) -> Any:
    return SimpleNamespace(new_cells=[(0, c) for c in range(new)],
                           missing=[(8, c) for c in range(missing)], doubtful=[], questions=[],
                           problems=[])


@pytest.mark.parametrize(("language", "counts", "seen"), [
    ("en", (1, 1), "The camera sees 1 new square; 1 accepted square looks empty"),
    ("en", (2, 3), "The camera sees 2 new squares; 3 accepted squares look empty"),
    ("es", (1, 1), "La cámara ve 1 casilla nueva; 1 casilla ya anotada parece vacía"),
    ("es", (0, 2), "La cámara ve 0 casillas nuevas; 2 casillas ya anotadas parecen vacías"),
    ("uk", (1, 1), "Камера бачить 1 нову клітинку; 1 прийнята клітинка виглядає порожньою"),
    ("uk", (3, 4), "Камера бачить 3 нові клітинки; 4 прийняті клітинки виглядають порожніми"),
    ("uk", (5, 6), "Камера бачить 5 нових клітинок; 6 прийнятих клітинок виглядають порожніми"),
])
def test_what_the_camera_saw_takes_the_form_of_each_count(
        make_driver: Any, language: str, counts: tuple[int, int], seen: str) -> None:
    driver = make_driver()
    try:
        screen = _screen(driver, language)
        screen._read_done(_read(*counts), None)
        assert screen.status == seen
    finally:
        driver.screen("settings").change("app", "language", "en")


@pytest.mark.parametrize(("language", "before", "after"), [
    ("en", "Ana: 81 empty", "Ana: 73 empty"),
    ("es", "Ana: 81 vacías", "Ana: 73 vacías"),
    # 81 takes the form of 1, 73 that of 3
    ("uk", "Ana: 81 порожня", "Ana: 73 порожні"),
])
def test_the_players_tabs_count_empty_squares_in_the_form_of_the_number(
        make_driver: Any, language: str, before: str, after: str) -> None:
    driver = make_driver()
    try:
        screen = _screen(driver, language)
        screen.view("Ana")
        assert screen.tab_buttons["Ana"].text == before
        screen.ids.sheet.selected = START
        screen.enter_start()
        driver.pump(2)
        assert screen.tab_buttons["Ana"].text == after
    finally:
        driver.screen("settings").change("app", "language", "en")


def test_a_move_keeps_the_players_tabs_and_changes_their_words(make_driver: Any) -> None:
    # rebuilt at every move, the tabs were a fifth of the garbage that the app's full
    # collections walk (a fifth of a second of CPU on the main thread every few seconds)
    driver = make_driver()
    screen = _screen(driver, "en")
    screen.view("Ana")
    tabs = dict(screen.tab_buttons)
    screen.ids.sheet.selected = START
    screen.enter_start()
    driver.pump(2)
    assert screen.tab_buttons == tabs
    assert all(screen.tab_buttons[n] is tab for n, tab in tabs.items())
    assert screen.tab_buttons["Ana"].text == "Ana: 73 empty"
    assert [n for n, t in screen.tab_buttons.items() if t.state == "down"] == [screen.viewer]
    screen.view("Ana")
    assert [t.state for t in screen.tab_buttons.values()] == ["down", "normal", "normal"]
    assert list(reversed(screen.ids.tabs.children)) == list(tabs.values())


def _seeded_game(driver: Any) -> tuple[dict[str, Any], Any]:
    """A seeded Second Chance game of Ana, Ben and Cleo (seed 3) started in the app: its
    record, and the game's screen."""
    import random

    from companion.second_chance.simulate import simulate_game

    players = ["Ana", "Ben", "Cleo"]
    record = simulate_game(players, rng=random.Random(3))
    driver.app.new_game("second-chance", players, record.get("options", {}))
    return record, driver.screen("second_chance")


def test_a_draw_keeps_the_rounds_panel_and_names_the_next_player(make_driver: Any) -> None:
    # made anew at every draw (its card rows, its camera part), the round's panel was most of
    # the cyclic garbage of a game that the app's full collections walk
    driver = make_driver()
    record, screen = _seeded_game(driver)
    rounds: dict[tuple[str, ...], Any] = {}
    for event in record["events"][:EVENTS]:
        driver.app.apply(event)
        driver.pump(1)
        panels = [w for w in screen.ids.panel.walk() if type(w).__name__ == "ScRoundPanel"]
        if not panels:
            continue
        (panel,) = panels
        cards = tuple(card.text for card in screen.state().revealed)
        assert rounds.setdefault(cards, panel) is panel
        assert panel.player == screen.viewer == screen.player_to_act()
        texts = [getattr(w, "text", "") for w in panel.walk()]
        assert f"{screen.viewer}: draw one of the two cards" in texts
    assert len(rounds) == 2


@pytest.mark.parametrize("camera", [False, True])
def test_the_rounds_panel_is_kept_from_round_to_round_and_its_rows_draw_each_rounds_cards(
        make_driver: Any, camera: bool) -> None:
    # made anew every round with its two card rows, the round's panel was most of a game's
    # cyclic garbage left after session 20 (115-131k objects a game), which the app's full
    # collections walk. Kept, its rows must show, fit and draw the round's cards, not the
    # first round's: each draw of a seeded game is tapped on its row, on the player's sheet
    from companion.second_chance import first_placement
    from ui.widgets.sheet_grid import ShapeButton

    driver = make_driver(start_camera=camera)
    record, screen = _seeded_game(driver)
    panels: list[Any] = []
    rounds: set[tuple[str, ...]] = set()
    for event in record["events"]:
        if event["type"] != "draw":
            assert driver.app.apply(event), driver.app.banner_text
            driver.pump(1)
            continue
        driver.tap(screen.tab_buttons[event["player"]])
        revealed = screen.state().revealed
        rounds.add(tuple(card.text for card in revealed))
        (panel,) = [w for w in screen.ids.panel.walk() if type(w).__name__ == "ScRoundPanel"]
        panels.append(panel)
        rows = list(reversed(panel.ids.cards.children))
        assert [next(w.shape for w in row.children if isinstance(w, ShapeButton))
                for row in rows] == list(revealed)
        # "Fits?" on the drawn card's row shows where that card fits on this player's sheet
        driver.tap(rows[event["card"]].ids.fits)
        grid = screen.state().player(event["player"]).grid
        assert sorted(map(tuple, screen.ids.sheet.ghost)) == sorted(
            first_placement(grid, revealed[event["card"]]))
        screen.ids.sheet.selected = [list(c) for c in event["cells"]]
        drawn = len(driver.app.session.events)
        driver.tap(rows[event["card"]].ids.draw)
        (entered,) = driver.app.session.events[drawn:]
        assert {k: entered.get(k) for k in event} == event, driver.app.banner_text
        if len(rounds) == 3:
            break
    assert len(rounds) == 3
    assert all(panel is panels[0] for panel in panels)


@pytest.mark.parametrize("camera", [False, True])
def test_the_decks_shapes_are_made_once_and_each_rounds_cards_are_tapped_on_them(
        make_driver: Any, monkeypatch: Any, camera: bool) -> None:
    # made anew for every round's cards and every second chance, some 70 at a time, the shape
    # buttons were three quarters of a game's cyclic garbage, which the app's full collections
    # walk (bench/app_memory.py: a full collection every 4 s, 85 ms of CPU each); the cards'
    # panel around them, made anew every round, most of the rest
    from ui.screens import second_chance
    from ui.widgets.sheet_grid import ShapeButton

    made: list[Any] = []

    class CountedShapeButton(ShapeButton):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(second_chance, "ShapeButton", CountedShapeButton)
    driver = make_driver(start_camera=camera)
    record, screen = _seeded_game(driver)
    assert screen.split == camera  # landscape: the camera's column beside the phase's
    rounds = 0
    grids: list[list[Any]] = []
    panels: list[Any] = []
    for event in record["events"]:
        if event["type"] == "reveal" and rounds < 3:
            # the round's two cards, tapped on the buttons of the panel on screen
            driver.pump(1)
            grids.append([w for w in screen.ids.panel.walk() if isinstance(w, ShapeButton)])
            (panel,) = [w for w in screen.ids.panel.walk(restrict=True)
                        if type(w).__name__ == "ScRevealPanel"]
            panels.append(panel)
            assert panel.heading.startswith(f"Round {rounds + 1}: "), panel.heading
            if camera:  # the camera's buttons on screen are the panel's
                assert any(w is screen.read_button for w in screen.ids.panel.walk())
            for card in event["cards"]:
                driver.tap(next(b for b in grids[-1] if b.shape.is_same_card(card)))
            assert [c.text for c in screen.state().revealed] == event["cards"]
            rounds += 1
            continue
        if rounds == 3:
            break
        assert driver.app.apply(event), driver.app.banner_text
        driver.pump(1)
    assert rounds == 3
    assert len(grids[0]) == len(screen.deck().puzzle)
    assert all(grid == grids[0] for grid in grids)
    assert all(a is b for grid in grids for a, b in zip(grid, grids[0], strict=True))
    assert all(panel is panels[0] for panel in panels)
    # and a round's two cards, drawn in their rows
    assert len(made) <= len(screen.deck().puzzle) + 2 * rounds


def _drag_up(driver: Any, widget: Any, distance: float) -> None:
    """A finger put on ``widget`` and moved up by ``distance`` pixels, then lifted (a scroll
    view's content follows it down)."""
    from kivy.tests.common import UnitTestTouch

    driver.settle(widget)
    x, y = widget.to_window(*widget.center)
    # a scroll view hands a touch that has not moved far enough within scroll_timeout to the
    # child under it: on a loaded machine the frames between the moves can take that long
    kept_timeout, widget.scroll_timeout = widget.scroll_timeout, 60_000
    touch = UnitTestTouch(x, y - distance / 2)
    touch.touch_down()
    for step in range(1, 11):
        touch.touch_move(x, y - distance / 2 + distance * step / 10)
        driver.pump(1)
    touch.touch_up()
    widget.scroll_timeout = kept_timeout
    driver.settle(widget)


def test_the_decks_shapes_show_from_the_top_at_each_rounds_cards(make_driver: Any) -> None:
    # the cards' panel and its grid of the deck's shapes are kept from round to round: a grid
    # scrolled down to last round's cards began the next round where the finger left it, the
    # first shapes out of view (Break the Code's questions begin at the top at each ask)
    driver = make_driver()
    record, screen = _seeded_game(driver)
    tops: list[float] = []
    for event in record["events"]:
        if event["type"] == "reveal" and len(tops) < 2:
            driver.pump(1)
            (panel,) = [w for w in screen.ids.panel.walk(restrict=True)
                        if type(w).__name__ == "ScRevealPanel"]
            shapes = panel.ids.shapes
            driver.settle(shapes)
            tops.append(shapes.scroll_y)
            _drag_up(driver, shapes, shapes.height * 0.8)
            assert driver.wait_for(lambda s=shapes: s.scroll_y < 0.9), shapes.scroll_y
            for card in event["cards"]:
                driver.tap(next(b for b in screen.shape_buttons if b.shape.is_same_card(card)))
            assert [c.text for c in screen.state().revealed] == event["cards"]
            continue
        if len(tops) == 2:
            break
        assert driver.app.apply(event), driver.app.banner_text
        driver.pump(1)
    assert tops == [1.0, 1.0]
