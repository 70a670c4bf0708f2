"""How well the pieces seen fit the art pack: the chips' colours against the pack's.

Gems and chips are read by colour against the pack. Pieces whose colours the pack does not
hold (real gems and chips read with the demo pack, before anyone has run ``teach indigo``) are
not read as some other colour: they are missed, or read as the nearest colour, sure of it. The
twelve chip spaces always hold a chip in a game, so they are where the pack's colours are
checked on every frame: a chip whose colour lies far from every chip colour of the pack (and
from the empty space) is unlike the pack. When several are, the gems are read with the same
pack and are doubted too: every gem and chip is asked about, with one question that says to
teach the pack.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.indigo.model import PackModel, colour_distance
from vision.indigo.read_types import ChipRead, GemSpot

#: a chip is unlike the pack when its colour lies farther from every chip colour of the pack
#: than this share of the distance between the pack's two closest chip colours (rendered
#: frames of a pack's own look, every camera effect: at most 0.43 of it)
CHIP_UNLIKE_SHARE = 0.5
#: the pieces do not fit the pack when at least this share of the chip spaces is unlike it
#: (one odd chip is asked about alone: a shadow, a finger)
PACK_MISFIT_SHARE = 0.25
#: the confidence of a piece read with a pack it does not fit (below min_confidence: asked)
UNLIKE_PACK_CONFIDENCE = 0.5
#: the question a read with pieces unlike the pack asks
UNLIKE_PACK_QUESTION = (
    "the gems and chips do not look like the ones the camera was taught ({unlike} of "
    "{spaces} chips unlike any colour of the pack): check every gem, and teach the pieces "
    "(Settings, or companion teach indigo)"
)


def chips_unlike_pack(seen: np.ndarray, model: PackModel) -> list[bool]:
    """Per chip space, of its colour ``seen`` (:func:`~vision.indigo.chips.chip_colours`):
    whether it is unlike the pack's."""
    colours = model.chip_lab
    closest = min(
        float(colour_distance(colours[i][None], colours[j])[0])
        for i in range(len(colours))
        for j in range(i + 1, len(colours))
    )
    return [float(colour_distance(colours, colour).min()) > CHIP_UNLIKE_SHARE * closest
            for colour in seen]


def fit_to_pack(
    spots: list[GemSpot], chips: list[ChipRead], unlike: list[bool]
) -> tuple[list[GemSpot], list[ChipRead], list[str]]:
    """The gems and chips with the confidences the pack's fit allows, and the question a
    misfit asks: a chip unlike the pack is doubted; when many are, every gem and chip is."""
    misfit = sum(unlike) >= PACK_MISFIT_SHARE * len(unlike)
    chips = [
        replace(chip, confidence=min(chip.confidence, UNLIKE_PACK_CONFIDENCE))
        if odd or misfit
        else chip
        for chip, odd in zip(chips, unlike, strict=True)
    ]
    if not misfit:
        return spots, chips, []
    spots = [replace(s, confidence=min(s.confidence, UNLIKE_PACK_CONFIDENCE)) for s in spots]
    question = UNLIKE_PACK_QUESTION.format(unlike=sum(unlike), spaces=len(unlike))
    return spots, chips, [question]
