"""Why a teach photo or a test rack cannot be used, as whole sentences in the player's language.

The teach code explains in English for the log and the command line ("slot C3: no tile seen;
is the green 5 there?"). The teach screen words the same reasons here: a slot by the reason
code the teach code gives it (:class:`vision.break_the_code.teach_layout.SlotReason`), a whole
photo from the phrase the teach code names (as :mod:`ui.refusals` words the engines'
refusals), and a line no phrase here matches gets a plain sentence. Nothing of the teach code's
own line reaches the screen; the slot's name is the one printed on the mat.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from ui.i18n import _

log = logging.getLogger(__name__)


def tile_in_words(tile: Any) -> str:
    """A tile as the player names it: "the green 5"."""
    return {
        "b": _("the black {n}"),
        "w": _("the white {n}"),
        "g": _("the green {n}"),
    }[tile.colour.value].format(n=tile.number)


def slot_problem_words(problem: Any) -> str:
    """One slot of a teach photo that gave no usable tile (a
    :class:`vision.break_the_code.teach_layout.SlotProblem`), as one sentence."""
    from vision.break_the_code.pack import TEACH_ORDER
    from vision.break_the_code.teach_layout import SlotReason

    slot = problem.slot
    tile = tile_in_words(TEACH_ORDER[slot.index])
    worded = {
        SlotReason.NO_TILE: _("Slot {slot}: no tile is seen there; is {tile} on it?"),
        SlotReason.PART_OF_TILE: _("Slot {slot}: only part of a tile is seen (covered, or "
                                   "in a shadow); is {tile} on it, whole?"),
        SlotReason.LARGER_THAN_TILE: _("Slot {slot}: something larger than a tile lies "
                                       "there (a hand, or tiles on top); is only {tile} on "
                                       "it?"),
        SlotReason.NOT_TILE_SHAPED: _("Slot {slot}: what lies there does not look like a "
                                      "tile; is {tile} on it?"),
        SlotReason.SMALLER_THAN_OTHERS: _("Slot {slot}: the tile there looks smaller than "
                                          "the others; is {tile} on it, whole and alone?"),
        SlotReason.LARGER_THAN_OTHERS: _("Slot {slot}: the tile there looks larger than the "
                                         "others; is {tile} on it, alone?"),
    }
    words = worded.get(problem.reason,
                       _("Slot {slot}: the camera cannot use what lies there; is {tile} on "
                         "it?"))
    return words.format(slot=slot.name, tile=tile)


def teach_refusal_words(error: BaseException) -> str:
    """A teach photo refused as a whole (no mat in view, colours alike, the pack misreads its
    own photo), as one sentence; the teach code's own line goes to the log."""
    from ui.refusals import table_refusal_words

    message = str(error)
    log.info("a teach photo was refused: %s", message)
    if "look alike" in message:
        return _("The black and white tiles look alike in this photo: check they lie as the "
                 "picture shows, and give the mat more light.")
    if "do not look green" in message:
        return _("The two green 5s (slots A3 and B3) do not look green: check the tiles lie "
                 "as the picture shows.")
    slots = re.search(r"on slots ([A-E]\d(?:, [A-E]\d)*)", message)
    if slots:
        return _("The camera mixes up the tiles on slots {slots}: check they lie as the "
                 "picture shows, and take the photo again.").format(slots=slots[1])
    return _("This photo cannot be used: {why}.").format(why=table_refusal_words(error))


def rack_check_words(reading: Any) -> str:
    """Why the test rack was not read (a :class:`ui.reading.RackReading` with no code)."""
    from ui.refusals import table_refusal_words
    from vision.errors import FrameRefusedError

    problem = reading.problem
    if problem == "refused":
        why = table_refusal_words(FrameRefusedError(reading.detail, reason=reading.reason))
        return _("The camera cannot read this picture: {why}.").format(why=why)
    slot = re.search(r"\b(?:slots?|near) ([A-E]\d?)\b", reading.detail or "")
    worded = {
        "count": _("No tile is seen on the mat: lay the rack in the top row."),
        "pack": _("These tiles do not look like the ones just taught: teach the camera "
                  "again, with the same tiles."),
        "box": _("The tiles on slots {slots} read alike, which the box does not allow."
                 ).format(slots=reading.detail),
        "order": _("The tiles read are not in rack order: lay them as in a game."),
        "unsure": (_("The camera is not sure of the tile on slot {slot}.").format(slot=slot[1])
                   if slot else _("The camera is not sure of every tile.")),
    }.get(problem)
    return worded or _("The camera cannot read this rack.")
