"""What counts as notation on a screen: the engines' and readers' shorthand a player should
never have to decode (shape strings, card and tile ids, placement turns)."""

from __future__ import annotations

import re
from typing import Any

#: "##./###/..#", "##", "#": a Second Chance shape; "#0" (a tile's number) is not one
SHAPE = re.compile(r"(?<![\w#./])[#.]*#[#.]*(?:/[#.]+)*(?![\w#./])")
CARD_ID = re.compile(r"\bQ\d\d\b")
TILE_ID = re.compile(r"\b[A-Z]-\d\d\b")
TURN = re.compile(r"\bturn \d")
#: Indigo's chip layouts as the engine names them ("3p-alt")
LAYOUT = re.compile(r"\b[234]p(?:-alt)?\b")
PATTERNS = (SHAPE, CARD_ID, TILE_ID, TURN, LAYOUT)


def notation_in(text: str) -> list[str]:
    """The pieces of ``text`` that are notation."""
    return [m[0] for pattern in PATTERNS for m in pattern.finditer(text)]


def notation_texts(root: Any) -> list[tuple[str, list[str]]]:
    """(text, notation) of every text in the widget tree under ``root`` holding notation."""
    out = []
    for widget in root.walk(restrict=True):
        text = getattr(widget, "text", None)
        if isinstance(text, str) and (found := notation_in(text)):
            out.append((text, found))
    return out
