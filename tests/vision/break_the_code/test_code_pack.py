"""The shipped demo pack (``vision/packs/code-demo``) is the project's drawing, pixel for pixel,
and reading with it needs no scene drawing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from vision.break_the_code.pack import DEMO_CODE, demo_pack, load_code_pack
from vision.break_the_code.synth.art import drawn_demo_pack
from vision.break_the_code.synth.demo_pack import main as make_demo_code


def test_the_shipped_demo_pack_is_the_drawn_one_exactly() -> None:
    shipped, drawn = load_code_pack(None), drawn_demo_pack()
    assert shipped is demo_pack() and shipped.folder == DEMO_CODE
    assert (shipped.name, shipped.tile_mm, shipped.description) == (
        drawn.name, drawn.tile_mm, drawn.description)
    assert list(shipped.colours) == list(drawn.colours)  # the order breaks exact ties
    for letter, colour in drawn.colours.items():
        assert shipped.colours[letter].dtype == colour.dtype
        assert np.array_equal(shipped.colours[letter], colour), letter
    assert sorted(shipped.tiles) == sorted(drawn.tiles)
    for kind, face in drawn.tiles.items():
        assert np.array_equal(shipped.tiles[kind], face), kind
        assert np.array_equal(shipped.templates[kind], drawn.templates[kind]), kind


def test_the_script_writes_the_shipped_files(tmp_path: Path) -> None:
    assert make_demo_code(["--out", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(p.name for p in DEMO_CODE.iterdir())
    assert ((tmp_path / "manifest.json").read_text(encoding="utf-8")
            == (DEMO_CODE / "manifest.json").read_text(encoding="utf-8"))
    again = load_code_pack(tmp_path)
    for kind, face in demo_pack().tiles.items():
        assert np.array_equal(again.tiles[kind], face), kind


def test_reading_imports_no_scene_drawing() -> None:
    script = (
        "import sys\n"
        "from vision.break_the_code.mat import mat_image\n"
        "from vision.break_the_code.pack import load_code_pack\n"
        "from vision.break_the_code.reader import read_tiles\n"
        "import vision.break_the_code.teach\n"
        "from vision.errors import FrameRefusedError\n"
        "load_code_pack(None)\n"
        "try:\n"
        "    read_tiles(mat_image(px_per_mm=4))\n"
        "except FrameRefusedError:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if '.synth' in m or m.startswith('vision.synth')))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
