"""A corner's amber the gem colours missed: while the cell its arrow faces is read empty the
rules put the amber on the arrow point, and it was asked whatever the camera showed there
(session 31's census of the independent harsh tuning boards: the largest kind of corner
question outside the frames whose pieces misfit the pack, every answer right). Where the
point is tinted toward the amber past the print beside it and past grey, the camera sees the
stone the rules put there: sure. A point showing only print, a white arrow or a lamp's white
stays asked."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest
from indigo_scenes import read_independent_board

from companion.indigo import CORNERS, new_game
from tests.vision.scene_stack import SCENES_AS_FOUND
from vision.indigo.board import cell_xy, point_xy
from vision.indigo.corner_rules import amber_lean, is_amber_tinted
from vision.indigo.model import canonical_size, colour_features, pack_model, to_canonical
from vision.indigo.pack import IndigoPack
from vision.indigo.reader import read_indigo
from vision.indigo.settings import DEFAULT_SETTINGS
from vision.indigo.synth.render import render_frame
from vision.indigo.view import BoardView

SURE = DEFAULT_SETTINGS.min_confidence
CELL_PX = DEFAULT_SETTINGS.cell_px


def _lean_of(pack: IndigoPack, paper: tuple[int, int, int],
             spot: tuple[int, int, int]) -> tuple[float, float]:
    """amber_lean on a board all ``paper`` (BGR) with a gem-sized disc of ``spot`` on the
    first corner's amber point."""
    model = pack_model(pack, CELL_PX)
    corner = CORNERS[0]
    board = np.full((canonical_size(CELL_PX), canonical_size(CELL_PX), 3), paper, np.uint8)
    x, y = to_canonical(point_xy(corner.amber_point), CELL_PX)
    cv2.circle(board, (round(x), round(y)), round(pack.gem_size * CELL_PX), spot, -1)
    assert to_canonical(cell_xy(corner.arrow_neighbour), CELL_PX) != (x, y)
    return amber_lean(colour_features(board), model, pack.gem_size, corner.amber_point,
                      corner.arrow_neighbour)


def test_a_pale_amber_on_cream_print_is_tinted_and_white_there_is_not(demo: IndigoPack) -> None:
    """A washed amber on the demo's cream print lies well past the print toward the amber;
    a lamp's white there lies short of the print (cream is itself a little toward amber)."""
    cream, pale_amber, white = (150, 215, 235), (60, 170, 235), (245, 245, 245)
    assert is_amber_tinted(_lean_of(demo, cream, pale_amber))
    assert not is_amber_tinted(_lean_of(demo, cream, white))
    assert not is_amber_tinted(_lean_of(demo, cream, cream))


def test_white_on_a_dark_blue_print_is_no_amber(demo: IndigoPack) -> None:
    """On a navy print (the real board's) the corner tile's light blue, its white arrow and
    a lamp's white lie on the way from the print toward the amber: measured from the print
    alone white was 0.4 of the way there; it never lies past grey, and is no amber."""
    navy, light_blue, white = (110, 45, 25), (230, 190, 140), (245, 245, 245)
    assert not is_amber_tinted(_lean_of(demo, navy, white))
    assert not is_amber_tinted(_lean_of(demo, navy, light_blue))
    assert is_amber_tinted(_lean_of(demo, navy, (40, 160, 230)))


def test_corners_with_no_amber_on_their_points_are_still_asked(demo: IndigoPack) -> None:
    """The project's own renders of a new game with every corner amber left off (their
    arrow cells empty: against the rules, as after a knocked stone): each corner's amber,
    put there by the rules, is asked, never sure."""
    view = BoardView.of_state(new_game(2))
    points = [c.amber_point for c in CORNERS]
    bare = dataclasses.replace(view, gems={p: g for p, g in view.gems.items()
                                           if p not in points})
    for seed in (0, 1):
        read = read_indigo(render_frame(bare, demo, seed=seed, frame_size=(1280, 720)).image,
                           demo)
        at_points = [g for g in read.gems if g.point in points]
        assert at_points and all(g.confidence < SURE for g in at_points)
        for corner in CORNERS:
            assert any(q.startswith(f"corner ({corner.cell[0]},{corner.cell[1]})")
                       for q in read.questions)


@pytest.mark.parametrize(("seed", "corners"), [(1026, [(4, 0), (-4, 0)])])
def test_a_tinted_corner_amber_the_gem_colours_missed_is_sure(
        seed: int, corners: list[tuple[int, int]]) -> None:
    """Tuning board 1026 harsh, demo look: the ambers on corners (4,0) and (-4,0) show
    almost none of the pack's amber colour (no gem found there), but their points lie 0.4
    and 0.5 of the way from the print toward the amber (and past grey); on 4720591 each
    was asked ("corner (4,0): is there an amber gem?"). Now each is read an amber and sure,
    and no question names it. On another build's pixels: what is read there is an amber."""
    truth, out = read_independent_board(seed)
    for cell in corners:
        assert ("amber", ("corner", cell)) in truth.gems
        read = [g for g in out["gems"] if g["at"].get("corner") == list(cell)]
        assert [g["gem"] for g in read] == ["amber"]
        if SCENES_AS_FOUND:
            assert read[0]["confidence"] >= SURE
            assert not any(q.startswith(f"corner ({cell[0]},{cell[1]})")
                           for q in out["questions"])
