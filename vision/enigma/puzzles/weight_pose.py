"""Tall weights on the weight card, seen through the camera's pose: where a weight's top face
shows off its base (:mod:`vision.enigma.puzzles.camera_pose`), and whether a top face shows
the side of a weight standing under it.

A real weight is a small metal cylinder (the pack's ``weight_height_mm``). A camera that is
not straight over it shows its top face moved away from the camera's nadir and, between the
top face and its base, its side, as dark as a rim. Judged at the right top face such a weight
shows whole (session 25: 96% of the drawn weights); judged at its base or in between, not.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from vision.enigma.mat import CARD_PX_PER_MM
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.camera_pose import camera_eyes, top_face_shift
from vision.enigma.puzzles.cards import Point
from vision.enigma.puzzles.view import CardView

#: the top faces the lens's field of view range puts a weight's top face at may lie this far
#: apart (share of the weight's radius) and the pose still be taken: a whole weight judged a
#: few pixels off its centre still shows whole (its rim band is 0.33 of the radius wide).
#: Tuning renders: the range 55-77 degrees puts them 0.09-0.11 radii apart at mild tilts
TOP_TOLERANCE = 0.15
#: a weight's side shows where the part of its base's disc (to this share of the radius) that
#: its top face's disc (from this share) leaves is darker than this share of the way from the
#: card to the weight's rim: metal, not card. A flat weight leaves card there
SIDE_DISC, SIDE_CLEAR, SIDE_DARK = 0.95, 1.05, 0.5

Lean = Callable[[Point], Point | None]


def top_face_lean(view: CardView, pack: EnigmaPack, wr: float) -> Lean | None:
    """How far (card view px) the top face of a weight (``wr`` px radius) standing at a
    place shows off it, from the camera's pose over the card, for every lens that fits the
    card's homography (:func:`~vision.enigma.puzzles.camera_pose.camera_eyes`); at a place
    where those lenses put it further apart than :data:`TOP_TOLERANCE`, None (a weight there
    is judged where it is). None for the whole card when the pack's weights are flat, the
    view does not carry the card's homography, or no lens fits it (the frame is then read
    as before the pose)."""
    height = float(pack.sizes.get("weight_height_mm", 0.0)) * CARD_PX_PER_MM
    if height <= 0 or view.frame_to_view is None or view.frame_size is None:
        return None
    eyes = camera_eyes(np.linalg.inv(view.frame_to_view), view.frame_size)
    if not eyes:
        return None
    tolerance = TOP_TOLERANCE * wr
    return lambda at: top_face_shift(eyes, at, height, tolerance)


def side_shows(level: np.ndarray, top: Point, shift: Point, wr: float, card: float,
               rim: float) -> bool:
    """Whether the weight whose top face is at ``top`` (levels ``card`` around it, ``rim``
    on its rim) shows its side down to its base, ``shift`` off: metal where the base's disc
    reaches out of the top face's."""
    base = (top[0] - shift[0], top[1] - shift[1])
    half = int(math.ceil(wr * SIDE_CLEAR + math.hypot(*shift))) + 1
    x, y = int(round(top[0])), int(round(top[1]))
    h, w = level.shape
    if x - half < 0 or y - half < 0 or x + half >= w or y + half >= h:
        return False
    yy, xx = np.mgrid[y - half:y + half + 1, x - half:x + half + 1]
    side = ((np.hypot(xx - base[0], yy - base[1]) <= SIDE_DISC * wr)
            & (np.hypot(xx - top[0], yy - top[1]) >= SIDE_CLEAR * wr))
    if not side.any():
        return False
    patch = level[y - half:y + half + 1, x - half:x + half + 1]
    return float(np.median(patch[side])) <= card - SIDE_DARK * (card - rim)


def likeness_at(level: np.ndarray, template: np.ndarray, at: Point) -> float:
    """The normalised correlation of ``template`` centred at ``at`` (-1 at the edge)."""
    half = template.shape[0] // 2
    x, y = int(round(at[0])), int(round(at[1]))
    patch = level[max(0, y - half):y + half + 1, max(0, x - half):x + half + 1]
    if patch.shape != template.shape:
        return -1.0
    return float(cv2.matchTemplate(patch, template, cv2.TM_CCOEFF_NORMED)[0, 0])


__all__ = ["SIDE_DARK", "TOP_TOLERANCE", "Lean", "likeness_at", "side_shows", "top_face_lean"]
