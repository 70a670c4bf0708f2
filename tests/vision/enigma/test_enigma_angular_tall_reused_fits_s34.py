"""The angular check reads a structure's tall view a second time, thoroughly (each fit
bettered column by column), when the first read asks. Since session 33 off-centre frames
have a pose, so they fit, ask and fit again: the second read found the lit tops, the poses
and the grid places all over again. The thorough read now settles the first read's own fits:
the same verdict, with the structure straightened and its fits found once."""

from __future__ import annotations

from typing import Any

import pytest

from tests.vision.enigma.independent_puzzle_frames import independent_frame
from vision.enigma.pack import EnigmaPack

#: tuning scenes whose right build's first tall read asks, so the thorough read runs
READ_AGAIN = [("mild", 2), ("mild", 5)]


def _verdict(demo_pack: EnigmaPack, condition: str, seed: int) -> dict[str, str]:
    from companion.enigma.puzzles import load_puzzles
    from vision.enigma.puzzles.check import check_puzzle_frame

    frame, card_id = independent_frame("angular", condition, seed, True)
    box = load_puzzles()
    return check_puzzle_frame("angular", frame, demo_pack, card=box.angular.cards[card_id],
                              box=box)


@pytest.mark.parametrize(("condition", "seed"), READ_AGAIN)
def test_the_thorough_read_settles_the_first_reads_fits(
        demo_pack: EnigmaPack, monkeypatch: pytest.MonkeyPatch, condition: str,
        seed: int) -> None:
    from vision.enigma.puzzles import angular, angular_tall

    calls = {"straightened": 0, "placed": 0, "settled": 0}

    def counted(name: str, function: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return function(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(angular_tall, "_straight_tops",
                        counted("straightened", angular_tall._straight_tops))
    monkeypatch.setattr(angular_tall, "_placed_fits",
                        counted("placed", angular_tall._placed_fits))
    monkeypatch.setattr(angular_tall, "_settled", counted("settled", angular_tall._settled))
    reused = _verdict(demo_pack, condition, seed)
    assert calls["settled"] > 0, "the first read did not ask: no thorough read to test"
    # once each: the fits over the poses, and those of every column on the table
    assert calls["straightened"] == 1 and calls["placed"] == 2, calls

    class FoundAgain(angular_tall.TallReader):
        """The reads before session 34: the thorough read found everything again."""

        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            self._args = args

        def read(self, thorough: bool = False) -> angular_tall.TallRead:
            return angular_tall.TallReader(*self._args).read(thorough)

    monkeypatch.setattr(angular, "TallReader", FoundAgain)
    assert _verdict(demo_pack, condition, seed) == reused
