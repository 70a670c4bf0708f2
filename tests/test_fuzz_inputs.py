"""Seeded fuzzing of what users feed the command line: records, images and configs.

Each run is bounded (a fixed number of seeded mutants, each read once) and runs in-process,
through the command's handler on one parsed command line (building it for each call would
cost most of the time). An exception out of a handler fails the test: ``companion`` would have
turned it into exit 1 with Python's words. Exit codes allowed: ``replay`` 0, 2 or 3; readers
0, 2 or 4; ``config check`` 0 or 1 with one line.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from config import DEFAULT_TOML
from ui.cli import CommandLine, build_command_line

DATA = Path(__file__).resolve().parent / "data"
SEED = 24


@pytest.fixture(scope="module")
def cli() -> CommandLine:
    return build_command_line()


def _run(cli: CommandLine, argv: list[str]) -> int:
    """What ``companion ARGV`` exits with, minus ``main``'s catch-all (see above)."""
    args = cli.parser.parse_args(argv)
    args.debug = False
    return int(args._handler(args))


def _records() -> list[str]:
    """Valid-looking records of every game from the test data (legal and illegal ones)."""
    texts = []
    for path in sorted(DATA.glob("*/*.json")):
        text = path.read_text(encoding="utf-8")
        try:
            data = json.loads(text)
        except ValueError:
            continue
        if isinstance(data, dict) and "format" in data and len(text) < 60_000:
            texts.append(text)
    return texts


# --- mutations of a record ------------------------------------------------------------------

ODD_VALUES: list[Any] = [None, True, 0, -1, 7, 2**70, 1.5, 1e308, "", "x", "0b 1w", "Q02",
                         "N" * 300, [], [1, 2], [[0, 0]], {}, {"type": "place"}, "\u0000"]


def _containers(value: Any, found: list[Any]) -> list[Any]:
    if isinstance(value, dict | list):
        found.append(value)
        for item in (value.values() if isinstance(value, dict) else value):
            _containers(item, found)
    return found


def _change_value(text: str, rng: random.Random) -> str:
    data = json.loads(text)
    target = rng.choice(_containers(data, []))
    if not target:
        return json.dumps(data)
    key = rng.choice(list(target)) if isinstance(target, dict) else rng.randrange(len(target))
    action = rng.random()
    if action < 0.25:
        del target[key]
    elif action < 0.35 and isinstance(target, list):
        target.insert(key, target[key])  # an event (or cell) twice
    else:
        target[key] = rng.choice(ODD_VALUES)
    return json.dumps(data)


def _change_text(text: str, rng: random.Random) -> str:
    at = rng.randrange(len(text))
    return rng.choice([
        lambda: text[:at],                                            # truncated
        lambda: text[:at] + rng.choice("{}[],:\"\\0aé\u0000") + text[at:],
        lambda: text[:at] + text[at + 1:],
        lambda: text.replace('"events":', '"events": [], "events":', 1),   # duplicate key
        lambda: text.replace('"players":', '"players": null, "players":', 1),
        lambda: text.replace("2", "NaN", 1),
        lambda: text.replace("1", "9" * 500, 1),
        lambda: text.replace("[", "[" * 300, 1) + "]" * 300,
        lambda: text.replace('"Ana"', json.dumps("A" * 20_000)),
        lambda: "\ufeff" + text,
    ])()


MUTATIONS: list[Callable[[str, random.Random], str]] = [_change_value, _change_text]


def test_mutated_records_replay_with_0_2_or_3_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cli: CommandLine
) -> None:
    rng = random.Random(SEED)
    records = _records()
    assert len(records) > 50
    path = tmp_path / "mutant.json"
    seen: dict[int, int] = {}
    for _ in range(300):
        path.write_text(rng.choice(MUTATIONS)(rng.choice(records), rng), encoding="utf-8")
        code = _run(cli, ["replay", str(path)])
        _, err = capsys.readouterr()
        assert code in (0, 2, 3), (path.read_text(encoding="utf-8")[:400], err[:400])
        assert err.count("\n") == (0 if code == 0 else 1), err[:400]
        # one short line: the input is quoted 80 characters at most
        assert "Traceback" not in err and "A" * 81 not in err and "9" * 81 not in err, err[:400]
        seen[code] = seen.get(code, 0) + 1
    assert set(seen) >= {2, 3}, seen  # the mutations really reach both refusals


# --- odd images into every reader -----------------------------------------------------------

def _odd_images(rng: np.random.Generator) -> dict[str, bytes]:
    def png(image: np.ndarray) -> bytes:
        return bytes(cv2.imencode(".png", image)[1].tobytes())

    def jpg(image: np.ndarray) -> bytes:
        return bytes(cv2.imencode(".jpg", image)[1].tobytes())

    noise = rng.integers(0, 256, (240, 320, 3), dtype=np.uint8)
    images = {
        "empty.png": b"",
        "text.png": b"not an image\n",
        "1x1.png": png(noise[:1, :1]),
        "1x300.png": png(noise[:1]),
        "300x1.jpg": jpg(np.ascontiguousarray(noise[:, :1])),
        "31x31.png": png(noise[:31, :31]),
        "32x32.png": png(noise[:32, :32]),
        "black.png": png(np.zeros((200, 200, 3), np.uint8)),
        "white.jpg": jpg(np.full((200, 300, 3), 255, np.uint8)),
        "noise.jpg": jpg(noise),
        "grey16.png": png((rng.integers(0, 65535, (120, 160))).astype(np.uint16)),
        "rgba.png": png(np.dstack([noise, noise[:, :, :1]])),
        "strip.png": png(rng.integers(0, 256, (40, 2400, 3), dtype=np.uint8)),
        "trailing.jpg": jpg(noise) + b"\xff\xd9tail" * 20,
        "truncated.jpg": jpg(noise)[:3000],
        "truncated.png": png(noise)[:5000],
    }
    bmp = io.BytesIO(bytes(cv2.imencode(".bmp", noise)[1].tobytes()))
    images["noise.bmp"] = bmp.getvalue()
    return images


def _code_of(cli: CommandLine, argv: list[str]) -> int:
    """Like :func:`_run`, with the readers' own errors turned into their exit codes, as
    ``companion`` does: each carries ``exit_code`` (2 unreadable, 4 refused); any other
    exception is a bug and fails the test."""
    from companion.errors import CompanionError

    try:
        return _run(cli, argv)
    except CompanionError as exc:
        return int(getattr(exc, "exit_code", 1))


READERS = [
    ["read", "indigo"], ["read", "enigma"], ["read", "sheet"], ["read", "card"],
    ["read", "code"], ["check", "puzzle", "weight"], ["calibrate", "indigo"],
]


def test_odd_images_into_every_reader_exit_0_2_or_4(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cli: CommandLine
) -> None:
    images = _odd_images(np.random.default_rng(SEED))
    for name, data in images.items():
        path = tmp_path / name
        path.write_bytes(data)
        for verb in READERS:
            code = _code_of(cli, [*verb, str(path)])
            _, err = capsys.readouterr()
            assert code in (0, 2, 4), (verb, name, err)
            assert err.count("\n") <= 1 and "Traceback" not in err, (verb, name, err)


def test_odd_images_into_teach_code(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   cli: CommandLine) -> None:
    images = _odd_images(np.random.default_rng(SEED + 1))
    for name, data in images.items():
        path = tmp_path / name
        path.write_bytes(data)
        code = _code_of(cli, ["teach", "code", str(path), "-o", str(tmp_path / "pack")])
        _, err = capsys.readouterr()
        assert code in (0, 2, 4), (name, err)
        assert err.count("\n") <= 1 and "Traceback" not in err, (name, err)


# --- broken configs -------------------------------------------------------------------------

def _broken_config(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    at = rng.randrange(len(lines))
    line = lines[at]
    key, sep, _ = line.partition(" = ")
    odd = rng.choice(['""', "-1", "1e999", "nan", "inf", "true", "[]", "[1, 2, 3]", '"x"',
                      "0", "99999999999", '"\\u0000"', json.dumps("/" + "d" * 5000), "{}"])
    lines[at] = rng.choice([
        f"{key} = {odd}" if sep else line + "x",
        line[: rng.randrange(len(line) + 1)],
        line + "\n" + line,                                        # the key twice
        "[" + line.strip("[]") + "]" if line.startswith("[") else line + " # ok",
        "\ufeff" + line,
        f"unknown_{key.strip()} = 1" if sep else "[nowhere]",
    ])
    return "\n".join(lines) + "\n"


def test_broken_configs_are_one_line_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    cli: CommandLine,
) -> None:
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    rng = random.Random(SEED)
    text = DEFAULT_TOML.read_text(encoding="utf-8")
    text = "\n".join(line for line in text.splitlines() if line and not line.startswith("#"))
    path = tmp_path / "broken.toml"
    codes = set()
    for _ in range(150):
        broken = _broken_config(text, rng)
        path.write_text(broken, encoding="utf-8")
        code = _run(cli, ["config", "check", str(path)])
        out, err = capsys.readouterr()
        assert code in (0, 1), err
        assert (out.startswith("config OK") and err == "") if code == 0 else (
            out == "" and err.count("\n") == 1 and len(err) < 1000), (broken, err)
        codes.add(code)
    assert codes == {0, 1}
