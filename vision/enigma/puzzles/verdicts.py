"""A puzzle check's verdict as a screen needs it: the verdict and its English reason (the
command line's and the bench's ``{"verdict", "reason"}``), plus a reason code, the facts the
code's sentence is built from (numbers, the pans' sums, which cup, cell or stub) and the marks
of what was seen (weights, the uncovered part of a silhouette, an open channel), each a point
or a polygon in the card view's, the mat's or the camera frame's pixels.

:class:`PuzzleVerdict` is a ``dict`` of the two strings, so the checks keep returning what the
command line prints; the code, facts and marks ride along as attributes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

Point = tuple[float, float]


class Reason(StrEnum):
    """Why a check gave its verdict; a screen words each code in the player's language."""

    UNKNOWN = "unknown"
    # any kind
    CARD_NOT_OF_KIND = "card-not-of-kind"
    FRAME_UNREADABLE = "frame-unreadable"
    COLOURS_BURNT_OUT = "colours-burnt-out"
    CARD_UNREAD = "card-unread"
    CARD_NEEDED = "card-needed"
    # weight
    WEIGHT_HIDDEN = "weight-hidden"
    CAMERA_SLANTED = "camera-slanted"
    WEIGHTS_OUTSIDE = "weights-outside"
    WEIGHTS_UNUSED = "weights-unused"
    NO_WEIGHT_SEEN = "no-weight-seen"
    CUP_EMPTY = "cup-empty"
    UNBALANCED = "unbalanced"
    BALANCED = "balanced"
    # fragment
    PIECE_BESIDE = "piece-beside"
    GLARE = "glare"
    UNCOVERED = "uncovered"
    OVERHANG = "overhang"
    TOO_LITTLE = "too-little"
    TOO_CLOSE = "too-close"
    INNER_GAP = "inner-gap"
    COVERED = "covered"
    # conduit
    CELLS_UNCLEAR = "cells-unclear"
    STUBS_DIFFER = "stubs-differ"
    OPENINGS_UNCLEAR = "openings-unclear"
    PIECE_NOT_IN_SET = "piece-not-in-set"
    CHANNEL_OPEN = "channel-open"
    PIECES_UNUSED = "pieces-unused"
    CONNECTED = "connected"
    # angular
    NOTHING_BUILT = "nothing-built"
    PIECE_APART = "piece-apart"
    STRUCTURE_UNCLEAR = "structure-unclear"
    PIECES_LIKE_TABLE = "pieces-like-table"
    PICTURE_DIFFERS = "picture-differs"
    PIECES_HIDDEN = "pieces-hidden"
    MATCHES = "matches"


class MarkKind(StrEnum):
    """What a mark shows (a screen draws each kind in its own colour)."""

    WEIGHT = "weight"  # a weight seen whole (polygon: its disc)
    CUP = "cup"  # a cup (polygon: its ring; label: the weights counted in it)
    PAN = "pan"  # a pan (point: above its cups; label: its sum)
    DOUBT = "doubt"  # where the camera is not sure (polygon)
    UNCOVERED = "uncovered"  # part of a silhouette left uncovered (polygon)
    OVERHANG = "overhang"  # a piece reaching outside the silhouette (polygon)
    PIECE = "piece"  # a piece out of place (polygon)
    CHANNEL = "channel"  # an opening or stub whose channel is open (point)
    STUB = "stub"  # a printed stub that differs from the card entered (point)
    STRUCTURE = "structure"  # the structure built (polygon)
    CARD = "card"  # the card found on the mat (polygon: its outline)


#: the spaces a mark's points are in: the upright card view, the mat image, the camera frame
SPACES = ("view", "mat", "frame")


@dataclass(frozen=True)
class Mark:
    kind: MarkKind
    points: tuple[Point, ...]
    label: str = ""  # digits only (a sum, a count): no words are drawn on the picture
    space: str = "view"


class PuzzleVerdict(dict[str, str]):
    """``{"verdict", "reason"}`` with ``code``, ``facts`` and ``marks`` attached."""

    def __init__(self, verdict: str, reason: str, *, code: Reason = Reason.UNKNOWN,
                 facts: Mapping[str, Any] | None = None, marks: Iterable[Mark] = ()) -> None:
        super().__init__(verdict=verdict, reason=reason)
        self.code = code
        self.facts: dict[str, Any] = dict(facts or {})
        self.marks: tuple[Mark, ...] = tuple(marks)

    @property
    def verdict(self) -> str:
        return self["verdict"]

    @property
    def reason(self) -> str:
        return self["reason"]

    def with_marks(self, marks: Iterable[Mark]) -> PuzzleVerdict:
        return PuzzleVerdict(self.verdict, self.reason, code=self.code, facts=self.facts,
                             marks=marks)


def as_verdict(result: Mapping[str, str]) -> PuzzleVerdict:
    """A check's result as a :class:`PuzzleVerdict` (a plain dict gets the code UNKNOWN)."""
    if isinstance(result, PuzzleVerdict):
        return result
    return PuzzleVerdict(result["verdict"], result["reason"])


__all__ = ["SPACES", "Mark", "MarkKind", "Point", "PuzzleVerdict", "Reason", "as_verdict"]
