"""Second Chance sheets drawn by the independent scene generator (``bench/independent_scenes``),
read the way the app reads a sheet held under the camera: ``ui.reading.read_sheet_frame``.

Two reads of each frame:

- ``indep. sheet``: nothing accepted yet (``set()``), so every filled square is new; the truth
  is every filled square, the bonus 1 included;
- ``indep. sheet last``: the app's usual read in play, everything but the latest drawing
  accepted already; the truth is the latest drawing's squares (the last tile, or the bonus 1
  when one was written).

A reading with a question, a doubtful square, a problem or an accepted square read empty is
shown to the players before anything is applied: asked. Otherwise the new squares are applied,
and they are right or a silent wrong read.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from independent_scenes.sheet import latest_drawing, sheet_scene_with_outline

from silent_cases import Case

Cell = tuple[int, int]
REASON_CHARS = 48                  # enough of a refusal's message to group the rows by it


def _judge(accepted: set[Cell], truth: set[Cell]):
    from ui.reading import read_sheet_frame
    from vision.errors import FrameRefusedError

    def judge(image: np.ndarray) -> tuple[str, str]:
        try:
            reading = read_sheet_frame(image, set(accepted))
        except FrameRefusedError as exc:
            return "refused", str(exc).removeprefix("frame refused: ")[:REASON_CHARS]
        if reading.questions or reading.doubtful or reading.problems or reading.missing:
            return "asked", ""
        new = {tuple(cell) for cell in reading.new_cells}
        return ("right", "") if new == truth else ("silent_wrong", "")

    return judge


def cases(first: int, frames: int) -> Iterator[Case]:
    for seed in range(first, first + frames):
        frame, filled, tiles, outline = sheet_scene_with_outline(seed)
        latest = latest_drawing(filled, tiles)

        def board(image: np.ndarray, outline: np.ndarray = outline) -> np.ndarray:
            return outline

        yield Case(label="indep. sheet", seed=seed, frame=frame,
                   judge=_judge(set(), filled), board=board)
        yield Case(label="indep. sheet last", seed=seed, frame=frame,
                   judge=_judge(filled - latest, latest), board=board)
