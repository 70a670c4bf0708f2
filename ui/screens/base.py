"""What every screen shares: the app, a title, a refresh hook and the current result."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import BooleanProperty
from kivy.uix.screenmanager import Screen

from ui import theme
from ui.i18n import _
from ui.weak_binding import follow_property

#: ownership-chip colours of the rules chart, in seat order, then two spares
PLAYER_COLOURS = theme.PLAYER_COLOURS
#: the app's background (app.kv's RootLayout)
APP_BACKGROUND = theme.BACKGROUND
#: WCAG's contrast for normal text: what a player at arm's length reads without effort
READABLE_CONTRAST = 4.5


def colour_rgba(name: str) -> tuple[float, float, float, float]:
    return PLAYER_COLOURS.get(name, theme.UNKNOWN_PLAYER)


def luminance(rgba: Any) -> float:
    """Relative luminance (WCAG 2) of an sRGB colour with channels in 0..1."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(float(c)) for c in rgba[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Any, b: Any) -> float:
    """WCAG contrast ratio of two colours, 1 (same) to 21 (black on white)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def ink_on(background: Any) -> tuple[float, float, float, float]:
    """Black or white text, whichever reads better on ``background`` (black on red was 3.4:1)."""
    black, white = theme.BLACK_INK, theme.INK
    return black if contrast(black, background) >= contrast(white, background) else white


def readable_on(colour: Any, background: Any = APP_BACKGROUND) -> tuple[float, float, float,
                                                                     float]:
    """``colour`` lightened towards white until text in it reads on ``background``: a player's
    colour as a name on the dark screen (red and purple names were under 4:1)."""
    mixed = tuple(float(c) for c in colour[:3])
    for step in range(11):
        t = step / 10
        mixed = tuple(c + (1 - c) * t for c in (float(x) for x in colour[:3]))
        if contrast(mixed, background) >= READABLE_CONTRAST:
            break
    return (mixed[0], mixed[1], mixed[2], 1.0)


class BaseScreen(Screen):
    """A screen of the app. Subclasses override :meth:`title` and :meth:`refresh`."""

    portrait = BooleanProperty(False)
    #: a camera read is under way (waiting for a fresh frame, then on the worker): the screen's
    #: buttons are off until its result or error, so no second tap acts on a half-read table
    read_running = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        app = self.app
        if app is not None:
            # held weakly: a setter bound to the app kept every screen alive as long as the
            # app, the old ones too once a language change had made them anew
            follow_property(app, "portrait", self, "portrait")
            self.portrait = app.portrait

    @property
    def app(self) -> Any:
        return App.get_running_app()

    def title(self) -> str:
        return _("Tabletop Companion")

    def on_pre_enter(self, *args: Any) -> None:
        # the camera picture still up may show another game's table (the last frame of the game
        # played before): none is shown, and none read, until a frame of this game comes
        app = self.app
        camera = getattr(app, "camera", None) if app is not None else None
        if camera is not None and not camera.frames.handed_current():
            app.camera_texture = None
            app.last_frame = None
        # what the screen last said was said of its game: entered for another game, it is past
        session = getattr(app, "session", None) if app is not None else None
        game_id = getattr(session, "game_id", None)
        if game_id != getattr(self, "_game_shown", game_id) and hasattr(self, "status"):
            self.status = ""
        self._game_shown = game_id

    def refresh(self) -> None:
        """Re-render from the session; called on entering and after every event."""

    def refresh_when_shown(self, *_args: Any) -> None:
        """:meth:`refresh` when this screen is the one shown: bound to the app's ``revision``
        as a method, which Kivy's bind holds weakly (a lambda kept every screen alive as long
        as the app, the old ones too once a language change had made the screens anew)."""
        if self.manager is not None and self.manager.current == self.name:
            self.refresh()

    def on_new_turn(self) -> None:
        """The game moved on (an event was accepted): what the screen said of the last move is
        past, and the next player must not read it as theirs."""
        if hasattr(self, "status"):
            self.status = ""

    # --- reads ------------------------------------------------------------------------------
    def on_read_running(self, _screen: Any, running: bool) -> None:
        from kivy.uix.behaviors import ButtonBehavior

        # counted disabling: a button's own ``disabled`` (kv rules) is left as it is and
        # comes back when the read ends
        for widget in getattr(self, "_held_for_read", []):
            widget.dec_disabled()
        self._held_for_read = ([w for w in self.walk(restrict=True)
                                if isinstance(w, ButtonBehavior) and w is not self]
                               if running else [])
        for widget in self._held_for_read:
            widget.inc_disabled()

    def read_on_worker(self, work: Any, done: Any, *, name: str) -> None:
        """Run a read's ``work`` on the worker; ``done(value, error)`` with the buttons back."""
        self.read_running = True

        def finished(value: Any, error: BaseException | None) -> None:
            self.read_running = False
            done(value, error)

        self.app.run_in_background(work, finished, name=name)

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


def made(kv_class: str, **values: Any) -> Any:
    """A widget of the kv class ``kv_class`` with ``values`` set: a property a kv class
    declares exists once its rules are applied, so it is no keyword of the constructor."""
    widget = getattr(Factory, kv_class)()
    for name, value in values.items():
        setattr(widget, name, value)
    return widget
