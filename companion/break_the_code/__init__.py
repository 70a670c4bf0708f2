"""Break the Code: tiles and codes, the 21 question cards, the game, and the deduction
assistant.

``RULES`` is the engine ``companion replay`` finds through :mod:`companion.engine`.
"""

from __future__ import annotations

from companion.break_the_code.cards import CARD_IDS, CARDS, Answer, Card, answer, get_card
from companion.break_the_code.game import (
    Ask,
    Deal,
    GameState,
    Guess,
    apply,
    deal_tiles,
    new_game,
    shuffle_deck,
)
from companion.break_the_code.rules import RULES, BreakTheCodeRules
from companion.break_the_code.tiles import (
    ALL_TILES,
    Code,
    CodeNotationError,
    Colour,
    Tile,
    format_code,
    parse_code,
)

__all__ = [
    "ALL_TILES", "Answer", "Ask", "BreakTheCodeRules", "CARDS", "CARD_IDS", "Card", "Code",
    "CodeNotationError", "Colour", "Deal", "GameState", "Guess", "RULES", "Tile", "answer",
    "apply", "deal_tiles", "format_code", "get_card", "new_game", "parse_code", "shuffle_deck",
]
