"""Break the Code racks drawn by the independent scene generator (``bench/independent_scenes``),
read the way the app reads a rack shown to the camera: ``ui.reading.read_code_frame``.

Two kinds of frames per seed:

- ``indep. code N``: a tile look of our own per seed, read with the shipped (demo) art pack,
  as a player who never taught the camera their tiles;
- ``indep. code taught N``: the tiles of one box, taught to the camera first the documented
  way (``companion teach code`` on a photo of the 20 tiles in box order), read with that pack.

The app stores a code only when the reading has one; anything else stores nothing and says why
(``problem``), which counts here as refused. A stored code that is not the rack laid is a
silent wrong read.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from independent_scenes.code_mat import code_scene_with_outline, teach_photo
from independent_scenes.printed import REPO

from silent_cases import Case

TAUGHT_BOX = 1                     # the one box of tiles the camera is taught


@cache
def taught_config():
    """The app's config with ``[vision.code] pack`` set to a pack taught from our own photo."""
    from config.schema import CodeReaderConfig, Config, VisionConfig

    folder = Path(tempfile.mkdtemp(prefix="independent-teach-"))
    photo = folder / "all-tiles.png"
    cv2.imwrite(str(photo), teach_photo(TAUGHT_BOX))
    subprocess.run([sys.executable, "-m", "ui.cli", "teach", "code", str(photo),
                    "-o", str(folder / "pack")], cwd=REPO, check=True, capture_output=True)
    return Config(vision=VisionConfig(code=CodeReaderConfig(pack=str(folder / "pack"))))


def _judge(tiles: list[str], taught: bool):
    from companion.break_the_code import Code
    from companion.break_the_code.tiles import Tile
    from ui.reading import read_code_frame

    truth = Code.of(Tile.parse(text) for text in tiles)
    cfg = taught_config() if taught else None

    def judge(image: np.ndarray) -> tuple[str, str]:
        reading = read_code_frame(image, expected=len(tiles), cfg=cfg)
        if reading.code is None:
            return "refused", reading.problem or "nothing stored"
        return ("right", "") if reading.code == truth else ("silent_wrong", "")

    return judge


def cases(first: int, frames: int) -> Iterator[Case]:
    for seed in range(first, first + frames):
        for taught in (False, True):
            frame, tiles, outline = code_scene_with_outline(
                seed, box_seed=TAUGHT_BOX if taught else None)
            label = f"indep. code {'taught ' if taught else ''}{len(tiles)}"
            yield Case(label=label, seed=seed, frame=frame, judge=_judge(tiles, taught),
                       board=lambda image, outline=outline: outline)
