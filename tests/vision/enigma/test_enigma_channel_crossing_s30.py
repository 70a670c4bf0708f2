"""A meeting of channels is asked as a possible crossing only when its arms run straight on at
every distance from it (vision.enigma.crossings): a crossing continues straight, while
channels bending into a hub may line up on one circle round it by chance (session 30: 11 of
the 17 hubs asked so on independent clean tuning tables 0-19, every one read right)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from config import Config
from tests.vision.enigma.independent_tile_verdicts import right_or_asked
from tests.vision.scene_stack import SCENES_AS_FOUND
from vision.enigma.crossings import may_cross
from vision.enigma.reader import read_enigma
from vision.enigma.settings import ReaderSettings

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.enigma_table import enigma_scene, truth_of  # noqa: E402

#: a 64-pixel tile's channel width, as the demo pack's tiles are read
CW = 5.1


def _bowed_hub(bend_px: float, bend_deg: float, turn: float) -> np.ndarray:
    """Four channels leaving a hub two by two straight on, each bending by ``bend_deg``
    ``bend_px`` pixels out, both of a pair to the same side (a hub, not two straight
    channels), drawn four times finer, blurred and reduced to a 64-pixel channel mask."""
    big = np.zeros((256, 256), np.float32)
    hub = np.array([128.0, 128.0])
    for way, side in ((0, 1), (180, -1), (90, -1), (270, 1)):
        out = np.radians([way + turn, way + turn + side * bend_deg])
        knee = hub + 4 * bend_px * np.array([math.cos(out[0]), math.sin(out[0])])
        end = knee + 160 * np.array([math.cos(out[1]), math.sin(out[1])])
        cv2.polylines(big, [np.round(np.array([hub, knee, end])).astype(np.int32)], False, 1,
                      int(4 * CW))
    small = cv2.GaussianBlur(cv2.resize(big, (64, 64), interpolation=cv2.INTER_AREA),
                             (3, 3), 0.8)
    mask = small > 0.5
    mask[:3], mask[-3:], mask[:, :3], mask[:, -3:] = False, False, False, False
    return mask


@pytest.mark.parametrize("bend_deg", [45, 60])
@pytest.mark.parametrize("turn", [0, 17, 33])
def test_a_hub_whose_arms_line_up_near_it_and_bend_away_is_no_crossing(bend_deg, turn):
    # straight on through the hub on the inner circle (2 channel widths), 25 degrees and
    # more off straight on an outer one: no two channels run straight through it
    assert not may_cross(_bowed_hub(12, bend_deg, turn), CW)


def test_the_hubs_of_clean_table_9_are_read_joined_and_sure(demo_pack):
    # independent clean table 9, [-1, 1] and [-1, 2]: hubs of four openings, read right and
    # asked only "channels cross or join at one point" before (their arms lined up on one
    # circle); on any pixels each is read right or asked
    frame, table = enigma_scene(9, "clean")
    truth, _ = truth_of(table)
    settings = ReaderSettings.from_config(Config())
    read = read_enigma(frame, demo_pack, settings=settings).to_json()
    for at in ((-1, 1), (-1, 2)):
        tile, right, asked = right_or_asked(read, truth, at)
        if SCENES_AS_FOUND:
            assert right, tile
            assert not asked, asked
            assert tile["confidence"] >= settings.min_confidence, tile
