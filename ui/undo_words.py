"""What an undo takes back, as a sentence in the players' language.

The journal's events are the engine's (``{"type": "draw", "player": "Ana", ...}``); the
players are told what left the game in their words, never the event's notation. A secret
(a rack, a guessed code) is never named.
"""

from __future__ import annotations

from typing import Any

from ui.i18n import _


def undone_text(game: str, event: dict[str, Any]) -> str:
    """The sentence for ``event`` of ``game`` taken back by an undo."""
    kind = str(event.get("type", ""))
    player = str(event.get("player", ""))
    if game in ("indigo", "enigma") and kind == "place" and player:
        return _("Undone: the tile {player} placed").format(player=player)
    if game == "enigma" and kind == "round":
        return _("Undone: the round's categories and who solved")
    if game == "second-chance":
        worded = _second_chance_text(kind, player, event)
        if worded is not None:
            return worded
    if game == "break-the-code":
        if kind == "deal":
            return _("Undone: the deal")
        if kind == "ask" and player:
            return _("Undone: the question {player} asked").format(player=player)
        if kind == "guess" and player:
            return _("Undone: the guess of {player}").format(player=player)
    return _("Undone: the last move")


def _second_chance_text(kind: str, player: str, event: dict[str, Any]) -> str | None:
    if kind == "reveal":
        return _("Undone: the two cards turned up")
    if kind == "end":
        return _("Undone: the end of the game")
    if not player:
        return None
    if kind == "start":
        return _("Undone: the start card of {player}").format(player=player)
    if kind == "draw":
        return _("Undone: the card {player} drew").format(player=player)
    if kind == "second-chance" and event.get("cells") is None:
        return _("Undone: {player} dropping out").format(player=player)
    if kind == "second-chance":
        return _("Undone: the second-chance card of {player}").format(player=player)
    if kind == "bonus":
        return _("Undone: the 1 written by {player}").format(player=player)
    return None
