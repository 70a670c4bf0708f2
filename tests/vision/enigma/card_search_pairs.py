"""The card a seeded table frame's check finds with the card search in use, beside the card a
reference search finds in the same image, through the view's own call: how the card search's
speed tests show that a cut still finds the card it replaced did."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import vision.enigma.puzzles.view as view
from companion.enigma.puzzles import load_puzzles
from vision.enigma.mat import CardRect
from vision.enigma.pack import load_enigma_pack
from vision.enigma.puzzles.card_find import find_card_square
from vision.enigma.synth.puzzle_table import TableCondition, render_table_frame
from vision.enigma.synth.puzzles import default_solution

#: a card search: (balanced mat image, card size in mm, places to leave out) -> the card
CardSearch = Callable[..., CardRect]


def cards_found_both_ways(kind: str, condition: TableCondition, seed: int, card_index: int,
                          reference: CardSearch, monkeypatch: pytest.MonkeyPatch
                          ) -> tuple[CardRect, CardRect]:
    """(the card the search in use finds, the card ``reference`` finds) on the table frame of
    ``kind``'s card ``card_index`` (modulo the cards) solved, drawn in ``condition``."""
    box, pack = load_puzzles(), load_enigma_pack()
    cards = list(getattr(box, kind).cards.values())
    card = cards[card_index % len(cards)]
    frame = render_table_frame(kind, card, pack, condition=condition,
                               solution=default_solution(kind, card, box), seed=seed)
    found: list[tuple[CardRect, CardRect]] = []

    def both(balanced: np.ndarray, card_mm: float, *,
             exclude: tuple[tuple[float, float, float], ...] = ()) -> CardRect:
        in_use = find_card_square(balanced, card_mm, exclude=exclude)
        found.append((in_use, reference(balanced, card_mm, exclude=exclude)))
        return in_use

    monkeypatch.setattr(view, "find_card_square", both)
    view.view_card(frame, pack)
    (in_use, by_reference), = found
    return in_use, by_reference
