"""A frame of the independent puzzle scenes (bench/independent_scenes, drawn by a session that
never read the checks) for the tests that keep a class of them right: the scene's card taken
as its seed picks it, the right build or its near miss, under one camera condition."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from companion.enigma.puzzles import load_puzzles
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.check import check_puzzle_frame

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.puzzle_scene import puzzle_scene, scene_cards  # noqa: E402


def independent_frame(kind: str, condition: str, seed: int, right: bool
                      ) -> tuple[np.ndarray, str]:
    """The scene's frame and the id of the card it shows."""
    cards = scene_cards(kind)
    card_id = cards[seed % len(cards)]
    return puzzle_scene(kind, card_id, right, seed, condition).frame, card_id


def independent_verdict(demo_pack: EnigmaPack, kind: str, condition: str, seed: int,
                        right: bool) -> dict[str, str]:
    """The check's verdict and reason on the scene's frame, as the app asks for it."""
    frame, card_id = independent_frame(kind, condition, seed, right)
    box = load_puzzles()
    card = getattr(box, kind).cards[card_id]
    return check_puzzle_frame(kind, frame, demo_pack, card=card, box=box)
