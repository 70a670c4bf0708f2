"""The Indigo reader's check of the picture itself, before any piece is read.

The board's outline (the rim hexagon, :func:`~vision.indigo.board.rim_polygon`) is mapped
from board units through the calibration into the marker plane and through the homography into
the camera frame; :func:`vision.picture.measure_picture` measures that region as the sensor gave
it and :func:`vision.picture.check_picture` refuses the frame or returns its quality. Indigo
tells gems and chips apart by colour only, so a picture without colour is refused
(``needs_colour=True``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

import cv2
import numpy as np

from vision.indigo.board import BoardGeometry, rim_polygon
from vision.indigo.read_types import CellRead, ChipRead, GemSpot
from vision.markers import PlaneFit
from vision.picture import (
    PictureSettings,
    check_picture,
    confidence_factor,
    measure_inside,
)

#: the pieces' colours are what Indigo reads gems and chips by, on every board
NEEDS_COLOUR = True


def board_outline_in_frame(fit: PlaneFit, geometry: BoardGeometry) -> np.ndarray:
    """The board's rim outline in frame pixels, an (6, 2) float array."""
    board_to_image = fit.plane_to_image @ geometry.board_to_frame()
    corners = rim_polygon().reshape(1, -1, 2)
    outline: np.ndarray = cv2.perspectiveTransform(corners, board_to_image)[0]
    return outline


def picture_confidence_factor(
    frame: np.ndarray, fit: PlaneFit, geometry: BoardGeometry, limits: PictureSettings,
    gray: np.ndarray | None = None,
) -> float:
    """Refuse a picture of the board that carries too little (``FrameRefusedError`` naming
    the cause), else what every confidence of the read is multiplied by. ``gray``: the
    frame's grey, when the reader has it (:func:`vision.picture.measure_picture`)."""
    measures = measure_inside(frame, board_outline_in_frame(fit, geometry), gray=gray)
    if measures is None:
        return 1.0  # the board lies outside the frame: the board check says so
    quality = check_picture(measures, limits, needs_colour=NEEDS_COLOUR)
    return confidence_factor(quality)


_Read = TypeVar("_Read", CellRead, GemSpot, ChipRead)


def scaled_confidences(reads: list[_Read], factor: float) -> list[_Read]:
    """Each read with its confidence times ``factor``."""
    if factor >= 1.0:
        return reads
    return [replace(r, confidence=r.confidence * factor) for r in reads]
