"""A game screen rebuilt on every move leaves nothing behind: a game played again through it
ends with as many live widgets as the first time. (A status line bound to the screen with
``label.setter`` kept every rebuilt panel alive, about sixty labels a game.)"""

from __future__ import annotations

import random
from typing import Any

import pytest
from live_widgets import live_widgets

PLAYERS = ["Ana", "Ben", "Cleo"]
#: moves played of each game: enough to rebuild every panel of a round several times
MOVES = 14




def _second_chance_game(driver: Any, seed: int) -> None:
    from companion.second_chance.simulate import simulate_game

    record = simulate_game(list(PLAYERS), rng=random.Random(seed))
    driver.app.new_game("second-chance", list(PLAYERS), record.get("options", {}))
    for event in record["events"][:MOVES]:
        assert driver.app.apply(event), event
        driver.pump(1)


def _enigma_game(driver: Any, seed: int) -> None:
    from companion.timer import ManualClock
    from vision.enigma.synth.scenes import random_record

    record, _state = random_record(seed, tiles=6, players=len(PLAYERS))
    screen = driver.screen("enigma")
    # the sand timer on the wall clock ran out during some games and not others, so they
    # ended on other panels (CI: 19 widgets apart): each game now ends on the same one
    screen.clock = ManualClock()
    driver.app.new_game("enigma", list(record["players"]), record.get("options", {}))
    for event in record["events"][:MOVES]:
        if event.get("type") == "round":  # as the players do: the timer is started first
            screen.choices = dict(event.get("choices", {}))
            screen.begin_solve()
            driver.pump(1)
        assert driver.app.apply(event), event
        driver.pump(1)


@pytest.mark.parametrize("play", [_second_chance_game, _enigma_game],
                         ids=["second-chance", "enigma"])
def test_a_second_game_leaves_no_more_widgets_alive(make_driver: Any, play: Any) -> None:
    driver = make_driver()
    counts = []
    for _game in range(3):  # the same moves each time: the screen ends as it was
        play(driver, 1)
        driver.app.show("home")
        driver.pump(2)
        counts.append(live_widgets(driver))
    # the first game on a screen just made ends on another panel than the later ones (Enigma's
    # tile buttons): the second and the third game are compared
    assert counts[2] <= counts[1], counts


def test_widgets_frozen_between_games_are_counted(make_driver: Any) -> None:
    """The collector freezes what lives when Home is shown: the count still sees it all."""
    import gc

    driver = make_driver()
    before = live_widgets(driver)
    gc.freeze()
    try:
        assert live_widgets(driver) == before
    finally:
        gc.unfreeze()


def test_screens_made_anew_after_a_language_change_let_the_old_ones_go(make_driver: Any) -> None:
    """A language change makes every screen anew (``rebuild``): the old ones must go. The app
    held each screen through its own bindings (the portrait setter, the game screens' lambdas
    on ``revision``): every old screen, panels and textures, lived as long as the app.
    Only this app's old screens are followed (weakly): a full run leaves other tests' apps,
    and their screens, alive in the same process."""
    import gc
    import weakref

    from ui.app import GAME_SCREENS

    driver = make_driver()
    for name in ["home", *GAME_SCREENS.values()]:
        driver.app.show(name, remember=False)
        driver.pump(1)
    old = [weakref.ref(screen) for screen in driver.app.root.ids.manager.screens]
    assert len(old) >= 1 + len(GAME_SCREENS)
    driver.app.show("home", remember=False)
    driver.app.rebuild()
    for name in GAME_SCREENS.values():
        driver.app.screen(name)
    driver.pump(2)
    live_widgets(driver)  # collects, once what holds an old panel for a moment has let go
    gc.unfreeze()
    gc.collect()
    kept = sorted(screen.name for screen in (ref() for ref in old) if screen is not None)
    assert kept == []


def _screen_let_go(driver: Any, screen: Any) -> bool:
    """Whether ``screen`` (a weak reference) is gone once the garbage is collected."""
    import gc

    live_widgets(driver)  # collects, once what holds an old panel for a moment has let go
    gc.unfreeze()
    gc.collect()
    return screen() is None


def test_a_finished_games_screen_goes_on_home_and_comes_back_when_shown(
        make_driver: Any) -> None:
    """Back on Home after a game, its screen (its last panels, a few hundred widgets) goes; a
    new game makes it anew. Kept, every screen played once lived all evening."""
    import weakref

    from companion.second_chance.simulate import simulate_game

    driver = make_driver()
    record = simulate_game(list(PLAYERS), rng=random.Random(3))
    driver.app.new_game("second-chance", list(PLAYERS), record.get("options", {}))
    for event in record["events"]:
        assert driver.app.apply(event), event
        driver.pump(1)
    assert driver.app.session.result().get("over")
    played = weakref.ref(driver.screen("second_chance"))
    driver.app.show("home")
    driver.pump(2)
    assert driver.app.session is None  # the game became history
    made = [screen.name for screen in driver.app.root.ids.manager.screens]
    assert "second_chance" not in made, made
    assert _screen_let_go(driver, played)
    driver.app.new_game("second-chance", list(PLAYERS), record.get("options", {}))
    driver.pump(2)
    again = driver.screen("second_chance")
    assert again is not None and driver.app.current_screen() is again
    assert again.state() is not None


def test_on_home_only_the_screen_of_the_game_in_play_stays(make_driver: Any) -> None:
    """An unfinished game's screen stays while it is the game in play (its players come back
    to it); the screen of a game left for another one goes."""
    import weakref

    driver = make_driver()
    driver.app.new_game("indigo", list(PLAYERS), {})
    driver.pump(2)
    left = weakref.ref(driver.screen("indigo"))
    _second_chance_game(driver, 2)  # another game begins: Indigo's is left unfinished
    driver.app.show("home")
    driver.pump(2)
    made = [screen.name for screen in driver.app.root.ids.manager.screens]
    assert "second_chance" in made and "indigo" not in made, made
    assert _screen_let_go(driver, left)
    in_play = driver.screen("second_chance")
    driver.app.show("second_chance")
    driver.pump(1)
    assert driver.screen("second_chance") is in_play


def test_a_game_left_unfinished_lets_its_screen_go_when_another_begins(
        make_driver: Any) -> None:
    """Left unfinished on Home, a game's screen stays while it is the game in play; once
    another game begins it goes at once, not after that game (frozen with what lived on Home,
    it lived a whole game more: the Enigma screen, 5 MB, through the next evening's Indigo)."""
    import gc
    import weakref

    driver = make_driver()
    driver.app.new_game("indigo", list(PLAYERS), {})
    driver.pump(2)
    left = weakref.ref(driver.screen("indigo"))
    driver.app.show("home")
    driver.pump(2)
    assert left() is not None  # still the game in play
    _second_chance_game(driver, 2)
    assert driver.wait_for(lambda: (gc.collect(), left() is None)[1], frames=10)
    made = [screen.name for screen in driver.app.root.ids.manager.screens]
    assert made == ["home", "second_chance"], made
