"""Puzzle scenes on a real table: the card is found upright on any table colour, and the
light field takes a hand's shadow out of the card."""

from __future__ import annotations

import numpy as np

from companion.enigma.puzzles import load_puzzles
from vision.enigma.mat import MARK
from vision.enigma.pack import load_enigma_pack
from vision.enigma.puzzles.view import flatten_light, view_card
from vision.enigma.synth.puzzle_table import TableCondition, render_table_frame


def test_the_card_is_found_upright_on_cloth_and_wood() -> None:
    box = load_puzzles()
    pack = load_enigma_pack()
    card = box.fragment.cards[next(iter(box.fragment.cards))]
    for surface in ("cloth", "wood"):
        frame = render_table_frame("fragment", card, pack, seed=3, frame_size=(1920, 1080),
                                   condition=TableCondition(surface, "mild"))
        view = view_card(frame, pack)
        flat = flatten_light(view, pack)
        a = int(view.margin_px)
        t = int(view.side_px * MARK * 0.3)
        corner = flat[a + 2:a + t, a + 2:a + t].mean()
        # the triangle's corner is ink; the card's other corners are bare paper
        other = flat[a + 2:a + t, int(a + view.side_px) - t:int(a + view.side_px) - 2].mean()
        assert corner < 110 < other, (surface, corner, other)
        assert abs(float(np.median(flat[a + 20:a + 60, int(a + view.side_px) - 60:
                                        int(a + view.side_px) - 20])) -
                   float(np.mean(pack.colour("card")))) < 25
