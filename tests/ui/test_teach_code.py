"""The teach flow on the touchscreen (issue 27): Settings, "Teach the camera your tiles", lay the
20 tiles out as the picture shows, take the picture, save, check a test rack.

The demo camera shows the demo players' own tiles (a renderer style the demo pack does not hold)
laid out on the mat; every step is driven by touches.
"""

from __future__ import annotations

import json
import stat

import pytest

#: the two screens the app is laid out for (as tests/ui/conftest.py)
SIZES = {"landscape": (800, 480), "portrait": (720, 1280)}

pytestmark = pytest.mark.ui

#: the longest wait for the demo camera's picture and the work on it (seconds): a rendered
#: frame takes a second, and far longer on a machine loaded by other work (the camera thread
#: runs at a lower priority than the UI)
WAIT_S = 240.0




def _open_teach_screen(driver):
    driver.tap(driver.app.root.ids.settings_button)
    settings = driver.screen("settings")
    driver.tap(settings.ids.teach)
    screen = driver.screen()
    assert screen.name == "teach_code" and screen.step == "lay"
    return screen


def _take_picture(driver, screen, step_after: str) -> None:
    assert driver.wait_for(driver.picture_shows_the_table, seconds=WAIT_S)
    driver.tap(screen.take_button)
    assert screen.busy and all(b.disabled for b, _on in screen.buttons)
    assert driver.wait_for(lambda: screen.step == step_after and not screen.busy,
                           seconds=WAIT_S), screen.words


def _screenshots(driver, name: str) -> None:
    """The screen at 800x480 and at 720x1280 (its buttons and words checked at each), back in
    landscape after."""
    for size in SIZES.values():
        driver.set_size(size)
        driver.screenshot(f"{name}_{size[0]}x{size[1]}")
        _check_fits(driver.screen(), f"{name} {size}")
    driver.set_size(SIZES["landscape"])


def _check_fits(screen, where: str) -> None:
    """Every button is a 9 mm target showing its whole text; the words lie inside their
    column, under the picture in portrait and beside it in landscape."""
    from ui.touch import required_target_px, text_width

    need = required_target_px()
    for button, _on in screen.buttons:
        assert min(button.size) >= need - 0.5, (where, button.text, button.size)
        assert text_width(button.text, button.font_size) <= button.width - 8, (where,
                                                                             button.text)
    words, column = screen.ids.words, screen.ids.words.parent
    assert column.y <= words.y and words.top <= column.top + 0.5, (where, words.pos)
    assert not screen.ids.picture.collide_widget(words), where


def _settings_file(driver) -> dict:
    path = driver.app.db_path.with_name("settings.json")
    return json.loads(path.read_text()) if path.exists() else {}


def _taught_folders(driver) -> list:
    return sorted(driver.app.db_path.parent.glob("code-taught-*"))


def _cannot_write(pack, folder):
    from vision.errors import ArtPackError

    raise ArtPackError(f"{folder}: cannot write the pack: Read-only file system")


def test_teaching_by_touch_writes_the_pack_and_reads_the_test_rack_with_it(make_driver,
                                                                             monkeypatch):
    import vision.break_the_code.pack as packs
    from config import art_pack_folder

    loaded = []
    load = packs.load_code_pack
    monkeypatch.setattr(packs, "load_code_pack",
                        lambda folder=None: loaded.append(folder) or load(folder))
    driver = make_driver(start_camera=True)
    screen = _open_teach_screen(driver)
    mat = [w for w in screen.walk(restrict=False) if type(w).__name__ == "MatPicture"]
    assert len(mat) == 1 and [f.text for f in mat[0].faces][:4] == ["0", "0", "1", "1"]
    # the preview, for the shot
    assert driver.wait_for(driver.picture_shows_the_table, seconds=WAIT_S)
    _screenshots(driver, "teach_code_lay")

    _take_picture(driver, screen, "taught")
    assert screen.result.problems == [] and screen.result.refusal is None
    assert sorted(screen.result.good_slots) == list(range(20))
    assert not screen.save_button.disabled
    _screenshots(driver, "teach_code_taught")

    # the first Save fails (the data folder cannot be written): said, and nothing changed
    with monkeypatch.context() as failing:
        failing.setattr(packs.CodePack, "save", _cannot_write)
        driver.tap(screen.save_button)
        assert driver.wait_for(lambda: not screen.busy, seconds=WAIT_S)
    assert screen.step == "taught" and "could not be saved" in screen.words
    assert not screen.save_button.disabled and _settings_file(driver) == {}
    driver.tap(screen.save_button)
    assert driver.wait_for(lambda: screen.step == "saved", seconds=WAIT_S), screen.words
    _screenshots(driver, "teach_code_saved")
    [folder] = _taught_folders(driver)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / "manifest.json").stat().st_mode) == 0o600
    setting = _settings_file(driver)["vision"]["code"]["pack"]
    assert driver.app.cfg.vision.code.pack == setting
    assert art_pack_folder(driver.app.cfg, setting) == folder

    driver.tap(screen.check_button)
    rack = driver.app.table.pending[1]
    _take_picture(driver, screen, "checked")
    assert [face.tile for face in screen.rack_faces] == rack.split(), screen.words
    assert loaded and str(loaded[-1]) == str(folder)  # the check read the new pack
    assert screen.words.endswith("Is this right?")
    _screenshots(driver, "teach_code_checked")
    driver.tap(screen.yes_button)
    assert driver.screen().name == "settings"


@pytest.mark.parametrize(("language", "sentence"), [
    ("en", "Slot E4: no tile is seen there; is the white 9 on it?"),
    ("uk", "Місце E4: там не видно плитки; чи лежить на ньому біла плитка 9?"),
])
def test_a_photo_with_a_slot_left_empty_names_the_slot_and_saves_nothing(make_driver, language,
                                                                         sentence):
    from ui.screens.teach_code import BOX_ORDER

    driver = make_driver(start_camera=True)
    settings = driver.screen("settings")
    settings.change("app", "language", language)
    try:
        screen = _open_teach_screen(driver)
        assert driver.wait_for(driver.picture_shows_the_table, seconds=WAIT_S)
        _screenshots(driver, f"teach_code_lay_{language}")
        nineteen = BOX_ORDER.split()[:-1]  # the white 9 of slot E4 stayed in the box
        driver.app.table.show_own_tiles(" ".join(nineteen), slots=range(19))
        _take_picture(driver, screen, "taught")
        assert screen.taught is None and screen.save_button.disabled
        assert [p.slot.name for p in screen.result.problems] == ["E4"]
        assert screen.words == sentence
        _screenshots(driver, f"teach_code_slot_empty_{language}")
        driver.tap(screen.save_button)  # off: nothing happens
        assert _taught_folders(driver) == []
        assert "code" not in _settings_file(driver).get("vision", {})
        assert driver.app.cfg.vision.code.pack == ""
    finally:
        driver.screen("settings").change("app", "language", "en")


def test_without_a_camera_the_screen_says_so_and_stays_usable(make_driver):
    driver = make_driver(start_camera=False)
    screen = _open_teach_screen(driver)
    driver.tap(screen.take_button)
    assert not screen.busy and "camera is not working" in screen.words
    assert not screen.take_button.disabled


def test_many_failed_slots_are_summed_up_after_the_first_sentences():
    from ui.screens.teach_code import MAX_SENTENCES, problems_text

    sentences = [f"Slot {name}: no tile is seen there." for name in ("A1", "B1", "C1", "D1")]
    text = problems_text(sentences)
    assert text.splitlines()[:MAX_SENTENCES] == sentences[:MAX_SENTENCES]
    more = len(sentences) - MAX_SENTENCES
    assert text.splitlines()[-1] == f"{more} more slots are marked with a red cross."
    assert problems_text(sentences[:1]) == sentences[0]


@pytest.mark.parametrize(("message", "words"), [
    ("the taught pack misreads its own photo on slots A1, C2; check the tiles are in box order",
     "The camera mixes up the tiles on slots A1, C2: check they lie as the picture shows, and "
     "take the photo again."),
    ("the black and white tiles look alike in this photo; are they in box order (0b 0w 1b 1w "
     "...) and well lit?", "The black and white tiles look alike in this photo: check they lie "
     "as the picture shows, and give the mat more light."),
])
def test_a_refused_teach_photo_is_worded_without_the_teach_codes_english(message, words):
    from ui.teach_words import teach_refusal_words
    from vision.errors import ArtPackError

    assert teach_refusal_words(ArtPackError(message)) == words


@pytest.mark.parametrize(("reason", "words"), [
    ("PART_OF_TILE", "Slot B1: only part of a tile is seen (covered, or in a shadow); is the "
                     "white 0 on it, whole?"),
    ("LARGER_THAN_OTHERS", "Slot B1: the tile there looks larger than the others; is the "
                           "white 0 on it, alone?"),
])
def test_a_failed_slot_is_worded_by_its_reason_not_the_teach_codes_english(reason, words):
    from ui.teach_words import slot_problem_words
    from vision.break_the_code.mat import SLOTS
    from vision.break_the_code.teach_layout import SlotProblem, SlotReason

    # the English sentence is for the log; rewording it must not change the screen
    problem = SlotProblem(SLOTS[1], SlotReason[reason], "slot B1: worded anew for the log")
    assert slot_problem_words(problem) == words
