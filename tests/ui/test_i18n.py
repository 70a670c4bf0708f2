"""The gettext catalogues: every app text is translated to es and uk, and the committed .mo
files are exactly what the .po files compile to."""

from __future__ import annotations

import gettext

import pytest

from ui.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, extract_messages, mo_bytes, parse_po


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_catalogue_covers_every_text(language):
    entries = parse_po((LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po")
                       .read_text(encoding="utf-8"))
    missing = [m for m in extract_messages() if m not in entries]
    assert not missing, f"{language}.po lacks: {missing}"
    if language != "en":
        untranslated = [m for m in extract_messages() if not entries[m]]
        assert not untranslated, f"{language}.po leaves untranslated: {untranslated}"
        bad = [m for m in extract_messages()
               if sorted(_fields(m)) != sorted(_fields(entries[m]))]
        assert not bad, f"{language}.po changes the {{fields}} of: {bad}"


def _fields(text):
    import string

    return [name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name]


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_committed_mo_matches_po(language):
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    expected = mo_bytes(parse_po((folder / f"{DOMAIN}.po").read_text(encoding="utf-8")))
    assert (folder / f"{DOMAIN}.mo").read_bytes() == expected, "run: python -m ui.i18n"


def test_mo_is_read_by_gettext():
    spanish = gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=["es"])
    assert spanish.gettext("Read the board") == "Leer el tablero"
    ukrainian = gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=["uk"])
    assert ukrainian.gettext("Undo") == "Скасувати"


def test_extractor_finds_marked_texts_only(tmp_path):
    (tmp_path / "a.py").write_text('x = _("One")\ny = N_("Two")\nz = foo_("Three")\n')
    (tmp_path / "b.kv").write_text('    text: _("Four {n}")\n')
    assert extract_messages(tmp_path) == ["One", "Two", "Four {n}"]
