"""Indigo: the board and the live camera, read / tap to correct, confirm, hidden scores.

Flow of a turn: the player puts a tile on the table; "Read the board" (or a tap on the cell
when the camera is out) gives a proposal; the engine's prediction of the gem moves is animated;
"Confirm" sends the ``place`` event through the session. Scores stay hidden until the end; a
long press on a player's name shows their own haul while held.
"""

from __future__ import annotations

import logging
from typing import Any

from kivy.properties import BooleanProperty, ObjectProperty, StringProperty

from ui import theme
from ui.i18n import _, ngettext
from ui.screens.base import BaseScreen, ink_on
from ui.screens.counted import points_text, winners_text
from ui.touch import min_target_px
from ui.widgets.buttons import LongPressButton

log = logging.getLogger(__name__)


class IndigoScreen(BaseScreen):
    status = StringProperty("")
    proposal = ObjectProperty(None, allownone=True)
    is_over = BooleanProperty(False)
    result_text = StringProperty("")

    def title(self) -> str:
        return "Indigo"

    def on_kv_post(self, base_widget: Any) -> None:
        self.ids.board.bind(on_cell=lambda _w, cell: self.tap_cell(cell))
        self.app.bind(revision=self.refresh_when_shown)

    # --- state ------------------------------------------------------------------------------
    def state(self) -> Any:
        session = self.app.session
        if session is None or session.game != "indigo":
            return None
        game = session.state  # the engine's IndigoGame wraps the IndigoState
        return getattr(game, "state", game)

    def mover(self) -> str:
        state = self.state()
        players = self.players()
        if state is None or not players:
            return ""
        return players[state.turn]

    def refresh(self) -> None:
        state = self.state()
        board = self.ids.board
        board.zoom_out()  # each turn begins on the whole board
        board.state = state
        board.marks = {}
        board.selected = None
        board.clear_proposal()
        self.proposal = None
        self.ids.camera.overlay = []
        if self.app.table is not None and state is not None:
            self.app.table.sync(state)
        self._players_strip()
        self.is_over = bool(state is not None and state.is_over)
        if self.is_over:
            self._show_result()
            self.status = _("Game over")
        elif state is not None:
            self.result_text = ""
            self.status = _("{player} to place a tile").format(player=self.mover())

    def _players_strip(self) -> None:
        """A button per player, the mover's marked. The same players' buttons are kept and
        their words and colours changed: made anew at every move, they were most of an
        Indigo game's cyclic garbage, which the app's full collections walk
        (bench/figures/app_memory_s20.txt)."""
        strip = self.ids.players
        players = self.players()
        if [getattr(b, "player", None) for b in reversed(strip.children)] != players:
            strip.clear_widgets()
            for player in players:
                button = LongPressButton(background_normal="", font_size=theme.FONT_EXPLAIN,
                                         size_hint_y=None, height=min_target_px())
                button.player = player
                button.bind(on_long_press=self._peek_pressed,  # methods: held weakly
                            on_long_release=self._peek_released)
                strip.add_widget(button)
        state = self.state()
        mover = "" if state is None or state.is_over else self.mover()
        for button in strip.children:
            face = self._dim(self.colour_of(button.player))
            button.text = ("» " if button.player == mover else "") + button.player
            button.background_color, button.color = face, ink_on(face)

    def _peek_pressed(self, button: Any) -> None:
        self.peek(button, True)

    def _peek_released(self, button: Any) -> None:
        self.peek(button, False)

    @staticmethod
    def _dim(rgba: Any) -> tuple[float, float, float, float]:
        return (rgba[0] * 0.85, rgba[1] * 0.85, rgba[2] * 0.85, 1)

    def haul_text(self, player: str) -> str:
        result = self.app.result()
        gems = result.get("gems", {}).get(player, {})
        return gems_by_kind_text(gems.get("amber", 0), gems.get("emerald", 0),
                                 gems.get("sapphire", 0))

    def peek(self, button: Any, show: bool) -> None:
        """While held, a player's own haul is shown (nobody else's): in the status line, which
        has the panel's width and wraps, where the name's button cut it ("0 ambers, 0 e...")."""
        if show:
            self._before_peek = self.status
            self._peek_text = _("{player}: {haul}").format(player=button.player,
                                                          haul=self.haul_text(button.player))
            self.status = self._peek_text
        elif self.status == getattr(self, "_peek_text", None):
            self.status = getattr(self, "_before_peek", "")

    # --- a turn -----------------------------------------------------------------------------
    def read_board(self) -> None:
        app = self.app
        if app.camera is None or app.camera_failed or app.last_frame is None:
            self.status = _("No camera: tap the cell where the tile was put")
            return
        self.status = _("Reading the board…")
        self.read_running = True
        # the tile was put down just now: the picture read is one taken after this tap
        app.when_fresh_frame(self._read_frame)

    def _read_frame(self, frame: Any) -> None:
        app, state = self.app, self.state()
        if frame is None or state is None:
            self.read_running = False
            self.status = _("No camera: tap the cell where the tile was put")
            return
        from ui.reading import read_indigo_frame

        self.read_on_worker(lambda: read_indigo_frame(frame, app.cfg, state),
                            self._read_done, name="read-indigo")

    def _read_done(self, reading: Any, error: BaseException | None) -> None:
        self.ids.camera.overlay = list(getattr(reading, "overlay", []) or [])
        if error is not None:
            self.status = _("Could not read the board ({error}); tap the cell instead").format(
                error=refusal_text(error))
            return
        if reading.message:  # the vision check's English questions: for the log only
            log.info("board read asks: %s", reading.message)
        self._show_reading(reading)
        if getattr(reading, "pieces_unlike_pack", False):
            self.status += "\n" + _("These gems and chips do not look like the ones the camera "
                                    "was taught: teach them (Settings, or companion teach "
                                    "indigo)")

    def _show_reading(self, reading: Any) -> None:
        """The proposal and the marked cells of a read, and the status line that says why."""
        if reading.proposal is None:
            self.ids.board.marks = {cell: theme.QUESTION_MARK for cell in reading.questions}
            if reading.questions:
                self.status = _("{why}; tap the cell where the tile was put").format(
                    why=indigo_questions_text(reading.questions))
            elif reading.message:
                self.status = _("The camera is not sure what it saw; tap the cell where "
                                "the tile was put")
            else:
                self.status = _("No new tile found; tap the cell where it was put")
            return
        self.propose(*reading.proposal)
        self.ids.board.marks = {cell: theme.QUESTION_MARK for cell in reading.questions}
        if reading.questions:
            self.status = _("Please check the marked cells, then confirm or tap to correct")
            why = indigo_questions_text(reading.questions, skip=("check",))
            if why:
                self.status += "\n" + why

    def tap_cell(self, cell: Any) -> None:
        state = self.state()
        if state is None or self.is_over:
            return
        from companion.indigo.geometry import is_route_cell

        if not is_route_cell(tuple(cell)) or cell in state.tiles:
            self.status = _("Choose an empty route cell")
            return
        self.ids.board.selected = tuple(cell)
        from ui.widgets.tile_picker import TilePicker

        self.picker = TilePicker(lambda kind, rot: self.propose(tuple(cell), kind, rot),
                                 portrait=self.portrait)
        # closed without a choice: the ring goes back to the proposal (if any), not left on a
        # hexagon that holds nothing
        self.picker.bind(on_dismiss=lambda *_a: setattr(
            self.ids.board, "selected", self.proposal[0] if self.proposal else None))
        self.picker.open()

    def propose(self, cell: Any, kind: int, rotation: int) -> None:
        """Show the placement and the engine's predicted gem moves; wait for Confirm."""
        state = self.state()
        from companion.errors import CompanionError
        from companion.indigo.state import Placement, predict
        from companion.indigo.tiles import Tile

        cell = (int(cell[0]), int(cell[1]))
        try:
            report = predict(state, Placement(cell, Tile(kind, rotation)))
        except CompanionError as exc:
            self.proposal = None
            self.ids.board.clear_proposal()
            self.status = _("Not legal: {error}").format(error=broken_rule_text(exc))
            return
        self.proposal = (cell, kind, rotation)
        board = self.ids.board
        board.zoom_out()  # the whole board, for the gems' moves the placement makes
        board.selected = cell
        board.proposal = self.proposal
        board.animate(list(report.moves))
        self.status = _("{player}: tile {kind}, turn {rotation}. Confirm?").format(
            player=self.mover(), kind=kind, rotation=rotation)

    def confirm(self) -> None:
        if self.proposal is None:
            self.status = _("Read the board or tap a cell first")
            return
        cell, kind, rotation = self.proposal
        event = {"type": "place", "player": self.mover(), "cell": [cell[0], cell[1]],
                 "tile": kind, "rotation": rotation}
        if self.app.apply(event):
            self.proposal = None

    def on_hardware_button(self, name: str) -> None:
        if name == "confirm":
            self.confirm() if self.proposal is not None else self.read_board()

    def demo_move(self) -> None:
        state = self.state()
        if self.app.table is None or state is None or self.is_over:
            return
        placement = self.app.table.play_random(state)
        if placement is not None:
            self.status = _("Demo: {player} put a tile down. Read the board.").format(
                player=self.mover())

    # --- the end ----------------------------------------------------------------------------
    def _show_result(self) -> None:
        result = self.app.result()
        scores = result.get("scores", {})
        gems = result.get("gems", {})
        winners = result.get("winners", [])
        ranking = sorted(scores, key=lambda p: (-scores[p], -sum(gems.get(p, {}).values())))
        lines = []
        for place, player in enumerate(ranking, start=1):
            count = sum(gems.get(player, {}).values())
            lines.append(f"{place}. {player}: {points_text(scores[player])}, "
                         f"{gems_text(count)}")
        tied = [p for p in ranking if scores[p] == scores[ranking[0]]] if ranking else []
        if len(tied) > 1:
            lines.append(_("Tie on points: most gems wins"))
        lines.append(winners_text(list(winners)))
        self.result_text = "\n".join(lines)


def gems_text(count: int) -> str:
    return ngettext("{n} gem", "{n} gems", count).format(n=count)


def gems_by_kind_text(amber: int, emerald: int, sapphire: int) -> str:
    """A player's gems by kind: "2 ambers, 1 emerald, 0 sapphires"."""
    return ", ".join((ngettext("{n} amber", "{n} ambers", amber).format(n=amber),
                      ngettext("{n} emerald", "{n} emeralds", emerald).format(n=emerald),
                      ngettext("{n} sapphire", "{n} sapphires", sapphire).format(n=sapphire)))


def broken_rule_text(error: Exception) -> str:
    """The rule a refused placement breaks, in the player's language. The engine's message is
    English and reads ``[<where>: ]<rule> rule: <detail>`` (``companion.indigo.errors``): the
    screen words the rule and leaves the detail (cells as coordinates, P0 for a player) out."""
    from companion.indigo.errors import Rule

    worded = {
        Rule.GAME_OVER: _("the game is over"),
        Rule.OFF_BOARD: _("this cell is off the board"),
        Rule.TREASURE_CELL: _("a treasure tile is on this cell"),
        Rule.OCCUPIED: _("this cell already holds a tile"),
        Rule.BLOCKING: _("here the tile would join the two exits of the gateway"),
        Rule.TYPE_EXHAUSTED: _("every tile of this kind is already on the board"),
        Rule.NOT_IN_HAND: _("the player does not hold a tile of this kind"),
    }
    message = str(error)
    for rule, text in worded.items():
        if f"{rule.value} rule:" in message:
            return text
    return _("the placement breaks a rule of the game")


def refusal_text(error: BaseException) -> str:
    """Why the board could not be read: a refused picture (``vision.picture``'s reasons) in the
    player's language, anything else by :func:`ui.refusals.table_refusal_words`."""
    worded = {
        "overexposed": _("the picture is too bright: less light, and no lamp reflected in "
                         "the board"),
        "too-dark": _("the picture is too dark: more light"),
        "low-contrast": _("the picture is too flat: more even light, and a clean lens"),
        "noisy": _("the picture is too noisy: more light, so the camera needs less gain"),
        "no-colour": _("the picture has no colour, and the gems are told apart by colour: "
                       "use a colour camera"),
        "blurred": _("the picture is out of focus: refocus, or hold the camera still"),
    }.get(str(getattr(error, "reason", "")))
    if worded is None:
        from ui.refusals import table_refusal_words

        return table_refusal_words(error)
    log.info("the board reader refused a picture: %s", error)
    return worded


def indigo_questions_text(questions: dict[Any, str], *, skip: tuple[str, ...] = ()) -> str:
    """Why the marked cells are asked about (:class:`ui.reading.IndigoReading`'s codes), one
    phrase per code with its number of cells; codes in ``skip`` are left out."""
    counts: dict[str, int] = {}
    for code in questions.values():
        if code not in skip:
            counts[code] = counts.get(code, 0) + 1
    words = {
        "tile-missing": lambda n: ngettext("{n} tile missing", "{n} tiles missing", n),
        "tile-changed": lambda n: ngettext("{n} tile changed", "{n} tiles changed", n),
        "unsure": lambda n: ngettext("{n} cell read unsure", "{n} cells read unsure", n),
        "several-new": lambda n: ngettext("{n} new tile: one a turn",
                                          "{n} new tiles: one a turn", n),
    }
    return "; ".join(
        words[code](n).format(n=n) if code in words else
        ngettext("check {n} marked cell", "check {n} marked cells", n).format(n=n)
        for code, n in counts.items())
