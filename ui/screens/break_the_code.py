"""Break the Code: the app deals the secret and keeps it; answers questions; checks guesses.

The racks and the central code are never put into a widget's text before the game is over,
except a player's own rack while that player holds their button down (a long press, released
at once). Answers come from the engine's result; a guess is answered only "right" or "wrong".
"""

from __future__ import annotations

import logging
import random
from typing import Any

from kivy.factory import Factory
from kivy.properties import StringProperty

from ui.i18n import N_, _, ngettext
from ui.screens.base import BaseScreen, made
from ui.touch import min_target_px
from ui.widgets.code_tile import CodeTileFace, CodeTileToggle

log = logging.getLogger(__name__)

#: how long "Show your tiles to the camera" waits for a camera frame taken after the tap
FRAME_WAIT_S = 6.0
#: the frame read is the third shown after the tap: the first ones may have been taken before
#: it (one waiting in the camera queue, one being prepared)
FRESH_FRAMES = 3
TILE_NAMES = ("0b", "0w", "1b", "1w", "2b", "2w", "3b", "3w", "4b", "4w", "5g", "5g",
              "6b", "6w", "7b", "7w", "8b", "8w", "9b", "9w")
#: a tile's colour letter in the engine's names ("3b") -> the colour, whose initial in the
#: player's language marks the tile on screen ("3ч" in Ukrainian, "3n" in Spanish)
TILE_COLOURS = {"b": N_("black"), "w": N_("white"), "g": N_("green")}


def shown_code(code: str) -> str:
    """A code or rack as players read it: each tile's colour by its initial in their
    language (English: "0b 1w 5g", as the engine writes it)."""
    import re

    initials = {letter: _(colour)[:1] for letter, colour in TILE_COLOURS.items()}
    return re.sub(r"(\d)([bwg])\b", lambda m: m[1] + initials[m[2]], code)


def card_text(card_id: str, engine_text: str) -> str:
    """A question card's text in the player's language (the engine's cards are English; a card
    the app has no text for keeps the engine's)."""
    texts = {
        "Q01": _("Where are your #0 tiles?"),
        "Q02": _("Where are your #1 or #2 tiles? (choose one)"),
        "Q03": _("Where are your #3 or #4 tiles? (choose one)"),
        "Q04": _("Where are your #5 tiles?"),
        "Q05": _("Where are your #6 or #7 tiles? (choose one)"),
        "Q06": _("Where are your #8 or #9 tiles? (choose one)"),
        "Q07": _("Which neighbouring tiles have consecutive numbers?"),
        "Q08": _("Which neighbouring tiles have the same colour?"),
        "Q09": _("How many odd tiles do you have?"),
        "Q10": _("How many even tiles do you have? (0 is even)"),
        "Q11": _("How many of your tiles have a black number?"),
        "Q12": _("How many of your tiles have a white number?"),
        "Q13": _("How many of your tiles have the same number?"),
        "Q14": _("What is the sum of your 3 left-most tiles?"),
        "Q15": _("What is the sum of your 3 right-most tiles?"),
        "Q16": _("What is the sum of your central tiles?"),
        "Q17": _("What is the sum of your black numbers?"),
        "Q18": _("What is the sum of your white numbers?"),
        "Q19": _("What is the sum of your tiles?"),
        "Q20": _("Is your C tile greater than 4?"),
        "Q21": _("What is the difference between your highest and lowest numbers?"),
    }
    return texts.get(card_id, engine_text)


def question_text(card_id: str, number: int | None, engine_text: str) -> str:
    """What a player asks with a card, as a sentence: a card with a choice of numbers asks
    about the number chosen."""
    if number is None:
        return card_text(card_id, engine_text)
    return _("Where are your #{n} tiles?").format(n=number)


def _warmed(value: Any, error: BaseException | None) -> None:
    if error is not None:  # the assistant then builds its tables on the first long press
        log.warning("building the assistant's tables failed: %s", error)


class BreakTheCodeScreen(BaseScreen):
    status = StringProperty("")
    mode = StringProperty("ask")
    #: whether this process has started building the assistant's tables
    assistant_warmed = False

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rng = random.Random()  # a real deal must be unpredictable; tests seed it
        self.guess_tiles: list[str] = []
        #: racks entered so far (player -> code) while the players enter them covered
        self.entering: dict[str, str] | None = None
        self.covered = True
        #: one line on the covered step: "code stored: N tiles", or why a read was not stored
        self.entry_note = ""
        self.entry_failed = False
        #: the player whose rack the camera is reading (None: no read under way)
        self.reading_rack: str | None = None
        self.camera_button: Any = None
        self.entry_game: Any = None  # the game whose racks are being entered
        #: every question asked so far as a button, by (card, number): made once and moved
        #: into each ask panel (see :meth:`_card_button`)
        self._kept_card_buttons: dict[tuple[str, int | None], Any] = {}
        #: the ask panel, kept from ask to ask, and what it was made for (see _ask_panel)
        self._kept_ask: tuple[tuple[Any, ...], Any] | None = None

    def title(self) -> str:
        return "Break the Code"

    def on_kv_post(self, base_widget: Any) -> None:
        self.app.bind(revision=self.refresh_when_shown)

    def state(self) -> Any:
        session = self.app.session
        return None if session is None or session.game != "break-the-code" else session.state

    def on_pre_enter(self, *args: Any) -> None:
        super().on_pre_enter(*args)
        # the assistant's tables are built once per process, on a worker: the first long
        # press would otherwise wait for them (half a second here, seconds on a Pi)
        if not BreakTheCodeScreen.assistant_warmed:
            from companion.break_the_code.tables import warm_up

            BreakTheCodeScreen.assistant_warmed = True
            self.app.run_in_background(warm_up, _warmed, name="warm-assistant")

    def refresh(self) -> None:
        state = self.state()
        for button in self._kept_card_buttons.values():  # kept: the old panel is let go
            if button.parent is not None:
                button.parent.remove_widget(button)
        self.ids.panel.clear_widgets()
        if state is None:
            return
        if self.entering is not None and self.entry_game != self.app.session.game_id:
            self.entering = None  # an entry left unfinished in another game
            self.reading_rack = None
        if not state.dealt:
            phase = self._entry_panel() if self.entering is not None else self._deal_panel()
        elif state.over:
            phase = self._end_panel()
        elif self.mode == "guess":
            phase = self._guess_panel()
        else:
            phase = self._ask_panel()
        self.ids.panel.add_widget(phase)

    def _phase(self, kind: str, **shown: Any) -> Any:
        """The kv panel ``kind`` (break_the_code.kv's Btc<kind>Panel), showing ``shown``."""
        return made(f"Btc{kind}Panel", screen=self, **shown)

    # --- the deal -----------------------------------------------------------------------------
    def _deal_panel(self) -> Any:
        phase = self._phase("Deal", learning=self.learning)
        self.deal_button = phase.ids.deal
        self.enter_button = phase.ids.enter
        self.learning_toggle = phase.ids.learning
        return phase

    # --- racks entered privately ------------------------------------------------------------
    def start_entry(self) -> None:
        self.entering = {}
        self.entry_game = self.app.session.game_id
        self.covered = True
        self.entry_note = ""
        self.entry_failed = False
        self.reading_rack = None
        if self.app.demo and self.app.table is not None:
            # the demo players are dealt real tiles, which the demo camera shows on the mat
            self.app.table.deal_code(self.players())
        self.refresh()

    def _entry_player(self) -> str | None:
        return next((p for p in self.players() if p not in (self.entering or {})), None)

    def _entry_panel(self) -> Any:
        player = self._entry_player()
        state = self.state()
        if self.covered:
            return self._covered_panel(str(player))
        phase = self._phase("Enter", prompt=ngettext(
            "{player}: tap your {n} tile, then Done", "{player}: tap your {n} tiles, then Done",
            state.rack_size).format(player=player, n=state.rack_size))
        self._fill_tiles(phase.ids.tiles)
        self.done_button = phase.ids.done
        return phase

    def _covered_panel(self, player: str) -> Any:
        """The screen passed to ``player``: tap the tiles, or show them to the camera."""
        table = self.app.table
        if self.app.demo and table is not None and table.code_racks:
            table.show_code(table.code_racks.get(player, ""))
        if self.reading_rack is not None:
            return self._phase("Reading", player=self.reading_rack)
        phase = self._phase("Covered", player=player, note=self.entry_note,
                            failed=self.entry_failed)
        self.uncover_button = phase.ids.uncover
        self.camera_button = phase.ids.read
        if not self._camera_ready():
            phase.remove_widget(phase.ids.read)
            self.camera_button = None
        if not self._camera_ready() or self.entry_failed:
            phase.remove_widget(phase.ids.camera_hint)  # a failed read's player knows the mat
        return phase

    def uncover(self) -> None:
        self.covered = False
        self.entry_note = ""
        self.entry_failed = False
        self.refresh()

    def _camera_ready(self) -> bool:
        return self.app.camera is not None and not self.app.camera_failed

    # --- a rack read by the camera ------------------------------------------------------------
    def read_rack(self) -> None:
        """Read the entering player's rack from a camera frame taken after the tap, on a worker.

        The frame is handed to the worker and dropped: it is never shown, stored or logged,
        and only "code stored: N tiles" (or why not) comes back to the screen.
        """
        player = self._entry_player()
        if player is None or self.reading_rack is not None:
            return
        if not self._camera_ready():
            self._rack_not_stored(_("the camera is not working"))
            return
        from kivy.clock import Clock

        self.reading_rack = player
        self.entry_note = ""
        self.entry_failed = False
        shown = [0]

        app = self.app

        def finish(frame: Any, why: str | None = None) -> None:
            timeout.cancel()
            app.funbind("camera_texture", on_frame)
            if self.app is not app:
                return  # the app stopped while waiting for a picture: nothing to store
            if not self._still_entering(player):
                self._drop_read(player)
            elif why is not None:
                self.reading_rack = None
                self._rack_not_stored(why)
            else:
                self._read_frame(player, frame)

        def on_frame(*_args: Any) -> None:
            # the app sets last_frame, then shows it: count the frames shown since the tap
            if self.app is not app:
                finish(None)  # a picture of an app that stopped: unbind, store nothing
                return
            shown[0] += 1
            frame = app.last_frame
            if frame is not None and (shown[0] >= FRESH_FRAMES or self._demo_shows(frame)):
                finish(frame)

        timeout = Clock.schedule_once(lambda _dt: finish(None, _("no camera picture")),
                                      FRAME_WAIT_S)
        self.app.fbind("camera_texture", on_frame)
        self.refresh()
        now = self.app.last_frame
        if now is not None and self._demo_shows(now):
            finish(now)

    def _demo_shows(self, frame: Any) -> bool:
        """In the demo, ``frame`` is the rendering of the table as it is now (the player's
        rack): no need to wait for later frames."""
        table = self.app.table
        return table is not None and bool(table.code_racks) and table.shows_table(frame)

    def _read_frame(self, player: str, frame: Any) -> None:
        from companion.break_the_code import parse_code
        from ui.reading import read_code_frame

        held = [frame]
        if self.app.last_frame is frame:
            self.app.last_frame = None  # the next frame replaces it; this one leaves the app
        del frame
        expected = self.state().rack_size
        taken = [parse_code(code) for code in (self.entering or {}).values()]
        cfg = self.app.cfg

        def work() -> Any:
            return read_code_frame(held.pop(), expected=expected, taken=taken, cfg=cfg)

        self.app.run_in_background(
            work, lambda reading, error: self._rack_read(player, reading, error),
            name="read-rack")

    def _still_entering(self, player: str) -> bool:
        state = self.state()
        return (self.reading_rack == player and self.entering is not None
                and state is not None and not state.dealt)

    def _drop_read(self, player: str) -> None:
        """The entry was left while reading (Home, another game, a deal): forget the read, so
        a resumed entry offers the camera again."""
        if self.reading_rack == player:
            self.reading_rack = None

    def _rack_read(self, player: str, reading: Any, error: BaseException | None) -> None:
        if not self._still_entering(player):
            self._drop_read(player)
            return
        self.reading_rack = None
        if error is not None:
            # the error's text is not shown: it could come from deep in a reader
            log.warning("reading a rack failed: %s", type(error).__name__)
            self._rack_not_stored(_("the tile reader failed"))
        elif reading.code is None:
            self._rack_not_stored(self._why_not(reading))
        else:
            self._store_rack(player, reading.code)

    def _why_not(self, reading: Any) -> str:
        """Why a read rack is not stored, in words that name slots at most, never a tile."""
        problem = reading.problem
        if problem == "count":
            return ngettext("the camera sees {n} tile, not {k}",
                            "the camera sees {n} tiles, not {k}", reading.seen).format(
                n=reading.seen, k=self.state().rack_size)
        if problem == "box":
            return _("the tiles on slots {slots} read alike, which the box does not allow"
                     ).format(slots=reading.detail)
        if problem == "taken":
            return _("one of these tiles is already in a rack entered before")
        if problem == "pack":
            return _("these tiles do not look like the ones the camera was taught: teach it "
                     "your tiles (Settings, or companion teach code)")
        if problem == "order":
            return _("the tiles read are not in rack order")
        if problem == "unsure":
            slot = _slot_named_in(reading.detail)
            if slot is None:
                return _("the camera is not sure of every tile")
            return _("the camera is not sure of every tile (look at slot {slot})").format(
                slot=slot)
        return _refusal_text(reading.reason, reading.detail)

    def _rack_not_stored(self, why: str) -> None:
        self.entry_note = _("Not stored: {why}").format(why=why)
        self.entry_failed = True
        self.covered = True
        self.refresh()

    def _store_rack(self, player: str, code: Any) -> None:
        from companion.break_the_code import format_code

        self.entering[player] = format_code(code)
        self.entry_note = ngettext("code stored: {n} tile", "code stored: {n} tiles",
                                   len(code)).format(n=len(code))
        self.entry_failed = False
        self.covered = True
        if self._entry_player() is None:
            self._deal_entered()
        else:
            self.refresh()

    def _fill_tiles(self, grid: Any) -> None:
        """The box's twenty tiles on ``grid`` (a BtcTileGrid), none picked."""
        self.tile_toggles = [CodeTileToggle(name) for name in TILE_NAMES]
        for toggle in self.tile_toggles:
            grid.add_widget(toggle)

    def finish_rack(self) -> None:
        from companion.break_the_code import parse_code
        from companion.break_the_code.tiles import check_box_counts
        from companion.errors import CompanionError

        chosen = [t.tile for t in self.tile_toggles if t.state == "down"]
        for t in self.tile_toggles:
            t.state = "normal"
        player = self._entry_player()
        size = self.state().rack_size
        try:
            rack = parse_code(" ".join(chosen), length=size)
        except CompanionError:
            # the engine's message names tiles: it is not shown once the screen is covered
            self._rack_not_stored(_("the tiles tapped are not a rack of {n}").format(n=size))
            return
        taken = [t for code in (self.entering or {}).values() for t in parse_code(code).tiles]
        try:
            check_box_counts([*rack.tiles, *taken])
        except CompanionError:
            self._rack_not_stored(_("one of these tiles is already in a rack entered before"))
            return
        self._store_rack(player, rack)

    def _deal_entered(self) -> None:
        from collections import Counter

        from companion.break_the_code import ALL_TILES, format_code, parse_code

        racks = dict(self.entering or {})
        table = self.app.table
        if table is not None and table.code_racks:
            table.code_racks = {}
            table.reset()  # the demo players take their tiles off the mat
        event: dict[str, Any] = {"type": "deal", "racks": racks}
        if len(racks) > 2:
            # with 3-4 players all 20 tiles are dealt: the central code is what is left
            left = Counter(ALL_TILES)
            for rack in racks.values():
                left.subtract(parse_code(rack).tiles)
            event["central"] = format_code(sorted(left.elements()))
        self.entering = None
        note, self.entry_note = self.entry_note, ""
        if self.app.apply(event) and note:
            self.status = note  # the prompt naming the first to ask follows it
        self.refresh()

    def deal(self) -> None:
        from companion.break_the_code import deal_tiles, format_code

        players = self.players()
        dealt = deal_tiles(len(players), self.rng)
        event: dict[str, Any] = {"type": "deal", "racks": {
            p: format_code(rack) for p, rack in zip(players, dealt.racks, strict=True)}}
        if dealt.central is not None:
            event["central"] = format_code(dealt.central)
        self.app.apply(event)

    # --- the deduction assistant ------------------------------------------------------------
    @property
    def learning(self) -> bool:
        """Learning mode: the player to move may consult the assistant, privately."""
        from ui import services

        session = self.app.session
        value = services.get_meta(self.app.journal, services.session_game_id(session),
                                  "learning") if session is not None else None
        return value == "on"

    def set_learning(self, on: bool) -> None:
        from ui import services

        services.set_meta(self.app.journal, self.app.session, "learning", "on" if on else "off")

    def assist(self, button: Any, show: bool) -> None:
        """While held: how many codes are still possible for the player to move, and the
        question with the most information. Never a code: that is for after the game."""
        if not show:
            button.text = _("Hold for the assistant ({player})").format(
                player=self.state().current_player)
            return
        from companion.break_the_code import get_card
        from companion.break_the_code.solver import suggest, view_of

        state = self.state()
        advice = suggest(view_of(state, state.current_player))
        count = len(advice.candidates)
        if advice.question is not None:
            q = advice.question
            card = question_text(q.card, q.number, get_card(q.card).text)
            button.text = ngettext("{n} code possible; ask {card}",
                                   "{n} codes possible; ask {card}", count).format(
                n=count, card=card)
        else:
            button.text = ngettext("{n} code possible; time to guess",
                                   "{n} codes possible; time to guess", count).format(n=count)

    def analysis(self) -> list[str]:
        """After the game: what each player could have known at the end."""
        from companion.break_the_code import get_card
        from companion.break_the_code.solver import suggest, view_of

        state = self.state()
        lines = []
        for player in state.players:
            advice = suggest(view_of(state, player))
            count = len(advice.candidates)
            if count <= 3:
                likeliest = ", ".join(f"{shown_code(code)} ({p:.0%})"
                                      for code, p in advice.candidates.ranked())
                lines.append(ngettext("{player}: {n} code was still possible: {codes}",
                                      "{player}: {n} codes were still possible: {codes}",
                                      count).format(
                    player=player, n=count, codes=likeliest or "-"))
            elif advice.question is not None:
                q = advice.question
                card = question_text(q.card, q.number, get_card(q.card).text)
                lines.append(ngettext(
                    "{player}: {n} code was still possible; {card} would have told most",
                    "{player}: {n} codes were still possible; {card} would have told most",
                    count).format(player=player, n=count, card=card))
        return lines

    # --- asking -------------------------------------------------------------------------------
    def _private_racks(self, phase: Any) -> None:
        """The players' names to hold, and the assistant in learning mode."""
        for player in self.players():
            phase.ids.names.add_widget(made("BtcNameButton", screen=self, player=player))
        helper = phase.ids.assistant
        if phase.learning:
            self.assist(helper, False)
            self.assistant_button = helper
        else:
            helper.parent.remove_widget(helper)

    def peek(self, button: Any, show: bool) -> None:
        from companion.break_the_code import format_code

        state = self.state()
        if show and state.racks is not None:
            button.text = shown_code(format_code(state.racks[state.seat_of(button.player)]))
        else:
            button.text = button.player

    def _ask_panel(self) -> Any:
        from companion.break_the_code import get_card

        state = self.state()
        # what the last question got stays up, and under it whose turn it is now
        prompt = _("{player}: ask a card or guess").format(player=state.current_player)
        phase = self._ask_phase()
        phase.prompt = "\n".join(filter(None, (self.status, prompt)))
        phase.ids.cards.parent.scroll_y = 1  # the questions from the top, as a new panel's
        self.card_buttons = {}
        for card_id in state.askable_cards:
            card = get_card(card_id)
            for number in card.choices or (None,):
                label = card_id if number is None else f"{card_id}: {number}"
                button = self._card_button(card_id, number)
                button.text = question_text(card_id, number, card.text)
                self.card_buttons[label] = button
                phase.ids.cards.add_widget(button)
        self.guess_button = phase.ids.guess
        return phase

    def _ask_phase(self) -> Any:
        """The ask panel, made once per game (its players' names and the assistant, in
        learning mode) and kept from ask to ask; its prompt, the assistant's words and its
        questions are set at each. Made anew at every ask, it was the last of a game's
        cyclic garbage that the app's full collections walk (bench/figures/app_memory_s21.txt)."""
        learning = self.learning
        made_for = (self.app.session.game_id, tuple(self.players()), learning)
        if self._kept_ask is not None and self._kept_ask[0] == made_for:
            phase = self._kept_ask[1]
            if learning:
                self.assist(phase.ids.assistant, False)  # whose turn it is now
            return phase
        phase = self._phase("Ask", learning=learning)
        self._private_racks(phase)
        self._kept_ask = (made_for, phase)
        return phase

    def _card_button(self, card_id: str, number: int | None) -> Any:
        """The button that asks card ``card_id`` (about ``number``), made once per screen:
        made anew for every ask panel, some twenty at each question, they were most of a
        game's cyclic garbage, which the app's full collections walk
        (bench/figures/app_memory_s20.txt)."""
        button = self._kept_card_buttons.get((card_id, number))
        if button is None:
            button = Factory.BtcCardButton()
            button.card_id, button.number = card_id, number
            button.bind(on_press=self._card_pressed)  # a method: held weakly
            self._kept_card_buttons[(card_id, number)] = button
        return button

    def _card_pressed(self, button: Any) -> None:
        self.ask(button.card_id, button.number)

    def ask(self, card: str, number: int | None) -> None:
        state = self.state()
        event: dict[str, Any] = {"type": "ask", "player": state.current_player, "card": card}
        if number is not None:
            event["number"] = number
        if self.app.apply(event):
            from companion.break_the_code import get_card

            answers = [a for a in self.app.result().get("answers", [])
                       if a.get("event") == len(self.app.session.events)]
            said = "; ".join(f"{a['by']}: {_format_answer(a['answer'])}" for a in answers)
            self.status = _("{question} {answers}").format(
                question=question_text(card, number, get_card(card).text), answers=said)
            self.refresh()

    # --- guessing -----------------------------------------------------------------------------
    def start_guess(self) -> None:
        self.mode = "guess"
        self.guess_tiles = []
        self.refresh()

    def _guess_panel(self) -> Any:
        state = self.state()
        phase = self._phase("Guess", prompt=ngettext(
            "{player}: pick {n} tile, unseen by the others",
            "{player}: pick {n} tiles, unseen by the others", state.rack_size).format(
            player=state.current_player, n=state.rack_size))
        self._fill_tiles(phase.ids.tiles)
        self.submit_button = phase.ids.submit
        return phase

    def cancel_guess(self) -> None:
        self.mode = "ask"
        self.refresh()

    def submit_guess(self) -> None:
        chosen = [t.tile for t in self.tile_toggles if t.state == "down"]
        state = self.state()
        player = state.current_player
        code = " ".join(chosen)
        # the typed tiles leave the screen before anything else is drawn
        for t in self.tile_toggles:
            t.state = "normal"
        self.mode = "ask"
        if self.app.apply({"type": "guess", "player": player, "code": code}):
            after = self.state()
            right = player in after.cracked or player in after.winners
            self.status = (_("{player}: right!") if right else _("{player}: wrong")).format(
                player=player)
        self.refresh()

    # --- the end ------------------------------------------------------------------------------
    def _end_panel(self) -> Any:
        from companion.break_the_code import format_code
        from companion.break_the_code.game import racks_by_name

        state = self.state()
        # "Winner: nobody" when nobody won; a tie names the winners
        lines = [ngettext("Game over. Winner: {names}", "Game over. Winners: {names}",
                          max(1, len(state.winners))).format(
            names=", ".join(state.winners) or _("nobody"))]
        phase = self._phase("End", summary="\n".join(lines))
        rows = list(racks_by_name(state).items())
        if state.central is not None:
            rows.append((_("Central code"), state.central))
        self.end_racks: dict[str, list[Any]] = {}
        for name, tiles in rows:
            # the tiles as the players laid them, drawn, not written out as digits and letters
            row = made("BtcRackRow", name=name)
            faces = [CodeTileFace(tile, size_hint_x=None, width=min_target_px())
                     for tile in format_code(tiles).split()]
            for face in faces:
                row.ids.tiles.add_widget(face)
            row.ids.tiles.add_widget(Factory.Filler())
            phase.ids.racks.add_widget(row)
            self.end_racks[name] = faces
        self.analysis_button = phase.ids.analysis
        return phase

    def show_analysis(self) -> None:
        """The assistant's look back, in the place of the button that asked for it."""
        phase = self.analysis_button.parent
        index = phase.children.index(self.analysis_button)
        phase.remove_widget(self.analysis_button)
        phase.add_widget(Factory.PromptLine(text="\n".join(self.analysis())), index=index)



def _refusal_text(reason: str, detail: str) -> str:
    """Why the tile reader would not read a picture, by the reader's tag of the refusal (its
    own line is English: it goes to the log, and the player reads the tag's words)."""
    if reason in ("no-markers", "wrong-layout"):
        return _("the camera does not see the mat's four corner marks (in view? sharp?)")
    slot = _slot_named_in(detail)
    if reason == "ambiguous-layout" and slot is not None:
        return _("two tiles lie on slot {slot}: lay one tile per slot").format(slot=slot)
    worded = {
        "bad-homography": _("the mat's corner marks look mixed up or seen at a slant; "
                            "hold the camera above the mat"),
        "too-small": _("the mat is too small in the picture: move the camera closer"),
        "no-frame": _("the camera gave no picture"),
        "no-board": _("the mat's panel is not visible"),
        "no-tiles": _("no tile found on the mat"),
        "tile-count": _("the camera does not see as many tiles as the rack has"),
        "ambiguous-layout": _("two tiles lie on one slot: lay one tile per slot"),
        "impossible-code": _("two tiles read alike, which the box does not allow"),
        # the check of the picture itself (vision.picture), before any tile is read
        "overexposed": _("the picture of the mat is too bright (the tiles are burnt out): "
                         "less light, and no lamp reflected in the mat"),
        "too-dark": _("the picture of the mat is too dark: more light"),
        "low-contrast": _("the picture of the mat is too flat: more even light, and a clean "
                          "lens"),
        "noisy": _("the picture of the mat is too noisy: more light, so the camera needs "
                   "less gain"),
        "no-colour": _("the picture of the mat has no colour: a colour camera is needed"),
        "blurred": _("the mat is out of focus in the picture: refocus, or hold the camera "
                     "still"),
    }.get(reason)
    if worded is None:
        log.info("the tile reader refused a picture (%s): %s", reason, detail)
        return _("the camera cannot use this picture")
    return worded


def _slot_named_in(detail: str) -> str | None:
    """The slot the reader's (English) line is about ("... near slot C", "near C"), to point
    the player at it in their language; None when the line names none."""
    import re

    match = re.search(r"\b(?:slots?|near) ([A-Z]\d?)\b", detail or "")
    return match.group(1) if match else None


def _format_answer(value: Any) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        if value and isinstance(value[0], list):
            return " ".join("-".join(pair) for pair in value) or _("none")
        return " ".join(value) or _("none")
    return str(value)
