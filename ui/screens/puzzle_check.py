"""Check a puzzle: the camera judges an Enigma puzzle laid on its mat.

The steps: ``kind`` (the four kinds as a card's picture and a word), ``card`` (the kind's cards
of the puzzle box as pictures), ``check`` (the live camera picture and "Check with the
camera"), ``checked`` (the frame checked with what was seen drawn over it: the weights and each
pan's sum, the silhouette left uncovered, an open channel; the verdict as a headline and one
sentence, :mod:`ui.puzzle_words`). The check waits for a frame taken after the tap and runs on
a worker (:mod:`ui.puzzle_checking`), every button off meanwhile. In the demo the camera shows
the puzzle rendered on a table, solved or wrong as the demo buttons say.
"""

from __future__ import annotations

import logging
from typing import Any

from kivy.properties import ListProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.label import Label

from ui import theme
from ui.i18n import _
from ui.screens.base import BaseScreen
from ui.touch import min_target_px
from ui.widgets.buttons import TouchButton

log = logging.getLogger(__name__)

#: the headline's colour before any verdict
PLAIN_RGBA = theme.INK


class PictureButton(ButtonBehavior, BoxLayout):
    """A card's picture with a word under it (none for a card: its picture is its name)."""

    def __init__(self, picture: Any, text: str = "", **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("padding", theme.GAP)
        super().__init__(**kwargs)
        from ui.screens.teach_code import texture_of

        if picture is not None:
            self.add_widget(Image(texture=texture_of(picture), fit_mode="contain"))
        if text:
            self.label = Label(text=text, font_size=theme.FONT_NAME, size_hint_y=None,
                               height=min_target_px() * 0.6)
            self.add_widget(self.label)
        self.text = text


class CheckedPicture(ButtonBehavior, Image):
    """The frame checked with its marks; a tap shows it on the whole window (the weights and
    the sums large enough to read), a tap there closes it."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("fit_mode", "contain")
        super().__init__(**kwargs)
        self.enlarged: Any = None

    def on_release(self) -> None:
        if self.enlarged is not None:
            return
        from kivy.uix.modalview import ModalView

        view = ModalView(size_hint=(1, 1), background_color=theme.SCRIM)
        big = CheckedPicture(texture=self.texture)
        big.enlarged = view  # a tap on the large picture closes it
        big.bind(on_release=lambda *_a: view.dismiss())
        view.add_widget(big)
        view.bind(on_dismiss=lambda *_a: setattr(self, "enlarged", None))
        self.enlarged = view
        view.open()


class PuzzleCheckScreen(BaseScreen):
    #: the step shown: kind, card, check, checked
    step = StringProperty("kind")
    headline = StringProperty("")
    headline_rgba = ListProperty(list(PLAIN_RGBA))
    words = StringProperty("")
    #: the screen to go back to ("" from Home; "enigma" from the game's solve phase)
    came_from = StringProperty("")

    #: every card of the box as a picture, drawn once on a worker (kind, card id) -> BGR
    pictures: dict[tuple[str, str], Any] = {}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kind = ""
        self.card_id = ""
        self.result: Any = None  # the last PuzzleCheckResult
        self.demo_miss: int | None = None  # the demo's solution: None right, else a miss
        self.buttons: list[TouchButton] = []
        self._visit = 0

    def title(self) -> str:
        return _("Check a puzzle")

    def open_from(self, screen_name: str) -> None:
        self.came_from = screen_name

    def on_pre_enter(self, *args: Any) -> None:
        super().on_pre_enter(*args)
        self._visit += 1
        self.result = None
        if not PuzzleCheckScreen.pictures:
            from ui.puzzle_cards import card_pictures

            cfg, visit = self.app.cfg, self._visit
            self.app.run_in_background(lambda: card_pictures(cfg),
                                       lambda value, error: self._pictures_done(value, error,
                                                                                visit),
                                       name="puzzle-pictures")
        self.show_step("card" if self.kind else "kind")

    def on_leave(self, *args: Any) -> None:
        self._visit += 1
        self.read_running = False
        table = self.app.table if self.app is not None else None
        if table is not None:
            table.put_away_puzzle()
        self.came_from = ""

    def _pictures_done(self, pictures: Any, error: BaseException | None, visit: int) -> None:
        if error is not None:
            log.warning("the puzzle cards could not be drawn: %s", error)
            return
        PuzzleCheckScreen.pictures = dict(pictures)
        if visit == self._visit and self.step in ("kind", "card"):
            self.refresh()

    # --- the steps ----------------------------------------------------------------------------
    def show_step(self, step: str) -> None:
        self.step = step
        if step in ("kind", "card", "check"):
            self.headline, self.headline_rgba = "", list(PLAIN_RGBA)
        if step == "check":
            self._lay_demo_puzzle()
        self.refresh()

    def refresh(self) -> None:
        if self.app is None or "picture" not in self.ids:
            return
        for box in (self.ids.picture, self.ids.actions):
            box.clear_widgets()
        self.buttons = []
        {"kind": self._kinds, "card": self._cards, "check": self._check,
         "checked": self._checked}[self.step](self.ids.picture)
        if self.came_from:
            self.button(_("Back to the game"), lambda: self.app.show(self.came_from))

    def button(self, text: str, action: Any) -> TouchButton:
        button = TouchButton(text=text, wrap=True, height=min_target_px() * 1.1)
        button.bind(on_press=lambda *_a: action())
        self.ids.actions.add_widget(button)
        self.buttons.append(button)
        return button

    def _grid(self, picture: Any, cells: list[PictureButton]) -> None:
        grid = GridLayout(cols=2, spacing=theme.GAP_LOOSE, padding=theme.GAP)
        for cell in cells:
            grid.add_widget(cell)
        picture.add_widget(grid)

    def _kinds(self, picture: Any) -> None:
        from ui.puzzle_cards import card_ids
        from ui.puzzle_checking import KINDS
        from ui.puzzle_words import kind_name

        self.words = _("Which puzzle do you check? Tap its kind.")
        self.kind_buttons = {}
        for kind in KINDS:
            first = (kind, card_ids(kind)[0])
            cell = PictureButton(PuzzleCheckScreen.pictures.get(first), kind_name(kind))
            cell.bind(on_press=lambda *_a, k=kind: self.pick_kind(k))
            self.kind_buttons[kind] = cell
        self._grid(picture, list(self.kind_buttons.values()))

    def _cards(self, picture: Any) -> None:
        from ui.puzzle_cards import card_ids
        from ui.puzzle_words import kind_name

        self.words = _("{kind}: which card? Tap its picture.").format(
            kind=kind_name(self.kind))
        self.card_buttons = {}
        for number, card_id in enumerate(card_ids(self.kind), start=1):
            drawn = PuzzleCheckScreen.pictures.get((self.kind, card_id))
            # until the pictures are drawn, a card is its place in the box
            cell = PictureButton(drawn, "" if drawn is not None else str(number))
            cell.bind(on_press=lambda *_a, c=card_id: self.pick_card(c))
            self.card_buttons[card_id] = cell
        self._grid(picture, list(self.card_buttons.values()))
        self.button(_("Another kind of puzzle"), lambda: self.show_step("kind"))

    def _check(self, picture: Any) -> None:
        from ui.widgets.camera_view import CameraView

        picture.add_widget(CameraView())
        self.words = _("Lay the puzzle card with its solution on the mat, where the camera "
                       "sees it all. Then check it.")
        self.check_button = self.button(_("Check with the camera"), self.check)
        self._demo_buttons()
        self.button(_("Another card"), lambda: self.show_step("card"))

    def _checked(self, picture: Any) -> None:
        from ui.screens.teach_code import texture_of

        if self.result is not None:
            self.checked_picture = CheckedPicture(texture=texture_of(self.result.picture))
            picture.add_widget(self.checked_picture)
        self.check_button = self.button(_("Check again"), self.check_again)
        self._demo_buttons()
        self.button(_("Another card"), lambda: self.show_step("card"))

    def _demo_buttons(self) -> None:
        if self.app.table is None:
            return
        row = BoxLayout(spacing=theme.GAP_REGION, size_hint_y=None, height=min_target_px() * 1.1)
        self.demo_right = TouchButton(text=_("Demo: a right solution"), wrap=True,
                                      height=min_target_px() * 1.1)
        self.demo_right.bind(on_press=lambda *_a: self.demo_lay(None))
        self.demo_wrong = TouchButton(text=_("Demo: a wrong one"), wrap=True,
                                      height=min_target_px() * 1.1)
        self.demo_wrong.bind(on_press=lambda *_a: self.demo_lay(
            0 if self.demo_miss is None else self.demo_miss + 1))
        for button in (self.demo_right, self.demo_wrong):
            row.add_widget(button)
            self.buttons.append(button)
        self.ids.actions.add_widget(row)

    # --- choices ------------------------------------------------------------------------------
    def pick_kind(self, kind: str) -> None:
        self.kind, self.card_id = kind, ""
        self.show_step("card")

    def pick_card(self, card_id: str) -> None:
        self.card_id, self.demo_miss = card_id, None
        self.show_step("check")

    def demo_lay(self, miss: int | None) -> None:
        """Demo: the players lay the puzzle solved (``miss`` None) or wrong (the next wrong
        solution of the demo's list at each tap)."""
        self.demo_miss = miss
        self.show_step("check")

    def _lay_demo_puzzle(self) -> None:
        table, camera = self.app.table, self.app.camera
        if table is None or not self.card_id:
            return
        table.show_puzzle(self.kind, self.card_id, self.demo_miss)
        if camera is not None and not camera.frames.handed_current():
            # the picture up shows the table as it lay before: none until a new one comes
            self.app.camera_texture, self.app.last_frame = None, None

    # --- checking -----------------------------------------------------------------------------
    def check_again(self) -> None:
        self.show_step("check")

    def check(self) -> None:
        """A frame taken after the tap, checked on a worker."""
        app = self.app
        if self.read_running:
            return
        if app.camera is None or app.camera_failed:
            self.words = _("The camera is not working: check its cable and the Camera "
                           "setting, then try again.")
            return
        self.read_running = True
        self.headline, self.headline_rgba = "", list(PLAIN_RGBA)
        self.words = _("Looking at the puzzle…")
        visit, kind, card_id = self._visit, self.kind, self.card_id
        app.when_fresh_frame(lambda frame: self._got_frame(frame, visit, kind, card_id))

    def _got_frame(self, frame: Any, visit: int, kind: str, card_id: str) -> None:
        if visit != self._visit:
            return
        if frame is None:
            self.read_running = False
            self.words = _("No picture came from the camera: check it, then try again.")
            return
        from ui.puzzle_checking import check_frame

        cfg = self.app.cfg
        self.read_on_worker(lambda: check_frame(frame, cfg, kind, card_id),
                            lambda value, error: self._checked_done(value, error, visit),
                            name="check-puzzle")

    def _checked_done(self, result: Any, error: BaseException | None, visit: int) -> None:
        if visit != self._visit:
            return
        from ui.puzzle_words import headline, verdict_sentence

        if error is not None:
            log.warning("the puzzle check failed: %s", error)
            self.words = _("The camera could not check this picture; check again.")
            return
        self.result = result
        said = result.verdict
        self.step = "checked"
        self.refresh()
        self.headline = headline(said.verdict)
        self.headline_rgba = list(theme.VERDICT_COLOURS.get(said.verdict, PLAIN_RGBA))
        self.words = verdict_sentence(self.kind, said)
