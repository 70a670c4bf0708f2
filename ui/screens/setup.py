"""Setup: players (names, colours, seat order) and the game's options, then start."""

from __future__ import annotations

import logging
from typing import Any

from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput

from ui import theme
from ui.i18n import _, ngettext
from ui.screens.base import PLAYER_COLOURS, BaseScreen, colour_rgba
from ui.touch import min_target_px
from ui.widgets.buttons import TouchButton, TouchToggle

log = logging.getLogger(__name__)

#: game -> (fewest, most) players, as records.md settles them
PLAYER_RANGE = {"indigo": (2, 4), "enigma": (2, 4), "second-chance": (1, 6),
                "break-the-code": (2, 4)}
GAME_NAMES = {"indigo": "Indigo", "enigma": "Enigma", "second-chance": "Second Chance",
              "break-the-code": "Break the Code"}
INDIGO_LAYOUTS = {2: ("2p",), 3: ("3p", "3p-alt"), 4: ("4p",)}
#: a layout's toggle says in a short sentence whose gateways are whose: two lines of this size
LAYOUT_FONT = theme.FONT_TIGHT
#: the height of a line of a typed name (theme.FONT_NAME): its field centres it
NAME_LINE_PX = 26


def layout_text(layout: str) -> str:
    """An Indigo chip layout in words: which gateways are a player's own and which shared."""
    return {"2p": _("Three gateways of your own"),
            "3p": _("One gateway of your own, two shared"),
            "3p-alt": _("Two gateways of your own, none shared"),
            "4p": _("Three shared gateways")}.get(layout, layout)
DEFAULT_NAMES = ("Ana", "Ben", "Cleo", "Dan", "Eva", "Finn")


class PlayerRow(BoxLayout):
    """One seat: colour (tap to change), name, move up, move down, remove."""

    colour = StringProperty("red")

    def __init__(self, screen: SetupScreen, name: str, colour: str, **kwargs: Any) -> None:
        size = min_target_px()
        super().__init__(orientation="horizontal", size_hint_y=None, height=size, spacing=theme.GAP,
                         **kwargs)
        self.screen = screen
        self.colour = colour
        self.swatch = TouchButton(text="", size_hint_x=None, width=size,
                                  background_normal="", background_color=colour_rgba(colour))
        self.swatch.bind(on_press=lambda *_a: self.screen.next_colour(self))
        self.name_input = TextInput(text=name, multiline=False, write_tab=False,
                                    font_size=theme.FONT_NAME,
                                    padding=(theme.GAP_LOOSE, (size - NAME_LINE_PX) / 2))
        self.add_widget(self.swatch)
        self.add_widget(self.name_input)
        for label, action in (("↑", "up"), ("↓", "down"), ("✕", "remove")):
            button = TouchButton(text=label, size_hint_x=None, width=size,
                                 font_name="DejaVuSans" if False else "Roboto")
            button.text = {"up": _("Up"), "down": _("Down"), "remove": "X"}[action]
            button.width = size * (1.4 if action != "remove" else 1.0)
            button.bind(on_press=lambda *_a, act=action: self.screen.row_action(self, act))
            self.add_widget(button)

    def on_colour(self, *args: Any) -> None:
        if hasattr(self, "swatch"):
            self.swatch.background_color = colour_rgba(self.colour)

    @property
    def player_name(self) -> str:
        return self.name_input.text.strip()


class SetupScreen(BaseScreen):
    game = StringProperty("indigo")
    message = StringProperty("")
    target = NumericProperty(15)
    timer_s = NumericProperty(30)
    layout = StringProperty("")
    layouts = ListProperty([])

    def title(self) -> str:
        return _("New game: {game}").format(game=GAME_NAMES.get(self.game, self.game))

    def prepare(self, game: str) -> None:
        self.game = game
        rows = self.ids.players
        rows.clear_widgets()
        low, high = PLAYER_RANGE[game]
        for i in range(max(low, min(3, high))):
            rows.add_widget(PlayerRow(self, DEFAULT_NAMES[i], list(PLAYER_COLOURS)[i]))
        self.target = 15
        self.timer_s = int(getattr(self.app.cfg.timer, "duration_s", 30))
        self.message = ""
        self._update_options()

    def rows(self) -> list[PlayerRow]:
        return list(reversed(self.ids.players.children))

    def add_player(self) -> None:
        low, high = PLAYER_RANGE[self.game]
        rows = self.rows()
        if len(rows) >= high:
            self.message = ngettext("{game} takes at most {n} player",
                                    "{game} takes at most {n} players", high).format(
                game=GAME_NAMES[self.game], n=high)
            return
        used = {r.colour for r in rows}
        colour = next(c for c in PLAYER_COLOURS if c not in used)
        names = {r.player_name for r in rows}
        name = next((n for n in DEFAULT_NAMES if n not in names), f"P{len(rows) + 1}")
        self.ids.players.add_widget(PlayerRow(self, name, colour), index=0)
        self._update_options()

    def row_action(self, row: PlayerRow, action: str) -> None:
        rows = self.rows()
        i = rows.index(row)
        if action == "remove":
            if len(rows) <= PLAYER_RANGE[self.game][0]:
                low = PLAYER_RANGE[self.game][0]
                self.message = ngettext("{game} needs at least {n} player",
                                        "{game} needs at least {n} players", low).format(
                    game=GAME_NAMES[self.game], n=low)
                return
            rows.pop(i)
        elif action == "up" and i > 0:
            rows[i - 1], rows[i] = rows[i], rows[i - 1]
        elif action == "down" and i < len(rows) - 1:
            rows[i + 1], rows[i] = rows[i], rows[i + 1]
        self.ids.players.clear_widgets()
        for r in rows:
            self.ids.players.add_widget(r, index=0)
        self._update_options()

    def next_colour(self, row: PlayerRow) -> None:
        used = {r.colour for r in self.rows() if r is not row}
        order = list(PLAYER_COLOURS)
        i = order.index(row.colour) if row.colour in order else 0
        for step in range(1, len(order) + 1):
            candidate = order[(i + step) % len(order)]
            if candidate not in used:
                row.colour = candidate
                return

    def _update_options(self) -> None:
        n = len(self.rows())
        self.layouts = list(INDIGO_LAYOUTS.get(n, ()))
        if self.layout not in self.layouts:
            self.layout = self.layouts[0] if self.layouts else ""
        self.ids.count_label.text = ngettext("{n} player", "{n} players", n).format(n=n)
        self.app.screen_title = self.title()
        box = self.ids.layout_box
        box.clear_widgets()
        for name in self.layouts:
            toggle = TouchToggle(text=layout_text(name), group="indigo-layout", wrap=True,
                                 font_size=LAYOUT_FONT,
                                 state="down" if name == self.layout else "normal",
                                 allow_no_selection=False)
            toggle.bind(on_press=lambda _t, v=name: setattr(self, "layout", v))
            box.add_widget(toggle)

    def step(self, what: str, delta: int) -> None:
        if what == "target":
            self.target = max(5, min(40, self.target + delta))
        elif what == "timer":
            self.timer_s = max(5, min(600, self.timer_s + delta))

    def start(self) -> None:
        names = [r.player_name for r in self.rows()]
        colours = [r.colour for r in self.rows()]
        if any(not n for n in names):
            self.message = _("Every player needs a name")
            return
        if len(set(names)) != len(names):
            self.message = _("Names must be different")
            return
        options: dict[str, Any] = {}
        if self.game == "indigo" and self.layout:
            options["layout"] = self.layout
        if self.game == "enigma":
            options["target"] = int(self.target)
            if int(self.timer_s) != int(self.app.cfg.timer.duration_s):
                self.app.save_settings("timer", "duration_s", int(self.timer_s))
        try:
            self.app.new_game(self.game, names, options, colours=colours)
        except Exception as exc:  # nothing was journaled; the error's English is logged
            log.warning("could not start %s for %s with %s: %s", self.game, names, options, exc)
            self.message = _("Cannot start: {error}").format(
                error=_("the rules do not allow these players or options"))
