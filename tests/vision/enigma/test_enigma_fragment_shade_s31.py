"""The pieces' shadow beside them is no piece reaching outside the silhouette (issue #26,
session 31): the fragment check took the shadow thick pieces throw on the card's paper for
black lifted by a glare, and read a right build "the pieces reach outside the silhouette"."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np

from companion.enigma.puzzles import load_puzzles
from tests.vision.scene_stack import SCENES_AS_FOUND
from vision.enigma.pack import load_enigma_pack
from vision.enigma.puzzles.fragment import check_fragment
from vision.enigma.puzzles.fragment_shade import shade_beside, unlifted_middle
from vision.enigma.puzzles.view import view_card
from vision.enigma.settings import DEFAULT_PUZZLE_SETTINGS

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
from independent_scenes.puzzle_judge import check_frame  # noqa: E402
from independent_scenes.puzzle_scene import puzzle_scene, scene_cards  # noqa: E402

OUTLINE_PX = 6
BLACK, SIL = 22.0, 178.0


def _card_with(beside: float, *, wide: int = 30, rim: float | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """A flattened card (paper 236) with a black square of pieces covering a square
    silhouette, and a band ``wide`` px wide beside it outside the silhouette of grey
    ``beside`` (with a 4 px rim of grey ``rim`` past the band where given); the grey and the
    target."""
    gray = np.full((300, 300), 236.0, np.float32)
    target = np.zeros(gray.shape, bool)
    target[100:200, 100:200] = True
    gray[target] = 30.0
    gray[100:200, 100 - wide:100] = beside
    if rim is not None:
        gray[100:200, 96 - wide:100 - wide] = rim
    return gray, target


def test_a_shadow_beside_the_pieces_is_shade_and_a_piece_reaching_out_is_not() -> None:
    middle = unlifted_middle(BLACK, SIL)
    gray, target = _card_with(150.0)  # the shadow's grey: 0.64 of the paper (mild seed 0)
    black = gray < 200.0  # the black as a lifted floor tells it: the shadow too
    shade = shade_beside(black, target, gray, middle, OUTLINE_PX)
    assert shade[150, 85] and not shade[target].any()
    # a piece reaching out, or a thick piece's side (grey 56, 12 px wide: moderate seed
    # 1006), is black; the camera's blur leaves a grey rim round it
    for wide in (30, 12):
        gray, target = _card_with(56.0, wide=wide, rim=150.0)
        black = gray < 200.0
        assert not shade_beside(black, target, gray, middle, OUTLINE_PX).any(), wide


def _mild_seed_0() -> tuple[np.ndarray, str]:
    """Independent puzzle scenes, fragment mild seed 0 (tuning), the right build: thick
    pieces on a blue gingham, their shadow 10 mm wide on the card's paper."""
    card_id = scene_cards("fragment")[0]
    return puzzle_scene("fragment", card_id, True, 0, "mild").frame, card_id


def test_a_right_build_whose_pieces_throw_a_shadow_is_solved() -> None:
    # base: "cannot tell: the table beside the card looks as pale as the card's paper",
    # hiding "not solved: the pieces reach outside the silhouette (overhang 8.7%)"
    frame, card_id = _mild_seed_0()
    verdict, reason, _ = check_frame(frame, "fragment", card_id)
    assert verdict != "not solved", reason
    if SCENES_AS_FOUND:
        assert verdict == "solved", reason


def test_the_shadow_is_no_overhang_beside_a_dark_table() -> None:
    """The same card view with the table beside the card made a dark plain grey: the card's
    edge shows on every side and no pale-table doubt hides the reading (base: "not solved:
    the pieces reach outside the silhouette")."""
    frame, card_id = _mild_seed_0()
    pack, box = load_enigma_pack(), load_puzzles()
    view = view_card(frame, pack, DEFAULT_PUZZLE_SETTINGS.mat)
    image = view.image.copy()
    image[~view.inside_card()] = 70
    dark = dataclasses.replace(view, image=image)
    said = check_fragment(dark, pack, box.fragment.cards[card_id], box, DEFAULT_PUZZLE_SETTINGS)
    assert said["verdict"] != "not solved", said["reason"]
    if SCENES_AS_FOUND:
        assert said["verdict"] == "solved", said["reason"]
