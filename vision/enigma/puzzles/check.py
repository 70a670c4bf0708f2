"""Camera-verified puzzle solutions: solved, not solved (with the reason), or cannot tell.

``check_puzzle_frame(kind, frame, pack, card=None, settings=...) -> {"verdict", "reason"}``;
``check_puzzle`` gives the same verdict with its reason code, facts and marks (in the camera
frame's pixels) for a screen (:mod:`vision.enigma.puzzles.verdicts`).
The frame shows the puzzle mat (:mod:`vision.enigma.mat`): the card with its pieces and, for
the angular puzzle, the structure built beside it. The card's data comes from ``card`` (the
touchscreen, or ``--card``); where it is not given it is read from the card where that can be
done (the angular picture, the conduit grid and stubs, the weight cups' places).

A wrong "solved" hands a player points, so every measurement carries a doubt margin and any
doubt gives "cannot tell": the players decide.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from companion.enigma.errors import PuzzleError
from companion.enigma.puzzles import PuzzleBox, load_puzzles
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.angular import check_angular
from vision.enigma.puzzles.cards import parse_card
from vision.enigma.puzzles.conduit import check_conduit
from vision.enigma.puzzles.fragment import check_fragment
from vision.enigma.puzzles.marks import to_frame
from vision.enigma.puzzles.picture import (
    burnt_out_doubt,
    card_measures,
    check_card_picture,
    out_of_focus_doubt,
)
from vision.enigma.puzzles.verdicts import Mark, MarkKind, PuzzleVerdict, Reason, as_verdict
from vision.enigma.puzzles.view import (
    CANNOT_TELL,
    CardView,
    verdict,
    view_card,
)
from vision.enigma.puzzles.weight_verdict import check_weight
from vision.enigma.settings import DEFAULT_PUZZLE_SETTINGS, PuzzleSettings
from vision.errors import FrameRefusedError

#: one check per kind: (view, pack, card or None, box, settings) -> verdict. The card's type
#: depends on the kind (a WeightCard for "weight"...), hence Any.
PuzzleCheck = Callable[[CardView, EnigmaPack, Any, PuzzleBox, PuzzleSettings], dict[str, str]]

CHECKS: dict[str, PuzzleCheck] = {
    "weight": check_weight, "fragment": check_fragment, "angular": check_angular,
    "conduit": check_conduit,
}


def check_puzzle_frame(kind: str, frame: np.ndarray, pack: EnigmaPack, *, card: Any = None,
                       settings: PuzzleSettings = DEFAULT_PUZZLE_SETTINGS,
                       box: PuzzleBox | None = None) -> dict[str, str]:
    """The verdict on one frame: ``{"verdict": "solved" | "not solved" | "cannot tell",
    "reason": "..."}``. A frame without the mat or the card is "cannot tell"."""
    return dict(check_puzzle(kind, frame, pack, card=card, settings=settings, box=box))


def check_puzzle(kind: str, frame: np.ndarray, pack: EnigmaPack, *, card: Any = None,
                 settings: PuzzleSettings = DEFAULT_PUZZLE_SETTINGS,
                 box: PuzzleBox | None = None) -> PuzzleVerdict:
    """:func:`check_puzzle_frame`'s verdict with its code, facts and marks, the marks mapped
    to the camera frame's pixels."""
    if kind not in CHECKS:
        raise ValueError(f"unknown puzzle kind {kind!r}; kinds: {', '.join(CHECKS)}")
    box = box or load_puzzles()
    parsed = None
    if card is not None:
        try:
            parsed = parse_card(kind, card) if isinstance(card, Mapping) else card
        except PuzzleError as exc:
            return verdict(CANNOT_TELL, f"the card entered is not a {kind} card: {exc}",
                           code=Reason.CARD_NOT_OF_KIND)
    try:
        view = view_card(frame, pack, settings.mat)
        measures = card_measures(frame, view)
        check_card_picture(kind, frame, view, settings.picture, measures=measures)
    except FrameRefusedError as exc:
        return verdict(CANNOT_TELL, f"the frame cannot be read: {getattr(exc, 'message', exc)}",
                       code=Reason.FRAME_UNREADABLE, facts={"refusal": exc.reason})
    said = as_verdict(CHECKS[kind](view, pack, parsed, box, settings))
    a, b = view.margin_px, view.margin_px + view.side_px
    card = Mark(MarkKind.CARD, ((a, a), (b, a), (b, b), (a, b)))
    said = burnt_out_doubt(kind, frame, said.with_marks(to_frame((card, *said.marks), view)))
    return out_of_focus_doubt(kind, measures, said)


__all__ = ["CHECKS", "PuzzleCheck", "check_puzzle", "check_puzzle_frame"]
