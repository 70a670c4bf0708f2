"""A strict JSON reader for game records: what Python's ``json`` lets through, refused.

``json.loads`` keeps the last of two equal keys (so a record's illegal ``events`` can hide
behind a second, empty one), accepts ``NaN`` and ``Infinity``, and fails on deep nesting or
long integers with Python's own errors. This reader refuses all of these as
:class:`~companion.errors.RecordError`, one line naming the path in the document:

>>> loads_strict('{"events": [{"tile": NaN}]}')
Traceback (most recent call last):
...
companion.errors.RecordError: events[0].tile: NaN is not a JSON number

Indexes in a path count from 0. Messages quote at most :data:`QUOTE_LIMIT` characters of the
input, so a huge bad value never makes a huge error line.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from companion.errors import RecordError

MAX_DEPTH = 64
MAX_INT_DIGITS = 100
MAX_STRING = 10_000
QUOTE_LIMIT = 80

# a JSON string, written so that runs of plain characters match at C speed
_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
# one JSON token: a string, a punctuation mark or a bare word (number, true, ...)
_TOKEN = re.compile(_STRING + r'|[\[\]{}:,]|[^\s\[\]{}:,"]+', re.DOTALL)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_LONG_QUOTE = re.compile(rf"'[^'\n]{{{QUOTE_LIMIT + 1},}}'|\"[^\"\n]{{{QUOTE_LIMIT + 1},}}\"")


class _Object(list[tuple[str, Any]]):
    """An object's key/value pairs as read, before duplicates are looked for."""


class _Refused:
    """A value the strict reader refuses, kept until its path is known."""

    def __init__(self, why: str) -> None:
        self.why = why


def quote(text: str) -> str:
    """``text`` as a JSON string, cut to :data:`QUOTE_LIMIT` characters of it."""
    if len(text) <= QUOTE_LIMIT:
        return json.dumps(text, ensure_ascii=False)
    return json.dumps(text[: QUOTE_LIMIT - 3], ensure_ascii=False) + "..."


def clip_quotes(message: str) -> str:
    """``message`` with every quoted run longer than :data:`QUOTE_LIMIT` cut short.

    For error lines built elsewhere (an engine naming an unknown player): they quote the
    input with ``repr``, and the input may be 10,000 characters long.
    """
    return _LONG_QUOTE.sub(lambda m: m.group()[: QUOTE_LIMIT - 3] + "..." + m.group()[0],
                           message)


def _parse_int(text: str) -> int | _Refused:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        return _Refused(f"an integer of {digits} digits, more than {MAX_INT_DIGITS}: "
                        f"{quote(text)}")
    return int(text)


def _parse_float(text: str) -> float | _Refused:
    value = float(text)
    if not math.isfinite(value):
        return _Refused(f"the number {quote(text)} is too large")
    return value


def _parse_constant(name: str) -> _Refused:
    return _Refused(f"{name} is not a JSON number")


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    step = f".{key}" if _NAME.fullmatch(key) else f"[{quote(key)}]"
    return step[1:] if not path and step.startswith(".") else f"{path}{step}"


def _where(path: str) -> str:
    return path or "record"


def _too_deep(text: str) -> str | None:
    """The path of the first container nested deeper than :data:`MAX_DEPTH`, else None.

    Looked for on the text when ``json`` gave up with a RecursionError (near 1,000 levels),
    which names nothing; shallower nesting is found by :func:`_checked`.
    """
    # each entry: [index in a list, or key in an object; whether an object waits for a key]
    stack: list[list[Any]] = []
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            if len(stack) == MAX_DEPTH:
                path = ""
                for key, _ in stack:
                    path = _join(path, key)
                return _where(path)
            stack.append([0, False] if token == "[" else ["", True])
        elif token in "]}":
            if stack:
                stack.pop()
        elif not stack:
            continue
        elif token == ",":
            top = stack[-1]
            top[0], top[1] = (top[0] + 1, False) if isinstance(top[0], int) else ("", True)
        elif token.startswith('"') and stack[-1][1]:
            try:
                stack[-1][0], stack[-1][1] = json.loads(token), False
            except ValueError:
                return None  # not JSON at all: json.loads names the problem
    return None


def _path_text(path: list[str | int]) -> str:
    text = ""
    for key in path:
        text = _join(text, key)
    return _where(text)


def _checked(value: Any, path: list[str | int]) -> Any:
    """``value`` with its objects as dicts, refusing what the strict reader refuses.

    ``path`` is the keys and indexes down to ``value``, grown and shrunk in place and turned
    into text only for a message: records of thousands of events are read in well under a
    second.
    """
    kind = type(value)
    if len(path) >= MAX_DEPTH and (kind is _Object or kind is list):
        raise RecordError(f"{_path_text(path)}: nesting deeper than {MAX_DEPTH} levels")
    if kind is str:
        if len(value) > MAX_STRING:
            raise RecordError(f"{_path_text(path)}: a string of {len(value)} characters, more "
                              f"than {MAX_STRING:,}: {quote(value)}")
        return value
    if kind is _Object:
        result: dict[str, Any] = {}
        for key, item in value:
            if len(key) > MAX_STRING:
                raise RecordError(f"{_path_text(path)}: a key of {len(key)} characters, more "
                                  f"than {MAX_STRING:,}: {quote(key)}")
            if key in result:
                raise RecordError(f"{_path_text(path)}: the key {quote(key)} appears twice")
            path.append(key)
            result[key] = _checked(item, path)
            path.pop()
        return result
    if kind is list:
        items = []
        for index, item in enumerate(value):
            path.append(index)
            items.append(_checked(item, path))
            path.pop()
        return items
    if kind is _Refused:
        raise RecordError(f"{_path_text(path)}: {value.why}")
    return value


def loads_strict(text: str) -> Any:
    """Decode JSON ``text`` strictly; :class:`RecordError` names the first refusal's path."""
    try:
        raw = json.loads(text, object_pairs_hook=_Object, parse_int=_parse_int,
                         parse_float=_parse_float, parse_constant=_parse_constant)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON: {exc.msg} at line {exc.lineno}, column "
                          f"{exc.colno}") from None
    except RecursionError:
        deep = _too_deep(text)
        raise RecordError(f"{deep or 'record'}: nesting deeper than {MAX_DEPTH} levels")\
            from None
    return _checked(raw, [])
