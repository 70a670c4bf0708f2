"""The thick fragment check's pale test against the pieces' grey NEAR each pixel (issue #26):
a lamp's hotspot lifting one corner of smooth black pieces is no gap, a gap a piece left
(read black in the pieces' shade) stays paler than the pieces around it."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from companion.enigma.puzzles import load_puzzles
from vision.enigma.pack import load_enigma_pack
from vision.enigma.puzzles.check import check_puzzle_frame
from vision.enigma.puzzles.fragment_pale import pale_share
from vision.enigma.synth.puzzle_table import TableCondition, render_table_frame

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.puzzle_judge import check_frame  # noqa: E402
from independent_scenes.puzzle_scene import puzzle_scene, scene_cards  # noqa: E402
from puzzle_checks import cases  # noqa: E402

#: the silhouette's grey and the black pieces' grey under even light
SIL, BLACK = 185.0, 30.0
#: pale cut of the check's settings (config/default.toml fragment_max_gap)
MAX_GAP = 0.005


def _pieces_under(light: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(grey, silhouette's grey, silhouette) of a 200 x 300 silhouette covered by black
    pieces, ``light`` added to the pieces' grey."""
    target = np.zeros((260, 360), bool)
    target[30:230, 30:330] = True
    gray = np.full(target.shape, BLACK, np.float32) + light
    return gray, np.full(target.shape, SIL, np.float32), target


def _hotspot(shape: tuple[int, int], peak: float) -> np.ndarray:
    """A lamp's light centred on the silhouette's corner, wider than a piece."""
    rows, cols = np.mgrid[0:shape[0], 0:shape[1]]
    out: np.ndarray = (peak * np.exp(-((rows - 30) ** 2 + (cols - 30) ** 2)
                                     / (2 * 110.0 ** 2))).astype(np.float32)
    return out


def test_a_hotspot_over_the_pieces_is_no_pale_silhouette() -> None:
    # the corner's pieces lifted 90 levels: past one median + 0.35 of the way to the card
    gray, sil, target = _pieces_under(_hotspot((260, 360), 90.0))
    assert pale_share(gray, sil, target, target, 2).share <= MAX_GAP


def test_a_gap_under_the_hotspot_is_pale_still() -> None:
    gray, sil, target = _pieces_under(_hotspot((260, 360), 90.0))
    gray[120:160, 200:250] = 0.6 * SIL  # a gap a piece left, in the pieces' shade
    # the gap was read black (it is among the pieces), and is 3.8% of the silhouette
    assert pale_share(gray, sil, target, target, 2).share > 0.03


def test_a_right_build_under_a_lamps_hotspot_is_solved() -> None:
    # thick wood/moderate seed 11: a hotspot lifted one corner of the pieces, and against
    # their one median grey 11.5% of the silhouette read pale ("cannot tell")
    box, pack = load_puzzles(), load_enigma_pack()
    card, todo = cases("fragment", 11, box)
    _, solution, extra = todo[0]
    frame = render_table_frame("fragment", card, pack, condition=TableCondition("wood",
                               "moderate"), solution=solution, seed=11,
                               fragment_height_mm=4.5, **extra)
    said = check_puzzle_frame("fragment", frame, pack, card=card)
    assert said["verdict"] == "solved", said["reason"]


def test_a_gap_a_turned_piece_left_among_thick_pieces_is_not_solved() -> None:
    # independent scenes, fragment mild seed 5: L2 turned a quarter, the gap it left read
    # black in the pieces' shade but at its core: the pale test, and the uncovered measure
    # inside the silhouette (fragment_inner), keep it from "solved"
    card_id = scene_cards("fragment")[5 % len(scene_cards("fragment"))]
    scene = puzzle_scene("fragment", card_id, False, 5, "mild")
    verdict, reason, _ = check_frame(scene.frame, "fragment", card_id)
    assert verdict == "cannot tell", reason
    assert "lighter than the pieces" in reason or "a gap shows between the pieces" in reason
