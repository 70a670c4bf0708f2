"""Home: choose a game, resume the unfinished one, open the history or the settings."""

from __future__ import annotations

from kivy.properties import StringProperty

from ui import services
from ui.i18n import _
from ui.screens.base import BaseScreen

GAMES = (
    ("indigo", "Indigo"),
    ("enigma", "Enigma"),
    ("second-chance", "Second Chance"),
    ("break-the-code", "Break the Code"),
)


class HomeScreen(BaseScreen):
    resume_text = StringProperty("")

    def title(self) -> str:
        return _("Choose a game")

    def refresh(self) -> None:
        app = self.app
        self.resume_text = ""
        self._resume_id = None
        try:
            game_id = services.unfinished_in_use(app.journal)
        except Exception:
            game_id = None
        if game_id is not None:
            self._resume_id = game_id
            current = app.session
            if current is not None and services.session_game_id(current) == game_id:
                name = dict(GAMES).get(current.game, current.game)
                self.resume_text = _("Resume {game}").format(game=name)
            else:
                self.resume_text = _("Resume the unfinished game")

    def choose(self, game: str) -> None:
        self.app.screen("setup").prepare(game)
        self.app.show("setup")

    def check_puzzle(self) -> None:
        self.app.screen("puzzle_check").open_from("")
        self.app.show("puzzle_check")

    def resume(self) -> None:
        if self._resume_id is not None:
            self.app.open_game(self._resume_id)
