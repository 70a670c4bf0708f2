"""The code reader makes the frame grey once (issues 20/22): the mat's markers are found in
it and the panel's picture check measures it, the same to the bit as from the colour frame."""

from __future__ import annotations

import cv2
import numpy as np

from companion.break_the_code import parse_code
from vision.break_the_code.reader import find_mat, panel_picture_factor
from vision.break_the_code.synth.render import render_frame
from vision.synth.effects import ALL_EFFECTS


def test_the_mat_and_its_picture_from_the_frames_grey_are_the_same() -> None:
    laid = [parse_code(t).tiles[0] for t in "1b 3w 5g 8b".split()]
    image = render_frame(laid, seed=7, effects=ALL_EFFECTS)[0].image
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    fit = find_mat(image)
    from_gray = find_mat(image, gray=gray)
    assert np.array_equal(fit.image_to_plane, from_gray.image_to_plane)
    assert all(np.array_equal(fit.detections[i].corners, from_gray.detections[i].corners)
               for i in fit.detections)
    assert panel_picture_factor(image, fit, gray=gray) == panel_picture_factor(image, fit)
