"""A game screen rebuilt on every move leaves nothing behind: a game played again through it
ends with as many live widgets as the first time. (A status line bound to the screen with
``label.setter`` kept every rebuilt panel alive, about sixty labels a game.)"""

from __future__ import annotations

import gc
import random
from typing import Any

import pytest

PLAYERS = ["Ana", "Ben", "Cleo"]
#: moves played of each game: enough to rebuild every panel of a round several times
MOVES = 14


def _live_widgets() -> int:
    from kivy.uix.widget import Widget

    gc.collect()
    return sum(1 for o in gc.get_objects() if issubclass(type(o), Widget))


def _second_chance_game(driver: Any, seed: int) -> None:
    from companion.second_chance.simulate import simulate_game

    record = simulate_game(list(PLAYERS), rng=random.Random(seed))
    driver.app.new_game("second-chance", list(PLAYERS), record.get("options", {}))
    for event in record["events"][:MOVES]:
        assert driver.app.apply(event), event
        driver.pump(1)


def _enigma_game(driver: Any, seed: int) -> None:
    from vision.enigma.synth.scenes import random_record

    record, _state = random_record(seed, tiles=6, players=len(PLAYERS))
    driver.app.new_game("enigma", list(record["players"]), record.get("options", {}))
    screen = driver.screen("enigma")
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
        counts.append(_live_widgets())
    # the first game on a screen just made ends on another panel than the later ones (Enigma's
    # tile buttons): the second and the third game are compared
    assert counts[2] <= counts[1], counts
