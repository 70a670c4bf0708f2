"""The composition root: config, journal and session, camera worker, devices, screens.

Everything that owns a resource is made here and closed in :meth:`CompanionApp.shutdown`.
Workers report through queues; :meth:`CompanionApp._pump` drains them on the Kivy main thread,
blits the newest camera frame into one texture and hands button presses to the current screen.
The session alone turns events into rule calls; screens render its state. An error on the main
thread (a job's callback, a touch handler) becomes a banner and a redrawn screen, not a crash:
see :mod:`ui.main_thread_errors` for why, and when the app ends for a restart instead.
"""

from __future__ import annotations

import logging
import queue
import time
from collections import deque
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics.texture import Texture
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty

from ui import services
from ui.devices import DeviceHub
from ui.fresh_frames import FreshFrames
from ui.i18n import _, set_language
from ui.main_thread_errors import (
    SECRET_JOBS,
    SECRET_SCREENS,
    ErrorBurst,
    KeepRunningHandler,
    error_words,
    failure_message,
    job_title,
    log_failure,
    revive_dropped_intervals,
    running_intervals,
)
from ui.main_thread_gc import MainThreadCollector
from ui.sdnotify import Notifier
from ui.shutdown import AppShutdown
from ui.workers import BackgroundJobs, CameraWorker, UiEvent

log = logging.getLogger(__name__)

UI_DIR = Path(__file__).resolve().parent
#: game name -> screen name
GAME_SCREENS = {
    "indigo": "indigo",
    "enigma": "enigma",
    "second-chance": "second_chance",
    "break-the-code": "break_the_code",
}
SCREEN_MODULES = {
    "home": "ui.screens.home.HomeScreen",
    "setup": "ui.screens.setup.SetupScreen",
    "indigo": "ui.screens.indigo.IndigoScreen",
    "enigma": "ui.screens.enigma.EnigmaScreen",
    "second_chance": "ui.screens.second_chance.SecondChanceScreen",
    "break_the_code": "ui.screens.break_the_code.BreakTheCodeScreen",
    "history": "ui.screens.history.HistoryScreen",
    "settings": "ui.screens.settings.SettingsScreen",
    "calibration": "ui.screens.calibration.CalibrationScreen",
    "teach_code": "ui.screens.teach_code.TeachCodeScreen",
    "puzzle_check": "ui.screens.puzzle_check.PuzzleCheckScreen",
}
PUMP_HZ = 30.0
#: the screens that show or read camera frames; elsewhere the camera worker is paused
CAMERA_SCREENS = frozenset({*GAME_SCREENS.values(), "calibration", "teach_code",
                            "puzzle_check"})


PREVIEW_WIDTH = 960
#: how many of the last banner messages :attr:`CompanionApp.errors` keeps (the log has them
#: all): a list of every one grew with each refusal and camera hiccup, all evening
ERRORS_KEPT = 100


def with_preview(frame: Any) -> Any:
    """(frame, a copy at most PREVIEW_WIDTH wide): made on the camera thread."""
    height, width = frame.shape[:2]
    if width <= PREVIEW_WIDTH:
        return frame, frame
    import cv2

    scale = PREVIEW_WIDTH / width
    preview = cv2.resize(frame, (PREVIEW_WIDTH, max(1, round(height * scale))),
                         interpolation=cv2.INTER_AREA)
    return frame, preview


def register_widgets() -> None:
    """Make the app's widget classes known to kv rules (idempotent)."""
    from kivy.factory import Factory

    from ui.widgets.buttons import LongPressButton, TouchButton, TouchToggle
    from ui.widgets.lazy_screens import LazyScreenManager

    for cls in (TouchButton, TouchToggle, LongPressButton, LazyScreenManager):
        if cls.__name__ not in Factory.classes:
            Factory.register(cls.__name__, cls=cls)


class CompanionApp(AppShutdown, App):
    """The touchscreen app. Construct with keyword options; ``run()`` or drive it in tests."""

    title = "Tabletop Companion"
    banner_text = StringProperty("")
    #: a word for the players that is no error (what an undo took back), shown until the
    #: next move, a tap on it, or another screen
    notice_text = StringProperty("")
    #: whether Undo is offered: only on the screen of the game in play, with a move to take back
    undo_offered = BooleanProperty(False)
    demo = BooleanProperty(False)
    portrait = BooleanProperty(False)
    camera_texture = ObjectProperty(None, allownone=True)
    camera_failed = BooleanProperty(False)
    session = ObjectProperty(None, allownone=True)
    #: bumped after every accepted or undone event, so screens re-render
    revision = ObjectProperty(0)
    panel_levels = ListProperty([])
    panel_buzzer = StringProperty("")
    panel_buttons = ListProperty([])
    screen_title = StringProperty("")

    def __init__(
        self,
        *,
        config_path: str | None = None,
        db_path: str | Path | None = None,
        demo: bool | None = None,
        camera_source: Any = None,
        start_camera: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        from config import default_db_path
        from ui.platform import wants_demo

        self.events: queue.Queue[UiEvent] = queue.Queue()
        self.notifier = Notifier()
        self.cfg = services.load_app_config(config_path)
        cfg_demo = {"on": True, "off": False}.get(getattr(self.cfg.app, "demo", "auto"))
        self.demo = wants_demo(demo if demo is not None else cfg_demo)
        self.db_path = Path(db_path) if db_path else default_db_path(self.cfg)
        self.settings_overrides = services.load_settings(self.db_path)
        self.cfg = services.apply_settings(self.cfg, self.settings_overrides)
        self.journal: Any = None
        self.devices: DeviceHub | None = None
        self.camera: CameraWorker | None = None
        #: the board reads and other jobs running on their own threads (the stop waits)
        self.jobs = BackgroundJobs(self.events)
        self.table: Any = None  # the demo's simulated table
        self._camera_source = camera_source
        self._start_camera = start_camera
        self.last_frame: Any = None
        self.fresh_frames = FreshFrames()
        self._clock_events: list[Any] = []
        #: cyclic garbage (dead widgets among it) is freed on the main thread only
        self.collector = MainThreadCollector(Clock.schedule_interval)
        self._ready_sent = False
        self._screens: dict[str, Any] = {}
        #: the last :data:`ERRORS_KEPT` messages the banner showed, oldest first (tests read it)
        self.errors: deque[str] = deque(maxlen=ERRORS_KEPT)
        self._standing_lines: set[str] = set()
        self.last_undone: dict[str, Any] = {}
        #: when the screen or the game on it last changed (``time.monotonic``): a button
        #: pressed before that was meant for what was shown then
        self.shown_since = time.monotonic()
        self._error_burst = ErrorBurst()
        self._main_loop_handler: KeepRunningHandler | None = None
        #: (session, its state) when the pump last ended: what an error in a touch handler
        #: is compared with, to say whether the game moved
        self._game_at_pump: tuple[Any, Any] = (None, None)
        #: the clock's repeating events when the pump last ended: one whose callback raises
        #: is dropped by Kivy and put back by the ExceptionManager handler
        self._intervals_at_pump: list[Any] = []
        #: the error that made the app give up (too many): Kivy's handler then only ends it
        self._error_ending_app: BaseException | None = None
        #: set by the first :meth:`shutdown`: what it released stays released
        self._shut_down = False

    # --- building ------------------------------------------------------------------------------
    def build(self) -> Any:
        set_language(self.cfg.app.language)
        register_widgets()
        self._load_app_kv()  # each screen's own rules are loaded when it is made
        from ui.widgets.root import RootLayout

        self.start_services()
        root = RootLayout()
        self.root = root
        self._add_screens(root)
        Window.bind(size=self._on_window_size)
        self._on_window_size(Window, Window.size)
        self.bind(revision=lambda *_a: self._update_undo(),
                  session=lambda *_a: self._update_undo())
        root.ids.manager.bind(current=lambda *_a: self._note_shown())
        self.bind(session=lambda *_a: self._note_shown())
        self.resume_or_home()
        self._game_at_pump = self._game_now()  # the resumed game is no move of an error's
        return root

    @staticmethod
    def _load_app_kv() -> None:
        for kv in [UI_DIR / "app.kv", *sorted((UI_DIR / "screens").glob("*.kv"))]:
            Builder.unload_file(str(kv))
        Builder.load_file(str(UI_DIR / "app.kv"))

    def _add_screens(self, root: Any) -> None:
        """Let the manager make each screen when it is first shown (see _make_screen)."""
        manager = root.ids.manager
        manager.clear_widgets()
        self._screens = {}
        manager.make_screens_with(self._make_screen, SCREEN_MODULES)

    def _make_screen(self, name: str) -> Any:
        """The screen ``name``, with its kv rules loaded first (once per build)."""
        import importlib

        kv = UI_DIR / "screens" / f"{name}.kv"
        if kv.exists() and str(kv) not in Builder.files:
            Builder.load_file(str(kv))
        module_name, _, class_name = SCREEN_MODULES[name].rpartition(".")
        cls = getattr(importlib.import_module(module_name), class_name)
        screen = cls(name=name)
        self._screens[name] = screen
        return screen

    def rebuild(self) -> None:
        """Re-create every screen (after a language change), staying where we are."""
        current = self.root.ids.manager.current
        set_language(self.cfg.app.language)
        self._load_app_kv()
        from ui.widgets.root import RootLayout

        Window.remove_widget(self.root)
        self.root = RootLayout()
        Window.add_widget(self.root)
        self._add_screens(self.root)
        self.show(current, remember=False)

    def start_services(self) -> None:
        """Open the journal, the devices and the camera; start the main-thread pump."""
        self.journal = services.open_journal(self.db_path)
        self.devices = DeviceHub(self.cfg, self.events, demo=self.demo)
        self.panel_buttons = list(self.devices.button_names)
        if self.demo:
            from ui.demo import DemoTable

            self.table = DemoTable(self)
        if self._start_camera:
            self.start_camera()
        self._clock_events.append(Clock.schedule_interval(self._pump, 1.0 / PUMP_HZ))
        self.collector.start()
        from ui.memory import TRIM_INTERVAL_S, give_back_free_heap

        self._clock_events.append(Clock.schedule_interval(lambda _dt: give_back_free_heap(),
                                                          TRIM_INTERVAL_S))
        if self._main_loop_handler is None:
            self._main_loop_handler = KeepRunningHandler(self._recover_on_main_loop).install()
        interval = self.notifier.watchdog_interval
        if interval:
            self._clock_events.append(Clock.schedule_interval(self._watchdog, interval))
        Window.bind(on_flip=self._on_first_flip)

    def start_camera(self, *, after: CameraWorker | None = None) -> None:
        """Start the camera worker; it opens the camera on its own thread (which can take
        seconds on a Pi), so the first screen is drawn meanwhile. ``after``: the worker whose
        camera it takes over."""
        cfg, demo, table, given = self.cfg, self.demo, self.table, self._camera_source

        def open_source() -> Any:  # on the camera thread
            from ui.camera import make_camera_source

            return given or make_camera_source(cfg, demo=demo, table=table)

        fps = min(float(getattr(self.cfg.camera, "fps", 10)), 15.0)
        self.camera = CameraWorker(None, self.events, open_source=open_source, after=after,
                                   fps=fps, prepare=with_preview)
        if self.root is not None:  # a restart from the settings screen: paused there
            self._camera_for(self.root.ids.manager.current)
        self.camera.start()

    def _camera_for(self, screen_name: str) -> None:
        """Run the camera worker on the screens that use frames; pause it elsewhere."""
        if self.camera is None:
            return
        if screen_name in CAMERA_SCREENS:
            self.camera.resume()
        else:
            self.camera.pause()
            self.last_frame = None  # a reader must never get a picture from before the pause
            self.fresh_frames.give_up()

    def restart_camera(self) -> None:
        """Reopen the camera after its settings changed (or to retry a failed one).

        The old worker is only told to stop: the new one waits for it on its own thread, so the
        screen never waits for a frame being rendered or a camera being closed.
        """
        old, self.camera = self.camera, None
        if old is not None:
            old.stop()
        self.camera_failed = False
        self.clear_banner()
        self.start_camera(after=old)

    def restart_devices(self) -> None:
        """Reopen the light bar, buzzer and buttons with the current pin settings."""
        if self.devices is not None:
            self.devices.off()
            self.devices.close()
        self.devices = DeviceHub(self.cfg, self.events, demo=self.demo)
        self.panel_buttons = list(self.devices.button_names)

    def _watchdog(self, dt: float) -> None:
        # pinged from the main thread's clock: a frozen UI stops pinging and gets restarted;
        # never before READY=1, which systemd must see first
        if self._ready_sent:
            self.notifier.ping()

    def _on_first_flip(self, *args: Any) -> None:
        if self._ready_sent:
            return
        self._ready_sent = True
        Window.unbind(on_flip=self._on_first_flip)
        self.notifier.ready()

    def _on_window_size(self, window: Any, size: Any) -> None:
        self.portrait = size[1] > size[0]

    # --- the main-thread pump ------------------------------------------------------------------
    def _pump(self, dt: float) -> None:
        # each event, the frame and the panel are guarded on their own: a failing callback
        # becomes a banner and the events behind it are still handled
        for _i in range(50):
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                break
            self._guarded(self.handle_event, event, what=self._event_title(event),
                          quote=self._may_quote(event))
        if self.camera is not None and not self.camera.is_paused:
            try:
                frame = self.camera.frames.get_nowait()
            except queue.Empty:
                frame = None
            if frame is not None:
                taken = self.camera.frames.handed_taken
                self._guarded(self.show_frame, frame, what=_("Showing the camera picture"))
                self._guarded(self.fresh_frames.offer, self.last_frame, taken,
                              what=_("Reading the camera picture"))
        self._guarded(self.fresh_frames.expire, what=_("Reading the camera picture"))
        if self.devices is not None:
            self._guarded(self._show_panel, what=_("Updating the panel"))
        self._game_at_pump = self._game_now()
        self._intervals_at_pump = running_intervals()

    def _show_panel(self) -> None:
        assert self.devices is not None
        snap = self.devices.snapshot()
        if list(snap.levels) != list(self.panel_levels):
            self.panel_levels = list(snap.levels)
        if snap.buzzer != self.panel_buzzer:
            self.panel_buzzer = snap.buzzer

    def _event_title(self, event: UiEvent) -> str:
        """What the players would call ``event`` failing (made before it is handled: cheap)."""
        if event.kind == "job":
            return job_title(event.name)
        if event.kind == "button":
            return _("The {button} button").format(button=event.name)
        return _("The last action")

    def _may_quote(self, event: UiEvent) -> bool:
        """May the banner quote this event's error? Not for a secret rack's read."""
        if event.kind == "job":
            return event.name not in SECRET_JOBS
        return getattr(self.current_screen(), "name", "") not in SECRET_SCREENS

    def _note_shown(self) -> None:
        self.shown_since = time.monotonic()

    def handle_event(self, event: UiEvent) -> None:
        if event.kind == "button" and event.at < self.shown_since:
            # pressed while another screen or game was shown, and handled only now (the main
            # thread was busy): acting on what is on screen now would touch what the player
            # never saw, e.g. an Undo pressed on History taking back a move of the game
            # opened from it a moment later
            log.info("the %s button was pressed before this screen was shown: not applied",
                     event.name)
            return
        if event.kind == "button":
            screen = self.current_screen()
            handler = getattr(screen, "on_hardware_button", None)
            if event.name == "undo":
                self.undo()
            elif callable(handler):
                handler(event.name)
        elif event.kind == "camera-unavailable":
            # no camera: the banner says so and manual entry takes over; the driver's own
            # (English) line is for the log
            log.warning("camera unavailable: %s", event.message)
            self.report_error(_("Camera unavailable: {error}").format(
                error=_("no camera was found, or it could not be opened")), camera=True)
        elif event.kind == "camera-error":
            self.camera_failed = True
            log.warning("camera error: %s", event.message)
            self.report_error(_("Camera error: {error}. Enter moves by hand.").format(
                error=_("it stopped giving pictures")), camera=True)
        elif event.kind == "camera-ok":
            self.camera_failed = False
            self.clear_banner()
        elif event.kind == "hardware-error":
            log.warning("hardware error: %s", event.message)
            self.report_error(_("Hardware error: {error}. Use the screen.").format(
                error=_("a button, the light bar or the buzzer could not be started")),
                standing=True)
        elif event.kind == "job" and event.callback is not None:
            event.callback(event.value, event.error)

    def show_frame(self, frame: Any) -> None:
        """Blit a BGR frame into the one camera texture (re-made only if the size changes).

        ``frame`` is a BGR array, or (full frame, preview) from the camera worker: the full
        frame is kept for the readers, the preview is what is drawn.
        """
        if isinstance(frame, tuple):
            frame, preview = frame
        else:
            preview = frame
        self.last_frame = frame
        frame = preview
        height, width = frame.shape[:2]
        texture = self.camera_texture
        if texture is None or tuple(texture.size) != (width, height):
            texture = Texture.create(size=(width, height), colorfmt="rgb")
            texture.flip_vertical()
        texture.blit_buffer(frame.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
        if texture is not self.camera_texture:
            self.camera_texture = texture
        else:
            self.camera_texture.ask_update(lambda *a: None)
            self.property("camera_texture").dispatch(self)

    def when_fresh_frame(self, callback: Any) -> None:
        """``callback(frame)`` with the first camera frame whose capture begins after now (a
        read after a move must see the move), or ``callback(None)`` when none comes in time.

        Without a camera worker (a still picture put in ``last_frame``) the callback gets that
        picture at once: nothing newer can come.
        """
        if self.camera is None:
            callback(self.last_frame)
            return
        self.fresh_frames.wait(callback)

    def run_in_background(self, work: Any, callback: Any, *, name: str = "job") -> None:
        """Run ``work`` on a thread; ``callback(value, error)`` runs later in the pump, guarded:
        if it raises, the banner names the job (:data:`ui.main_thread_errors.JOB_TITLES`)."""
        self.jobs.run(work, callback, name=name)

    # --- errors --------------------------------------------------------------------------------
    def _game_now(self) -> tuple[Any, Any]:
        session = self.session
        return session, (session.state if session is not None else None)

    def _guarded(self, action: Any, *args: Any, what: str, quote: bool = True) -> None:
        """Run ``action(*args)``; an error is reported by :meth:`recover_from`, and raised on
        only when errors come too fast to go on (Kivy's main loop then ends the app)."""
        before = self._game_now()
        try:
            action(*args)
        except Exception as exc:
            if not self.recover_from(exc, what=what, quote=quote, before=before):
                raise

    def recover_from(self, error: Exception, *, what: str, quote: bool = True,
                     before: tuple[Any, Any]) -> bool:
        """Report an error raised on the main thread and put the screen right; False when the
        app should end instead (errors coming too fast: systemd restarts it).

        The traceback goes to the log; the banner names ``what`` failed and whether the game
        moved since ``before`` (the session and its state then). The game itself is never half
        moved (``Session.apply`` journals a move in one transaction, then takes its state), but
        a screen may hold half of what a callback was building (a proposal without its
        questions): the current screen is redrawn from the session, which drops it.
        """
        log_failure(log, what, error, quote=quote)
        session, state = self._game_now()
        moved = session is not before[0] or state is not before[1]
        self._redraw_current_screen()
        self.report_error(failure_message(what, error_words(error, quote=quote),
                                          game_moved=moved))
        if self._error_burst.record():
            log.critical("too many errors on the main thread (more than %d in %.0f s): "
                         "ending the app, for systemd to restart it in the same game",
                         self._error_burst.limit, self._error_burst.window_s)
            self._error_ending_app = error
            return False
        return True

    def _redraw_current_screen(self) -> None:
        screen = self.current_screen()
        refresh = getattr(screen, "refresh", None)
        if not callable(refresh):
            return
        try:
            refresh()
        except Exception:  # the banner already says something failed; the log says this too
            log.exception("redrawing the %s screen after an error failed too",
                          getattr(screen, "name", "current"))

    def _recover_on_main_loop(self, error: Exception) -> bool:
        """Kivy's ExceptionManager hands over an error from outside the pump (a touch handler,
        a screen's clock callback): compared with the game as the last pump left it."""
        if self._error_ending_app is not None:
            return False  # already given up on (by the pump, or an earlier error): end the app
        quote = getattr(self.current_screen(), "name", "") not in SECRET_SCREENS
        if not self.recover_from(error, what=_("The last action"), quote=quote,
                                 before=self._game_at_pump):
            return False
        for event in revive_dropped_intervals(self._intervals_at_pump, error):
            log.warning("%r raised and was dropped by the clock: scheduled again",
                        event.get_callback())
        return True

    def report_error(self, message: str, *, camera: bool = False,
                     standing: bool = False) -> None:
        """Show ``message`` on the banner; a ``standing`` one (a camera or the pins out) stays
        when the game moves on, until it is tapped away or the condition ends."""
        log.warning("%s", message)
        self.errors.append(message)
        if camera:
            self.camera_failed = True
        if camera or standing:
            self._standing_lines.add(message)
        # several problems at once (no camera and no pins) are all shown, newest last
        lines = [line for line in self.banner_text.split("\n") if line and line != message]
        self.banner_text = "\n".join([*lines[-1:], message])

    def clear_banner(self) -> None:
        self.banner_text = ""
        self._standing_lines.clear()

    def new_turn(self) -> None:
        """The game moved on: the screen's words and the banner's errors about the last move
        are past (a standing condition stays)."""
        on_new_turn = getattr(self.current_screen(), "on_new_turn", None)
        if callable(on_new_turn):
            on_new_turn()
        self.banner_text = "\n".join(line for line in self.banner_text.split("\n")
                                     if line in self._standing_lines)

    def show_notice(self, message: str) -> None:
        log.info("%s", message)
        self.notice_text = message

    def clear_notice(self) -> None:
        self.notice_text = ""

    # --- navigation and the session ------------------------------------------------------------
    def current_screen(self) -> Any:
        if self.root is None:
            return None
        return self.root.ids.manager.current_screen

    def screen(self, name: str) -> Any:
        """The screen ``name`` (made now if it was never shown)."""
        if name not in self._screens:
            self.root.ids.manager.get_screen(name)
        return self._screens[name]

    def show(self, name: str, *, remember: bool = True) -> None:
        if name in ("home", "setup", "history"):
            self.finish_if_over()
        manager = self.root.ids.manager
        if manager.current != name:
            self.clear_notice()
        manager.current = name
        self._camera_for(name)
        if name == "home":
            self._let_go_of_game_screens()
            self.collector.settle()  # between games: what lives now lives on
        self._update_undo()
        screen = self._screens[name]
        self.screen_title = screen.title()
        refresh = getattr(screen, "refresh", None)
        if callable(refresh):
            refresh()
        if remember and self.session is not None and name in GAME_SCREENS.values():
            services.set_meta(self.journal, self.session, "screen", name)
            services.mark_in_use(self.journal, self.session)

    def _let_go_of_game_screens(self) -> bool:
        """On Home and when a game starts, the screens of games not in play go: each is made
        again, from the journal's session, when it is next shown (as after a restart).
        Returns whether any went.

        A game screen ends its game holding a few hundred widgets and their textures (its last
        panels); kept, every screen played once lived all evening beside the one in use.
        The screen of an unfinished game in play stays on Home: its players come back to it.
        """
        session = self.session
        kept = GAME_SCREENS.get(session.game) if session is not None else None
        manager = self.root.ids.manager
        gone = False
        for name in GAME_SCREENS.values():
            if name != kept and name in self._screens and manager.let_go(name):
                del self._screens[name]
                gone = True
        return gone

    def resume_or_home(self) -> None:
        """Start in the unfinished game last on screen, on its screen; else on Home."""
        try:
            game_id = services.unfinished_in_use(self.journal)
        except Exception as exc:
            from ui.refusals import journal_words

            self.report_error(_("Journal error: {error}").format(error=journal_words(exc)))
            game_id = None
        if game_id is not None:
            try:
                self.open_game(game_id)
                return
            except Exception as exc:
                from ui.refusals import journal_words

                self.report_error(_("Could not resume the last game: {error}").format(
                    error=journal_words(exc)))
        self.show("home", remember=False)

    def finish_if_over(self) -> None:
        """Leaving a game the rules say is over closes it: it becomes history.

        It stays open while the players look at the result (an undo is still possible, and
        in Second Chance the first out may still write their 1).
        """
        session = self.session
        if session is None or not session.result().get("over"):
            return
        try:
            if not getattr(session, "is_finished", False):
                session.finish()
        except Exception as exc:  # the game stays unfinished in the journal; nothing is lost
            from ui.refusals import journal_words

            self.report_error(_("Journal error: {error}").format(error=journal_words(exc)))
            return
        self.session = None
        self.revision += 1

    def open_game(self, game_id: Any) -> None:
        session = services.resume_session(self.journal, game_id)
        self.session = session
        screen = services.get_meta(self.journal, game_id, "screen")
        if screen not in GAME_SCREENS.values():
            screen = GAME_SCREENS[session.game]
        self.revision += 1
        self.show(screen, remember=False)
        services.mark_in_use(self.journal, session)

    def end_unfinished(self, game_id: Any) -> None:
        """End an unfinished game where it stands (from History): it becomes history."""
        services.end_unfinished(self.journal, game_id)
        self._forget_game(game_id)

    def delete_unfinished(self, game_id: Any) -> None:
        """Delete an unfinished game and its moves (from History)."""
        services.delete_unfinished(self.journal, game_id)
        self._forget_game(game_id)

    def _forget_game(self, game_id: Any) -> None:
        if self.session is not None and services.session_game_id(self.session) == game_id:
            self.session = None
        self.revision += 1

    def new_game(self, game: str, players: list[str], options: dict[str, Any],
                 *, colours: list[str] | None = None) -> None:
        self.session = services.start_session(self.journal, game, players, options)
        if colours:
            services.set_meta(self.journal, self.session, "colours", ",".join(colours))
        if self.table is not None:
            self.table.reset()
        self.revision += 1
        self.show(GAME_SCREENS[game])
        if self._let_go_of_game_screens():
            # the game left unfinished is no longer in play: its screen goes now, not after
            # this game (it was frozen with what lived on Home: only a settle frees it), once
            # the switch to the new screen is drawn
            Clock.schedule_once(lambda _dt: self.collector.settle(now=True), 0)

    def apply(self, event: dict[str, Any]) -> bool:
        """Send one record event through the session; a refusal becomes a banner, not a crash."""
        if self.session is None:
            return False
        from companion.errors import CompanionError

        try:
            self.session.apply(event)
        except CompanionError as exc:
            from ui.refusals import refusal_words

            # the engine's English (with the record's notation) is for the log; the players
            # read what the move breaks, in their words
            log.info("the rules refused %r: %s", event, exc)
            self.report_error(_("Not accepted: {error}").format(
                error=refusal_words(self.session.game, event, exc)))
            return False
        self.clear_notice()  # what an undo took back is past once the game moves on
        self.new_turn()
        self.revision += 1
        return True

    def game_on_screen(self) -> Any:
        """The session, when its game's own screen is the one shown (else None): what Undo
        and the panel's undo button act on, never a game the players cannot see."""
        session = self.session
        if session is None or self.root is None:
            return None
        if self.root.ids.manager.current != GAME_SCREENS.get(session.game):
            return None
        return session

    def _update_undo(self) -> None:
        session = self.game_on_screen()
        offered = bool(session is not None and not getattr(session, "is_finished", False)
                       and session.events)
        if offered != self.undo_offered:
            self.undo_offered = offered

    def undo(self) -> bool:
        """Take back the last move of the game on screen, and say what it was."""
        session = self.game_on_screen()
        if session is None or not session.events:
            return False
        from companion.errors import CompanionError
        from ui.undo_words import undone_text

        try:
            dropped = session.undo()
        except CompanionError as exc:
            log.warning("undo refused: %s", exc)
            self.report_error(_("Cannot undo: {error}").format(
                error=_("the journal could not take the move back")))
            return False
        #: the event the last undo took back (a screen shows its player again)
        self.last_undone = dict(dropped or {})
        self.revision += 1
        screen = self.current_screen()
        on_undo = getattr(screen, "on_undo", None)
        if callable(on_undo):
            on_undo()
        self.show_notice(undone_text(session.game, self.last_undone))
        return True

    def result(self) -> dict[str, Any]:
        if self.session is None:
            return {}
        return dict(self.session.result())

    def player_colours(self) -> list[str]:
        if self.session is None:
            return []
        stored = services.get_meta(self.journal, services.session_game_id(self.session),
                                   "colours")
        return stored.split(",") if stored else []

    def save_settings(self, section: str, key: str, value: Any) -> None:
        self.settings_overrides.setdefault(section, {})[key] = value
        services.save_settings(self.db_path, self.settings_overrides)
        self.cfg = services.apply_settings(self.cfg, self.settings_overrides)

    # --- closing ------------------------------------------------------------------------------
    def run(self) -> None:
        """Kivy's ``run``, releasing the hardware however its loop ends.

        Kivy dispatches ``on_stop`` only when the app is stopped (the window closed, SIGTERM);
        when an exception ends the loop (the app gave up after errors that keep coming, or
        anything else escaped it) it skips it, so the ``finally`` does the same release. The
        exception then goes on unchanged: the command line turns it into the exit status that
        systemd's ``Restart=on-failure`` restarts on.
        """
        try:
            super().run()
        finally:
            self.shutdown()

    def on_stop(self) -> None:
        self.shutdown()
