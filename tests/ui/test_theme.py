"""The look is one theme: no screen, widget or kv file holds a colour, a font size or a
spacing of its own (they read ``ui/theme.py``). A few files are named exceptions, each with
its reason."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

UI = Path(__file__).resolve().parents[2] / "ui"

_CHANNEL = r"(?:[01](?:\.\d+)?|\.\d+)"
PY_RULES = {
    "colour": re.compile(rf"\(\s*{_CHANNEL}(?:\s*,\s*{_CHANNEL}){{2,3}}\s*\)|\bColor\(\s*[\d.]"),
    "font size": re.compile(r"""["']\d+(?:\.\d+)?sp["']"""),
    # zero is no spacing: "padding=(0, 0, 0, theme.GAP)" is the theme's
    "spacing": re.compile(r"\b(?:spacing|padding)\s*=\s*\(?(?:\s*0\s*,)*\s*[1-9]"),
}
KV_RULES = {
    "colour": re.compile(r"^\s*(?:rgba?|\w*colou?r)\s*:\s*\(?\s*[\d.]"),
    "font size": re.compile(r"""^\s*font_size\s*:\s*["']?\d"""),
    "spacing": re.compile(r"^\s*(?:spacing|padding)\s*:\s*\(?(?:\s*0\s*,)*\s*[1-9]"),
}

#: file (relative to ui/) -> the kinds of literal it may hold, and why
EXCEPTIONS: dict[str, tuple[set[str], str]] = {
    "widgets/hex_board.py": ({"colour"}, "paints Indigo's board and gems: the pieces' colours"),
    "widgets/enigma_board.py": ({"colour"}, "paints Enigma's tiles: the pack's colours"),
    "widgets/sheet_grid.py": ({"colour"}, "paints a Second Chance sheet: the paper's colours"),
    "widgets/tile_picker.py": ({"colour"}, "paints Indigo's tile patterns: the tiles' colours"),
    "widgets/score_plot.py": ({"colour"}, "a chart painted on a canvas, in pixels"),
    "widgets/scoring_wheel.py": ({"colour"}, "paints Enigma's scoring wheel: the box's colours"),
}


def literals(text: str, rules: dict[str, re.Pattern[str]]) -> list[tuple[int, str, str]]:
    """(line number, kind, line) of every literal ``rules`` find; comments are not code."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        code = line.split("#", 1)[0] if not line.lstrip().startswith("#:") else ""
        for kind, rule in rules.items():
            if rule.search(code):
                found.append((number, kind, line.strip()))
    return found


def themed_files() -> list[Path]:
    return sorted([*UI.glob("screens/*.py"), *UI.glob("widgets/*.py"), *UI.glob("*.kv"),
                   *UI.glob("screens/*.kv")])


@pytest.mark.parametrize("path", themed_files(), ids=lambda p: str(p.relative_to(UI)))
def test_no_colour_font_or_spacing_outside_the_theme(path: Path) -> None:
    name = str(path.relative_to(UI))
    allowed, _why = EXCEPTIONS.get(name, (set(), ""))
    rules = KV_RULES if path.suffix == ".kv" else PY_RULES
    stray = [hit for hit in literals(path.read_text(encoding="utf-8"), rules)
             if hit[1] not in allowed]
    assert not stray, f"{name}: use ui/theme.py's names: {stray}"


def test_the_exceptions_are_files_that_exist() -> None:
    for name in EXCEPTIONS:
        assert (UI / name).exists(), name


@pytest.mark.parametrize("line, rules, kind", [
    ('label.color = (1, 0.4, 0.3, 1)', PY_RULES, "colour"),
    ("Color(0.5, 0.5, 0.52, 1)", PY_RULES, "colour"),
    ('TouchButton(font_size="15sp")', PY_RULES, "font size"),
    ("BoxLayout(spacing=4)", PY_RULES, "spacing"),
    ("    color: 1, 0.5, 0.4, 1", KV_RULES, "colour"),
    ("            rgba: (0.75, 0.15, 0.12, 1) if self.text else (0, 0, 0, 0)", KV_RULES,
     "colour"),
    ('    font_size: "22sp"', KV_RULES, "font size"),
    ("        padding: 4, 0", KV_RULES, "spacing"),
])
def test_the_check_sees_a_literal(line: str, rules: dict[str, re.Pattern[str]],
                                  kind: str) -> None:
    assert kind in {k for _n, k, _l in literals(line, rules)}


@pytest.mark.parametrize("line, rules", [
    ("label.color = theme.SOUND if what else theme.INK_QUIET", PY_RULES),
    ("GridLayout(padding=(0, 0, 0, theme.GAP_REGION), size_hint=(1, 1))", PY_RULES),
    ("    font_size: theme.FONT_HEADING", KV_RULES),
    ("    spacing: theme.GAP", KV_RULES),
])
def test_the_check_passes_theme_names(line: str, rules: dict[str, re.Pattern[str]]) -> None:
    assert literals(line, rules) == []
