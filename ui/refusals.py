"""Why the rules refused a move, as a sentence in the players' language.

The engines explain a refusal in English, with the record's notation ("event 3 (start): a
start tile has 8 cells, Cleo's has 0", "code '0b' has 1 tiles, expected 5"): that is for the
log and the developers. The players read what the move breaks, worded here from the rule the
engine names, and a sentence for the kind of move when no rule here matches. Nothing of the
engine's own line reaches the screen.
"""

from __future__ import annotations

import logging
from typing import Any

from ui.i18n import _

log = logging.getLogger(__name__)


def refusal_words(game: str, event: dict[str, Any], error: BaseException) -> str:
    """What the refused ``event`` of ``game`` breaks, for the banner after "Not accepted:"."""
    message = str(error)
    player = str(event.get("player", ""))
    if "the game is over" in message or "rule 'game over'" in message:
        return _("the game is over")
    worded = {
        "indigo": _indigo_words,
        "enigma": _enigma_words,
        "second-chance": _second_chance_words,
        "break-the-code": _break_the_code_words,
    }.get(game, lambda *_a: None)(message, player, event)
    return worded or _("the rules do not allow this move")


def _indigo_words(message: str, player: str, event: dict[str, Any]) -> str | None:
    from ui.screens.indigo import broken_rule_text

    return broken_rule_text(ValueError(message))


def _enigma_words(message: str, player: str, event: dict[str, Any]) -> str | None:
    if "rule 'choices'" in message and "did not" in message:
        return _("every player picks a category first")
    if "rule 'choices'" in message:
        return _("each category goes to one player a round")
    if "rule 'networker supply'" in message:
        return _("{player} has no networker left").format(player=player)
    if event.get("type") == "place":
        return _("this tile cannot go there: choose the tile and its square again")
    return None


def _second_chance_words(message: str, player: str, event: dict[str, Any]) -> str | None:
    """A phrase of the engine's English -> the players' sentence (the first match wins)."""
    kind = event.get("type")
    phrases = (
        ("off the 9x9 grid", _("some marked squares are off the sheet")),
        ("listed twice", _("a square is marked twice")),
        ("already filled", _("some marked squares are already filled")),
        ("must cover the centre", _("the start card must cover the centre square "
                                    "(the circle)")),
        ("not a start card of the deck", _("no start card has this shape, or another player "
                                          "has it")),
        ("a start tile has", _("a start card has 8 squares: tap all 8")),
        ("is not connected", _("the marked squares are not one piece")),
        ("in any of its 8 orientations", _("the marked squares are not the shape of the "
                                           "card")),
        ("still fits", _("a card turned up still fits: {player} draws it").format(
            player=player)),
        ("cannot drop out", _("the second-chance card fits: {player} draws it").format(
            player=player)),
        ("has already drawn", _("{player} has already drawn this round").format(
            player=player)),
        ("has dropped out", _("{player} is out: the sheet is closed").format(player=player)),
        ("the 1 goes in an empty square", _("the 1 goes in an empty square")),
        ("must still draw", _("not every player has drawn yet")),
        ("still to draw a start tile", _("not every player has drawn a start card yet")),
        ("the deck has not run out", _("the deck has not run out yet")),
    )
    for needle, words in phrases:
        if needle in message:
            return words
    if kind in ("draw", "second-chance", "start") and not event.get("cells"):
        return _("tap the squares of the card first")
    return None


def _break_the_code_words(message: str, player: str, event: dict[str, Any]) -> str | None:
    if "tiles, expected" in message and event.get("type") == "guess":
        return _("a guess needs as many tiles as a rack")
    if event.get("type") == "guess":
        return _("this guess cannot be made: pick the tiles again")
    if event.get("type") == "ask":
        return _("this card cannot be asked now")
    if event.get("type") == "deal":
        return _("these racks cannot be dealt: enter them again")
    return None


def journal_words(error: BaseException) -> str:
    """A journal or replay failure for the banner; the error itself (a path, SQLite's or the
    engine's English) goes to the log."""
    log.warning("journal or replay failure: %s", error)
    return _("the games' record could not be read or written")


def table_refusal_words(error: BaseException) -> str:
    """Why a reader could not find the table in a picture (the markers, the board's fit), by
    the refusal's reason tag; the reader's own line (English) goes to the log. For the
    refusals a screen does not word itself (the picture check's are worded per game)."""
    reason = str(getattr(error, "reason", ""))
    log.info("a reader refused a picture (%s): %s", reason or type(error).__name__, error)
    return {
        "no-markers": _("the camera does not see the four corner marks: put them all in "
                        "view"),
        "bad-homography": _("the corner marks are seen at too much of a slant: hold the "
                            "camera above the table"),
        "too-small": _("the table is too small in the picture: move the camera closer"),
        "no-board": _("the board is not in view"),
        "no-frame": _("the camera gave no picture"),
        "wrong-game": _("the camera sees another game's table"),
        "no-start-tile": _("the start tile is not in view"),
    }.get(reason, _("the camera cannot use this picture"))
