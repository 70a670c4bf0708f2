"""A corner's amber seen off its edge point: the stone stands above the board, so a tilted
camera sees its body displaced from the point it rests on (blurred into the corner tile
beside it). The amber's tint is looked for round the point within AMBER_REACH cell radii:
found there on the print's way, the stone the rules put there is seen; a white arrow, a
lamp's white or the corner tile's blue there stays no amber, and so does an amber further
off than the reach (another edge's gem)."""

from __future__ import annotations

import dataclasses
import math
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from indigo_scenes import read_independent_board

from companion.indigo import CORNERS
from tests.vision.scene_stack import SCENES_AS_FOUND
from vision.indigo.board import cell_xy, point_xy
from vision.indigo.corner_rules import AMBER_REACH, amber_lean, is_amber_tinted
from vision.indigo.model import canonical_size, colour_features, pack_model, to_canonical
from vision.indigo.pack import IndigoPack
from vision.indigo.settings import DEFAULT_SETTINGS

SURE = DEFAULT_SETTINGS.min_confidence
CELL_PX = DEFAULT_SETTINGS.cell_px
CREAM, PALE_AMBER = (150, 215, 235), (60, 170, 235)
NAVY, LIGHT_BLUE, WHITE = (110, 45, 25), (230, 190, 140), (245, 245, 245)


def _lean_off(pack: IndigoPack, paper: tuple[int, int, int], stone: tuple[int, int, int],
              off: float, angle_deg: float) -> tuple[float, float]:
    """amber_lean on a board all ``paper`` (BGR) with a disc of ``stone`` (0.8 of a gem's
    radius) ``off`` cell radii from the first corner's amber point, toward ``angle_deg``."""
    model = pack_model(pack, CELL_PX)
    corner = CORNERS[0]
    board = np.full((canonical_size(CELL_PX), canonical_size(CELL_PX), 3), paper, np.uint8)
    px, py = point_xy(corner.amber_point)
    angle = math.radians(angle_deg)
    x, y = to_canonical((px + off * math.cos(angle), py + off * math.sin(angle)), CELL_PX)
    cv2.circle(board, (round(x), round(y)), round(0.8 * pack.gem_size * CELL_PX), stone, -1)
    assert math.dist(to_canonical(cell_xy(corner.arrow_neighbour), CELL_PX), (x, y)) > \
        0.5 * CELL_PX
    return amber_lean(colour_features(board), model, pack.gem_size, corner.amber_point,
                      corner.arrow_neighbour)


@pytest.mark.parametrize("angle_deg", [0, 100, 200, 290])
def test_a_pale_amber_seen_off_its_point_within_the_reach_is_tinted(
        demo: IndigoPack, angle_deg: float) -> None:
    """A washed amber 0.28 cell radii off the point, whichever way the tilt moved it: the
    point itself shows only print (short of the tint; on main it was asked), the search
    finds the amber."""
    assert 0.28 <= AMBER_REACH
    assert is_amber_tinted(_lean_off(demo, CREAM, PALE_AMBER, 0.28, angle_deg))
    assert is_amber_tinted(_lean_off(demo, NAVY, (40, 160, 230), 0.28, angle_deg))


@pytest.mark.parametrize("angle_deg", [0, 100, 200, 290])
def test_white_or_blue_round_the_point_and_a_far_amber_are_no_amber(
        demo: IndigoPack, angle_deg: float) -> None:
    """Round the point a lamp's white, the arrow's white or the corner tile's light blue is
    never the amber; an amber further off than the reach (0.6 cell radii: another gem) is
    not taken for the corner's."""
    assert not is_amber_tinted(_lean_off(demo, CREAM, WHITE, 0.28, angle_deg))
    assert not is_amber_tinted(_lean_off(demo, NAVY, WHITE, 0.28, angle_deg))
    assert not is_amber_tinted(_lean_off(demo, NAVY, LIGHT_BLUE, 0.28, angle_deg))
    assert not is_amber_tinted(_lean_off(demo, CREAM, PALE_AMBER, 0.6, angle_deg))


def _corner_reads(out: dict[str, Any], cell: tuple[int, int]) -> tuple[list[Any], bool]:
    """What the read's JSON holds on corner ``cell``'s amber point, and whether a question
    names that corner."""
    read = [g for g in out["gems"] if g["at"].get("corner") == list(cell)]
    asked = any(q.startswith(f"corner ({cell[0]},{cell[1]})") for q in out["questions"])
    return read, asked


def test_ambers_seen_off_their_points_are_sure() -> None:
    """Tuning board 1006 harsh, demo look: the ambers on corners (0,4) and (-4,0) lie off
    their points (no gem colour found, the points 0.00 and 0.18 of the way toward the
    amber); on main each was asked. Within the reach they lie 0.41 and 0.92 of the way:
    sure, and no question names them. On another build's pixels: an amber is read there."""
    truth, out = read_independent_board(1006)
    for cell in [(0, 4), (-4, 0)]:
        assert ("amber", ("corner", cell)) in truth.gems
        read, asked = _corner_reads(out, cell)
        assert [g["gem"] for g in read] == ["amber"]
        if SCENES_AS_FOUND:
            assert read[0]["confidence"] >= SURE and not asked


def test_the_same_board_with_its_corner_ambers_gone_finds_none(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Tuning board 1006 drawn with every corner amber left off (against the rules, as after
    a knocked stone): the search finds no amber round any point; each corner whose arrow
    cell is empty gets the rules' amber, asked, never sure."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    import independent_scenes.indigo_board as board_drawing
    from independent_scenes.indigo_compare import read_frame
    from independent_scenes.indigo_scene import indigo_scene

    drawn = board_drawing.board_snapshot
    monkeypatch.setattr(board_drawing, "board_snapshot",
                        lambda state: dataclasses.replace(drawn(state),
                                                          corner_ambers=frozenset()))
    scene = indigo_scene(1006, "demo", "harsh")
    assert not [g for g in scene.truth.gems if g[1][0] == "corner"]
    out, _ = read_frame(scene.frame, scene.look.pack)
    assert isinstance(out, dict)
    for cell in [(0, 4), (-4, 0), (4, 0), (-4, 4), (4, -4), (0, -4)]:
        read, asked = _corner_reads(out, cell)
        assert all(g["confidence"] < SURE for g in read)
        assert not read or asked
