"""History: past and current games, each with its score over time (replayed from the journal)."""

from __future__ import annotations

from typing import Any

from kivy.properties import StringProperty

from ui import services, theme
from ui.i18n import _, ngettext
from ui.refusals import journal_words
from ui.screens.base import PLAYER_COLOURS, BaseScreen, colour_rgba
from ui.touch import min_target_px
from ui.widgets.buttons import TouchButton, TouchToggle

GAME_NAMES = {"indigo": "Indigo", "enigma": "Enigma", "second-chance": "Second Chance",
              "break-the-code": "Break the Code"}


class HistoryScreen(BaseScreen):
    detail = StringProperty("")

    def title(self) -> str:
        return _("History")

    def refresh(self) -> None:
        games = self.ids.games
        games.clear_widgets()
        self.game_buttons = {}
        try:
            summaries = list(self.app.journal.games())
        except Exception as exc:
            self.detail = _("Journal error: {error}").format(error=journal_words(exc))
            return
        summaries.sort(key=lambda s: s.id, reverse=True)
        for summary in summaries[:50]:
            state = _("finished") if summary.finished else _("unfinished")
            text = f"#{summary.id} {GAME_NAMES.get(summary.game, summary.game)} ({state})\n" \
                   f"{', '.join(summary.players)}"
            b = TouchToggle(text=text, group="history", font_size=theme.FONT_SMALL,
                            size_hint_y=None, height=min_target_px() * 1.4,
                            allow_no_selection=False)
            b.bind(on_press=lambda _b, s=summary: self.select(s))
            self.game_buttons[summary.id] = b
            games.add_widget(b)
        self.selected = None
        self._offer_unfinished(False)
        if summaries:
            self.game_buttons[summaries[0].id].state = "down"
            self.select(summaries[0])
        else:
            self.detail = _("No games yet")
            self.ids.plot.series = {}

    def _offer_unfinished(self, unfinished: bool) -> None:
        """Continue, end and delete are for an unfinished game only (history stays)."""
        for name in ("open_button", "end_button", "delete_button"):
            self.ids[name].disabled = not unfinished

    def select(self, summary: Any) -> None:
        self.selected = summary
        self._offer_unfinished(not summary.finished)
        events = self.app.journal.events(summary.id)
        colours = self.app.journal.get_meta(summary.id, "colours") or ""
        names = colours.split(",") if colours else list(PLAYER_COLOURS)
        try:
            results = services.replay_events(summary.game, list(summary.players),
                                             dict(summary.options), events)
        except Exception as exc:  # a record the engine refuses is still listed
            self.detail = _("Cannot replay: {error}").format(error=journal_words(exc))
            self.ids.plot.series = {}
            return
        series = {p: [r.get("scores", {}).get(p, 0) for r in results] for p in summary.players}
        if all(not r.get("scores") for r in results):
            series = {}
        self.ids.plot.empty_text = [_("This game keeps no score")]
        self.ids.plot.colours = {p: colour_rgba(names[i % len(names)])
                                 for i, p in enumerate(summary.players)}
        self.ids.plot.series = series
        final = results[-1]
        winners = list(final.get("winners", []))
        # an unfinished game has no winner yet: "winners: -"
        won = ngettext("winner: {names}", "winners: {names}", len(winners) or 2).format(
            names=", ".join(winners) or "-")
        self.detail = "; ".join((ngettext("{n} event", "{n} events", len(events)).format(
            n=len(events)), won))

    def open_selected(self) -> None:
        summary = getattr(self, "selected", None)
        if summary is not None and not summary.finished:
            self.app.open_game(summary.id)

    def _named(self, summary: Any) -> dict[str, str]:
        return {"game": GAME_NAMES.get(summary.game, summary.game),
                "players": ", ".join(summary.players)}

    def ask_end(self) -> None:
        """Ask before the selected unfinished game is ended (it becomes history)."""
        summary = getattr(self, "selected", None)
        if summary is None or summary.finished:
            return
        from ui.widgets.confirm import Confirm

        self.confirm = Confirm(
            _("End {game} of {players}? It goes to the finished games with the score as it "
              "stands.").format(**self._named(summary)),
            _("End the game"), lambda: self._change(self.app.end_unfinished, summary.id))
        self.confirm.open()

    def ask_delete(self) -> None:
        """Ask before the selected unfinished game and its moves are deleted."""
        summary = getattr(self, "selected", None)
        if summary is None or summary.finished:
            return
        from ui.widgets.confirm import Confirm

        self.confirm = Confirm(
            _("Delete {game} of {players} and all its moves? This cannot be "
              "undone.").format(**self._named(summary)),
            _("Delete the game"), lambda: self._change(self.app.delete_unfinished, summary.id))
        self.confirm.open()

    def _change(self, action: Any, game_id: Any) -> None:
        try:
            action(game_id)
        except Exception as exc:  # the journal refused: the game is as it was
            self.refresh()
            self.detail = _("Journal error: {error}").format(error=journal_words(exc))
            return
        self.refresh()


__all__ = ["HistoryScreen", "TouchButton"]
