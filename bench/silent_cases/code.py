"""Break the Code racks for bench/silent_reads.py."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import numpy as np

from silent_cases import Case, Verdict

#: (tile style drawn, pack read with): the demo pack on its own tiles and on looks it was
#: not drawn from (ivory, which the reader's margins were measured on, walnut, which nothing
#: was tuned on, and the looks drawn for teaching); a pack taught from one photo of ivory
#: tiles on its own tiles and on walnut tiles
LOOKS = (("demo", "demo"), ("ivory", "demo"), ("walnut", "demo"),
         ("ivory", "ivory-taught"), ("walnut", "ivory-taught"),
         ("plastic", "demo"), ("oak", "demo"), ("layered", "demo"))
#: racks of 4 (three or four players) and of 5 (two players)
RACK_SIZES = (4, 5)
#: the teach photo of the ivory tiles (a tuning seed)
TEACH_SEED = 9


@cache
def _pack(name: str) -> Any:
    from companion.break_the_code.tiles import ALL_TILES
    from vision.break_the_code.pack import demo_pack
    from vision.break_the_code.synth.art import STYLES
    from vision.break_the_code.synth.render import render_frame
    from vision.break_the_code.teach import teach_pack

    if name == "demo":
        return demo_pack()
    photo, _ = render_frame(list(ALL_TILES), seed=TEACH_SEED, look=STYLES["ivory"])
    return teach_pack(photo.image, name=name)


def _board(image: np.ndarray) -> np.ndarray | None:
    from vision.break_the_code.reader import find_mat, panel_outline
    from vision.errors import FrameRefusedError

    try:
        return panel_outline(find_mat(image))
    except FrameRefusedError:
        return None


def cases(first: int, frames: int) -> Iterator[Case]:
    """Racks of 4 or 5 on the code mat in each of :data:`LOOKS` in turn, drawn with the
    default camera effects and with all of them in turn, read through ui.reading."""
    from companion.break_the_code.tiles import ALL_TILES, Code
    from ui.reading import read_code_frame
    from vision.break_the_code.synth.art import STYLES
    from vision.break_the_code.synth.render import render_frame
    from vision.synth.effects import ALL_EFFECTS, DEFAULT_EFFECTS

    for index in range(frames):
        seed = first + index
        rng = random.Random(seed)
        tiles = list(ALL_TILES)
        rng.shuffle(tiles)
        code = Code.of(tiles[:rng.choice(RACK_SIZES)])
        style, pack_name = LOOKS[index % len(LOOKS)]
        effects = ALL_EFFECTS if (index // len(LOOKS)) % 2 else DEFAULT_EFFECTS
        rendered, _ = render_frame(list(code.tiles), seed=seed, look=STYLES[style],
                                   effects=effects)

        def judge(image: np.ndarray, code: Code = code, pack_name: str = pack_name
                  ) -> Verdict:
            reading = read_code_frame(image, expected=len(code), pack=_pack(pack_name))
            if reading.code is None:
                return ("refused", reading.reason) if reading.problem == "refused" \
                    else ("asked", reading.problem)
            # the app path hands back a rack only when it stores it: the table holds those
            right = reading.code == code
            return ("right" if right else "silent_wrong", "", [(reading.confidence, right)])

        label = f"code/{style}" + ("" if pack_name == "demo" else f"@{pack_name[:5]}")
        yield Case(label, seed, rendered.image, judge, _board)
