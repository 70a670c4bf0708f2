"""Break the Code racks drawn by the independent scene generator (``bench/independent_scenes``),
read the way the app reads a rack shown to the camera: ``ui.reading.read_code_frame``.

The app stores a code only when the reading has one; anything else stores nothing and says why
(``problem``), which counts here as refused. A stored code that is not the rack laid is a
silent wrong read.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from independent_scenes import code_scene_with_outline

from silent_cases import Case

LABEL = "indep. code"


def _judge(tiles: list[str]):
    from companion.break_the_code import Code
    from companion.break_the_code.tiles import Tile
    from ui.reading import read_code_frame

    truth = Code.of(Tile.parse(text) for text in tiles)

    def judge(image: np.ndarray) -> tuple[str, str]:
        reading = read_code_frame(image, expected=len(tiles))
        if reading.code is None:
            return "refused", reading.problem or "nothing stored"
        return ("right", "") if reading.code == truth else ("silent_wrong", "")

    return judge


def cases(first: int, frames: int) -> Iterator[Case]:
    for seed in range(first, first + frames):
        frame, tiles, outline = code_scene_with_outline(seed)
        yield Case(label=f"{LABEL} {len(tiles)}", seed=seed, frame=frame, judge=_judge(tiles),
                   board=lambda image, outline=outline: outline)
