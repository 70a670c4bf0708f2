"""Indigo's errors. Each is a :class:`~companion.errors.CompanionError` and the matching built-in.

A refused placement raises :class:`PlacementError`, an ``IllegalMoveError`` that also carries
the broken rule as a :class:`Rule`, so the UI can phrase the question without parsing text.
"""

from __future__ import annotations

from enum import StrEnum

from companion.errors import CompanionError, IllegalMoveError


class Rule(StrEnum):
    """The rule a refused placement breaks; the value appears in the message."""

    GAME_OVER = "game-over"
    NOT_YOUR_TURN = "not-your-turn"
    UNKNOWN_PLAYER = "unknown-player"
    OFF_BOARD = "off-board"
    TREASURE_CELL = "treasure-cell"
    OCCUPIED = "occupied"
    BLOCKING = "blocking"
    NO_SUCH_TILE = "no-such-tile"
    NO_SUCH_ROTATION = "no-such-rotation"
    TYPE_EXHAUSTED = "type-exhausted"
    NOT_IN_HAND = "not-in-hand"


class PlacementError(IllegalMoveError):
    """A placement breaks ``rule``; the message says which and why.

    The message reads ``[<where>: ]<rule> rule: <detail>``, e.g.
    ``event 3 (place): blocking rule: T4r1@1,-4 by P0: a path ... would join ...``.
    """

    def __init__(self, rule: Rule, detail: str, *, where: str = "") -> None:
        prefix = f"{where}: " if where else ""
        super().__init__(f"{prefix}{rule.value} rule: {detail}")
        self.rule = rule
        self.detail = detail


class NotationError(CompanionError, ValueError):
    """Text that is not valid Indigo notation; the message quotes it and shows the form."""


class SetupError(CompanionError, ValueError):
    """A game cannot be set up that way (player count, layout, hand size)."""


class ImpossiblePathError(CompanionError, AssertionError):
    """A gem's paths that no board of the rules has: into the centre, a corner's side that is
    not its U-turn, or round without end. The engine never meets one (an invariant, hence
    ``AssertionError``); a board read from a picture may hold one."""
