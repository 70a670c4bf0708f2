"""Errors of the Enigma engine: one root, leaves that also subclass the matching built-in.

Rule violations during play use :class:`companion.errors.IllegalMoveError` (so that
``companion replay`` reports them with exit 3); the leaves here are for malformed data: a tile
that does not follow the schema, a catalogue or puzzle file that cannot be read.
"""

from __future__ import annotations

from companion.errors import CompanionError, IllegalMoveError


class EnigmaError(CompanionError):
    """Root of the errors raised by :mod:`companion.enigma`."""


class TileFormatError(EnigmaError, ValueError):
    """A conduit tile does not follow the schema of ``records.md`` (bad port, bad link end)."""


class CatalogueError(EnigmaError, ValueError):
    """A tile catalogue or a puzzle-data file is malformed; the message names the entry."""


class PuzzleError(EnigmaError, ValueError):
    """A puzzle card, piece set or proposed solution is malformed (not merely wrong)."""


class EnigmaIllegalMoveError(IllegalMoveError, EnigmaError):
    """An Enigma move breaks a rule; the message starts with the rule's name."""


__all__ = [
    "CatalogueError",
    "EnigmaError",
    "EnigmaIllegalMoveError",
    "PuzzleError",
    "TileFormatError",
]
