"""Errors of the Second Chance core: malformed shapes and grids, and bad deck files."""

from __future__ import annotations

from companion.errors import CompanionError


class ShapeError(CompanionError, ValueError):
    """A shape or grid text is malformed, or a shape is not a legal polyomino here."""


class DeckError(CompanionError, ValueError):
    """A deck data file breaks the deck rules (counts, sizes, connectivity, notation)."""
