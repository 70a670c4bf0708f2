"""The core's errors: one root, and leaves that also subclass the matching built-in."""

from __future__ import annotations


class CompanionError(Exception):
    """Root of every error raised by the ``companion`` package."""


class IllegalMoveError(CompanionError, ValueError):
    """A move or event breaks a rule of the game; the message names the rule."""

    #: True when the refused event is refused *because* its arrival ends the game first (an
    #: Enigma round arriving after the target was reached): the result before it is then the
    #: result of a finished record.
    closes_record: bool = False


class RecordError(CompanionError, ValueError):
    """A document is not a valid game record (bad JSON, missing field, wrong type)."""


class EngineUnavailableError(RecordError):
    """The record names a game whose rules engine is not installed."""


class JournalError(CompanionError, OSError):
    """The journal database cannot be opened, read or written."""
