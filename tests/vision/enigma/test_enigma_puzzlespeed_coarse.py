"""The card search's coarse step placed at half a pixel a mm (session 27), then made at 1 px a
mm only near that place, finds what the whole coarse search finds: on seeded mats the same
card to the bit (and the card drawn), and a seeded check says the same verdict either way."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

import vision.enigma.puzzles.card_find as card_find
from companion.enigma.puzzles import load_puzzles
from vision.enigma.mat import MAT_PX_PER_MM
from vision.enigma.pack import load_enigma_pack
from vision.enigma.puzzles.card_find import find_card_square
from vision.enigma.puzzles.check import check_puzzle
from vision.enigma.synth.puzzle_table import TableCondition, render_table_frame
from vision.enigma.synth.puzzles import default_solution

#: the plain search's coarse resolution (px per mm), as before session 27
PLAIN_PLACE_PX_PER_MM = 1.0
CARD_MM = 60.0
MAT_SHAPE = (600, 960)
MARKER_HALF = 126.0


def _seeded_mat(seed: int) -> tuple[np.ndarray, tuple[float, float], float]:
    """A balanced mat image (4 px a mm): a textured table under uneven light, white marker
    paper in the corners, and a printed white card at a seeded place and turn."""
    rng = np.random.default_rng(seed)
    h, w = MAT_SHAPE
    tone = rng.uniform(60, 170, 3)
    grain = cv2.GaussianBlur(rng.normal(0, 25, (h, w)).astype(np.float32), (0, 0), 3)
    light = np.linspace(rng.uniform(0.7, 1.0), rng.uniform(0.9, 1.2), w, dtype=np.float32)
    image = (tone[None, None, :] + grain[..., None]) * light[None, :, None]
    for cx, cy in ((0, 0), (w, 0), (w, h), (0, h)):
        cv2.rectangle(image, (int(cx - MARKER_HALF), int(cy - MARKER_HALF)),
                      (int(cx + MARKER_HALF), int(cy + MARKER_HALF)), (250, 250, 250), -1)
    centre = (float(rng.uniform(170, 360)), float(rng.uniform(170, 430)))
    turn = float(rng.uniform(-40, 40))
    side = CARD_MM * MAT_PX_PER_MM
    box = cv2.boxPoints((centre, (side, side), turn)).astype(np.int32)
    cv2.fillConvexPoly(image, box, (245, 245, 245), lineType=cv2.LINE_AA)
    inner = cv2.boxPoints((centre, (side * 0.6, side * 0.6), turn)).astype(np.int32)
    cv2.polylines(image, [inner], True, (40, 40, 40), 3, lineType=cv2.LINE_AA)
    image = cv2.GaussianBlur(image, (0, 0), 1.2) + rng.normal(0, 4, image.shape)
    return np.clip(image, 0, 255).astype(np.uint8), centre, turn


@pytest.mark.parametrize("seed", range(12))
def test_half_pixel_coarse_finds_the_plain_card(seed: int,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    image, centre, turn = _seeded_mat(seed)
    exclude = tuple((float(x), float(y), MARKER_HALF)
                    for x, y in ((0, 0), (960, 0), (960, 600), (0, 600)))
    fast = find_card_square(image, CARD_MM, exclude=exclude)
    monkeypatch.setattr(card_find, "PLACE_PX_PER_MM", PLAIN_PLACE_PX_PER_MM)
    plain = find_card_square(image, CARD_MM, exclude=exclude)
    assert fast == plain
    # and it is the card drawn (a square's turn is known up to a quarter turn)
    assert math.dist(fast.centre, centre) <= 4.0  # a mm
    assert abs((fast.angle - turn + 45) % 90 - 45) <= 1.0


def test_half_pixel_coarse_keeps_a_seeded_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    box, pack = load_puzzles(), load_enigma_pack()
    card = next(iter(box.fragment.cards.values()))
    frame = render_table_frame("fragment", card, pack,
                               condition=TableCondition("wood", "moderate"),
                               solution=default_solution("fragment", card, box), seed=1)
    fast = check_puzzle("fragment", frame, pack, card=card, box=box)
    monkeypatch.setattr(card_find, "PLACE_PX_PER_MM", PLAIN_PLACE_PX_PER_MM)
    plain = check_puzzle("fragment", frame, pack, card=card, box=box)
    assert (fast.verdict, fast.reason, fast.code) == (plain.verdict, plain.reason, plain.code)
