"""The picture check before a puzzle verdict: the card and its pieces must be seen well
enough to call a solution solved or not solved.

A right angular structure seen by a grayscale or infrared camera was called "not solved"
(``bench/silent_reads.py --games puzzle``): its pieces are told from the table by colour.
The shared check of :mod:`vision.picture` runs on the card and the mat round it, and a frame
it refuses is "cannot tell", with its cause and what to do.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.enigma.puzzles.verdicts import MarkKind, PuzzleVerdict, Reason
from vision.enigma.puzzles.view import CANNOT_TELL, NOT_SOLVED, SOLVED, CardView, verdict
from vision.picture import (
    PictureMeasures,
    PictureSettings,
    check_picture,
    default_picture_settings,
    measure_inside,
)

#: the kinds whose pieces are told apart by colour; the weights (metal on the cups) and the
#: fragment pieces (against the silhouette) are read by light alone, and were read right in
#: grayscale and infrared frames, right and wrong solutions alike
NEEDS_COLOUR = frozenset({"angular", "conduit"})


#: the share of the measured square (the card and the mat round it) that may sit at the
#: sensor's ceiling: the card's white paper alone is about a third of it (the view's margin
#: is 0.35 of the card's side on each side), and a rendered card in full light clips on a
#: quarter; past this much the mat and the pieces are burnt out too
CARD_MAX_CLIPPED = 0.6


def card_outline_in_frame(view: CardView) -> np.ndarray:
    """The view's square (the card and the mat round it) in the camera frame's pixels."""
    assert view.frame_to_view is not None
    h, w = view.image.shape[:2]
    corners = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float32)
    outline: np.ndarray = cv2.perspectiveTransform(corners, np.linalg.inv(view.frame_to_view))[0]
    return outline


def card_measures(frame: np.ndarray, view: CardView) -> PictureMeasures | None:
    """The picture measures of :mod:`vision.picture` on the card and the mat round it."""
    return measure_inside(frame, card_outline_in_frame(view))


def check_card_picture(kind: str, frame: np.ndarray, view: CardView,
                       limits: PictureSettings | None = None, *,
                       measures: PictureMeasures | None = None) -> float:
    """The picture's quality round the card (0..1); raises ``FrameRefusedError`` naming the
    cause and the remedy when the frame carries too little to judge the solution.
    ``measures``: :func:`card_measures` of the frame, when already taken."""
    limits = limits or default_picture_settings()
    limits = replace(limits, max_clipped=max(limits.max_clipped, CARD_MAX_CLIPPED))
    measures = measures or card_measures(frame, view)
    if measures is None:  # the card was found in this frame: its square always covers some
        return 1.0
    return check_picture(measures, limits, needs_colour=kind in NEEDS_COLOUR)


#: a built structure whose pixels sit at the sensor's ceiling in one channel or more over
#: this share has lost its colours: a blue cube clipped in blue turns cyan, nearer green
#: (normal light clips at most an eighth of a structure; an over-exposed one, 0.7 to 0.97)
STRUCTURE_MAX_CLIPPED = 0.5


def burnt_out_doubt(kind: str, frame: np.ndarray, said: PuzzleVerdict) -> PuzzleVerdict:
    """``said``, or "cannot tell" when it is a "not solved" or an unclear structure read
    from a structure whose colours the light burnt out (its marks in the frame's pixels):
    over-exposed, blue cubes clipped in blue turn cyan and read green, and a right structure
    shows another picture. The light is then what to fix, not the camera's angle."""
    doubted = said["verdict"] == NOT_SOLVED or (
        said["verdict"] == CANNOT_TELL and said.code == Reason.STRUCTURE_UNCLEAR)
    if not doubted or kind not in NEEDS_COLOUR:
        return said
    for mark in said.marks:
        if mark.kind != MarkKind.STRUCTURE:
            continue
        measures = measure_inside(frame, np.array(mark.points, np.float32))
        if measures is not None and measures.clipped > STRUCTURE_MAX_CLIPPED:
            return verdict(CANNOT_TELL, "the light burns out the pieces' colours: dim the "
                           "lamp or move it off the pieces", code=Reason.COLOURS_BURNT_OUT,
                           facts={"clipped": round(measures.clipped, 2)}, marks=said.marks)
    return said


#: the kinds whose doubts and "not solved" are said as a blurred picture in a soft focus
#: (the others' checks keep their own reasons)
SOFT_FOCUS_KINDS = frozenset({"weight", "angular"})
#: below this focus round the card (:func:`vision.picture.measure_inside`: fine detail per unit
#: of contrast) a frame is soft: on tuning frames (wood and cloth, seeds below 70000) sharp
#: renders measure 0.37 to 1.0, and the same frames through vision.synth.conditions'
#: out_of_focus 0.2 (a lens blur of radius 5 px) at most 0.18, 0.3 at most 0.14. The picture
#: check refuses only below its min_focus (0.05), and between the two the evidence a "not
#: solved" rests on is measured through the blur: a weight's rim and crescent, a cube's edge
SOFT_FOCUS = 0.25


def out_of_focus_doubt(kind: str, measures: PictureMeasures | None,
                       said: PuzzleVerdict) -> PuzzleVerdict:
    """``said``, or the picture check's "blurred" refusal when the frame round the card is soft
    (:data:`SOFT_FOCUS`) and ``said`` is not "solved": a blur lifts a weight's rim and makes
    crescents of the print, and blends two cubes' colours into a third, so a "not solved"
    (a right structure told not solved, in the silent-read census at out_of_focus 0.3) or a
    doubt is the blur's as much as the table's. The players refocus first; "solved" stands (a
    blur makes no picture match the card, nor a weight whole)."""
    if kind not in SOFT_FOCUS_KINDS or measures is None or measures.focus >= SOFT_FOCUS or \
            said.verdict == SOLVED:
        return said
    return verdict(CANNOT_TELL, "the frame cannot be read: the picture is out of focus on the "
                   "board: refocus, or hold the camera still", code=Reason.FRAME_UNREADABLE,
                   facts={"refusal": "blurred", "focus": round(measures.focus, 3)},
                   marks=said.marks)


__all__ = ["CARD_MAX_CLIPPED", "NEEDS_COLOUR", "SOFT_FOCUS", "SOFT_FOCUS_KINDS",
           "STRUCTURE_MAX_CLIPPED", "burnt_out_doubt", "card_measures", "card_outline_in_frame",
           "check_card_picture", "out_of_focus_doubt"]
