"""The weight check on weights with a real height (issue #26): a tilted camera sees each
weight's top face off its base, its side between the two, and the lamp's shadow beside it. A
weight that lies partly under another is still seen, in the notch between two weights too;
that the sides are no such weight is still open (the check asks about tall weights side by
side whose sides reach beyond their own discs)."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.enigma.puzzles import load_puzzles
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.check import check_puzzle_frame
from vision.enigma.puzzles.view import open_mask
from vision.enigma.puzzles.weight import (
    CRESCENT_AREA,
    CRESCENT_THICK,
    judge_weight,
    tall_faces,
    weight_places,
    weight_radius_px,
    whole_and_hidden,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from independent_scenes.puzzle_scene import puzzle_scene, scene_cards  # noqa: E402

#: the drawn levels (the card at 1): a weight's face, its turned rim, its highlight, its side
#: (lit at a grazing angle)
FACE, RIM, SHINE, SIDE = 0.6, 0.4, 0.85, 0.3
Point = tuple[float, float]


def _shadow(level: np.ndarray, base: Point, wr: float, shadow: Point, dim: float) -> None:
    """The lamp's soft shadow of a weight standing at ``base``, cast ``shadow`` px off it,
    dimming the card by ``dim``."""
    mask = np.zeros(level.shape, np.float32)
    for t in np.linspace(0, 1, 12):
        c = (int(round(base[0] + t * shadow[0])), int(round(base[1] + t * shadow[1])))
        cv2.circle(mask, c, int(round(wr)), 1.0, -1, cv2.LINE_AA)
    level *= 1 - dim * cv2.GaussianBlur(mask, (0, 0), 2.5)


def _tall_weight(level: np.ndarray, base: Point, wr: float, sweep: Point) -> None:
    """A weight standing at ``base``; its top face lies ``sweep`` px off it, away from the
    camera, and its side fills the space between."""
    for t in np.linspace(0, 1, 12):
        c = (int(round(base[0] + t * sweep[0])), int(round(base[1] + t * sweep[1])))
        cv2.circle(level, c, int(round(wr)), SIDE, -1, cv2.LINE_AA)
    top = (int(round(base[0] + sweep[0])), int(round(base[1] + sweep[1])))
    cv2.circle(level, top, int(round(wr)), RIM, -1, cv2.LINE_AA)
    cv2.circle(level, top, int(round(0.82 * wr)), FACE, -1, cv2.LINE_AA)
    spot = (int(top[0] - 0.35 * wr), int(top[1] - 0.35 * wr))
    cv2.circle(level, spot, int(round(0.3 * wr)), SHINE, -1, cv2.LINE_AA)


def _polar(length: float, degrees: float) -> Point:
    return length * math.cos(math.radians(degrees)), length * math.sin(math.radians(degrees))


def _cup_of_tall_weights(wr: float, sweep: Point, shadow: Point, seed: int, *,
                         dim: float = 0.0, under: Point | None = None, on: bool = False,
                         draw_under: bool = True) -> np.ndarray:
    """Three weights touching in a cup (a printed ring round them), each standing tall; with
    ``under``, a fourth lies that far (px) off the first, partly under it: drawn before it,
    in the shadow of the weights over it. ``on``: the first stands on it, its base one
    weight's height up (its top face two sweeps off), as solid weights do; ``draw_under``
    False leaves the fourth out (what the picture would be without it)."""
    level = np.ones((300, 360), np.float32)
    cv2.circle(level, (180, 150), int(3.2 * wr), 0.25, 4, cv2.LINE_AA)
    ring = 2.04 * wr / math.sqrt(3)
    bases = [(180 + ring * math.cos(a), 150 + ring * math.sin(a))
             for a in (math.radians(90), math.radians(210), math.radians(330))]
    if under is not None and draw_under:
        hidden = (bases[0][0] + under[0], bases[0][1] + under[1])
        _shadow(level, hidden, wr, shadow, dim)
        _tall_weight(level, hidden, wr, sweep)
    for base in bases:
        _shadow(level, base, wr, shadow, dim)
    lifted = under is not None and on
    for i, base in sorted(enumerate(bases), key=lambda ib: -(ib[1][0] * sweep[0]
                                                             + ib[1][1] * sweep[1])):
        up = (sweep[0], sweep[1]) if lifted and i == 0 else (0.0, 0.0)
        _tall_weight(level, (base[0] + up[0], base[1] + up[1]), wr, sweep)
    level = cv2.GaussianBlur(level, (0, 0), 1.0)
    rng = np.random.default_rng(seed)
    out: np.ndarray = (level + rng.normal(0, 0.015, level.shape)).astype(np.float32)
    return out


def _read(level: np.ndarray, pack: EnigmaPack) -> tuple[int, int, int]:
    """(weight-like places, whole weights, whole weights leaving a crescent)."""
    wr = weight_radius_px(pack)
    inside = np.ones(level.shape, bool)
    judged = tall_faces(level, [judge_weight(level, p, wr)
                                for p in weight_places(level, pack, inside)], wr, pack)
    first = [j for j in judged if j.whole]
    whole, hidden = whole_and_hidden(level, pack, first, inside, lambda _: True)
    return len(judged), len(whole), len(hidden)


#: (the sweep from the top face to the base, its direction; the shadow, its direction) in
#: weight radii and degrees: a tilt of tan 0.2 to 0.45 over 3 mm tall weights, a lamp 40 to 75
#: degrees up; the shadow to the side of, across or along the sweep
TALL_CASES = ((0.35, 200, 1.2, 30), (0.5, 110, 0.9, 110), (0.6, 315, 1.5, 200),
              (0.25, 45, 1.3, 260))


@pytest.mark.xfail(strict=True, reason="open (#26, session 21): a tall weight's side reads as "
                   "a crescent; the fix tried (weight_top: top face, one sweep per card) hid a "
                   "weight partly under another in 16 of 48 shadowless scenes below")
def test_tall_weights_side_by_side_show_whole_and_leave_no_crescent(
        demo_pack: EnigmaPack) -> None:
    """Their sides and shadows were read as weights partly under them (independent puzzle
    scenes, weight, tuning seeds 0 to 5: right builds 'cannot tell: a weight does not show
    whole' in 15 of 18 frames). Their sides alone here: with the lamp's shadows beside
    them (dimming the card by 25 to 40%) in a cup this crowded, the cup is still asked about
    (left for later)."""
    wr = weight_radius_px(demo_pack)
    for seed, (sweep, towards, shadow, lit) in enumerate(TALL_CASES):
        # the top face lies off the base away from the camera: the base towards it
        level = _cup_of_tall_weights(wr, _polar(-sweep * wr, towards),
                                     _polar(shadow * wr, lit), seed)
        places, whole, hidden = _read(level, demo_pack)
        assert (whole, hidden) == (3, 0), (sweep, towards, shadow, lit, places, whole, hidden)


def test_a_tall_weight_partly_under_another_is_still_seen(demo_pack: EnigmaPack) -> None:
    """The side and the shadow a tall weight is allowed do not hide one lying partly under it:
    0.8 to 1.4 radii off, along its side, along its shadow, or across them; no shadow, or
    shadows dimming the card by 25 or 40% (and the weight under them with it). Session 21's
    tried fix, which also judged a place again at its top face (not done here), missed it
    in 16 of the 48 shadowless cases (9 with the top face alone)."""
    wr = weight_radius_px(demo_pack)
    for seed, (sweep, towards, shadow, lit) in enumerate(TALL_CASES):
        for offset, dim in ((0.8, 0.0), (1.1, 0.0), (1.4, 0.0), (0.8, 0.25), (1.1, 0.4),
                            (1.4, 0.25)):
            # the hidden one on the side's side, in the shadow, across, and away
            for at in (towards, lit, towards + 90, towards + 180):
                level = _cup_of_tall_weights(wr, _polar(-sweep * wr, towards),
                                             _polar(shadow * wr, lit), seed, dim=dim,
                                             under=_polar(offset * wr, at))
                places, whole, hidden = _read(level, demo_pack)
                assert hidden or whole < places, (sweep, towards, shadow, lit, offset, at,
                                                  places, whole)


def _shown(level: np.ndarray, without: np.ndarray, wr: float) -> int:
    """How many px of the weight partly under another the picture shows: where it differs
    from the picture without it, once the crescent test's opening has taken off the slivers
    no reading can tell from the blur."""
    differs = np.abs(cv2.GaussianBlur(level, (0, 0), 1.0)
                     - cv2.GaussianBlur(without, (0, 0), 1.0)) > 0.1
    return int(open_mask(differs, max(1, int(round(CRESCENT_THICK * wr)))).sum())


def _assert_one_on_another_asked_or_counted(demo_pack: EnigmaPack, wr: float, drawn: Any,
                                            offset: float, at: float, case: Any) -> None:
    """The cup ``drawn`` with a fourth weight ``offset`` radii off at ``at`` degrees, under the
    one standing on it: where it shows at least a crescent's least area, the check asks about
    it or counts all four whole."""
    under = _polar(offset * wr, at)
    level = _cup_of_tall_weights(wr, *drawn, under=under, on=True)
    without = _cup_of_tall_weights(wr, *drawn, under=under, on=True, draw_under=False)
    if _shown(level, without, wr) < CRESCENT_AREA * math.pi * wr * wr:
        return
    places, whole, hidden = _read(level, demo_pack)
    assert hidden or whole < places or whole == 4, (*case, offset, at, places, whole)


def test_a_tall_weight_standing_on_another_is_asked_or_counted(demo_pack: EnigmaPack) -> None:
    """Solid weights cannot overlap on the table: a weight partly under another lifts it
    (its top face lies two sweeps off its base). Wherever the weight under it shows at least
    a crescent's least area (:data:`CRESCENT_AREA` of a face, after the opening), it is asked
    about or counted whole. Session 22 drew these with no shadow (the shadowed ones of the
    test above are asked): main counted 3 where 4 lie in 6 of the 48, 4 of which show less
    than that (0 px in 3: the picture is the cup without it, within the blur); the other two
    (sweep 0.25, the fourth 1.1 and 1.4 radii off towards the top faces) lie in the notch
    and are asked since session 23 (its face in the notch, :data:`NOTCH_AREA`)."""
    wr = weight_radius_px(demo_pack)
    for seed, (sweep, towards, shadow, lit) in enumerate(TALL_CASES):
        drawn = (_polar(-sweep * wr, towards), _polar(shadow * wr, lit), seed)
        for offset in (0.8, 1.1, 1.4):
            for at in (towards, lit, towards + 90, towards + 180):
                _assert_one_on_another_asked_or_counted(demo_pack, wr, drawn, offset, at,
                                                        (sweep, towards))


def test_a_weight_under_another_in_the_notch_beside_a_third_is_asked_or_counted(
        demo_pack: EnigmaPack) -> None:
    """The weight standing on another with the one under it in the notch between it and the
    weight beside it (1.1 and 1.4 radii off, towards the weights on either side), short
    sweeps (0.15 and 0.25 radii) in four leans: both whole weights' own discs cut what shows
    of it, and the opening takes its tips. Session 22 (tuning): main counted 3 where 4 lie,
    asking nothing, in 8 of these 32 (all 32 show at least a crescent's least area: 188-380
    px, of which 57-187 px are left after both own discs and the opening). Counting metal in
    the notch (touching two whole weights) from 0.05 of a face fixed these and asked about
    right builds on the independent tuning frames (mild seed 4, moderate seed 1), whose tall
    weights side by side leave notch metal of 57-156 px: not kept. Session 23: notch metal
    counts from 0.05 of a face only where its lightest part is the hidden weight's face, no
    lighter than the top weight's (:data:`NOTCH_FACE_STEP`); the sides and shadows in those
    right builds are lighter, blurred towards the card."""
    wr = weight_radius_px(demo_pack)
    for sweep in (0.15, 0.25):
        for towards in (0, 90, 180, 270):
            drawn = (_polar(-sweep * wr, towards), (0.0, 0.0), int(100 * sweep) + towards)
            for offset in (1.1, 1.4):
                for at in (225, 315):
                    _assert_one_on_another_asked_or_counted(demo_pack, wr, drawn, offset, at,
                                                            (sweep, towards))


@pytest.mark.parametrize(("condition", "seed"), [("mild", 4), ("moderate", 1)])
def test_tall_weights_side_by_side_the_check_solves_stay_solved(demo_pack: EnigmaPack,
                                                                  condition: str,
                                                                  seed: int) -> None:
    """The other edge of the notch rule: the independent puzzle scenes' right builds (tuning
    seeds) whose tall weights stand side by side leave sides and lamp shadows in the notches
    (57-156 px, less than a crescent), lighter than a weight's face (0.25-0.31 of the way from
    the face to the card, the rule's bound 0.045): they are no weight under another, and the
    build stays solved (a bound of 0.35 asks about both)."""
    cards = scene_cards("weight")
    card_id = cards[seed % len(cards)]
    box = load_puzzles()
    frame = puzzle_scene("weight", card_id, True, seed, condition).frame
    result = check_puzzle_frame("weight", frame, demo_pack, card=box.weight.cards[card_id],
                                box=box)
    assert result["verdict"] == "solved", (condition, seed, result["reason"])


def test_lone_tall_weights_show_whole_at_their_top_faces(demo_pack: EnigmaPack) -> None:
    """Two tall weights apart (a card's lone weights in their cups), no shadow: the sieve's
    peak lies between each top face and its base, where the face ring takes in the side or
    the far rim is missed, so main asked about both in 10 of these 16 (sweeps 0.35 and 0.5
    radii, eight leans). Judged again at the top face (:func:`tall_faces`: both lie off
    their peaks the same way) each shows whole, and its side leaves no crescent."""
    wr = weight_radius_px(demo_pack)
    for sweep in (0.35, 0.5):
        for towards in range(0, 360, 45):
            level = np.ones((200, 360), np.float32)
            for x in (100, 260):
                _tall_weight(level, (x, 100), wr, _polar(-sweep * wr, towards))
            level = cv2.GaussianBlur(level, (0, 0), 1.0)
            noise = np.random.default_rng(towards).normal(0, 0.015, level.shape)
            assert _read((level + noise).astype(np.float32), demo_pack) == (2, 2, 0), (
                sweep, towards)
