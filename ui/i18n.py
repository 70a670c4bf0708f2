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


def N_(message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark a text for translation where it is defined; ``_`` translates it where shown."""
    return message


def parse_po(text: str) -> dict[str, str]:
    """msgid -> msgstr of a .po file (no plurals, no contexts: the app uses neither)."""
    entries: dict[str, str] = {}
    key: str | None = None
    current: list[str] = []
    msgid: str | None = None

    def flush() -> None:
        nonlocal msgid
        if key == "msgstr" and msgid is not None:
            entries[msgid] = "".join(current)
            msgid = None

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("msgid "):
            flush()
            key, current = "msgid", [ast.literal_eval(line[6:])]
        elif line.startswith("msgstr "):
            msgid = "".join(current)
            key, current = "msgstr", [ast.literal_eval(line[7:])]
        elif line.startswith('"'):
            current.append(ast.literal_eval(line))
        else:
            raise ValueError(f"unsupported .po line: {raw!r}")
    flush()
    return entries


def mo_bytes(entries: dict[str, str]) -> bytes:
    """The GNU .mo encoding of ``entries`` (untranslated entries are left out)."""
    items = sorted((k, v) for k, v in entries.items() if v or k == "")
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
                 f'"Language: {language}\\n"', ""]
        for message in messages:
            lines += [f"msgid {_po_string(message)}",
                      f"msgstr {_po_string(known.get(message, ''))}", ""]
        po.parent.mkdir(parents=True, exist_ok=True)
        po.write_text("\n".join(lines), encoding="utf-8")
        compile_po(po)
        written.append(po)
    return written


if __name__ == "__main__":
    for path in update_catalogues():
        print(path)


_MESSAGE = None


def extract_messages(root: Path | None = None) -> list[str]:
    """Every ``_("...")`` text in the app's .py and .kv files, in first-seen order.

    Python files are parsed, so a text split over lines (``_("a " "b")``) is one message;
    matching them by pattern missed those and left them in English on every screen."""
    import re

    global _MESSAGE
    if _MESSAGE is None:
        _MESSAGE = re.compile(r'(?<![\w.])N?_\(\s*"((?:[^"\\\n]|\\.)*)"\s*\)')
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
            found[ast.literal_eval(f'"{match.group(1)}"')] = None
    return list(found)


def _marked_in_python(source: str) -> list[str]:
    """The literal texts of ``_(...)`` and ``N_(...)`` calls, in source order."""
    calls = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("_", "N_") and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            calls.append((node.lineno, node.col_offset, node.args[0].value))
    return [text for _line, _col, text in sorted(calls)]
