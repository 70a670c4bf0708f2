"""Translations through gettext catalogues in ``ui/locale/<lang>/LC_MESSAGES/companion.mo``.

``_`` is what screens and kv files call (``#:import _ ui.i18n._``). Switching the language
installs another catalogue; the app then rebuilds its screens, so every text is looked up again.
The .mo files are committed; :func:`compile_po` (a small ``msgfmt``) rebuilds them, and a test
checks they match their .po sources.
"""

from __future__ import annotations

import ast
import gettext
import struct
from pathlib import Path

DOMAIN = "companion"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: language code -> its own name, as the settings screen lists them
LANGUAGES = {"en": "English", "es": "Español", "uk": "Українська"}
#: each language's gettext plural rule (the .po header): Ukrainian has three forms (1, 21 ...;
#: 2-4, 22-24 ...; 0, 5-20, 25 ...), English and Spanish two
PLURAL_FORMS = {
    "en": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "uk": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
          "(n%100<10 || n%100>=20) ? 1 : 2);",
}
#: joins a plural text's English forms (its key) and its translated forms, as in a .mo file
PLURAL_SEPARATOR = "\0"

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def set_language(language: str) -> str:
    """Use ``language`` (en, es, uk) for every later ``_`` call; returns the language set."""
    global _translation, _language
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    _translation = gettext.translation(
        DOMAIN, localedir=str(LOCALE_DIR), languages=[language], fallback=True
    )
    _language = language
    return language


def current_language() -> str:
    return _language


def _(message: str) -> str:
    """The message in the current language (the English text when there is no translation)."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a text with a count ``n`` in the current language (``{n}`` is filled in by
    the caller): "1 square", "2 squares"; Ukrainian picks one of three forms."""
    return _translation.ngettext(singular, plural, n)


def N_(message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark a text for translation where it is defined; ``_`` translates it where shown."""
    return message


def parse_po(text: str) -> dict[str, str]:
    """msgid -> msgstr of a .po file (no contexts: the app uses none).

    A plural text (``msgid_plural``, ``msgstr[0]`` ...) is keyed by its two English forms and
    maps to its translated forms, each pair joined by :data:`PLURAL_SEPARATOR`, as a .mo file
    stores them."""
    entries: dict[str, str] = {}
    parts: dict[str, list[str]] = {}
    current: list[str] = []

    def flush() -> None:
        if "msgid" in parts:
            key = PLURAL_SEPARATOR.join(
                "".join(parts[k]) for k in ("msgid", "msgid_plural") if k in parts)
            forms = sorted(k for k in parts if k.startswith("msgstr"))
            entries[key] = PLURAL_SEPARATOR.join("".join(parts[k]) for k in forms)
        parts.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _space, value = line.partition(" ")
        if keyword == "msgid":
            flush()
        if keyword in ("msgid", "msgid_plural", "msgstr") or (
                keyword.startswith("msgstr[") and keyword.endswith("]")):
            current = parts[keyword] = [ast.literal_eval(value)]
        elif line.startswith('"'):
            current.append(ast.literal_eval(line))
        else:
            raise ValueError(f"unsupported .po line: {raw!r}")
    flush()
    return entries


def mo_bytes(entries: dict[str, str]) -> bytes:
    """The GNU .mo encoding of ``entries`` (untranslated entries are left out)."""
    items = sorted((k, v) for k, v in entries.items()
                   if v.replace(PLURAL_SEPARATOR, "") or k == "")
    ids = [k.encode("utf-8") for k, _v in items]
    strs = [v.encode("utf-8") for _k, v in items]
    count = len(items)
    header = 7 * 4
    ids_table = header
    strs_table = ids_table + 8 * count
    data_start = strs_table + 8 * count
    offsets: list[tuple[int, int]] = []
    data = b""
    for blob in ids + strs:
        offsets.append((len(blob), data_start + len(data)))
        data += blob + b"\0"
    out = struct.pack("<7I", 0x950412DE, 0, count, ids_table, strs_table, 0, 0)
    for length, offset in offsets:
        out += struct.pack("<2I", length, offset)
    return out + data


def compile_po(po_path: Path, mo_path: Path | None = None) -> bytes:
    """Compile a .po file; writes the .mo beside it (or to ``mo_path``) and returns its bytes."""
    blob = mo_bytes(parse_po(po_path.read_text(encoding="utf-8")))
    target = mo_path or po_path.with_suffix(".mo")
    target.write_bytes(blob)
    return blob


def compile_all() -> list[Path]:
    """Rebuild every catalogue under ``ui/locale``; returns the .mo paths written."""
    written = []
    for po in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        compile_po(po)
        written.append(po.with_suffix(".mo"))
    return written


def _po_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def update_catalogues(translations: dict[str, dict[str, str]] | None = None) -> list[Path]:
    """Rewrite every .po with the texts the app uses now, keeping the translations already
    there (plus ``translations``: language -> {English: translated}), then compile them."""
    messages = extract_messages()
    written = []
    for language in LANGUAGES:
        po = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
        known = parse_po(po.read_text(encoding="utf-8")) if po.exists() else {}
        known.update((translations or {}).get(language, {}))
        lines = [f"# Tabletop Companion app texts ({language}). Rebuild: python -m ui.i18n",
                 'msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"',
                 f'"Language: {language}\\n"',
                 f'"Plural-Forms: {PLURAL_FORMS[language]}\\n"', ""]
        for message in messages:
            lines += [*_po_entry(message, known.get(message, ""), language), ""]
        po.parent.mkdir(parents=True, exist_ok=True)
        po.write_text("\n".join(lines), encoding="utf-8")
        compile_po(po)
        written.append(po)
    return written


def plural_count(language: str) -> int:
    """How many forms a plural text has in ``language``."""
    return int(PLURAL_FORMS[language].split("nplurals=")[1].split(";")[0])


def _po_entry(message: str, translated: str, language: str) -> list[str]:
    if PLURAL_SEPARATOR not in message:
        return [f"msgid {_po_string(message)}", f"msgstr {_po_string(translated)}"]
    singular, plural = message.split(PLURAL_SEPARATOR)
    forms = translated.split(PLURAL_SEPARATOR) if translated else []
    forms += [""] * (plural_count(language) - len(forms))
    return [f"msgid {_po_string(singular)}", f"msgid_plural {_po_string(plural)}",
            *(f"msgstr[{i}] {_po_string(form)}" for i, form in enumerate(forms))]


_MESSAGE = None


def extract_messages(root: Path | None = None) -> list[str]:
    """Every ``_("...")`` text (and ``ngettext`` pair) in the app's .py and .kv files, in
    first-seen order.

    Python files are parsed, so a text split over lines (``_("a " "b")``) is one message;
    matching them by pattern missed those and left them in English on every screen."""
    import re

    global _MESSAGE
    if _MESSAGE is None:
        # _("text") or N_("text"); ngettext("one", "many", n) (kv files are not Python)
        literal = r'"((?:[^"\\\n]|\\.)*)"'
        _MESSAGE = re.compile(rf'(?<![\w.])(?:N?_\(\s*{literal}\s*\)'
                              rf'|ngettext\(\s*{literal}\s*,\s*{literal}\s*,)')
    base = root or Path(__file__).resolve().parent
    found: dict[str, None] = {}
    for path in sorted([*base.rglob("*.py"), *base.rglob("*.kv")]):
        if "cli" in path.relative_to(base).parts or path.name == "i18n.py":
            continue
        source = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            for message in _marked_in_python(source):
                found[message] = None
            continue
        for match in _MESSAGE.finditer(source):
            if match.group(1) is not None:
                found[ast.literal_eval(f'"{match.group(1)}"')] = None
            else:  # ngettext("one", "many", n): keyed by both forms, as in Python files
                found[PLURAL_SEPARATOR.join(ast.literal_eval(f'"{match.group(k)}"')
                                            for k in (2, 3))] = None
    return list(found)


def _marked_in_python(source: str) -> list[str]:
    """The literal texts of ``_(...)`` and ``N_(...)`` calls, in source order; an
    ``ngettext(singular, plural, n)`` call's two forms as one text, joined as a .mo joins them."""

    def literal(node: ast.expr) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        return None

    calls = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args):
            continue
        texts = [literal(arg) for arg in node.args[:2]]
        if node.func.id in ("_", "N_") and texts[0] is not None:
            calls.append((node.lineno, node.col_offset, texts[0]))
        elif node.func.id == "ngettext" and len(texts) == 2 and None not in texts:
            calls.append((node.lineno, node.col_offset, PLURAL_SEPARATOR.join(
                text for text in texts if text is not None)))
    return [text for _line, _col, text in sorted(calls)]


if __name__ == "__main__":  # last: the functions it calls are defined above
    for path in update_catalogues():
        print(path)
