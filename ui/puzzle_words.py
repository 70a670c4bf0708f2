"""A puzzle check's verdict in the player's language: a headline ("Solved!", "Not solved",
"Cannot tell") and one sentence from the verdict's reason code and facts
(:class:`vision.enigma.puzzles.verdicts.Reason`). The check's own English reason goes to the
log. A "cannot tell" sentence always says what to fix.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from ui.i18n import _, ngettext

log = logging.getLogger(__name__)


def kind_name(kind: str) -> str:
    """A puzzle kind as the box calls it (the screen's kind buttons)."""
    return {"weight": _("Weights"), "fragment": _("Fragments"), "angular": _("Structure"),
            "conduit": _("Channels")}.get(kind, kind)


def headline(verdict: str) -> str:
    return {"solved": _("Solved!"), "not solved": _("Not solved"),
            "cannot tell": _("Cannot tell")}.get(verdict, _("Cannot tell"))


def _weights(f: dict[str, Any]) -> str:
    return {
        "balanced": _("Both pans weigh {left}, with all {count} weights.").format(**f),
        "unbalanced": _("The left pan weighs {left} and the right pan {right}: they must "
                        "weigh the same.").format(**f),
        "weights-unused": ngettext("{used} of the {count} weights is in the cups: every "
                                   "weight must be used.",
                                   "{used} of the {count} weights are in the cups: every "
                                   "weight must be used.", f.get("used", 0)).format(**f),
        "cup-empty": _("A cup is empty: every cup must hold at least one weight."),
        "no-weight-seen": _("No weight shows on the card: put the weights in the cups, "
                            "with the whole card in sight and lit evenly, and check again."),
        "weights-outside": ngettext("{outside} weight lies outside the cups: put every "
                                    "weight in a cup.",
                                    "{outside} weights lie outside the cups: put every "
                                    "weight in a cup.", f.get("outside", 0)).format(**f),
        "weight-hidden": ngettext("A weight lies partly under another in the circled cup: "
                                  "move the weights apart so that each one shows whole.",
                                  "A weight lies partly under another in each circled cup: "
                                  "move the weights apart so that each one shows whole.",
                                  f.get("cups", 1)),
        "camera-slanted": ngettext("The weights in the circled cup look different from this "
                                   "slant: hold the camera straight above the card and check "
                                   "again.",
                                   "The weights in the circled cups look different from this "
                                   "slant: hold the camera straight above the card and check "
                                   "again.", f.get("cups", 1)),
        "glare": ngettext("A reflection washes out the weight in the circled cup: move the "
                          "lamp so that no reflection lies on the card.",
                          "A reflection washes out the weights in the circled cups: move the "
                          "lamp so that no reflection lies on the card.", f.get("cups", 1)),
    }.get(f["code"], "")


def _fragments(f: dict[str, Any]) -> str:
    return {
        "covered": _("The whole silhouette is covered; check together that all {pieces} "
                     "pieces are used.").format(**f),
        "uncovered": _("Part of the silhouette is not covered: it is marked in red."),
        "overhang": _("The pieces reach outside the silhouette where it is marked in "
                      "orange."),
        "too-little": _("The pieces cover too little: a piece is missing or two pieces "
                        "overlap."),
        "piece-beside": _("A piece lies beside the card: every piece must cover the "
                          "silhouette."),
        "inner-gap": _("The card shows between the pieces inside the silhouette: check that "
                       "each piece lies turned the right way, push the pieces together and "
                       "check again."),
        "too-close": _("It is too close to call: push the pieces together along the "
                       "silhouette's outline and check again."),
        "glare": _("The pieces look grey under a reflection: move the lamp or the card so "
                   "that no reflection lies on it."),
    }.get(f["code"], "")


def _channels(f: dict[str, Any]) -> str:
    return {
        "connected": _("Every channel is connected or closed."),
        "channel-open": ngettext("{open} channel is open where the red dot is: every channel "
                                 "must be connected or closed.",
                                 "Channels are open where the {open} red dots are: every "
                                 "channel must be connected or closed.",
                                 f.get("open", 0)).format(**f),
        "pieces-unused": _("Not every piece is used: use every piece not marked with a "
                           "cross on the card."),
        "piece-not-in-set": _("The circled piece is not one to use, or one too many of its "
                              "kind."),
        "cells-unclear": _("The circled pieces are not seen clearly: move the lamp or your "
                           "hand so that no reflection or shadow lies on the card."),
        "openings-unclear": _("The channels of the circled piece are not seen clearly: move "
                              "the lamp or your hand off the card."),
        "stubs-differ": _("The card on the mat does not look like the card chosen at the "
                          "marked edges: choose the card again, or move the lamp off the "
                          "card's edge."),
    }.get(f["code"], "")


def _structure(f: dict[str, Any]) -> str:
    return {
        "matches": _("Seen from above, the structure shows the card's picture; check "
                     "together that every piece stands on the table or on another piece."),
        "picture-differs": _("Seen from above, the structure does not show the card's "
                             "picture."),
        "nothing-built": _("Nothing is built beside the card: build the structure on the "
                           "mat, beside the card."),
        "piece-apart": _("A piece lies apart from the structure: all four pieces must be "
                         "used."),
        "structure-unclear": _("The structure is not seen clearly from above: set it "
                               "square on the mat, in even light, and check again."),
        "pieces-like-table": _("In this light the pieces cannot be told from the table: "
                               "light it evenly, or build on a surface of another colour, and "
                               "check again."),
        "pieces-hidden": _("The picture matches, but a piece cannot be seen from above: "
                           "check together that every piece is used."),
    }.get(f["code"], "")


#: the markers' refusals :func:`ui.refusals.table_refusal_words` words with what to fix
WORDED_REFUSALS = ("no-markers", "bad-homography", "too-small")


def _picture(refusal: str) -> str:
    """The picture check's refusal (exposure, contrast, noise, colour, focus round the card)
    with what to fix; "" for a refusal of another kind."""
    return {
        "overexposed": _("The picture of the puzzle is too bright: dim the lamp, or move it "
                         "so that it is not reflected in the pieces, and check again."),
        "too-dark": _("The picture of the puzzle is too dark: more light, and check again."),
        "low-contrast": _("The picture of the puzzle is too flat: more even light and a clean "
                          "lens, and check again."),
        "noisy": _("The picture of the puzzle is too noisy: more light, and check again."),
        "no-colour": _("The picture of the puzzle has no colour, and the pieces are told apart "
                       "by it: a colour camera is needed."),
        "blurred": _("The picture of the puzzle is blurred: refocus, or hold the camera "
                     "still, and check again."),
    }.get(refusal, "")


def _frame(f: dict[str, Any]) -> str:
    from ui.refusals import table_refusal_words

    refusal = str(f.get("refusal", ""))
    if picture := _picture(refusal):
        return picture
    if refusal == "no-card":
        return _("The camera does not see the puzzle card: lay it on the mat, in view, "
                 "and check again.")
    if refusal == "pale-table":
        return _("The table round the card looks as pale as the card: lay it on a darker "
                 "part of the table, or move the lamp, and check again.")
    if refusal not in WORDED_REFUSALS:  # another mat's marks, or none the app words
        return _("The camera does not see the puzzle mat clearly: lay it under the camera "
                 "with its four corner marks in view, and check again.")
    from vision.errors import FrameRefusedError

    why = table_refusal_words(FrameRefusedError("", reason=refusal))
    return why[:1].upper() + why[1:] + "."


#: the facts the sentences use, for the verdicts that do not give them
FACT_DEFAULTS = {"left": 0, "right": 0, "count": 0, "used": 0, "outside": 0, "pieces": 0,
                 "open": 0}

KIND_WORDS: dict[str, Callable[[dict[str, Any]], str]] = {
    "weight": _weights, "fragment": _fragments, "conduit": _channels,
    "angular": _structure}


def verdict_sentence(kind: str, said: Any) -> str:
    """One sentence: what was seen, and for "cannot tell" what to fix."""
    log.info("puzzle check (%s): %s: %s", kind, said.verdict, said.reason)
    # every sentence of the kind is built, the code's is kept: each needs its facts
    facts = {**FACT_DEFAULTS, **said.facts, "code": str(said.code)}
    if facts["code"] == "frame-unreadable":
        return _frame(facts)
    if facts["code"] in ("card-needed", "card-unread", "card-not-of-kind"):
        return _("The camera needs the card: choose it again and check again.")
    if facts["code"] == "colours-burnt-out":
        return _("The light burns out the pieces' colours: dim the lamp or move it off the "
                 "pieces, and check again.")
    sentence = KIND_WORDS.get(kind, _weights)(facts)
    if sentence:
        return sentence
    return {"solved": _("The puzzle is solved."),
            "not solved": _("The puzzle is not solved yet."),
            }.get(said.verdict, _("The camera cannot tell: move the lamp or your hand off "
                                  "the card and check again."))


__all__ = ["headline", "kind_name", "verdict_sentence"]
