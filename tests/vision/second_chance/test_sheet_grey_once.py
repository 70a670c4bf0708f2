"""The sheet reader makes the frame grey once (issues 20/22): the markers or the pad's frame
are found in that grey and the picture check measures it, with the same results to the bit
as when each made its own."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.second_chance.geometry import locate_grid
from vision.second_chance.reader import check_sheet_picture
from vision.second_chance.settings import DEFAULT_SETTINGS
from vision.second_chance.synth.sheet import render_sheet


def test_the_grid_and_the_picture_check_from_the_frames_grey_are_the_same(
        sheet_content: Any) -> None:
    # a sheet with its markers and a publisher's pad (no markers: found by its frame)
    for seed, markers in ((2, True), (3, False)):
        frame = render_sheet(sheet_content(seed), style="pen", seed=seed,
                             markers=markers).image
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        fit = locate_grid(frame)
        from_gray = locate_grid(gray)
        assert fit.method == from_gray.method == ("markers" if markers else "frame")
        assert np.array_equal(fit.image_to_canon, from_gray.image_to_canon)
        assert check_sheet_picture(frame, fit, DEFAULT_SETTINGS, gray=gray) == \
            check_sheet_picture(frame, fit, DEFAULT_SETTINGS)
