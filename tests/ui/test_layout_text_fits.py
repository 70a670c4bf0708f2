"""No text spills out of its box, no button text is cut and no English is left, in the longest
languages (Spanish, Ukrainian), at 800x480 and 720x1280, on every screen and phase a player
goes through: home, setup, the four games (Enigma's timer and placement, Second Chance's sheet
check and round, Break the Code's covered entry, guess, assistant and end), history, settings,
calibration and the error banner.

The walk (:func:`views`) is shared with ``scripts/ui_screenshots.py``, which saves the same
views as pictures for a person to look at.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

pytestmark = pytest.mark.ui

SIZES = {"landscape": (800, 480), "portrait": (720, 1280)}
#: the games' published names, the same in every language
GAME_NAMES = ("Indigo", "Enigma", "Second Chance", "Break the Code")
#: a line of text is about this many times its font size high (Roboto's ascent and descent)
LINE_HEIGHT = 1.2


def _panel_button(screen: Any, text: str) -> Any:
    return next(w for w in screen.ids.panel.walk() if getattr(w, "text", "") == text)


def _start(driver: Any, game_button: str) -> Any:
    driver.app.show("home")
    driver.tap(driver.screen("home").ids[game_button])
    driver.tap(driver.screen("setup").ids.start_button)
    return driver.screen()


def to_home(d: Any) -> None:
    d.app.show("home")


def to_setup(d: Any) -> None:
    d.app.show("home")
    d.tap(d.screen("home").ids.game_enigma)


def to_indigo(d: Any) -> None:
    _start(d, "game_indigo")


def to_indigo_picker(d: Any) -> None:
    d.screen("indigo").ids.board.dispatch("on_cell", (0, -2))  # a tap on that hexagon
    d.pump(4)


def to_indigo_picker_closed(d: Any) -> None:
    picker = getattr(d.screen("indigo"), "picker", None)
    if picker is not None and picker.parent is not None:
        picker.dismiss()
        d.wait_for(lambda: picker.parent is None)


def to_enigma(d: Any) -> None:
    from companion.timer import ManualClock

    screen = _start(d, "game_enigma")
    screen.clock = ManualClock()


def to_enigma_timer(d: Any) -> None:
    screen = d.screen("enigma")
    players = d.app.session.players
    for player, category in zip(players, ("weight", "conduit", "fragment"), strict=False):
        d.tap(screen.choice_toggles[(player, category)])
    d.tap(screen.go_button)
    d.tap(screen.solver_toggles[players[1]])
    screen.clock.advance(12.0)
    d.pump(10)


def to_enigma_place(d: Any) -> None:
    from ui.i18n import _

    d.tap(_panel_button(d.screen("enigma"), _("Round done")))


def to_enigma_tile(d: Any) -> None:
    # a tile chosen: it glows on the board wherever it may go
    screen = d.screen("enigma")
    state = screen.state()
    category = dict(state.choices).get(screen.solver(), "")
    screen.pick_tile(next(e for e in screen.catalogue().by_category(category)
                          if state.legal_placements(e.conduit, distinct=True)))


def to_enigma_spot(d: Any) -> None:
    # a square tapped: the tile stands there, with the networker sentences
    screen = d.screen("enigma")
    board = screen.ids.table
    d.pump(2)
    d.tap_at(*board.to_window(*board.spot_centre(tuple(screen.options[0].at))))


def to_second_chance(d: Any) -> None:
    _start(d, "game_second_chance")


def to_second_chance_check(d: Any) -> None:
    # what the screen shows for a sheet read with a doubtful square and a question
    reading = SimpleNamespace(new_cells=[(4, 3), (4, 4), (4, 5)], missing=[(0, 0)],
                              doubtful=[(5, 4)],
                              questions=["is cell [5, 4] filled? the marks are not clear"],
                              problems=[])
    d.screen("second_chance")._read_done(reading, None)
    d.pump(4)


def to_second_chance_round(d: Any) -> None:
    screen = d.screen("second_chance")
    sheet = screen.ids.sheet
    for player in d.app.session.players:  # everyone's start card, then two cards up
        screen.view(player)
        sheet.selected = [[4, col] for col in range(8)]
        screen.enter_start()
    screen.rng.seed(5)
    screen.reveal_random()
    d.pump(4)


def to_break_the_code(d: Any) -> None:
    d.app.show("home")
    d.start_break_the_code(3).rng = random.Random(3)


def to_break_the_code_entry(d: Any) -> None:
    d.tap(d.screen("break_the_code").enter_button)


def to_break_the_code_uncovered(d: Any) -> None:
    d.tap(d.screen("break_the_code").uncover_button)


def to_break_the_code_play(d: Any) -> None:
    d.app.show("home")
    screen = d.start_break_the_code(2)
    screen.rng = random.Random(11)
    d.tap(screen.learning_toggle)
    d.tap(screen.deal_button)


def to_break_the_code_assistant(d: Any) -> None:
    d.screen("break_the_code").assistant_button.dispatch("on_long_press")
    d.pump(4)


def to_break_the_code_guess(d: Any) -> None:
    screen = d.screen("break_the_code")
    screen.assistant_button.dispatch("on_long_release")
    d.tap(screen.guess_button)
    for toggle in screen.tile_toggles[:3]:  # picked tiles look different
        d.tap(toggle)


def to_break_the_code_end(d: Any) -> None:
    screen = d.screen("break_the_code")
    racks = d.app.session.events[0]["racks"]
    for toggle in screen.tile_toggles:
        toggle.state = "normal"
    for rack in (racks["Ben"], racks["Ben"]):  # Ana right, then Ben wrong: the end
        if screen.mode != "guess":
            d.tap(screen.guess_button)
        wanted = rack.split()
        for toggle in screen.tile_toggles:
            if wanted.count(toggle.tile) > sum(t.state == "down" for t in screen.tile_toggles
                                               if t.tile == toggle.tile):
                toggle.state = "down"
        screen.submit_guess()
        d.pump(2)
    d.tap(screen.analysis_button)


def to_history(d: Any) -> None:
    d.app.show("history")


def to_settings(d: Any) -> None:
    d.app.show("settings")


def to_calibration(d: Any) -> None:
    d.app.show("calibration")


def to_banner(d: Any) -> None:
    from ui.workers import UiEvent

    d.app.show("home")
    # the camera worker's own words are the driver's English: the banner must not show them
    d.app.handle_event(UiEvent("camera-error", message="OSError: [Errno 19] No such device"))
    d.pump(4)


def views() -> list[tuple[str, Callable[[Any], None]]]:
    """(name, step): each step takes the app from the previous view to the named one."""
    return [
        ("home", to_home),
        ("setup", to_setup),
        ("indigo", to_indigo),
        ("indigo-picker", to_indigo_picker),
        ("indigo-picker-closed", to_indigo_picker_closed),
        ("enigma", to_enigma),
        ("enigma-timer", to_enigma_timer),
        ("enigma-place", to_enigma_place),
        ("enigma-tile", to_enigma_tile),
        ("enigma-spot", to_enigma_spot),
        ("second-chance", to_second_chance),
        ("second-chance-check", to_second_chance_check),
        ("second-chance-round", to_second_chance_round),
        ("break-the-code", to_break_the_code),
        ("break-the-code-entry", to_break_the_code_entry),
        ("break-the-code-uncovered", to_break_the_code_uncovered),
        ("break-the-code-play", to_break_the_code_play),
        ("break-the-code-assistant", to_break_the_code_assistant),
        ("break-the-code-guess", to_break_the_code_guess),
        ("break-the-code-end", to_break_the_code_end),
        ("history", to_history),
        ("settings", to_settings),
        ("calibration", to_calibration),
        ("banner", to_banner),
    ]


def _shown(widget: Any) -> bool:
    while widget is not None:
        if getattr(widget, "opacity", 1) == 0:
            return False
        if widget.parent is widget:
            break
        widget = widget.parent
    return True


def spilling_labels(root: Any, *, slack: float = 2.0) -> list[tuple[str, Any, Any]]:
    """(text, text size, box size) of every shown label whose text is larger than its box:
    running over its neighbours, cut by a clipping parent, or shortened with "…"."""
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    from ui.touch import text_width

    out = []
    for widget in root.walk(restrict=True):
        if not isinstance(widget, Label) or not widget.text.strip() or not _shown(widget):
            continue
        if widget.width <= 0 or widget.height <= 0:
            continue
        tw, th = widget.texture_size
        if widget.shorten and not isinstance(widget, Button) and "\n" not in widget.text:
            tw = max(tw, text_width(widget.text, widget.font_size, bold=widget.bold))
        if tw > widget.width + slack or th > widget.height + slack:
            out.append((widget.text, (int(tw), int(th)), (int(widget.width), int(widget.height))))
    return out


def parts_outside(panel: Any) -> list[str]:
    """The texts (or kinds) of the parts laid out in ``panel``, at any depth, that are pushed
    out of it (over the tabs or off the screen); what a scroll view holds scrolls, so its
    content is not looked at."""
    from kivy.uix.scrollview import ScrollView

    outside, stack = [], list(panel.children)
    while stack:
        widget = stack.pop()
        if widget.y < panel.y - 1 or widget.top > panel.top + 1:
            outside.append(getattr(widget, "text", type(widget).__name__))
        if not isinstance(widget, ScrollView):
            stack.extend(widget.children)
    return outside


def english_only_words() -> set[str]:
    """Words of the app's English texts that no translation uses (so not "Demo", "GPIO")."""
    import re

    from ui.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, extract_messages, parse_po

    def words(text: str) -> set[str]:
        return {w.lower() for w in re.findall(r"[A-Za-z]{4,}", re.sub(r"{\w+}", " ", text))}

    english = set().union(*(words(m) for m in extract_messages()))
    for language in LANGUAGES:
        if language != "en":
            po = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
            for translated in parse_po(po.read_text(encoding="utf-8")).values():
                english -= words(translated)
    return english


def english_texts(root: Any, english: set[str]) -> list[tuple[str, list[str]]]:
    """(text, English words) of every shown text with words only the English texts use: a
    text the catalogues lack, or one built before the language changed."""
    import re

    out = []
    for widget in root.walk(restrict=True):
        text = getattr(widget, "text", None)
        if isinstance(text, str) and text.strip() and _shown(widget):
            for game in GAME_NAMES:
                text = text.replace(game, "")
            found = [w for w in re.findall(r"[A-Za-z]{4,}", text) if w.lower() in english]
            if found:
                out.append((text, found))
    return out


def wrapped_height(widget: Any, text_width: Callable[[str, Any], float]) -> float:
    """How high a wrapping button's text runs: its words laid greedily in lines of the
    button's width (a word wider than the button counts as too high to fit)."""
    room = widget.width - 8
    lines = 0
    for paragraph in widget.text.split("\n"):
        line = ""
        lines += 1
        for word in paragraph.split():
            if text_width(word, widget.font_size) > room:
                return float("inf")
            wider = f"{line} {word}".strip()
            if line and text_width(wider, widget.font_size) > room:
                lines += 1
                wider = word
            line = wider
    return lines * widget.font_size * widget.line_height * LINE_HEIGHT


def cut_buttons(root: Any) -> list[tuple[str, Any]]:
    """(text, size) of every shown button whose text is shortened ("…") or whose box is under
    the 9 mm touch target."""
    from kivy.uix.button import Button

    from ui.touch import required_target_px, text_width

    need = required_target_px()
    out = []
    for widget in root.walk(restrict=True):
        if not isinstance(widget, Button) or not _shown(widget) or widget.height <= 0:
            continue
        too_small = widget.width < need - 0.5 or widget.height < need - 0.5
        if widget.shorten:
            cut = any(text_width(line, widget.font_size) > widget.width - 4
                      for line in widget.text.split("\n") if line)
        else:  # a button that wraps its text (a question card): its lines must fit its box
            cut = wrapped_height(widget, text_width) > widget.height - 4
        if too_small or cut:
            out.append((widget.text, (int(widget.width), int(widget.height))))
    return out


@pytest.mark.parametrize("orientation", sorted(SIZES))
@pytest.mark.parametrize("language", ["es", "uk"])
def test_every_view_fits_in_the_longest_languages(make_driver, language, orientation):
    driver = make_driver(size=SIZES[orientation])
    driver.screen("settings").change("app", "language", language)
    driver.set_size(SIZES[orientation])
    english = english_only_words()
    problems = []
    try:
        for name, step in views():
            step(driver)
            driver.pump(3)
            for top in list(driver.window.children):  # the root and any open popup
                problems += [(name, "spills", *p) for p in spilling_labels(top)]
                problems += [(name, "button", *p) for p in cut_buttons(top)]
                problems += [(name, "english", *p) for p in english_texts(top, english)]
    finally:
        driver.screen("settings").change("app", "language", "en")
    assert not problems, f"{language} {orientation}: " + "\n".join(map(str, problems))
