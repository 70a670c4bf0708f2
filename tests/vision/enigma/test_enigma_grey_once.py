"""The Enigma reader makes the frame grey once (issues 20/22): the table's memory, the
markers and the picture check take that grey, with the results each had from the frame."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.enigma.geometry import table_geometry
from vision.enigma.settings import DEFAULT_SETTINGS
from vision.enigma.synth.render import TableView, render_frame
from vision.enigma.synth.scenes import categories_of, random_record
from vision.enigma.table_memory import SMALL_STEP, markers_kept, small_grey
from vision.markers import locate


def test_the_small_grey_and_the_markers_from_the_frames_grey_are_the_same(
        demo_pack: Any) -> None:
    record, state = random_record(12, tiles=20)
    frame = render_frame(TableView.of_state(state, demo_pack, categories=categories_of(record)),
                         demo_pack, seed=12, frame_size=(1920, 1080)).image
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    expected = cv2.resize(grey, (w // SMALL_STEP, h // SMALL_STEP), interpolation=cv2.INTER_AREA)
    assert np.array_equal(small_grey(grey), expected)
    layout = table_geometry(DEFAULT_SETTINGS.table, demo_pack).layout
    fit = locate(frame, layout, checks=DEFAULT_SETTINGS.checks)
    from_grey = locate(grey, layout, checks=DEFAULT_SETTINGS.checks)
    assert np.array_equal(fit.image_to_plane, from_grey.image_to_plane)
    assert markers_kept(grey, fit) and markers_kept(frame, fit)
