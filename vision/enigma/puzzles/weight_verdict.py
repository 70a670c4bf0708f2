"""The weight puzzle's verdict: the weights counted per cup (read as flat weights, and where
that leaves a doubt, standing tall through the camera's pose), the pans judged by the engine."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from companion.enigma import puzzle_weight as weight
from companion.enigma.puzzles import PuzzleBox
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.cards import Cup, Point, weight_cups
from vision.enigma.puzzles.marks import cup_doubt_marks, weight_marks
from vision.enigma.puzzles.verdicts import Reason
from vision.enigma.puzzles.view import CANNOT_TELL, NOT_SOLVED, SOLVED, CardView, verdict
from vision.enigma.puzzles.weight import (
    IN_CUP,
    NEAR_CUP,
    OWN_DISC,
    WASHED_OUT,
    Weight,
    crescent_mask,
    cup_at,
    cup_name,
    cups_mask,
    faint_weights,
    find_weights,
    overlapping_cups,
    posed_places,
    stands_tall,
    weight_radius_px,
    whole_and_hidden,
)
from vision.enigma.puzzles.weight_card import read_weight_card
from vision.enigma.puzzles.weight_own_lean import own_lean
from vision.enigma.puzzles.weight_pose import top_face_lean
from vision.enigma.settings import PuzzleSettings


@dataclass(frozen=True)
class WeightCount:
    """One reading of the card: whole weights per cup, whole weights outside the cups, the
    doubts (cup names), each whole weight's centre (``seen``) and the cups with a weight too
    washed out by glare to tell (``washed``)."""

    counts: dict[tuple[str, int], int]
    outside: int
    doubts: list[str]
    seen: list[Point]
    washed: list[str]
    #: the cups asked about because the reading through the camera's pose disagrees with
    #: the flat one there (:func:`posed_reading`)
    slanted: list[str] = field(default_factory=list)


def count_weights(view: CardView, pack: EnigmaPack, cups: list[Cup],
                  seen: list[Point] | None = None, washed: list[str] | None = None,
                  slanted: list[str] | None = None
                  ) -> tuple[dict[tuple[str, int], int], int, list[str]]:
    """Whole weights per cup, whole weights on the card outside the cups, and the doubts
    (:func:`read_counts`). The card is read as flat weights first; only where that leaves a
    doubt and the camera's pose is sure (:func:`top_face_lean`) is it read again with the
    weights standing tall (:func:`posed_places`), and that reading taken when some weight
    shows its side down to its base and it agrees with the flat reading where that has no
    doubt (:func:`posed_reading`). ``seen`` gets each whole weight's centre, ``washed`` the
    cups with a weight-like place too washed out by glare to tell, ``slanted`` the cups the
    two readings disagree on."""
    level, places = find_weights(view, pack)
    read = read_counts(view, pack, cups, level, places)
    if read.doubts:
        lean = top_face_lean(view, pack, weight_radius_px(pack)) or own_lean(
            level, pack, view.inside_card())
        if lean is not None:
            posed = posed_places(level, pack, view.inside_card(), lean,
                                 cups_mask(view, cups, NEAR_CUP))
            if any(stands_tall(wt) for wt in posed):
                read = posed_reading(read, read_counts(view, pack, cups, level, posed), cups)
    if seen is not None:
        seen += read.seen
    if washed is not None:
        washed += read.washed
    if slanted is not None:
        slanted += read.slanted
    return read.counts, read.outside, read.doubts


def posed_reading(flat: WeightCount, posed: WeightCount, cups: list[Cup]) -> WeightCount:
    """The card read through the camera's pose (``posed``) where it agrees with the flat
    reading (``flat``) on what that decides: the pose explains weights the flat reading
    could not see whole, never a cup the flat reading counted without a doubt, nor the
    weights outside the cups. Where they differ there, what the pose decided is not what
    the picture shows (when every lens fits the card, at mild tilts, a flat weight beside a
    cup's print passes for a tall one showing its side): the flat reading stands, the cups
    it read differently asked about (``slanted``)."""
    differ = [cup_name(cup) for cup in cups if cup_name(cup) not in flat.doubts
              and posed.counts[(cup.side, cup.index)] != flat.counts[(cup.side, cup.index)]]
    if not differ and posed.outside == flat.outside:
        return posed
    return replace(flat, doubts=flat.doubts + differ, slanted=differ or flat.doubts)


def read_counts(view: CardView, pack: EnigmaPack, cups: list[Cup], level: np.ndarray,
                places: list[Weight]) -> WeightCount:
    """The card read from the weight-like ``places`` on its level image: the doubts are a
    cup where a weight lies partly under another, a weight-like place that does not show
    whole, or two whole weights closer than whole weights lie (:func:`overlapping_cups`). A
    place away from the cups that is no whole weight (a digit, a shadow's edge) changes no
    cup's count, so it raises no doubt; nor does one that a whole weight found a
    second time (:func:`whole_and_hidden`) explains."""
    counts = {(cup.side, cup.index): 0 for cup in cups}
    doubts: list[str] = []
    washed: list[str] = []
    outside = 0
    wr = weight_radius_px(pack)
    first = [wt for wt in places if wt.whole]
    whole, hidden = whole_and_hidden(
        level, pack, first, crescent_mask(view, cups),
        lambda at: cup_at(view, cups, *at, IN_CUP) is not None)
    # a place within a weight found the second time is that weight, seen off its centre
    again = whole[len(first):]
    for wt in places:
        at = cup_at(view, cups, *wt.centre, NEAR_CUP)
        if wt.whole or at is None or any(
                math.dist(wt.centre, w.centre) < OWN_DISC * wr for w in again):
            continue
        doubts.append(cup_name(at))
        if wt.doubt == WASHED_OUT:
            washed.append(cup_name(at))
    for wt in whole:
        at = cup_at(view, cups, *wt.centre, IN_CUP)
        if at is None:
            outside += 1
        else:
            counts[(at.side, at.index)] += 1
    for centre in hidden:
        cup = cup_at(view, cups, *centre, IN_CUP)
        if cup is not None:
            doubts.append(cup_name(cup))
    doubts += overlapping_cups(view, cups, whole, wr)
    for cup in faint_weights(view, level, pack, cups,
                             [wt.centre for wt in places] + [wt.centre for wt in again]):
        doubts.append(cup_name(cup))
        washed.append(cup_name(cup))
    return WeightCount(counts, outside, list(dict.fromkeys(doubts)),
                       [wt.centre for wt in whole], washed)


def check_weight(view: CardView, pack: EnigmaPack, card: weight.WeightCard | None,
                 box: PuzzleBox, st: PuzzleSettings) -> dict[str, str]:
    """The weight verdict: whole weights counted per cup, the pans' sums judged by the
    engine; a cup whose weights do not each show whole is "cannot tell"."""
    if card is None:
        card, why = read_weight_card(view, pack)
        if card is None:
            return verdict(CANNOT_TELL, f"{why}: enter the card's numbers",
                           code=Reason.CARD_UNREAD)
    cups = weight_cups(card, pack.tile_mm)
    discs: list[Point] = []
    washed: list[str] = []
    slanted: list[str] = []
    counts, outside, doubts = count_weights(view, pack, cups, discs, washed, slanted)
    if doubts and set(doubts) <= set(washed):
        return verdict(CANNOT_TELL, f"a lamp's glare washes out a weight in "
                       f"{' and '.join(doubts)}: move the lamp so that no reflection lies on "
                       "the card", code=Reason.GLARE, facts={"cups": len(doubts)},
                       marks=cup_doubt_marks(view, cups, doubts))
    if slanted:
        return verdict(CANNOT_TELL, f"the weights in {' and '.join(slanted)} read differently "
                       "standing and lying: hold the camera straight above the card",
                       code=Reason.CAMERA_SLANTED, facts={"cups": len(slanted)},
                       marks=cup_doubt_marks(view, cups, slanted))
    if doubts:
        return verdict(CANNOT_TELL, f"in {' and '.join(doubts)} a weight does not show whole "
                       "(one partly under another?): move the weights apart so each one "
                       "shows whole", code=Reason.WEIGHT_HIDDEN, facts={"cups": len(doubts)},
                       marks=cup_doubt_marks(view, cups, doubts))
    answer = weight.WeightSolution(
        tuple(counts[("left", i)] for i in range(len(card.left))),
        tuple(counts[("right", i)] for i in range(len(card.right))))
    left, right = weight.side_weights(card, answer)
    pans = f"the left pan weighs {left}, the right {right}"
    used = sum(answer.left) + sum(answer.right)
    facts = {"left": left, "right": right, "count": card.count, "used": used,
             "outside": outside}
    marks = weight_marks(view, cups, counts, discs, {"left": left, "right": right},
                         weight_radius_px(pack))
    if not used and not outside:
        # no weight seen anywhere on the card is no answer that uses none: a claimed solution
        # comes with its weights; none found is the sieve missing them all (tuning
        # independent 133 and 147 mild: right builds on painted wood, no weight found,
        # "not solved, the answer uses 0" with no question)
        return verdict(CANNOT_TELL, "no weight shows on the card: put the weights in the "
                       "cups, with the whole card in sight and lit evenly", facts=facts,
                       code=Reason.NO_WEIGHT_SEEN)
    if outside:
        return verdict(NOT_SOLVED, f"{outside} weight(s) lie outside the cups; {pans}",
                       code=Reason.WEIGHTS_OUTSIDE, facts=facts, marks=marks)
    problem = weight.weight_problem(card, answer, allow_empty_cups=box.weight.allow_empty_cups)
    if problem is not None:
        code = (Reason.UNBALANCED if "balance" in problem else
                Reason.WEIGHTS_UNUSED if used != card.count else Reason.CUP_EMPTY)
        return verdict(NOT_SOLVED, f"{problem}; {pans}" if "balance" not in problem else pans,
                       code=code, facts=facts, marks=marks)
    return verdict(SOLVED, f"{pans}, with all {card.count} weights", code=Reason.BALANCED,
                   facts=facts, marks=marks)


__all__ = ["WeightCount", "check_weight", "count_weights", "read_counts"]
