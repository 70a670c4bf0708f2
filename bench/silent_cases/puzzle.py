"""Camera-checked Enigma puzzles for bench/silent_reads.py.

One frame per seed: the puzzle mat of one kind (weight, fragment, angular, conduit in turn),
with the card's right solution on even seeds and a near miss on odd ones, drawn on the
puzzle table renderer's surfaces at its mild strength (``vision.enigma.synth.puzzle_table``);
silent_reads then puts the frame through each camera condition. The check's verdict is
judged as the player takes it:

- "solved" for a near miss, or "not solved" for a right solution: **silent wrong** (the
  player is told a wrong answer, with nothing to doubt);
- "cannot tell": asked (the verdict says what to fix and the player looks again);
- a frame the check could not read at all ("the frame cannot be read"): refused.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np

from silent_cases import Case, Verdict

KINDS = ("weight", "fragment", "angular", "conduit")


def _solutions(kind: str, seed: int, box: Any) -> tuple[Any, bool, Any, dict[str, Any]]:
    """(card, is the solution right, solution, the renderer's extras) for ``seed``."""
    from vision.enigma.synth.puzzles import default_solution, near_misses

    cards = list(getattr(box, kind).cards.values())
    card = cards[seed % len(cards)]
    answer = default_solution(kind, card, box)
    if seed % 2 == 0:
        return card, True, answer, {}
    misses = near_misses(kind, card, answer, box, random.Random(seed))
    _, wrong, extra = misses[(seed // 2) % len(misses)]
    return card, False, wrong, extra


def _judge(kind: str, card: Any, is_right: bool, pack: Any, box: Any) -> Any:
    from vision.enigma.puzzles.check import check_puzzle
    from vision.enigma.puzzles.verdicts import Reason

    def judge(image: np.ndarray) -> Verdict:
        said = check_puzzle(kind, image, pack, card=card, box=box)
        if said.code == Reason.FRAME_UNREADABLE:
            return "refused", said.facts.get("refusal", "unreadable")
        if said.verdict == "cannot tell":
            return "asked", said.code.value
        right = (said.verdict == "solved") == is_right
        return ("right", "") if right else ("silent_wrong", "")

    return judge


def _no_board(image: np.ndarray) -> np.ndarray | None:
    return None


def cases(first: int, frames: int) -> Iterator[Case]:
    from companion.enigma.puzzles import load_puzzles
    from vision.enigma.pack import load_enigma_pack
    from vision.enigma.synth.puzzle_table import SURFACES, TableCondition, render_table_frame

    box = load_puzzles()
    pack = load_enigma_pack()
    for seed in range(first, first + frames):
        kind = KINDS[seed % len(KINDS)]
        card, is_right, solution, extra = _solutions(kind, seed // len(KINDS), box)
        surface = SURFACES[(seed // len(KINDS)) % len(SURFACES)]
        frame = render_table_frame(kind, card, pack, condition=TableCondition(surface, "mild"),
                                   solution=solution, seed=seed, **extra)
        label = f"puzzle/{kind}/{'right' if is_right else 'wrong'}"
        yield Case(label, seed, frame, _judge(kind, card, is_right, pack, box), _no_board)
