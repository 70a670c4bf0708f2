"""Teach the camera your Break the Code tiles: lay the 20 out, one photo, save, check a rack.

The steps: ``lay`` (a picture of the mat with the 20 tiles in box order, then "Take the
picture"), ``taught`` (the photo with each slot marked: a thin green frame for a tile found, a
thick red cross for a slot that gave none, each failure as one sentence; "Save" when the photo
can be used), ``saved``, ``check`` (lay a rack, "Take the picture"), ``checked`` (the tiles read,
drawn as tiles: "Is this right?"). The photo is taught, the pack written and the rack read on a
worker (:mod:`ui.teaching`), with every button off meanwhile; whatever fails is said in a
sentence (:mod:`ui.teach_words`) and nothing is changed. Saving sets ``[vision.code] pack`` in
the app's settings file, so the check rack is read as every game's rack will be.
"""

from __future__ import annotations

import logging
from typing import Any

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image

from ui import theme
from ui.i18n import _, ngettext
from ui.screens.base import BaseScreen
from ui.touch import min_target_px
from ui.widgets.buttons import TouchButton

log = logging.getLogger(__name__)

#: the tiles in box order, slot by slot from A1, as the teach code wants them
BOX_ORDER = "0b 0w 1b 1w 2b 2w 3b 3w 4b 4w 5g 5g 6b 6w 7b 7w 8b 8w 9b 9w"
#: a tile's width over its height, as the tiles of the box
TILE_ASPECT = 0.75
#: the most slot sentences shown at once (the others' slots are marked on the photo)
MAX_SENTENCES = 2


def texture_of(bgr: Any) -> Any:
    """A Kivy texture of a BGR picture."""
    from kivy.graphics.texture import Texture

    height, width = bgr.shape[:2]
    texture = Texture.create(size=(width, height), colorfmt="rgb")
    texture.flip_vertical()
    texture.blit_buffer(bgr.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
    return texture


def problems_text(sentences: list[str]) -> str:
    """The first few slots' sentences, and how many more slots are marked: a photo of tiles
    not laid out at all fails on every slot, and twenty sentences fit no screen."""
    shown = "\n".join(sentences[:MAX_SENTENCES])
    more = len(sentences) - MAX_SENTENCES
    if more <= 0:
        return shown
    return shown + "\n" + ngettext("{n} more slot is marked with a red cross.",
                                   "{n} more slots are marked with a red cross.",
                                   more).format(n=more)


class TeachCodeScreen(BaseScreen):
    #: the step shown: lay, taught, saved, check, checked
    step = StringProperty("lay")
    #: a picture is being taken or a job runs: every button is off
    busy = BooleanProperty(False)
    words = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: the step's buttons, each with whether the step offers it (Save needs a pack)
        self.buttons: list[tuple[TouchButton, bool]] = []
        self.taught: Any = None  # the pack of the last usable photo, not yet saved
        self.result: Any = None  # the last TeachResult
        self.reading: Any = None  # the last test-rack read
        self._visit = 0  # a job's result for an earlier visit of the screen is dropped

    def title(self) -> str:
        return _("Teach the camera your tiles")

    def on_pre_enter(self, *args: Any) -> None:
        super().on_pre_enter(*args)
        self._visit += 1
        self.busy, self.taught, self.result, self.reading = False, None, None, None
        self.show_step("lay")

    def on_leave(self, *args: Any) -> None:
        self._visit += 1
        self.busy = False
        table = self.app.table if self.app is not None else None
        if table is not None:
            table.put_away_own_tiles()

    def on_busy(self, _screen: Any, busy: bool) -> None:
        for button, enabled in self.buttons:
            button.disabled = busy or not enabled

    def show_step(self, step: str) -> None:
        self.step = step
        table = self.app.table
        if table is not None and step == "lay":  # the demo players lay their tiles out
            table.show_own_tiles(BOX_ORDER)
        if table is not None and step == "check":
            table.lay_test_rack()
        camera = self.app.camera
        if camera is not None and not camera.frames.handed_current():
            # the picture up shows the table before the tiles were laid: none until a new one
            self.app.camera_texture, self.app.last_frame = None, None
        self.refresh()

    def refresh(self) -> None:
        picture = self.ids.picture
        for box in (picture, self.ids.preview, self.ids.actions):
            box.clear_widgets()
        self.buttons = []
        {"lay": self._lay, "taught": self._taught, "saved": self._saved,
         "check": self._check, "checked": self._checked}[self.step](picture)

    def button(self, text: str, action: Any, *, enabled: bool = True) -> TouchButton:
        button = TouchButton(text=text, wrap=True, height=min_target_px() * 1.2,
                             disabled=self.busy or not enabled)
        button.bind(on_press=lambda *_a: action())
        self.ids.actions.add_widget(button)
        self.buttons.append((button, enabled))
        return button

    # --- the steps ----------------------------------------------------------------------------
    def _lay(self, picture: Any) -> None:
        from ui.widgets.camera_view import CameraView
        from ui.widgets.code_mat import MatPicture

        picture.add_widget(MatPicture(BOX_ORDER.split()))
        self.ids.preview.add_widget(CameraView())
        self.words = _("Lay your 20 tiles on the mat as the picture shows, one on each slot, "
                       "with the mat where the camera sees it all. Then take the picture.")
        self.take_button = self.button(_("Take the picture"), self.take_picture)

    def _taught(self, picture: Any) -> None:
        self._taught_picture(picture)
        self.save_button = self.button(_("Save"), self.save, enabled=self.taught is not None)
        self.button(_("Lay them out again"), lambda: self.show_step("lay"))

    def _saved(self, picture: Any) -> None:
        self._taught_picture(picture)
        self.check_button = self.button(_("Check with a test rack"),
                                        lambda: self.show_step("check"))
        self.button(_("Done"), lambda: self.app.show("settings"))

    def _check(self, picture: Any) -> None:
        from ui.widgets.camera_view import CameraView

        picture.add_widget(CameraView())
        self.words = _("Lay a rack of your tiles on the top row of the mat, as in a game. "
                       "Then take the picture.")
        self.take_button = self.button(_("Take the picture"), self.take_picture)

    def _checked(self, picture: Any) -> None:
        code = self.reading.code if self.reading is not None else None
        if code is None:
            from ui.widgets.camera_view import CameraView

            picture.add_widget(CameraView())
            self.take_button = self.button(_("Take the picture again"),
                                           lambda: self.show_step("check"))
            self.button(_("Teach again"), lambda: self.show_step("lay"))
            return
        self._rack_tiles(picture, [str(t) for t in code.tiles])
        self.words = _("The camera reads your rack as these tiles, left to right. Is this "
                       "right?")
        self.yes_button = self.button(_("Yes"), self.confirmed)
        self.no_button = self.button(_("No"), self.refused)

    def _taught_picture(self, picture: Any) -> None:
        if self.result is not None and self.result.picture is not None:
            picture.add_widget(Image(texture=texture_of(self.result.picture),
                                     fit_mode="contain"))

    def _rack_tiles(self, picture: Any, tiles: list[str]) -> None:
        from ui.widgets.code_tile import CodeTileFace

        row = BoxLayout(spacing=theme.GAP_LOOSE, padding=theme.GAP_LOOSE, size_hint=(1, None),
                        height=min_target_px() * 2.2,
                        pos_hint={"center_y": 0.5})
        self.rack_faces = [CodeTileFace(tile, font_size=theme.FONT_DISPLAY, size_hint_x=None)
                           for tile in tiles]
        row.add_widget(BoxLayout())  # the tiles in the middle, upright as on the table
        for face in self.rack_faces:
            face.bind(height=lambda f, h: setattr(f, "width", h * TILE_ASPECT))
            row.add_widget(face)
        row.add_widget(BoxLayout())
        holder = BoxLayout(orientation="vertical")
        for widget in (BoxLayout(), row, BoxLayout()):
            holder.add_widget(widget)
        picture.add_widget(holder)

    # --- taking the picture -------------------------------------------------------------------
    def take_picture(self) -> None:
        """A camera frame taken after the tap, taught from or read on a worker."""
        if self.busy:
            return
        app = self.app
        if app.camera is None or app.camera_failed:
            self.words = _("The camera is not working: check its cable and the Camera "
                           "setting, then try again.")
            return
        self.busy = True
        self.words = _("Taking the picture…")
        visit, step = self._visit, self.step
        app.when_fresh_frame(lambda frame: self._got_frame(frame, visit, step))

    def _got_frame(self, frame: Any, visit: int, step: str) -> None:
        if visit != self._visit:
            return
        if frame is None:
            self.busy = False
            self.words = _("No picture came from the camera: check it, then try again.")
            return
        from ui.teaching import check_rack, teach_from_frame

        cfg = self.app.cfg
        if step == "lay":
            self.words = _("Looking at every tile…")
            self.app.run_in_background(lambda: teach_from_frame(frame, cfg),
                                       lambda value, error: self._taught_done(
                                           value, error, visit), name="teach-code")
        else:
            self.words = _("Reading the rack…")
            self.app.run_in_background(lambda: check_rack(frame, None, cfg),
                                       lambda value, error: self._checked_done(
                                           value, error, visit), name="read-rack")

    def _taught_done(self, result: Any, error: BaseException | None, visit: int) -> None:
        if visit != self._visit:
            return
        from ui.teach_words import slot_problem_words, teach_refusal_words

        self.busy = False
        if error is not None:
            log.warning("teaching from a photo failed: %s", type(error).__name__)
            self.result, self.taught = None, None
            self.step = "taught"
            self.refresh()
            self.words = _("The camera could not learn from this photo. Nothing was "
                           "changed; lay the tiles out again and retake it.")
            return
        self.result, self.taught = result, result.pack
        self.step = "taught"
        self.refresh()
        if result.problems:
            self.words = problems_text([slot_problem_words(p) for p in result.problems])
        elif result.refusal is not None:
            self.words = teach_refusal_words(result.refusal)
        else:
            self.words = _("Every tile was found (green frames). Save, and the camera reads "
                           "your tiles from now on.")

    # --- saving and checking ------------------------------------------------------------------
    def save(self) -> None:
        """Write the taught pack on a worker, then make it the one every read uses."""
        if self.busy or self.taught is None:
            return
        from ui.teaching import save_taught_pack

        pack, cfg, visit = self.taught, self.app.cfg, self._visit
        root = self.app.db_path.parent  # beside the journal and the settings file
        self.busy = True
        self.words = _("Saving…")
        self.app.run_in_background(lambda: save_taught_pack(pack, root, cfg),
                                   lambda name, error: self._save_done(name, error, visit),
                                   name="save-code-pack")

    def _save_done(self, name: Any, error: BaseException | None, visit: int) -> None:
        if visit != self._visit:
            return
        self.busy = False
        if error is None:
            error = self._use_pack(name)
        if error is not None:
            log.warning("saving the taught pack failed: %s", error)
            self.words = _("Your tiles' look could not be saved: the app's data folder "
                           "cannot be written. Nothing was changed; try Save again.")
            return
        self.taught = None
        self.show_step("saved")
        self.words = _("Saved: the camera reads your tiles from now on.")

    def _use_pack(self, name: str) -> BaseException | None:
        """``[vision.code] pack`` = ``name`` in the settings file (None, or why not)."""
        app = self.app
        code = dict(app.settings_overrides.get("vision", {}).get("code", {}))
        code["pack"] = name
        try:
            app.save_settings("vision", "code", code)
        except OSError as exc:
            return exc
        if app.table is not None:
            app.table.forget_looks()
        return None

    def _checked_done(self, reading: Any, error: BaseException | None, visit: int) -> None:
        if visit != self._visit:
            return
        from ui.teach_words import rack_check_words

        self.busy = False
        self.reading = reading if error is None else None
        self.step = "checked"
        self.refresh()
        if error is not None:
            log.warning("reading the test rack failed: %s", type(error).__name__)
            self.words = _("The camera could not read this rack; take the picture again.")
        elif reading.code is None:
            self.words = rack_check_words(reading)

    def confirmed(self) -> None:
        self.app.show_notice(_("The camera knows your tiles."))
        self.app.show("settings")

    def refused(self) -> None:
        self.show_step("lay")
        self.words = _("Then teach the camera again: lay the 20 tiles out as the picture "
                       "shows, in even light, and take the picture.")
