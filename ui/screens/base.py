"""What every screen shares: the app, a title, a refresh hook and the current result."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty
from kivy.uix.screenmanager import Screen

from ui.i18n import _

#: ownership-chip colours of the rules chart, in seat order, then two spares
PLAYER_COLOURS = {
    "red": (0.85, 0.2, 0.2, 1),
    "turquoise": (0.1, 0.7, 0.7, 1),
    "white": (0.92, 0.92, 0.92, 1),
    "purple": (0.6, 0.3, 0.75, 1),
    "orange": (0.95, 0.55, 0.1, 1),
    "green": (0.3, 0.7, 0.25, 1),
}


def colour_rgba(name: str) -> tuple[float, float, float, float]:
    return PLAYER_COLOURS.get(name, (0.7, 0.7, 0.7, 1))


class BaseScreen(Screen):
    """A screen of the app. Subclasses override :meth:`title` and :meth:`refresh`."""

    portrait = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        app = self.app
        if app is not None:
            app.bind(portrait=self.setter("portrait"))
            self.portrait = app.portrait

    @property
    def app(self) -> Any:
        return App.get_running_app()

    def title(self) -> str:
        return _("Tabletop Companion")

    def refresh(self) -> None:
        """Re-render from the session; called on entering and after every event."""

    def players(self) -> list[str]:
        session = self.app.session
        return list(session.players) if session is not None else []

    def colour_of(self, player: str) -> tuple[float, float, float, float]:
        players = self.players()
        colours = self.app.player_colours()
        if player in players and players.index(player) < len(colours):
            return colour_rgba(colours[players.index(player)])
        order = list(PLAYER_COLOURS)
        index = players.index(player) if player in players else 0
        return colour_rgba(order[index % len(order)])
