"""Enigma: round choices, the timed solve phase, who solved, each solver's placement with a
networker, the per-system breakdown, the scoring wheel, and the result.

The sand timer is ``companion.timer.SandTimer`` on an injectable clock; its snapshot drives the
big countdown and the light bar, and its events drive the buzzer. Placements come from the
engine's ``legal_placements``; allowed networker cells from a trial ``apply_event`` of the
placement (the engine is pure, so trying changes nothing). The session applies the real event.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from ui.i18n import _
from ui.screens.base import BaseScreen, made, readable_on
from ui.screens.counted import points_text, winners_text
from ui.screens.enigma_words import (
    category_name,
    cells_text,
    colour_name,
    enigma_problem_text,
    enigma_questions_text,
    enigma_refusal_text,
    networker_sentence,
    networkers_text,
    placement_text,
    same_colour_marks,
    table_edges_text,
)
from ui.weak_binding import follow_property
from ui.widgets.buttons import TouchToggle
from ui.widgets.enigma_board import (
    Ghost,
    TilePicture,
    closed_scores,
    distinct_tiles,
    in_reading_order,
    pack_for,
)

CATEGORIES = ("weight", "conduit", "fragment", "angular")
#: the tiles to choose from: pictures this many a row, each this many touch targets high
PICTURE_COLUMNS = 4
PICTURE_ROWS = 1.6

log = logging.getLogger(__name__)


class EnigmaScreen(BaseScreen):
    phase = StringProperty("choices")
    countdown = StringProperty("")
    fraction = NumericProperty(1.0)
    status = StringProperty("")
    #: a tile is being put on the board: the board takes the room (enigma.kv)
    tile_in_hand = BooleanProperty(False)

    #: the clock the sand timer reads; tests put a manual clock here
    clock: Callable[[], float] = staticmethod(time.monotonic)
    #: the wall clock saved with the timer, so a restart knows how long the power was off
    wall_clock: Callable[[], float] = staticmethod(time.time)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.timer: Any = None
        self._poll: Any = None
        self.choices: dict[str, str] = {}
        self.solvers: list[str] = []
        self.tile_entry: Any = None
        self.placement: Any = None
        #: where the tile in hand may go (the engine's distinct placements)
        self.options: list[Any] = []
        #: what the last read of the table found, reused by the next read (set on the main
        #: thread when a read is done, handed to the worker of the next)
        self.table_memory: Any = None
        #: panels kept from one move to the next (see :meth:`_tile_choice_panel`); the screen
        #: itself is made again on a language change. The tile choice's is kept with the
        #: layout it was made for
        self._tile_choice: tuple[Any, Any] | None = None
        self._choices_phase: Any = None
        #: per category, the tile pictures to choose from and the pack they are drawn with
        self._tile_pictures: dict[str, tuple[Any, list[Any]]] = {}
        #: each player's row of category toggles, by player and the ink of their name
        self._choice_rows: dict[tuple[str, Any], Any] = {}

    def title(self) -> str:
        return "Enigma"

    def on_kv_post(self, base_widget: Any) -> None:
        self.app.bind(revision=self.refresh_when_shown)

    # --- state ------------------------------------------------------------------------------
    def state(self) -> Any:
        session = self.app.session
        return None if session is None or session.game != "enigma" else session.state

    def refresh(self) -> None:
        state = self.state()
        if state is None:
            return
        if self.app.table is not None:
            self.app.table.sync(state)
        table = self.ids.table
        table.pack = pack_for(self.app.cfg)
        table.player_rgba = {p: self.colour_of(p) for p in state.players}
        if getattr(self, "_scored_for", None) is not state:  # a replay: once a change
            self._scored_for = state
            table.scores = closed_scores(self.app.session)
        table.board = state.board
        self.ids.wheel.target = state.options.target
        self.ids.wheel.markers = [(state.score(p), self.colour_of(p)) for p in state.players]
        if state.pending:
            if self.phase != "place" or self.solver() != getattr(self, "_placing", None):
                self.status = ""
            self.phase = "place"
            self._placing = self.solver()
            self.tile_entry = None
            self.placement = None
        elif state.is_over(record_ended=False):
            self.phase = "over"
        elif self.phase in ("place", "over", "scored"):
            self.phase = "scored" if state.round > 0 and state.last_scored else "choices"
        elif self.phase not in ("choices", "solve"):
            self.phase = "choices"
        if self.phase == "choices" and not self.choices:
            self._recall()
        if self.phase in ("choices", "solve") and self.timer is None:
            self._recall_timer()
        self.build_panel()

    # --- the panel for each phase -----------------------------------------------------------
    def build_panel(self) -> None:
        panel = self.ids.panel
        panel.clear_widgets()
        table = self.ids.table  # the tile being placed shows only while it is placed
        table.ghosts, table.proposal, table.cell_marks = [], None, {}
        self.tile_in_hand = self.phase == "place" and self.tile_entry is not None
        getattr(self, f"_panel_{self.phase}")(panel)

    def _panel_choices(self, panel: Any) -> None:
        state = self.state()
        self.stop_timer()
        self.choices = {p: c for p, c in self.choices.items() if p in state.players}
        phase = self._choices_panel(tuple((p, readable_on(self.colour_of(p)))
                                          for p in state.seat_order()))
        phase.round, phase.status = state.round + 1, self.status
        for (player, category), toggle in self.choice_toggles.items():
            toggle.state = "down" if self.choices.get(player) == category else "normal"
        self.go_button = phase.ids.go
        panel.add_widget(phase)

    def _choices_panel(self, seats: tuple[tuple[str, Any], ...]) -> Any:
        """The round's choices, a row of toggles per player (``seats``: each player and the
        ink of their name, in seat order, which turns from round to round). The panel and
        each player's row are made once and kept: made again at every move, as the tile
        choice was, they were garbage for the full collections."""
        if self._choices_phase is None:
            self._choices_phase = made("EnigmaChoicesPanel", screen=self)
        phase = self._choices_phase
        rows = [self._choice_row(player, ink) for player, ink in seats]
        if list(reversed(phase.ids.rows.children)) != rows:
            phase.ids.rows.clear_widgets()
            for row in rows:
                phase.ids.rows.add_widget(row)
        self.choice_toggles: dict[tuple[str, str], Any] = {
            (player, category): row.ids[category]
            for (player, _ink), row in zip(seats, rows, strict=True) for category in CATEGORIES}
        return phase

    def _choice_row(self, player: str, ink: Any) -> Any:
        """A player's name in their ink and a toggle per category, kept (see above)."""
        row = self._choice_rows.get((player, ink))
        if row is None:
            row = made("EnigmaChoiceRow", player=player, ink=ink)
            for category in CATEGORIES:
                row.ids[category].bind(
                    on_press=lambda t, p=player, c=category: self.choose(p, c, t.state))
            self._choice_rows[(player, ink)] = row
        return row

    def choose(self, player: str, category: str, state: str) -> None:
        holder = next((p for p, c in self.choices.items() if c == category and p != player),
                      None)
        if state == "down" and holder is not None:
            # the rules give a category to one player a round: refused now, in the players'
            # words, not after the timer has run at "Round done"
            self.status = _("{holder} has already picked {category}: {player}, pick another "
                            "one").format(holder=holder, category=category_name(category),
                                          player=player)
            self.build_panel()
            return
        if state == "down":
            self.choices[player] = category
        else:
            self.choices.pop(player, None)
        self._remember()
        if self.status:  # a refusal or a reminder said before is settled
            self.status = ""
            self.build_panel()

    def _remember(self) -> None:
        """Keep the round being entered in the journal's meta: a restart comes back to it."""
        import json

        from ui import services

        state = self.state()
        if state is None:
            return
        services.set_meta(self.app.journal, self.app.session, "enigma-round", json.dumps(
            {"round": state.round + 1, "choices": self.choices, "solvers": self.solvers}))

    def _recall(self) -> None:
        import json

        from ui import services

        state = self.state()
        session = self.app.session
        text = services.get_meta(self.app.journal, services.session_game_id(session),
                                 "enigma-round")
        try:
            data = json.loads(text) if text else None
        except ValueError:
            data = None
        if isinstance(data, dict) and data.get("round") == state.round + 1:
            self.choices = {p: c for p, c in dict(data.get("choices", {})).items()
                            if p in state.players}
            self.solvers = [p for p in data.get("solvers", []) if p in state.players]

    def _save_timer(self) -> None:
        """Keep the sand timer in the journal's meta (``enigma-timer``) whenever it changes:
        a restart rebuilds it, less the wall-clock time that passed while it was running."""
        import json

        from ui import services

        state = self.state()
        if state is None or self.timer is None:
            return
        snap = self.timer.snapshot()
        duration = self.timer.settings.duration_s
        services.set_meta(self.app.journal, self.app.session, "enigma-timer", json.dumps({
            "round": state.round + 1, "phase": snap.phase.value, "saved_at": self.wall_clock(),
            "remaining_s": snap.remaining_s, "duration_s": duration,
            "added_s": snap.total_s - duration, "started_by": snap.started_by,
            "solvers": list(snap.solvers)}))

    def _forget_timer(self) -> None:
        from ui import services

        if self.state() is not None:
            services.set_meta(self.app.journal, self.app.session, "enigma-timer", "")

    def _recall_timer(self) -> None:
        """Back into the solve phase after a restart, if the journal says a timer was out."""
        import json

        from companion.timer import SandTimer, TimerPhase, TimerSettings, restored
        from ui import services

        state = self.state()
        text = services.get_meta(self.app.journal, services.session_game_id(self.app.session),
                                 "enigma-timer")
        try:
            data = json.loads(text) if text else None
            if not isinstance(data, dict) or data.get("round") != state.round + 1:
                raise ValueError("no timer saved for this round")
            duration = float(data["duration_s"])
            timer_state = restored(
                TimerSettings.from_config(self.app.cfg.timer),
                phase=TimerPhase(data["phase"]), remaining_s=float(data["remaining_s"]),
                total_s=duration + float(data.get("added_s", 0.0)),
                elapsed_s=self.wall_clock() - float(data["saved_at"]), now=self.clock(),
                started_by=data.get("started_by"),
                solvers=[p for p in data.get("solvers", []) if p in state.players])
        except (ValueError, KeyError, TypeError):  # nothing (or nothing usable) saved
            if self.phase == "solve":
                self.phase = "choices"
            return
        if len(self.choices) != len(self.players()):
            self._recall()
        self.timer = SandTimer(clock=self.clock, state=timer_state)
        self.phase = "solve"
        self._update_countdown()
        self._start_polling()

    def _start_polling(self) -> None:
        if self._poll is not None:
            self._poll.cancel()
        self._poll = Clock.schedule_interval(lambda dt: self.poll(), 1 / 20)

    def begin_solve(self) -> None:
        players = self.players()
        if len(self.choices) != len(players) or len(set(self.choices.values())) != len(players):
            self.status = _("Every player picks a category first")
            self.build_panel()
            return
        from companion.timer import SandTimer, TimerSettings

        self.status = ""
        self.solvers = []
        self.timer = SandTimer(TimerSettings.from_config(self.app.cfg.timer), clock=self.clock)
        self.phase = "solve"
        self._save_timer()
        self._update_countdown()
        self.build_panel()
        self._start_polling()

    def _panel_solve(self, panel: Any) -> None:
        phase = made("EnigmaSolvePanel", screen=self, countdown=self.countdown)
        follow_property(self, "countdown", phase, "countdown")
        self.start_button = phase.ids.start
        self.puzzle_button = phase.ids.puzzle
        self.solver_toggles = {}
        for player in self.players():
            toggle = TouchToggle(text=player, state="down" if player in self.solvers else "normal")
            toggle.bind(on_press=lambda t, p=player: self.toggle_solver(p, t.state == "down"))
            self.solver_toggles[player] = toggle
            phase.ids.solvers.add_widget(toggle)
        panel.add_widget(phase)
        self._update_start_label()

    def check_puzzle(self) -> None:
        """The camera checks a solved puzzle; its screen's Back returns here."""
        self.app.screen("puzzle_check").open_from(self.name)
        self.app.show("puzzle_check")

    def start_or_pause(self) -> None:
        from companion.timer import TimerPhase

        if self.timer is None:
            return
        phase = self.timer.phase
        if phase is TimerPhase.IDLE:
            self._handle(self.timer.start())
        elif phase is TimerPhase.RUNNING:
            self._handle(self.timer.pause())
        elif phase is TimerPhase.PAUSED:
            self._handle(self.timer.resume())
        self._update_start_label()

    def _update_start_label(self) -> None:
        from companion.timer import TimerPhase

        if self.timer is None or not hasattr(self, "start_button"):
            return
        self.start_button.text = {
            TimerPhase.IDLE: _("Start"), TimerPhase.RUNNING: _("Pause"),
            TimerPhase.PAUSED: _("Resume"),
        }.get(self.timer.phase, _("Time is up"))
        self.start_button.disabled = self.timer.phase not in (
            TimerPhase.IDLE, TimerPhase.RUNNING, TimerPhase.PAUSED)

    def toggle_solver(self, player: str, solved: bool) -> None:
        if solved and player not in self.solvers:
            self.solvers.append(player)
            if self.timer is not None:
                try:
                    self._handle(self.timer.claim_solved(player))
                except Exception:  # a claim after time is up still counts as solved here
                    pass
        elif not solved and player in self.solvers:
            self.solvers.remove(player)
        self._update_start_label()
        self._remember()

    def on_hardware_button(self, name: str) -> None:
        players = self.players()
        if self.phase == "solve" and name.startswith("P") and name[1:].isdigit():
            seat = int(name[1:]) - 1
            if 0 <= seat < len(players) and players[seat] not in self.solvers:
                self.toggle_solver(players[seat], True)
                toggle = getattr(self, "solver_toggles", {}).get(players[seat])
                if toggle is not None:
                    toggle.state = "down"
        elif self.phase == "solve" and name == "confirm":
            self.start_or_pause()

    def poll(self) -> None:
        if self.timer is None:
            return
        self._handle(self.timer.poll())

    def _handle(self, events: list[Any]) -> None:
        for event in events:
            if type(event).__name__ == "Expired":
                self._update_start_label()
        # warnings and ticks change nothing a restart needs; every other event does
        if any(type(e).__name__ not in ("Tick", "WarningReached") for e in events):
            self._save_timer()
        self._update_countdown(events)

    def _update_countdown(self, events: list[Any] | None = None) -> None:
        if self.timer is None:
            return
        snap = self.timer.snapshot()
        self.fraction = snap.fraction
        seconds = max(0, int(snap.remaining_s + 0.999))
        self.countdown = f"{seconds // 60}:{seconds % 60:02d}"
        app = self.app
        if app is not None and app.devices is not None:
            app.devices.render_timer(snap, list(events or ()))

    def stop_timer(self) -> None:
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        app = self.app
        if app is not None and app.devices is not None and self.timer is not None:
            app.devices.off()
        self.timer = None

    def finish_round(self) -> None:
        state = self.state()
        event = {"type": "round", "choices": dict(self.choices),
                 "solved": [p for p in state.players if p in self.solvers]}
        if self.app.apply(event):
            self.stop_timer()
            self._forget_timer()
            self.choices = {}
            if not self.state().pending:
                self.phase = "scored"
                self.refresh()

    # --- placing ----------------------------------------------------------------------------
    def solver(self) -> str:
        state = self.state()
        return state.pending[0] if state is not None and state.pending else ""

    def _panel_place(self, panel: Any) -> None:
        if self.tile_entry is not None:
            self._panel_placing(panel)
            return
        player = self.solver()
        category = dict(self.state().choices).get(player, "")
        phase = self._tile_choice_panel()
        phase.prompt = _("{player} solved a {category} tile: which one?").format(
            player=player, category=category_name(category))
        self._show_category_tiles(phase.ids.tiles, category)
        panel.add_widget(phase)

    def _tile_choice_panel(self) -> Any:
        """The panel to pick a solved tile from, made once for the screen's layout and kept:
        made again at every solver, it and its tile pictures were some 7,500 objects of
        cyclic garbage per move, a full collection's work."""
        camera = self.app.camera is not None and not self.app.camera_failed
        demo = bool(self.app.demo and self.app.table is not None)
        layout = (self.portrait, camera, demo)
        if self._tile_choice is not None and self._tile_choice[0] == layout:
            phase = self._tile_choice[1]
            self.read_button = phase.ids.read
            return phase
        phase = made("EnigmaTileChoicePanel", screen=self, status=self.status)
        follow_property(self, "status", phase, "status")
        self.read_button = phase.ids.read
        if demo:
            self.demo_button = phase.ids.demo
        else:
            phase.ids.buttons.remove_widget(phase.ids.demo)
        if camera:
            from ui.widgets.camera_view import CameraView

            phase.beside = not self.portrait
            if phase.beside:
                phase.ids.pair.add_widget(CameraView(), index=len(phase.ids.pair.children))
            else:
                phase.add_widget(CameraView(), index=phase.children.index(phase.ids.buttons) + 1)
        self._tile_choice = (layout, phase)
        return phase

    def _show_category_tiles(self, grid: Any, category: str) -> None:
        """Each tile of ``category`` as its picture (conduit side up, as it lies; alike tiles
        show once), made once per category and pack and kept for the next solver."""
        pack = self.ids.table.pack
        kept = self._tile_pictures.get(category)
        if kept is None or kept[0] is not pack:
            pictures = []
            for entry in distinct_tiles(self.catalogue().by_category(category)):
                picture = TilePicture(tile=entry.conduit, pack=pack, entry=entry)
                picture.bind(on_press=lambda p: self.pick_tile(p.entry))
                pictures.append(picture)
            kept = self._tile_pictures[category] = (pack, pictures)
        if list(reversed(grid.children)) != kept[1]:
            grid.clear_widgets()
            for picture in kept[1]:
                grid.add_widget(picture)
            grid.parent.scroll_y = 1  # another category's tiles, from their first row

    def _panel_placing(self, panel: Any) -> None:
        """The tile chosen: it glows as a ghost on every square where it may go; a tap on
        one picks it, another tap turns it (or the buttons, for a less precise finger), and
        a networker button (or none) puts it down."""
        state, table = self.state(), self.ids.table
        tile = self.tile_entry.conduit
        self.options = state.legal_placements(tile, distinct=True)
        first: dict[tuple[int, int], Any] = {}
        for option in self.options:
            first.setdefault(tuple(option.at), option)
        table.ghosts = [Ghost(tile, at, option.rotation) for at, option in first.items()]
        if self.placement is not None and not state.board.can_place(
                tile, tuple(self.placement.at), self.placement.rotation,
                require_edge_match=state.options.require_edge_match):
            # a tile the camera read where it cannot go: its square is chosen on the board
            self.status = _("The tile cannot go where it was read ({placement}): choose its "
                            "square on the board, or tap Other tile").format(
                placement=placement_text(self.placement.at, self.placement.rotation))
            self.placement = None
        self.placing = placing = made("EnigmaPlacingPanel", screen=self, status=self.status)
        follow_property(self, "status", placing, "status")
        self.other_tile_button = placing.ids.other_tile
        placing.has_spots = bool(self.options)
        if not self.options:
            placing.prompt = _("No square fits this tile; choose another")
        elif self.placement is None:
            placing.prompt = _("{player}: tap a glowing square to put the tile there, and "
                               "tap it again to turn it").format(player=self.solver())
        else:
            at, rotation = tuple(self.placement.at), self.placement.rotation
            table.proposal = Ghost(tile, at, rotation)
            # a square where one turn alone fits: nothing to turn, no arrow, no Turn button
            turns = sum(1 for o in self.options if tuple(o.at) == at)
            placing.can_turn = table.turnable = turns > 1
            placing.prompt = (_("{player}: turn it with another tap, then put a networker "
                                "or not") if turns > 1 else
                              _("{player}: put a networker?")).format(player=self.solver())
            placing.where = placement_text(at, rotation)
            self._networker_buttons(placing.ids.networkers)
        if self.placement is None:
            placing.ids.networkers.remove_widget(placing.ids.no_networker)
        panel.add_widget(placing)

    def _networker_buttons(self, grid: Any) -> None:
        tile = self.tile_entry.conduit
        cells = self.networker_cells()
        if self.placement is not None:  # marks 1, 2 go the way the tile on the board reads
            cells = tuple(in_reading_order(tile, self.placement.rotation, cells,
                                           self.ids.table.look()))
        colours = dict(tile.cells)
        marks = same_colour_marks(cells, colours)
        self.ids.table.cell_marks = marks
        for cell in cells:  # above "No networker"
            button = made("EnigmaNetworkerButton", cell=cell,
                           text=networker_sentence(colours.get(cell, ""), marks.get(cell)))
            button.bind(on_press=lambda b: self.place(b.cell))
            grid.add_widget(button, index=1)

    def on_spot(self, at: tuple[int, int]) -> None:
        """A tap on the board: a glowing square picks it, the chosen one turns the tile."""
        rotations = [o.rotation for o in self.options if tuple(o.at) == at]
        if not rotations or self.phase != "place" or self.tile_entry is None:
            return
        rotation = rotations[0]
        if self.placement is not None and tuple(self.placement.at) == at:
            now = self.placement.rotation
            rotation = rotations[(rotations.index(now) + 1) % len(rotations)] \
                if now in rotations else rotations[0]
        self._propose(at, rotation)

    def step_spot(self, step: int) -> None:
        """The next (or previous) square the tile may go, without aiming at the board."""
        spots = list(dict.fromkeys(tuple(o.at) for o in self.options))
        if not spots:
            return
        now = tuple(self.placement.at) if self.placement is not None else None
        index = (spots.index(now) + step) % len(spots) if now in spots else 0
        at = spots[index]
        self._propose(at, next(o.rotation for o in self.options if tuple(o.at) == at))

    def turn_tile(self) -> None:
        if self.placement is None:
            self.step_spot(1)
        else:
            self.on_spot(tuple(self.placement.at))

    def _propose(self, at: tuple[int, int], rotation: int) -> None:
        from companion.enigma.board import Placement

        self.placement = Placement(at, rotation)
        self.build_panel()

    def catalogue(self) -> Any:
        from companion.enigma.catalogue import load_catalogue

        if not hasattr(self, "_catalogue"):
            self._catalogue = load_catalogue()
        return self._catalogue

    def read_tile(self) -> None:
        app = self.app
        if app.camera is None or app.camera_failed or app.last_frame is None:
            self.status = _("No camera: choose the tile and its square")
            return
        self.status = _("Reading the table…")
        self.read_running = True
        # the tile was put down just now: the picture read is one taken after this tap
        app.when_fresh_frame(self._read_frame)

    def _read_frame(self, frame: Any) -> None:
        app, state = self.app, self.state()
        if frame is None or state is None or self.phase != "place":
            self.read_running = False
            self.status = _("No camera: choose the tile and its square")
            return
        category = dict(state.choices).get(self.solver(), "")
        catalogue = self.catalogue()
        from ui.reading import read_enigma_frame

        previous = self.table_memory
        self.read_on_worker(
            lambda: read_enigma_frame(frame, app.cfg, state, category=category,
                                      catalogue=catalogue, previous=previous),
            self._read_done, name="read-enigma")

    def _read_done(self, reading: Any, error: BaseException | None) -> None:
        if error is not None:
            self.status = _("Could not read the table ({error}); choose the tile").format(
                error=enigma_refusal_text(error))
            return
        self.table_memory = getattr(reading, "memory", None)
        # the reader's English goes to the log; the players read it worded from its codes
        log.info("table read: %s; questions: %s", reading.message or "one new tile",
                 [q.message for q in reading.questions])
        if reading.entry is None:
            self.status = _("Not sure what was placed ({why}); choose the tile").format(
                why=enigma_problem_text(reading.problem, reading.seen))
            self._say_table_edges(reading)
            return
        from companion.enigma.board import Placement

        self.tile_entry = reading.entry
        self.placement = Placement(reading.at, reading.rotation)
        # the picture on the board says which tile was read: alike tiles have several ids
        self.status = _("Read from the table: the tile is on the board where it was seen "
                        "({placement})").format(
            placement=placement_text(reading.at, reading.rotation))
        if reading.questions:
            self.status += "\n" + _("Please check it: {questions}").format(
                questions=enigma_questions_text(reading.questions))
        self._say_table_edges(reading)
        self.build_panel()

    def _say_table_edges(self, reading: Any) -> None:
        """Where the table nears the end of the camera's view, under the read's message:
        the players move the camera or the markers before the table outgrows them."""
        edges = table_edges_text(reading.table_edges)
        if edges:
            self.status += "\n" + edges

    def demo_place(self) -> None:
        state = self.state()
        category = dict(state.choices).get(self.solver(), "")
        placed = self.app.table.place_enigma(state, self.solver(),
                                             list(self.catalogue().by_category(category)))
        if placed is not None:
            self.status = _("Demo: {player} put the tile down. Read it or choose it.").format(
                player=self.solver())

    def pick_tile(self, entry: Any) -> None:
        if entry is None:
            self.status = ""  # back to the tile choice: what was said of the last one is past
        self.tile_entry = entry
        self.placement = None
        self.build_panel()

    def pick_placement(self, placement: Any) -> None:
        self._propose(tuple(placement.at), placement.rotation)

    def _event(self, networker: str | None) -> dict[str, Any]:
        from companion.enigma.tiles import format_tile

        return {"type": "place", "player": self.solver(),
                "tile": format_tile(self.tile_entry.conduit),
                "at": [self.placement.at[0], self.placement.at[1]],
                "rotation": self.placement.rotation, "networker": networker}

    def networker_cells(self) -> tuple[str, ...]:
        """Where the engine allows a networker for this placement (step B, before scoring)."""
        from companion.errors import CompanionError

        try:
            return tuple(self.state().networker_choices(
                self.solver(), self.tile_entry.conduit, tuple(self.placement.at),
                self.placement.rotation))
        except CompanionError as exc:
            # the engine's message is English: it goes to the log, the player reads why in
            # their language (a tile read by the camera at a square where it cannot go)
            log.info("no networker cells for this placement: %s", exc)
            at, rotation = self.placement.at, self.placement.rotation
            self.status = _("The tile cannot go where it was read ({placement}): choose its "
                            "square on the board, or tap Other tile").format(
                placement=placement_text(at, rotation))
            return ()

    def place(self, networker: str | None) -> None:
        if self.app.apply(self._event(networker)):
            self.tile_entry = None
            self.placement = None
            state = self.state()
            if state.last_scored:
                self.phase = "scored"
                self.build_panel()
            else:
                self.refresh()

    def _panel_scored(self, panel: Any) -> None:
        state = self.state()
        scores = ", ".join(f"{p} {state.score(p)}" for p in state.players)
        phase = made("EnigmaScoredPanel", screen=self, systems=self._systems_text(state),
                      scores=_("Scores: {scores}").format(scores=scores))
        if state.pending:  # solvers still place their tiles: the round goes on
            phase.remove_widget(phase.ids.round_check)
        else:  # phase 4: the end-of-round check
            target = state.options.target
            if state.is_over(record_ended=False):
                phase.round_check = _("End of round {n}: the target {t} is reached").format(
                    n=state.round, t=target)
            else:
                phase.round_check = _("End of round {n}: nobody has {t} yet, another "
                                      "round").format(n=state.round, t=target)
        panel.add_widget(phase)

    @staticmethod
    def _systems_text(state: Any) -> str:
        """The systems the last placement closed: their cells by colour, and who scored."""
        lines = []
        for scored in state.last_scored:
            colours = ", ".join(cells_text(c, n) for c, n in scored.colour_counts)
            awards = "; ".join(
                _("{player} +{points} ({colour})").format(player=a.player, points=a.points,
                                                          colour=colour_name(a.colour))
                for a in scored.awards) or _("no networkers")
            lines.append(_("System closed: {colours}: {awards}").format(colours=colours,
                                                                       awards=awards))
        return "\n".join(lines or [_("No system closed")])

    def after_scored(self) -> None:
        state = self.state()
        if state.pending:
            self.phase = "place"
        elif state.is_over(record_ended=False):
            self.phase = "over"
        else:
            self.phase = "choices"
        self.build_panel()

    def _panel_over(self, panel: Any) -> None:
        state = self.state()
        ranking = sorted(state.players, key=lambda p: (-state.score(p),
                                                       -state.networkers_on_board(p)))
        lines = [f"{i}. {p}: {points_text(state.score(p))}, "
                 f"{networkers_text(state.networkers_on_board(p))}"
                 for i, p in enumerate(ranking, start=1)]
        lines.append(winners_text(list(state.winners())))
        panel.add_widget(made("EnigmaOverPanel", ranking="\n".join(lines)))

    def on_undo(self) -> None:
        self.stop_timer()
        self._forget_timer()
        self.phase = "choices"
        self.refresh()

    def on_leave(self, *args: Any) -> None:
        self.stop_timer()

