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
from vision.enigma.puzzles.view import CANNOT_TELL, NOT_SOLVED, CardView, verdict
from vision.picture import (
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


def check_card_picture(kind: str, frame: np.ndarray, view: CardView,
                       limits: PictureSettings | None = None) -> float:
    """The picture's quality round the card (0..1); raises ``FrameRefusedError`` naming the
    cause and the remedy when the frame carries too little to judge the solution."""
    limits = limits or default_picture_settings()
    limits = replace(limits, max_clipped=max(limits.max_clipped, CARD_MAX_CLIPPED))
    measures = measure_inside(frame, card_outline_in_frame(view))
    if measures is None:  # the card was found in this frame: its square always covers some
        return 1.0
    return check_picture(measures, limits, needs_colour=kind in NEEDS_COLOUR)


#: a built structure whose pixels sit at the sensor's ceiling in one channel or more over
#: this share has lost its colours: a blue cube clipped in blue turns cyan, nearer green
#: (normal light clips at most an eighth of a structure; an over-exposed one, 0.7 to 0.97)
STRUCTURE_MAX_CLIPPED = 0.5


def burnt_out_doubt(kind: str, frame: np.ndarray, said: PuzzleVerdict) -> PuzzleVerdict:
    """``said``, or "cannot tell" when it is a "not solved" read from a structure whose
    colours the light burnt out (its marks in the frame's pixels): over-exposed, blue cubes
    clipped in blue turn cyan and read green, and a right structure shows another picture."""
    if said["verdict"] != NOT_SOLVED or kind not in NEEDS_COLOUR:
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


__all__ = ["CARD_MAX_CLIPPED", "NEEDS_COLOUR", "STRUCTURE_MAX_CLIPPED", "burnt_out_doubt",
           "card_outline_in_frame", "check_card_picture"]
