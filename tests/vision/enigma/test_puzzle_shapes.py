"""The puzzle checks' shape tests on drawn pictures: a card's outline is found by its step, a
weight is told from print of its grey by its face and rim, and a weight partly under another
is read from its crescent."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.enigma.puzzles.card_find import chroma, outline_steps


def test_the_outline_step_peaks_on_the_card_not_on_a_lit_patch_beside_it() -> None:
    image = np.full((200, 300), 0.45, np.float32)
    image[60:140, 40:120] = 0.9  # the card
    # a lamp's patch: nearly as bright, with soft edges (no step anywhere)
    lit = np.zeros_like(image)
    cv2.circle(lit, (220, 100), 50, 0.4, -1)
    image += cv2.GaussianBlur(lit, (0, 0), 15)
    steps = outline_steps(image, 80)
    y, x = np.unravel_index(int(np.argmax(steps)), steps.shape)
    assert abs(x - 80) <= 1 and abs(y - 100) <= 1, (x, y)
    assert steps[100, 220] < 0.3 * steps[y, x]


def test_chroma_is_the_same_on_8_bit_and_float_pixels() -> None:
    """The 8-bit path (no float copy of the frame) gives the float path's values."""
    rng = np.random.default_rng(4)
    image = rng.integers(0, 256, (37, 53, 3)).astype(np.uint8)
    assert np.allclose(chroma(image), chroma(image.astype(np.float32)), atol=1e-5)


# ---------------------------------------------------------------------------- weights

from vision.enigma.pack import EnigmaPack  # noqa: E402
from vision.enigma.puzzles.weight import (  # noqa: E402
    WASHED_OUT,
    crescents,
    judge_weight,
    local_card,
    smooth_level,
    weight_places,
    weight_radius_px,
)

#: the drawn weights' levels (the card at 1): face, rim, and their own highlight
FACE, RIM, SHINE = 0.6, 0.36, 0.85


def _draw_weight(level: np.ndarray, centre: tuple[int, int], wr: float) -> None:
    cv2.circle(level, centre, int(round(wr)), RIM, -1, cv2.LINE_AA)
    cv2.circle(level, centre, int(round(0.82 * wr)), FACE, -1, cv2.LINE_AA)
    spot = (int(centre[0] - 0.35 * wr), int(centre[1] - 0.35 * wr))
    cv2.circle(level, spot, int(round(0.3 * wr)), SHINE, -1, cv2.LINE_AA)


def _scene(wr: float, *, glare: float, seed: int, weights: list[tuple[int, int]],
           digit_at: tuple[int, int] | None = None) -> np.ndarray:
    """A card (level 1) with a printed cup ring, weights drawn in order (a later one lies
    on an earlier one), a printed '0' of a weight's size, a lamp's glare washing it all
    towards white, and the sensor's noise."""
    level = np.ones((240, 320), np.float32)
    cv2.circle(level, (120, 120), int(2.6 * wr), 0.25, 4, cv2.LINE_AA)
    for centre in weights:
        _draw_weight(level, centre, wr)
    if digit_at is not None:
        cv2.ellipse(level, digit_at, (int(0.7 * wr), int(wr)), 0, 0, 360, 0.25, 6, cv2.LINE_AA)
    level = cv2.GaussianBlur(level, (0, 0), 1.0)
    level = level * (1 - glare) + glare
    rng = np.random.default_rng(seed)
    out: np.ndarray = (level + rng.normal(0, 0.015, level.shape)).astype(np.float32)
    return out


def _whole(level: np.ndarray, pack: EnigmaPack) -> list[tuple[float, float]]:
    wr = weight_radius_px(pack)
    near = np.ones(level.shape, bool)
    return [p for p in weight_places(level, pack, near) if judge_weight(level, p, wr).whole]


def test_weights_side_by_side_are_each_whole_under_glare_and_a_printed_zero_is_none(
        demo_pack: EnigmaPack) -> None:
    wr = weight_radius_px(demo_pack)
    apart = int(round(1.02 * wr))
    for seed, glare in enumerate((0.0, 0.4, 0.6)):
        level = _scene(wr, glare=glare, seed=seed, weights=[(120 - apart, 120),
                                                            (120 + apart, 120)],
                       digit_at=(260, 120))
        found = sorted(_whole(level, demo_pack))
        assert len(found) == 2, (glare, found)
        for (x, y), want in zip(found, (120 - apart, 120 + apart), strict=True):
            assert abs(x - want) <= 2 and abs(y - 120) <= 2, (glare, found)


def test_a_weight_partly_under_another_leaves_a_crescent_and_weights_apart_leave_none(
        demo_pack: EnigmaPack) -> None:
    wr = weight_radius_px(demo_pack)
    inside = np.ones((240, 320), bool)
    for seed, glare in enumerate((0.0, 0.5)):
        for offset in (0.8, 1.1, 1.4):
            under = (120, 120)
            top = (int(round(120 + offset * wr)), 120)
            level = _scene(wr, glare=glare, seed=seed, weights=[under, top])
            wr_px = weight_radius_px(demo_pack)
            judged = [judge_weight(level, p, wr_px) for p in
                      weight_places(level, demo_pack, inside)]
            whole = [w for w in judged if w.whole]
            hidden = [w for w in judged if not w.whole]
            seen = [c for w in whole for c in crescents(smooth_level(level),
                                                        local_card(level, wr_px), w, whole,
                                                        wr_px, inside)]
            # the weight underneath is seen: as a crescent beside a whole one, or as a place
            # that does not show whole
            assert seen or hidden, (glare, offset, judged)
        level = _scene(wr, glare=glare, seed=seed,
                       weights=[(120 - int(1.02 * wr), 120), (120 + int(1.02 * wr) + 1, 120)])
        whole = [judge_weight(level, p, wr) for p in weight_places(level, demo_pack, inside)]
        whole = [w for w in whole if w.whole]
        assert len(whole) == 2
        assert not [c for w in whole for c in crescents(smooth_level(level),
                                                        local_card(level, wr), w, whole, wr,
                                                        inside)]


@pytest.mark.parametrize(("glare", "counted"), [(0.85, True), (0.97, False)])
def test_a_weight_washed_out_by_glare_is_asked_about_not_counted(demo_pack: EnigmaPack,
                                                                  glare: float,
                                                                  counted: bool) -> None:
    # the weight's rim lies 0.10 of the card's level below it at glare 0.85, 0.03 at 0.97:
    # since session 29 a weight is told down to 0.05 (weights near burning out on tuning
    # frames lie 0.078-0.098 below, the bare card's noise 0.008-0.029), asked below that
    wr = weight_radius_px(demo_pack)
    level = _scene(wr, glare=glare, seed=7, weights=[(120, 120)])
    judged = judge_weight(level, (120.0, 120.0), wr)
    if counted:
        assert judged.whole, judged
    else:
        assert not judged.whole and judged.doubt == WASHED_OUT


def test_a_lone_weight_washed_by_glare_in_a_dimmer_cup_leaves_no_crescent(
        demo_pack: EnigmaPack) -> None:
    """A glare washes the weight's face to within a few per cent of the card, and the cup
    round it lies a few per cent darker than the card beyond (the light is least known
    there): the cup is no crescent, as it has no weight's rim (tuning seed 8, cloth/strong)."""
    wr = weight_radius_px(demo_pack)
    inside = np.ones((240, 320), bool)
    cup = np.zeros((240, 320), np.float32)
    cv2.circle(cup, (120, 120), int(2.4 * wr), 1.0, -1)
    cup = cv2.GaussianBlur(cup, (0, 0), 3)
    for seed, (glare, dimmer) in enumerate(((0.8, 0.05), (0.75, 0.07), (0.8, 0.05))):
        level = _scene(wr, glare=glare, seed=seed, weights=[(120, 120)])
        level = (level * (1 - dimmer * cup)).astype(np.float32)
        whole = [judge_weight(level, p, wr) for p in weight_places(level, demo_pack, inside)]
        whole = [w for w in whole if w.whole]
        assert len(whole) == 1
        assert not crescents(smooth_level(level), local_card(level, wr), whole[0], whole, wr,
                             inside)


def _lit_from_the_right(level: np.ndarray, glare: tuple[float, float]) -> np.ndarray:
    """A lamp's glare growing from ``glare[0]`` at the scene's left to ``glare[1]`` at its
    right: one weight of a pair washed more than the other."""
    ramp = np.linspace(glare[0], glare[1], level.shape[1], dtype=np.float32)[None, :]
    out: np.ndarray = (level * (1 - ramp) + ramp).astype(np.float32)
    return out


def test_a_weight_the_sieve_missed_beside_another_is_found_again_from_its_crescent(
        demo_pack: EnigmaPack) -> None:
    """Two weights side by side in a cup, the lamp's glare washing the second: the sieve
    can miss it or place it off its centre, and its metal is then a crescent beside the
    first, read as a weight partly under it (tuning cloth/strong seeds 18 and 33, right
    solutions asked "does a weight lie partly under another?"). Given only the first
    weight, the second is found again, at its centre, and nothing is hidden."""
    from vision.enigma.puzzles.weight import whole_and_hidden

    wr = weight_radius_px(demo_pack)
    apart = int(round(1.02 * wr))
    inside = np.ones((240, 320), bool)
    for seed, glare in enumerate(((0.0, 0.5), (0.3, 0.75), (0.5, 0.8))):
        level = _lit_from_the_right(
            _scene(wr, glare=0.0, seed=seed, weights=[(120 - apart, 120), (120 + apart, 120)]),
            glare)
        first = judge_weight(level, (float(120 - apart), 120.0), wr)
        assert first.whole, glare
        whole, hidden = whole_and_hidden(level, demo_pack, [first], inside, lambda _: True)
        assert len(whole) == 2 and not hidden, (glare, whole, hidden)
        x, y = whole[1].centre
        assert abs(x - (120 + apart)) <= 2 and abs(y - 120) <= 2, (glare, whole[1])


def test_a_weight_partly_under_another_is_never_found_again_as_a_whole_one(
        demo_pack: EnigmaPack) -> None:
    """The second look takes only a weight beside the whole ones: a weight partly under
    another (its centre 0.8 to 1.4 radii off), alone or in a cup crowded with weights side
    by side (tuning cloth/strong seed 5, a wrong solution: a disc half on the hidden weight
    and half on the card passed the rim test), stays hidden."""
    from vision.enigma.puzzles.weight import whole_and_hidden

    wr = weight_radius_px(demo_pack)
    inside = np.ones((240, 320), bool)
    crowd = [(120 - int(2.04 * wr), 120), (120, 120 + int(1.5 * wr))]
    for seed, glare in enumerate((0.0, 0.5)):
        for offset in (0.8, 1.1, 1.4):
            for others in ([], crowd):
                under = (120, 120 - int(0.3 * wr))
                top = (int(round(under[0] + offset * wr)), under[1] - int(0.5 * wr))
                level = _scene(wr, glare=glare, seed=seed, weights=[*others, under, top])
                judged = [judge_weight(level, p, wr)
                          for p in weight_places(level, demo_pack, inside)]
                first = [w for w in judged if w.whole]
                whole, hidden = whole_and_hidden(level, demo_pack, first, inside,
                                                 lambda _: True)
                assert hidden or len(first) < len(judged), (glare, offset, judged)
                for again in whole[len(first):]:
                    assert math.dist(again.centre, under) > 1.8 * wr, (glare, offset, again)


def _light_slope(level: np.ndarray, towards: float, fall: float, span: float) -> np.ndarray:
    """The lamp's light, not quite evened out, falling by ``fall`` over ``span`` px from the
    scene's middle in the direction ``towards`` (degrees)."""
    yy, xx = np.mgrid[0:level.shape[0], 0:level.shape[1]].astype(np.float32)
    a = math.radians(towards)
    t = ((xx - level.shape[1] / 2) * math.cos(a) + (yy - level.shape[0] / 2) * math.sin(a)) / span
    out: np.ndarray = (level * (1 - fall * np.clip(t, 0, 1))).astype(np.float32)
    return out


def test_a_weight_partly_under_a_washed_one_in_a_light_slope_is_still_seen(
        demo_pack: EnigmaPack) -> None:
    """A glare washes the top weight's face to within a few per cent of the card, and the
    lamp's light falls off across the cup: the weight partly under it (0.8 radii off, its
    crescent thin) is still seen, as a crescent or as a place that does not show whole.
    Session 19 tried measuring a crescent against the card right around it (to drop the
    false crescents of the light's slope beside washed weights, tuning cloth/strong 15, 53,
    wood/strong 13); in these scenes the thin crescent joined the sloping card and was
    lost: a wrong solution read as solved."""
    wr = weight_radius_px(demo_pack)
    inside = np.ones((240, 320), bool)
    # (glare, fall of the light, its direction, the hidden weight's direction from the top)
    cases = ((0.8, 0.1, 0, 300), (0.7, 0.14, 0, 300), (0.75, 0.14, 180, 225),
             (0.8, 0.1, 90, 180))
    for seed, (glare, fall, towards, hidden_at) in enumerate(cases):
        a = math.radians(hidden_at)
        top = (160, 120)
        under = (int(round(160 + 0.8 * wr * math.cos(a))), int(round(120 + 0.8 * wr * math.sin(a))))
        level = _light_slope(_scene(wr, glare=glare, seed=seed, weights=[under, top]),
                             towards, fall, 2.5 * wr)
        judged = [judge_weight(level, p, wr) for p in weight_places(level, demo_pack, inside)]
        whole = [w for w in judged if w.whole]
        seen = [c for w in whole for c in crescents(smooth_level(level), local_card(level, wr),
                                                    w, whole, wr, inside)]
        assert seen or len(whole) < len(judged), (glare, fall, towards, hidden_at, judged)
