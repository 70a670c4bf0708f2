"""Second Chance: each player's sheet drawn by tapping, the two revealed cards, "fits?" with a
placement shown, second chance and drop-out with the 1, the ranking and solo play.

Every check is the engine's: ``fits``/``first_placement`` for "fits?", ``needs_second_chance``
and ``may_write_bonus`` for what each player may do, and ``apply_event`` through the session
for every drawing.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from typing import Any

from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty

from ui.i18n import _, ngettext
from ui.screens.base import BaseScreen, made
from ui.screens.second_chance_words import asked_first, problem_text, question_text, refusal_text
from ui.touch import min_target_px
from ui.weak_binding import follow_property
from ui.widgets.sheet_grid import ShapeButton

SOLO_GOAL = 10  # fewer than ten empty squares over three games (the seed's solo rule)
#: the sheet reader's questions worded in the status line, the others counted: one beside the
#: sheet at 800x480 (the camera picture and the cards' rows take the rest of the panel), two
#: under it in portrait
QUESTIONS_SHOWN_LANDSCAPE = 1
QUESTIONS_SHOWN_PORTRAIT = 2
#: the camera picture's least height under the sheet, in touch targets: the players aim the
#: camera at a sheet or a card by it (3.2 targets of 9 mm: 324x182 px at 720x1280, and the
#: round's cards and the read's three lines still fit under it)
CAMERA_TARGETS_PORTRAIT = 3.2
#: beside the sheet (800x480) the panel is two columns: the camera picture, a third of the
#: window's width (what the reader marked can be seen), over its buttons; and the phase's
#: texts and buttons. The whole sheet then takes less width: a tap zooms it in anyway
CAMERA_COLUMN_OF_WIDTH = 1 / 3

log = logging.getLogger(__name__)

#: the panels kept while what they show stays (see :meth:`SecondChanceScreen.refresh`)
KEPT_PANELS = ("reveal", "round")


@dataclass
class KeptPanel:
    """A phase's panel kept to be shown again, with what the screen's panel held for it."""

    #: what it was made for: its kind, the layout, and a round's two cards
    shown: tuple[Any, ...]
    #: what the screen's panel holds: the split (camera column and phase), or the phase
    top: Any
    phase: Any
    camera_column: Any
    #: the camera's read and demo buttons in it (None: none)
    read_button: Any
    demo_button: Any


class SecondChanceScreen(BaseScreen):
    viewer = StringProperty("")
    status = StringProperty("")
    #: the panel is split, the camera's column beside the phase's (landscape, camera on)
    split = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rng = random.Random()
        self.chosen_cards: list[Any] = []
        self.second_card: Any = None
        #: the players' tabs, by name, in seat order
        self.tab_buttons: dict[str, Any] = {}
        #: the reveal's and the round's panels, kept to be shown again (see :meth:`refresh`)
        self._kept_panels: dict[str, KeptPanel] = {}
        #: the deck's shapes as buttons, made once (see :meth:`_shape_buttons`)
        self.shape_buttons: list[Any] = []
        #: what a tap on a shape button does in the panel on screen (a card turned up, or
        #: the second-chance card)
        self._on_shape_pick: Any = None

    def title(self) -> str:
        return "Second Chance"

    def on_kv_post(self, base_widget: Any) -> None:
        self.ids.sheet.bind(on_square=lambda _w, sq: self.tap_square(sq))
        self.ids.sheet.bind(origin=self._show_camera_column)
        self.bind(width=self._show_camera_column)
        # turned, the panel is laid out again: split beside the sheet, or whole under it
        self.bind(portrait=lambda *_a: self.refresh() if self.manager is not None
                  and self.manager.current == self.name else None)
        self.app.bind(revision=self._on_revision)  # a method: held weakly (see BaseScreen)

    def _on_revision(self, *_args: Any) -> None:
        # the player the next action is for is chosen before anything is drawn: the tabs,
        # the prompt, the sheet and every button then belong to the same player
        if self.manager is None or self.manager.current != self.name:
            return
        self._drawn_viewer = self.viewer = self.player_to_act()
        self.refresh()

    def on_undo(self) -> None:
        # the player whose move was taken back is the one to make it again
        player = self.app.last_undone.get("player")
        state = self.state()
        if state is not None and player in [p.name for p in state.players]:
            self.viewer = player

    def on_viewer(self, _screen: Any, viewer: str) -> None:
        # whoever changes the viewer, the screen shows them before the next tap can act
        if viewer != getattr(self, "_drawn_viewer", None) and self.manager is not None \
                and self.manager.current == self.name:
            self.refresh()

    def state(self) -> Any:
        session = self.app.session
        return None if session is None or session.game != "second-chance" else session.state

    def deck(self) -> Any:
        if not hasattr(self, "_deck"):
            from companion.second_chance import load_deck

            self._deck = load_deck()
        return self._deck

    def player_tiles(self, player: str) -> list[list[tuple[int, int]]]:
        """The player's drawings in order (from the journaled events), for the paper sheet."""
        tiles = []
        for event in self.app.session.events:
            if event.get("player") == player and event.get("type") in (
                    "start", "draw", "second-chance") and event.get("cells"):
                tiles.append([tuple(c) for c in event["cells"]])
        return tiles

    # --- the camera ---------------------------------------------------------------------------
    def _camera_part(self, phase: Any, demo_action: Any, read_action: Any = None) -> None:
        """The camera's picture and buttons in ``phase`` (its ``camera`` row): the picture
        above the buttons, or beside the sheet their column; none with the camera off."""
        # the widgets themselves, not the ids' weak proxies: the row is taken out of the phase
        # below and would be collected while its buttons are moved
        row = phase.ids.camera.__self__
        if not self._camera_on():
            phase.remove_widget(row)
            return
        from ui.widgets.camera_view import CameraView

        self.read_button = row.ids.read.__self__
        self.read_button.bind(on_press=lambda *_a: (read_action or self.read_sheet)())
        buttons = [self.read_button]
        if self.app.demo and self.app.table is not None:
            self.demo_button = row.ids.demo.__self__
            self.demo_button.bind(on_press=lambda *_a: demo_action())
            buttons.append(self.demo_button)
        else:
            row.remove_widget(row.ids.demo)
        camera = CameraView()
        if self.portrait:
            # the picture takes what the panel has left, never less than its minimum
            camera.size_hint_min_y = CAMERA_TARGETS_PORTRAIT * min_target_px()
            phase.add_widget(camera, index=phase.children.index(row) + 1)
            return
        # beside the sheet: the picture and its buttons have the split panel's first column
        phase.remove_widget(row)
        column = self._camera_column
        column.add_widget(camera)
        for button in buttons:
            row.remove_widget(button)
            button.wrap = True
            column.add_widget(button)
        self._show_camera_column()

    def _show_camera_column(self, *args: Any) -> None:
        """The camera's column is as wide as a third of the window while it holds the camera
        and the sheet is whole; zoomed in, the squares have its width."""
        column = getattr(self, "_camera_column", None)
        if column is None:
            return
        shown = bool(column.children) and not self.ids.sheet.origin
        column.width = self.width * CAMERA_COLUMN_OF_WIDTH if shown else 0
        column.opacity = 1 if shown else 0
        column.disabled = not shown

    def _camera_on(self) -> bool:
        return self.app.camera is not None and not self.app.camera_failed

    def read_sheet(self) -> None:
        if self.app.last_frame is None:
            self.status = _("No camera picture yet: tap the squares instead")
            return
        self.status = _("Reading the sheet…")
        self.read_running = True
        # the card was drawn just now: the picture read is one taken after this tap, and what
        # it shows is for the player on screen now
        player = self.viewer
        self.app.when_fresh_frame(lambda frame: self._read_sheet_frame(player, frame))

    def _read_sheet_frame(self, player: str, frame: Any) -> None:
        state = self.state()
        if state is None or player != self.viewer or frame is None:
            self.read_running = False
        if state is None or player != self.viewer:
            return  # another sheet is on screen: this one's read would be drawn on it
        if frame is None:
            self.status = _("No camera picture yet: tap the squares instead")
            return
        accepted = {tuple(c) for c in state.player(player).grid.filled_cells}
        from companion.second_chance.drawn import may_have_the_one, tile_choices
        from ui.reading import read_sheet_frame

        cfg = self.app.cfg
        # the cards this player drew, one a round: they settle outlines the drawing leaves open
        events = self.app.session.events
        choices, one = tile_choices(events, player), may_have_the_one(events, player)
        self.read_on_worker(
            lambda: read_sheet_frame(frame, accepted, cfg=cfg, choices=choices,
                                     one_possible=one),
            lambda reading, error: (self._read_done(reading, error)
                                    if player == self.viewer else None),
            name="read-sheet")

    def _read_done(self, reading: Any, error: BaseException | None) -> None:
        from companion.second_chance.grid import in_grid

        if error is not None:
            worded = refusal_text(getattr(error, "reason", ""))
            if worded is not None:
                log.info("the sheet reader refused a picture: %s", error)
            self.status = _("Could not read the sheet ({error}); tap the squares").format(
                error=worded or error)
            return
        sheet = self.ids.sheet
        sheet.selected = [list(c) for c in reading.new_cells]
        sheet.ghost = []
        notes = []
        state = self.state()
        for index, card in enumerate(state.revealed or ()):
            from companion.second_chance import is_placement_of

            if reading.new_cells and is_placement_of(reading.new_cells, card):
                notes.append(_("that is card {n}").format(n=index + 1))
        if reading.missing:
            notes.append(ngettext("{n} accepted square looks empty",
                                  "{n} accepted squares look empty",
                                  len(reading.missing)).format(n=len(reading.missing)))
        questions = asked_first(reading.questions, reading.new_cells)
        for question in questions:
            log.info("sheet reader asks (%s) about %s: %s", getattr(question, "kind", ""),
                     list(getattr(question, "cells", ())), getattr(question, "message", question))
        asked = {tuple(c) for q in questions for c in getattr(q, "cells", ())}
        # a problem of the rules' check on squares asked about is what the question settles
        # (a shape no tile can be is far more likely a missed outline)
        problems = [p for p in reading.problems
                    if not p.cells or not {tuple(c) for c in p.cells} <= asked]
        for problem in problems:
            log.info("sheet check (%s) about %s: %s", problem.code, list(problem.cells),
                     problem.message)
        problem_squares = {tuple(c) for p in problems for c in p.cells if in_grid(tuple(c))}
        # marked apart from the green "fits" ghost, which Draw it takes as the drawing
        sheet.doubtful = [list(c) for c in sorted(
            asked | problem_squares | {tuple(c) for c in reading.doubtful})]
        # the check's problems are worded and counted as the questions are: each is something
        # to check on the marked squares, and beside the sheet there is room for one
        asks = [*(question_text(q) for q in questions), *(problem_text(p) for p in problems)]
        if set(map(tuple, reading.doubtful)) - asked - problem_squares:
            asks.append(_("Please check the marked squares"))
        asks = list(dict.fromkeys(asks))  # two questions worded alike are asked once
        shown = QUESTIONS_SHOWN_PORTRAIT if self.portrait else QUESTIONS_SHOWN_LANDSCAPE
        lines = asks[:shown]
        if len(asks) > shown:
            lines[-1] += " " + _("(+{n} more)").format(n=len(asks) - shown)
        new = len(reading.new_cells)
        seen = ngettext("The camera sees {n} new square", "The camera sees {n} new squares",
                        new).format(n=new) + ("; " + "; ".join(notes) if notes else "")
        # beside the sheet (800x480) the question runs on after what the camera saw, a line
        # apart it would not fit the panel; under the sheet each has a line of its own
        self.status = "\n".join([seen, *lines]) if self.portrait else ". ".join([seen, *lines])

    def read_card(self) -> None:
        """Read the card under the camera: the next revealed card, or the second chance."""
        if self.app.last_frame is None:
            self.status = _("No camera picture yet: tap the card instead")
            return
        self.status = _("Reading the card…")
        self.read_running = True
        # the card was turned up just now: the picture read is one taken after this tap
        self.app.when_fresh_frame(self._read_card_frame)

    def _read_card_frame(self, frame: Any) -> None:
        if frame is None or self.state() is None:
            self.read_running = False
            self.status = _("No camera picture yet: tap the card instead")
            return
        from ui.reading import read_card_frame

        self.read_on_worker(lambda: read_card_frame(frame), self._card_done, name="read-card")

    def _card_done(self, reading: Any, error: BaseException | None) -> None:
        if error is not None:
            log.info("the card reader refused a picture: %s", error)
            reason = getattr(error, "reason", "")
            worded = {
                "no-card": _("no card in view: lay it flat under the camera"),
                "no-shape": _("the card's squares are not clear: a sharper picture"),
            }.get(reason) or refusal_text(reason) or _("the camera cannot use this picture")
            self.status = _("Could not read the card ({error}); tap it in the list").format(
                error=worded)
            return
        from companion.second_chance import parse_shape

        shape = parse_shape(reading.shape)
        self.status = ngettext("Card read: {n} square", "Card read: {n} squares",
                               shape.size).format(n=shape.size)
        if reading.doubtful:
            self.status = ngettext(
                "Is it the card of {n} square shown? Please check, or tap it in the list",
                "Is it the card of {n} squares shown? Please check, or tap it in the list",
                shape.size).format(n=shape.size)
        if self.state().needs_second_chance(self.viewer):
            self._pick_second(shape)
        else:
            self._pick_reveal(shape)

    def demo_card(self) -> None:
        """Demo: the next card of the deck is turned up under the camera."""
        shape = self.rng.choice(self.deck().puzzle_cards())
        self.app.table.show_card(shape.text)
        self.status = _("Demo: a card is turned up. Read it.")

    def demo_draw(self) -> None:
        """Demo: the viewer draws a card that fits on their paper sheet (placement by the
        engine), for the camera to read."""
        from companion.second_chance import first_placement

        state = self.state()
        grid = state.player(self.viewer).grid
        cards = ([self.second_card] if self.second_card is not None else
                 list(state.revealed or ()))
        for card in cards:
            placement = first_placement(grid, card)
            if placement is not None:
                self.app.table.draw_on_sheet(self.viewer, self.player_tiles(self.viewer),
                                             list(placement))
                self.status = ngettext("Demo: {player} drew a card of {n} square on paper",
                                       "Demo: {player} drew a card of {n} squares on paper",
                                       card.size).format(player=self.viewer, n=card.size)
                return
        self.status = _("Demo: no card fits")

    def demo_start(self) -> None:
        """Demo: the viewer draws a start card over the circle on their paper sheet."""
        from companion.second_chance import CENTRE, Grid, placements

        deck = self.deck()
        index = [p.name for p in self.state().players].index(self.viewer)
        shape = deck.start_tiles[index % len(deck.start_tiles)].shape
        cells = next(p for p in placements(Grid(), shape) if CENTRE in p)
        self.app.table.draw_on_sheet(self.viewer, [], list(cells))
        self.status = _("Demo: {player} drew a start card on paper").format(player=self.viewer)

    # --- rendering ----------------------------------------------------------------------------
    def refresh(self) -> None:
        state = self.state()
        if state is None:
            return
        if state.is_solo:
            self.solo_series()
        names = [p.name for p in state.players]
        if self.viewer not in names:
            self._drawn_viewer = self.viewer = names[0]
        self._drawn_viewer = self.viewer
        if self.app.table is not None:
            self.app.table.sync(state)
            self.app.table.show_sheet(self.viewer, self.player_tiles(self.viewer))
        self._tabs(names)
        self._show_sheet()
        kind = self._phase_kind(state)
        # a round's panel and the cards' panel are kept from draw to draw and from round to
        # round, their words and the round's two cards changed: made anew at every draw and
        # every round, they were most of the game's cyclic garbage, which the app's full
        # collections walk (bench/figures/app_memory_s20.txt, app_memory_s21.txt)
        shown = (kind, self._tight(), self.portrait, self._camera_on())
        kept = self._kept_panels.get(kind)
        if kept is not None and kept.shown == shown:
            if kept.top.parent is None:  # another panel was shown meanwhile
                self._put_back(kept)
            self._show_again(kind, kept.phase)
            return
        panel = self._split_panel()
        getattr(self, f"_panel_{kind}")(panel)
        if kind in KEPT_PANELS:
            self._kept_panels[kind] = KeptPanel(
                shown, self.ids.panel.children[0], panel.children[0], self._camera_column,
                getattr(self, "read_button", None), getattr(self, "demo_button", None))

    def _put_back(self, kept: KeptPanel) -> None:
        """The screen's panel holds ``kept`` again, its camera buttons the screen's."""
        self._let_go_of_panel()
        self.split = self._tight()
        self.ids.panel.add_widget(kept.top)
        self._camera_column = kept.camera_column
        if kept.read_button is not None:
            self.read_button = kept.read_button
        if kept.demo_button is not None:
            self.demo_button = kept.demo_button
        self._show_camera_column()

    def _show_again(self, kind: str, phase: Any) -> None:
        """A kept panel's words for now: the round's player and its two cards, or the next
        round's number and the deck's shapes (moved back from a second chance's grid)."""
        if kind == "round":
            phase.player = self.viewer
            rows = reversed(phase.ids.cards.children)
            for row, card in zip(rows, self.state().revealed, strict=True):
                if row.shape_button.shape != card:  # a new round's card in this place
                    row.shape_button.show_shape(card)
            return
        phase.heading = self._reveal_heading()
        self._shape_buttons(phase.ids.shapes, self._pick_reveal)
        phase.ids.shapes.scroll_y = 1  # the shapes from the top, as a new panel's

    def _phase_kind(self, state: Any) -> str:
        """Which panel the viewer's part of the game is in now (``_panel_<kind>``)."""
        if state.over:
            return "over"
        if not all(p.started for p in state.players):
            return "start"
        if state.revealed is None or state.round_complete:
            return "reveal"
        player = state.player(self.viewer)
        if player.is_out:
            return "out"
        if player.resolved:
            return "done"
        if state.needs_second_chance(self.viewer):
            return "second_chance"
        return "round"

    def _split_panel(self) -> Any:
        """The panel emptied; landscape with the camera on, split in the camera's column and
        the phase's (returned: where the phase's texts and buttons go)."""
        panel = self.ids.panel
        self._let_go_of_panel()
        self._camera_column = None
        self.split = self._tight()
        if not self.split:
            return panel
        split = Factory.ScSplit()
        self._camera_column = split.ids.camera_column
        panel.add_widget(split)
        return split.ids.content

    def _let_go_of_panel(self) -> None:
        """The screen's panel emptied; the shape buttons, kept for the next grid, let go of
        the old one."""
        self.ids.panel.clear_widgets()
        for button in self.shape_buttons:
            if button.parent is not None:
                button.parent.remove_widget(button)

    def _tabs(self, names: list[str]) -> None:
        """One tab per player, with their empty squares. The same players' tabs are kept and
        their words changed: rebuilt at every move, they were a fifth of the garbage that the
        app's full collections walk."""
        tabs = self.ids.tabs
        if list(self.tab_buttons) != names or tabs.children != list(
                reversed(self.tab_buttons.values())):
            tabs.clear_widgets()
            self.tab_buttons = {}
            for name in names:
                t = Factory.ScTab()
                t.bind(on_press=lambda _t, n=name: self.view(n))
                self.tab_buttons[name] = t
                tabs.add_widget(t)
        state = self.state()
        for name, t in self.tab_buttons.items():
            empty = state.player(name).grid.empty_count
            t.text = ngettext("{player}: {n} empty", "{player}: {n} empty", empty).format(
                player=name, n=empty)
            t.state = "down" if name == self.viewer else "normal"

    def view(self, name: str) -> None:
        self.ids.sheet.selected = []
        self.ids.sheet.ghost = []
        self.ids.sheet.doubtful = []
        self._drawn_viewer = self.viewer = name
        self.refresh()

    def _show_sheet(self) -> None:
        state = self.state()
        player = state.player(self.viewer)
        sheet = self.ids.sheet
        sheet.zoom_out()  # each drawing, and each player's sheet, begins on the whole sheet
        sheet.filled = [list(c) for c in player.grid.filled_cells]
        sheet.bonus = list(player.grid.bonus) if player.grid.bonus else None

    def _phase(self, kind: str, **shown: Any) -> Any:
        """The kv panel ``kind`` (second_chance.kv's Sc<kind>Panel), showing ``shown``; its
        status line follows the screen's."""
        phase = made(f"Sc{kind}Panel", screen=self, split=self.split, status=self.status,
                      **shown)
        follow_property(self, "status", phase, "status")
        return phase

    def _tight(self) -> bool:
        """Whether the panel is beside the sheet with the camera picture in it: its headings
        and the cards' rows then take no more height than they need."""
        return not self.portrait and self._camera_on()

    def _card_row(self, card: Any, fits: Any, draw: Any, *, kind: str = "ScCardRow") -> Any:
        """A card to draw: its shape, "Fits?" (``fits()``) and "Draw it" (``draw()``), in a
        row of the kv class ``kind``."""
        row = getattr(Factory, kind)()
        row.shape_button = ShapeButton(card, size_hint_x=0.35)
        row.add_widget(row.shape_button, index=len(row.children))
        row.ids.fits.bind(on_press=lambda *_a: fits())
        row.ids.draw.bind(on_press=lambda *_a: draw())
        return row

    # --- the squares ---------------------------------------------------------------------------
    def tap_square(self, square: tuple[int, int]) -> None:
        state = self.state()
        if state is None or state.over and not state.may_write_bonus(self.viewer):
            return
        sheet = self.ids.sheet
        cell = [square[0], square[1]]
        if cell in sheet.filled:
            return
        selected = [list(c) for c in sheet.selected]
        if cell in selected:
            selected.remove(cell)
        else:
            selected.append(cell)
        sheet.selected = selected

    def selection(self) -> list[list[int]]:
        return [list(c) for c in self.ids.sheet.selected]

    def _apply(self, event: dict[str, Any]) -> bool:
        sheet = self.ids.sheet
        selected, ghost, doubtful = sheet.selected, sheet.ghost, sheet.doubtful
        sheet.selected, sheet.ghost, sheet.doubtful = [], [], []
        if self.app.apply(event):  # redraws the screen for the next player to act
            return True
        sheet.selected, sheet.ghost, sheet.doubtful = selected, ghost, doubtful
        return False

    def player_to_act(self) -> str:
        """The player the next action is for: the one on screen while they still have
        something to do, else the first in seat order who has (the first player when nobody
        has: a reveal is for the table)."""
        state = self.state()
        if state is None:
            return self.viewer
        names = [p.name for p in state.players]
        if state.over:
            return next((p.name for p in state.players if state.may_write_bonus(p.name)),
                        self.viewer if self.viewer in names else names[0])
        starting = not all(p.started for p in state.players)

        def waiting(p: Any) -> bool:
            if starting:
                return not p.started
            return (state.revealed is not None and not state.round_complete
                    and not p.resolved and not p.is_out)

        ordered = sorted(state.players, key=lambda p: p.name != self.viewer)
        return next((p.name for p in ordered if waiting(p)),
                    self.viewer if self.viewer in names else names[0])

    # --- start --------------------------------------------------------------------------------
    def _panel_start(self, panel: Any) -> None:
        phase = self._phase("Start", player=self.viewer)
        if not self.deck().is_demo:
            phase.remove_widget(phase.ids.deck_note)
        if self.state().player(self.viewer).started:
            for part in ("prompt", "enter", "camera"):
                phase.remove_widget(phase.ids[part])
        else:
            phase.remove_widget(phase.ids.started)
            self._camera_part(phase, self.demo_start)
        panel.add_widget(phase)

    def enter_start(self) -> None:
        self.status = ""
        self._apply({"type": "start", "player": self.viewer, "cells": self.selection()})

    # --- reveal -------------------------------------------------------------------------------
    def _panel_reveal(self, panel: Any) -> None:
        phase = self._phase("Reveal", heading=self._reveal_heading())
        self._camera_part(phase, self.demo_card, self.read_card)
        self._shape_buttons(phase.ids.shapes, self._pick_reveal)
        panel.add_widget(phase)

    def _reveal_heading(self) -> str:
        state = self.state()
        return ngettext(
            "Round {n}: enter the two cards turned up ({left} left)",
            "Round {n}: enter the two cards turned up ({left} left)", state.cards_left) \
            .format(n=state.round + 1, left=state.cards_left)

    def _shape_buttons(self, scroll: Any, on_pick: Any) -> None:
        """The deck's shapes on ``scroll`` (an ScShapeGrid), to tap the card turned up; a tap
        calls ``on_pick(shape)``. The buttons are made once and moved into each new grid:
        made anew for every round's cards and every second chance, some 70 at a time, they
        were three quarters of a game's cyclic garbage, which the app's full collections
        walk (bench/figures/app_memory_s20.txt)."""
        self._on_shape_pick = on_pick
        if not self.shape_buttons:
            for shape, _copies in self.deck().puzzle:
                button = ShapeButton(shape)
                button.bind(on_press=self._shape_pressed)  # a method: held weakly
                self.shape_buttons.append(button)
        grid = scroll.ids.grid
        for button in self.shape_buttons:
            if button.parent is grid:
                continue
            if button.parent is not None:
                button.parent.remove_widget(button)
            grid.add_widget(button)

    def _shape_pressed(self, button: Any) -> None:
        if self._on_shape_pick is not None:
            self._on_shape_pick(button.shape)

    def _pick_reveal(self, shape: Any) -> None:
        self.chosen_cards.append(shape)
        if len(self.chosen_cards) == 2:
            cards, self.chosen_cards = self.chosen_cards, []
            self._apply({"type": "reveal", "cards": [c.text for c in cards]})
        else:
            self.status = ngettext("First card: {n} square; now the second",
                                   "First card: {n} squares; now the second",
                                   shape.size).format(n=shape.size)

    def reveal_random(self) -> None:
        cards = self.rng.sample(self.deck().puzzle_cards(), 2)
        self._apply({"type": "reveal", "cards": [c.text for c in cards]})

    def end_game(self) -> None:
        self._apply({"type": "end"})

    # --- a round ------------------------------------------------------------------------------
    def _panel_round(self, panel: Any) -> None:
        phase = self._phase("Round", player=self.viewer)
        self._camera_part(phase, self.demo_draw)
        # a row per revealed card, by its place: kept from round to round (see refresh), its
        # buttons ask the state for the card that is in that place now
        for index, card in enumerate(self.state().revealed):
            phase.ids.cards.add_widget(self._card_row(
                card, lambda i=index: self.show_fit(self.state().revealed[i]),
                lambda i=index: self.draw(i)))
        panel.add_widget(phase)

    def _panel_done(self, panel: Any) -> None:
        panel.add_widget(self._phase("Done", player=self.viewer))

    def show_fit(self, card: Any) -> None:
        from companion.second_chance import first_placement

        grid = self.state().player(self.viewer).grid
        placement = first_placement(grid, card)
        if placement is None:
            self.ids.sheet.ghost = []
            self.status = ngettext("The card of {n} square does not fit",
                                   "The card of {n} squares does not fit",
                                   card.size).format(n=card.size)
        else:
            self.ids.sheet.ghost = [list(c) for c in placement]
            self.status = ngettext("The card of {n} square fits, for example here",
                                   "The card of {n} squares fits, for example here",
                                   card.size).format(n=card.size)
            if not self.ids.sheet.selected:
                self.ids.sheet.selected = []

    def draw(self, index: int) -> None:
        cells = self.selection() or [list(c) for c in self.ids.sheet.ghost]
        self.status = ""
        self._apply({"type": "draw", "player": self.viewer, "card": index, "cells": cells})

    def _panel_second_chance(self, panel: Any) -> None:
        if self.second_card is None:
            phase = self._phase("SecondChoice", player=self.viewer)
            self._camera_part(phase, self.demo_card, self.read_card)
            self._shape_buttons(phase.ids.shapes, self._pick_second)
        else:
            phase = self._phase("SecondCard", player=self.viewer)
            phase.ids.card.add_widget(self._card_row(
                self.second_card, lambda: self.show_fit(self.second_card), self.draw_second,
                kind="ScSecondCardRow"))
        panel.add_widget(phase)

    def demo_second(self) -> None:
        """Demo: a second-chance card turned up at random."""
        self._pick_second(self.rng.choice(self.deck().puzzle_cards()))

    def _pick_second(self, shape: Any) -> None:
        self.second_card = shape
        self.refresh()

    def draw_second(self) -> None:
        self._apply_second(self.selection() or [list(c) for c in self.ids.sheet.ghost])

    def drop_out(self) -> None:
        self._apply_second(None)

    def _apply_second(self, cells: list[list[int]] | None) -> None:
        # the card is put away before the apply redraws the screen for the next player, who
        # must not see this one's second-chance card as theirs
        card, self.second_card = self.second_card, None
        if not self._apply({"type": "second-chance", "player": self.viewer, "card": card.text,
                            "cells": cells}):
            self.second_card = card

    def _panel_out(self, panel: Any) -> None:
        phase = self._phase("Out", player=self.viewer)
        if not self.state().may_write_bonus(self.viewer):
            phase.remove_widget(phase.ids.bonus_hint)
            phase.remove_widget(phase.ids.bonus)
        panel.add_widget(phase)

    def write_bonus(self) -> None:
        cells = self.selection()
        if len(cells) != 1:
            self.status = _("Tap exactly one empty square")
            self.refresh()
            return
        self._apply({"type": "bonus", "player": self.viewer, "cell": cells[0]})

    # --- solo: three games in a row ---------------------------------------------------------
    def solo_series(self) -> tuple[int, int]:
        """(first game id, position 1..3) of this solo game's series, kept in the journal."""
        from ui import services

        journal, session = self.app.journal, self.app.session
        game_id = services.session_game_id(session)
        stored = services.get_meta(journal, game_id, "solo-series")
        if stored:
            first, _sep, position = stored.partition(":")
            return int(first), int(position)
        series = (game_id, 1)
        player = tuple(session.players)
        earlier = [g for g in journal.games() if g.game == "second-chance" and g.id < game_id
                   and tuple(g.players) == player]
        if earlier:
            last = max(earlier, key=lambda g: g.id)
            previous = services.get_meta(journal, last.id, "solo-series")
            if previous and last.finished is not None:
                first, _sep, position = previous.partition(":")
                if int(position) < 3:
                    series = (int(first), int(position) + 1)
        services.set_meta(journal, session, "solo-series", f"{series[0]}:{series[1]}")
        return series

    def _solo_lines(self, empty_now: int) -> list[str]:
        from companion.second_chance.solo import score_solo

        first, position = self.solo_series()
        journal = self.app.journal
        empties = []
        for game in sorted(journal.games(), key=lambda g: g.id):
            if game.game != "second-chance" or game.id == self.app.session.game_id:
                continue
            stored = journal.get_meta(game.id, "solo-series")
            if stored and str(stored).startswith(f"{first}:") and game.result:
                empties.append(int(game.result["empty"][game.players[0]]))
        empties = (empties + [empty_now])[:3]
        score = score_solo(empties)
        # the squares' noun takes the form of the number it counts (the sum, when there are
        # several games): "1 casilla vacía", "3 + 1 порожні клітинки", "5 порожніх клітинок"
        games = ngettext("{games} empty square", "{games} empty squares", score.total).format(
            games=" + ".join(map(str, empties)))
        lines = [_("Solo game {k} of 3: {games}, {total} in all (goal: under {n})").format(
            k=position, games=games, total=score.total, n=SOLO_GOAL)]
        if score.complete:
            lines.append(_("Goal reached!") if score.achieved else _("Goal missed"))
        return lines

    # --- the end ------------------------------------------------------------------------------
    def _panel_over(self, panel: Any) -> None:
        state = self.state()
        result = self.app.result()
        empty = result.get("empty", {})
        ranking = sorted(empty, key=lambda p: empty[p])
        lines = [ngettext("{place}. {player}: {n} empty square",
                          "{place}. {player}: {n} empty squares", empty[p]).format(
                              place=i, player=p, n=empty[p])
                 for i, p in enumerate(ranking, start=1)]
        if state.is_solo:
            lines.extend(self._solo_lines(empty[ranking[0]]))
        else:
            lines.append(_("Winner: {names}").format(names=", ".join(result.get("winners", []))))
        phase = self._phase("Over", ranking="\n".join(lines))
        if not state.may_write_bonus(self.viewer):
            phase.remove_widget(phase.ids.bonus)
        panel.add_widget(phase)

