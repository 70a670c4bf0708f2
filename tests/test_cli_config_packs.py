"""Every command that reads or draws pieces honours the config's pack settings: with each
``pack`` key pointing at a folder that does not exist, the verb fails and names that folder
(before, ``read code`` and ``read enigma`` silently read with the demo packs)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from ui.cli import main

MISSING = {"indigo": "no-such-indigo-pack", "enigma": "no-such-enigma-pack",
           "code": "no-such-code-pack"}


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    config = tmp_path / "packs.toml"
    config.write_text(f'[vision]\npack = "{tmp_path / MISSING["indigo"]}"\n'
                      f'[vision.enigma]\npack = "{tmp_path / MISSING["enigma"]}"\n'
                      f'[vision.code]\npack = "{tmp_path / MISSING["code"]}"\n',
                      encoding="utf-8")
    image = tmp_path / "frame.png"
    cv2.imwrite(str(image), np.full((240, 320, 3), 128, np.uint8))
    record = tmp_path / "enigma.json"
    record.write_text('{"format": "tabletop-companion/record/1", "game": "enigma", '
                      '"players": ["Ana", "Ben"], "events": []}', encoding="utf-8")
    return {"config": config, "image": image, "record": record, "out": tmp_path / "out.png"}


VERBS = [
    ("indigo", ["read", "indigo", "{image}"]),
    ("indigo", ["calibrate", "indigo", "{image}"]),
    ("enigma", ["read", "enigma", "{image}"]),
    ("enigma", ["check", "puzzle", "weight", "{image}"]),
    ("enigma", ["render", "enigma", "{record}", "-o", "{out}"]),
    ("code", ["read", "code", "{image}"]),
]


@pytest.mark.parametrize(("game", "verb"), VERBS, ids=[" ".join(v[:2]) for _, v in VERBS])
def test_a_verb_with_a_missing_pack_fails_naming_it(game, verb, files, capsys) -> None:
    args = [part.format(**{k: str(v) for k, v in files.items()}) for part in verb]
    code = main([*args, "--config", str(files["config"])])
    err = capsys.readouterr().err
    assert code != 0 and MISSING[game] in err, err
