"""What counts as notation on a screen: the engines' and readers' shorthand a player should
never have to decode (shape strings, card and tile ids, placement turns)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

#: "##./###/..#", "##", "#": a Second Chance shape; "#0" (a tile's number) is not one
SHAPE = re.compile(r"(?<![\w#./])[#.]*#[#.]*(?:/[#.]+)*(?![\w#./])")
CARD_ID = re.compile(r"\bQ\d\d\b")
TILE_ID = re.compile(r"\b[A-Z]-\d\d\b")
TURN = re.compile(r"\bturn \d")
#: Indigo's chip layouts as the engine names them ("3p-alt")
LAYOUT = re.compile(r"\b[234]p(?:-alt)?\b")
#: a program's words: an exception quoted ("OSError: [Errno 19]"), a library or code name
#: ("picamera2")
DEVELOPER = re.compile(r"\b\w+(?:Error|Exception)\b|\bErrno\b|\b[a-z]+\d+\b")
PATTERNS = (SHAPE, CARD_ID, TILE_ID, TURN, LAYOUT, DEVELOPER)


def notation_in(text: str) -> list[str]:
    """The pieces of ``text`` that are notation."""
    return [m[0] for pattern in PATTERNS for m in pattern.finditer(text)]


def texts_with(root: Any, finder: Callable[[str], list[str]]) -> list[tuple[str, list[str]]]:
    """(text, what ``finder`` found) of every text in the widget tree under ``root`` in which
    it found something."""
    out = []
    for widget in root.walk(restrict=True):
        text = getattr(widget, "text", None)
        if isinstance(text, str) and (found := finder(text)):
            out.append((text, found))
    return out


def notation_texts(root: Any) -> list[tuple[str, list[str]]]:
    """(text, notation) of every text in the widget tree under ``root`` holding notation."""
    return texts_with(root, notation_in)


#: words of English that no Spanish or Ukrainian sentence holds: a text with them on an es or
#: uk screen was never translated (an unmarked literal, or an engine's or reader's message)
ENGLISH_WORDS = re.compile(
    r"\b(?:the|is|are|of|and|to|your|you|with|this|that|was|not|has|have|which|from|"
    r"player|tile|tiles|card|cards|turn|score|camera|read|undo|cannot)\b", re.IGNORECASE)


#: the games' published titles, which stay as printed on their boxes
GAME_TITLES = ("Break the Code", "Second Chance")


def english_in(text: str) -> list[str]:
    """The English words in ``text`` (for a screen in another language), titles aside."""
    for title in GAME_TITLES:
        text = text.replace(title, "")
    return [m[0] for m in ENGLISH_WORDS.finditer(text)]


def english_texts(root: Any) -> list[tuple[str, list[str]]]:
    """(text, English words) of every text under ``root`` with English in it."""
    return texts_with(root, english_in)
