"""The angular check on real cubes read on each column's lit top at its own height (issue #26,
session 27): the tuning frames of ``bench/puzzle_checks.py --kinds angular --cube-height 12``."""

from __future__ import annotations

import random
from typing import Any

from companion.enigma.puzzles import load_puzzles
from vision.enigma.pack import load_enigma_pack
from vision.enigma.puzzles.check import check_puzzle_frame
from vision.enigma.synth.puzzle_table import TableCondition, render_table_frame
from vision.enigma.synth.puzzles import default_solution, near_misses


def _tall_frame(seed: int, right: bool) -> tuple[Any, Any, Any, Any]:
    """The bench's case of ``seed`` on wood, mild, 12 mm cubes: the card and the frame of its
    right build, or of its near miss (as bench/puzzle_checks.py draws them)."""
    pack, box = load_enigma_pack(), load_puzzles()
    cards = list(box.angular.cards.values())
    card = cards[seed % len(cards)]
    answer = default_solution("angular", card, box)
    extra: dict[str, Any] = {}
    if not right:
        misses = near_misses("angular", card, answer, box, random.Random(seed))
        _, answer, extra = misses[seed % len(misses)]
    frame = render_table_frame("angular", card, pack, condition=TableCondition("wood", "mild"),
                               solution=answer, seed=seed, cube_height_mm=12.0, **extra)
    return frame, card, pack, box


def test_a_right_structure_of_tall_cubes_is_solved() -> None:
    """Tuning seed 0 (demo-1, three layers, the camera's nadir 64 mm off the structure): one
    grid over tops and sides read 3.6 x 4.3 cubes, "cannot tell" (session 26); read on its
    columns' lit tops it is the card's picture."""
    frame, card, pack, box = _tall_frame(0, right=True)
    result = check_puzzle_frame("angular", frame, pack, card=card, box=box)
    assert result["verdict"] == "solved", result["reason"]


def test_a_wrong_structure_of_tall_cubes_is_never_solved() -> None:
    """Tuning seed 1's near miss (demo-2 built otherwise, one column partly under a taller
    one's top): its lit tops read G../GBR/.BY, not the card's picture, and a read that rests
    on which column hides which asks rather than refuses: never "solved"."""
    frame, card, pack, box = _tall_frame(1, right=False)
    result = check_puzzle_frame("angular", frame, pack, card=card, box=box)
    assert result["verdict"] in ("not solved", "cannot tell"), result["reason"]
