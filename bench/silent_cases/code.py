"""Break the Code racks for bench/silent_reads.py."""

from __future__ import annotations

import random
from collections.abc import Iterator

import cv2
import numpy as np

from silent_cases import Case


def cases(first: int, frames: int) -> Iterator[Case]:
    """Break the Code racks of 5 on the code mat, in the demo look and the ivory look (which
    the demo pack was not drawn from), read with the demo pack through ui.reading."""
    from companion.break_the_code.tiles import ALL_TILES, Code
    from ui.reading import read_code_frame
    from vision.break_the_code.mat import PANEL_MM
    from vision.break_the_code.reader import find_mat
    from vision.break_the_code.synth.art import STYLES
    from vision.break_the_code.synth.render import render_frame
    from vision.errors import FrameRefusedError

    def board(image: np.ndarray) -> np.ndarray | None:
        try:
            fit = find_mat(image)
        except FrameRefusedError:
            return None
        x, y, w, h = PANEL_MM
        panel = np.array([[[x, y], [x + w, y], [x + w, y + h], [x, y + h]]], np.float64)
        outline: np.ndarray = cv2.perspectiveTransform(panel, fit.plane_to_image)[0]
        return outline

    for index in range(frames):
        seed = first + index
        rng = random.Random(seed)
        tiles = list(ALL_TILES)
        rng.shuffle(tiles)
        code = Code.of(tiles[:5])
        style = "demo" if index % 2 == 0 else "ivory"
        rendered, _ = render_frame(list(code.tiles), seed=seed, look=STYLES[style])

        def judge(image: np.ndarray, code: Code = code) -> tuple[str, str]:
            reading = read_code_frame(image, expected=5)
            if reading.code is None:
                return ("refused", reading.reason) if reading.problem == "refused" \
                    else ("asked", reading.problem)
            return ("right", "") if reading.code == code else ("silent_wrong", "")

        yield Case(f"code/{style}", seed, rendered.image, judge, board)


