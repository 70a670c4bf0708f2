"""The lean of tall weights read from the weights themselves, where the camera's pose cannot
be taken (:func:`~vision.enigma.puzzles.weight_pose.top_face_lean` is None: the pack gives no
weight height, or no lens fits the card's homography, as for a camera whose principal point
lies off the frame's middle).

One camera over weights of one height: every weight's top face shows off its base the same
way, nearly the same length over a card (the lean grows with the distance from the camera's
nadir, by a few per cent of a weight's radius across a card seen from arm's height). Seen
flat, the sieve's peak lies between a weight's top face and its base, pulled to the base by
its side and its lamp shadow. The shifts from those peaks to the whole top faces near them
are the leans to try: the one through which the most places show a weight standing tall,
whole, its side down to its base (:func:`~vision.enigma.puzzles.weight.posed_judge`), at
least :data:`OWN_LEAN_WEIGHTS` of them, is the lean, and the card is read again through it as
through the pose (where that reading disagrees with the flat one on a cup the flat one read
without a doubt, that cup is asked about: :func:`~vision.enigma.puzzles.weight_verdict.
posed_reading`).
"""

from __future__ import annotations

import math

import numpy as np

from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.cards import Point
from vision.enigma.puzzles.weight import (
    Weight,
    judge_weight,
    posed_judge,
    top_face_near,
    top_face_template,
    weight_places,
    weight_radius_px,
)
from vision.enigma.puzzles.weight_pose import Lean

#: a weight's top face lies at least this share of the radius off its sieve peak to show a
#: lean (a flat weight's face is at its peak), and the top faces agree on the lean within
#: this share of the radius (a weight's centre is found within 0.15 of it)
OWN_LEAN_LEAST, OWN_LEAN_AGREE = 0.1, 0.2
#: at least this many weights stand tall through the lean taken (one weight alone, or two, may
#: be a flat weight beside a shadow), and the shifts' common one is the mean of the largest
#: group holding this many and this share of them
OWN_LEAN_WEIGHTS, OWN_LEAN_SHARE = 3, 0.6


def top_face_shifts(level: np.ndarray, places: list[Weight], pack: EnigmaPack) -> list[Point]:
    """Per place that is not whole, the shift from it to a whole top face near it
    (:func:`~vision.enigma.puzzles.weight.top_face_near`), where that lies
    :data:`OWN_LEAN_LEAST` off it."""
    wr = weight_radius_px(pack)
    template = top_face_template(pack, wr)
    shifts: list[Point] = []
    for place in places:
        top = None if place.whole else top_face_near(level, template, place.centre, wr)
        if top is None or math.dist(top, place.centre) < OWN_LEAN_LEAST * wr:
            continue
        if judge_weight(level, top, wr).whole:
            shifts.append((top[0] - place.centre[0], top[1] - place.centre[1]))
    return shifts


def common_shift(shifts: list[Point], wr: float) -> Point | None:
    """The mean of the largest group of ``shifts`` within :data:`OWN_LEAN_AGREE` of one of
    them, when it holds :data:`OWN_LEAN_WEIGHTS` and :data:`OWN_LEAN_SHARE` of them; None
    otherwise."""
    best: list[Point] = []
    for s in shifts:
        group = [t for t in shifts if math.dist(s, t) <= OWN_LEAN_AGREE * wr]
        if len(group) > len(best):
            best = group
    if len(best) < max(OWN_LEAN_WEIGHTS, OWN_LEAN_SHARE * len(shifts)):
        return None
    return (float(np.mean([s[0] for s in best])), float(np.mean([s[1] for s in best])))


def standing_at(level: np.ndarray, places: list[Weight], shift: Point, wr: float,
                template: np.ndarray) -> int:
    """How many of ``places`` show a weight standing tall, its top face ``shift`` off its
    base, whole, with its side down to its base
    (:func:`~vision.enigma.puzzles.weight.posed_judge`). The places the sieve judged whole
    count too: a tall weight's peak may lie on its top face, and its side still shows."""
    return sum(posed_judge(level, template, p.centre, wr, lambda at: shift) is not None
               for p in places)


def own_lean(level: np.ndarray, pack: EnigmaPack, near: np.ndarray) -> Lean | None:
    """The lean the weights' own top faces show off the sieve's places within ``near``: of
    the shifts to their top faces (:func:`top_face_shifts`) and their common one
    (:func:`common_shift`), the one through which most places stand tall
    (:func:`standing_at`), the same at every place; None where they show none in common."""
    wr = weight_radius_px(pack)
    places = [judge_weight(level, c, wr) for c in weight_places(level, pack, near)]
    shifts = top_face_shifts(level, places, pack)
    if not shifts:
        return None
    common = common_shift(shifts, wr)
    template = top_face_template(pack, wr)
    # the same shift found at two places is tried once
    tried = list(dict.fromkeys(([common] if common else []) + shifts))
    scored = [(standing_at(level, places, s, wr, template), s) for s in tried]
    standing, best = max(scored, key=lambda sc: sc[0])
    if standing < OWN_LEAN_WEIGHTS:
        return None
    lean: Point = best
    return lambda at: lean


__all__ = ["OWN_LEAN_WEIGHTS", "common_shift", "own_lean", "standing_at", "top_face_shifts"]
