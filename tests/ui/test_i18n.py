"""The gettext catalogues: every app text is translated to es and uk, and the committed .mo
files are exactly what the .po files compile to."""

from __future__ import annotations

import gettext

import pytest

from ui.i18n import (
    DOMAIN,
    LANGUAGES,
    LOCALE_DIR,
    PLURAL_SEPARATOR,
    extract_messages,
    mo_bytes,
    parse_po,
    plural_count,
)


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_catalogue_covers_every_text(language):
    entries = parse_po((LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po")
                       .read_text(encoding="utf-8"))
    missing = [m for m in extract_messages() if m not in entries]
    assert not missing, f"{language}.po lacks: {missing}"
    plurals = [m for m in extract_messages() if PLURAL_SEPARATOR in m]
    wrong_count = [m for m in plurals
                   if len(entries[m].split(PLURAL_SEPARATOR)) != plural_count(language)]
    assert not wrong_count, f"{language}.po has not {plural_count(language)} forms of: " \
        f"{wrong_count}"
    if language != "en":
        untranslated = [m for m in extract_messages()
                        if not all(entries[m].split(PLURAL_SEPARATOR))]
        assert not untranslated, f"{language}.po leaves untranslated: {untranslated}"
        # every form of a text fills in the same {fields} as the English (a plural's forms
        # each as its English forms)
        bad = [m for m in extract_messages()
               if any(_fields(form) != _fields(m.split(PLURAL_SEPARATOR)[-1])
                      for form in entries[m].split(PLURAL_SEPARATOR))]
        assert not bad, f"{language}.po changes the {{fields}} of: {bad}"


def _fields(text):
    import string

    return sorted(name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name)


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


def test_extractor_keys_a_plural_text_by_both_english_forms(tmp_path):
    (tmp_path / "a.py").write_text(
        'x = ngettext("{n} square", "{n} squares", k)\ny = ngettext(name, "{n} x", k)\n')
    assert extract_messages(tmp_path) == ["{n} square\0{n} squares"]


@pytest.mark.parametrize(("language", "counts"), [
    ("en", {1: "1 accepted square looks empty", 2: "2 accepted squares look empty",
            0: "0 accepted squares look empty"}),
    ("es", {1: "1 casilla ya anotada parece vacía", 2: "2 casillas ya anotadas parecen vacías"}),
    # Ukrainian: one form for 1, 21, ..., one for 2-4, 22-24, ..., one for 5-20, 25-30, ...
    ("uk", {1: "1 прийнята клітинка виглядає порожньою",
            21: "21 прийнята клітинка виглядає порожньою",
            3: "3 прийняті клітинки виглядають порожніми",
            22: "22 прийняті клітинки виглядають порожніми",
            5: "5 прийнятих клітинок виглядають порожніми",
            11: "11 прийнятих клітинок виглядають порожніми",
            12: "12 прийнятих клітинок виглядають порожніми"}),
])
def test_a_plural_text_takes_the_form_of_its_count(language, counts):
    from ui.i18n import ngettext, set_language

    try:
        set_language(language)
        worded = {n: ngettext("{n} accepted square looks empty",
                              "{n} accepted squares look empty", n).format(n=n) for n in counts}
    finally:
        set_language("en")
    assert worded == counts


def test_a_po_plural_entry_round_trips_through_the_mo_file(tmp_path):
    po = tmp_path / "x.po"
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
                  '"Plural-Forms: nplurals=3; plural=(n%10==1 && '
                  'n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"\n'
                  '\nmsgid "{n} cat"\nmsgid_plural "{n} cats"\nmsgstr[0] "{n} кіт"\n'
                  'msgstr[1] "{n} коти"\nmsgstr[2] "{n} котів"\n', encoding="utf-8")
    entries = parse_po(po.read_text(encoding="utf-8"))
    assert entries["{n} cat\0{n} cats"] == "{n} кіт\0{n} коти\0{n} котів"
    (tmp_path / "x.mo").write_bytes(mo_bytes(entries))
    with (tmp_path / "x.mo").open("rb") as mo:
        catalogue = gettext.GNUTranslations(mo)
    assert [catalogue.ngettext("{n} cat", "{n} cats", n) for n in (1, 4, 7)] == [
        "{n} кіт", "{n} коти", "{n} котів"]


def test_an_untranslated_plural_text_is_left_out_of_the_mo_file():
    # the English catalogue leaves every text untranslated: gettext then picks the English
    # form itself (an empty translation would blank the text on screen)
    entries = {"": "Plural-Forms: nplurals=2; plural=(n != 1);\n", "{n} cat\0{n} cats": "\0"}
    import io

    catalogue = gettext.GNUTranslations(io.BytesIO(mo_bytes(entries)))
    assert catalogue.ngettext("{n} cat", "{n} cats", 1) == "{n} cat"
    assert catalogue.ngettext("{n} cat", "{n} cats", 3) == "{n} cats"
