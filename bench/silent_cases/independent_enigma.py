"""Enigma tables drawn by the independent scene generator (``bench/independent_scenes``), read
the way ``companion read enigma`` reads a whole table (default config, demo pack).

Two frames per seed, the same table: ``indep. enigma clean`` and ``indep. enigma harsh`` (our
own camera conditions; bench/silent_reads.py then adds its own on top).

A table is a silent wrong read when any tile is wrong (read wrong, missed or invented) with no
question about it and a confidence the app applies; otherwise asked when any tile is doubted or
any question is asked; otherwise right. The pieces for the reliability table are the tiles
read, with their confidence and whether they are exact.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from independent_scenes.enigma_judge import read_and_judge
from independent_scenes.enigma_table import enigma_scene, truth_of

from silent_cases import Case, Verdict

REASON_CHARS = 48                  # enough of a refusal's message to group the rows by it


def _judge(truth_tiles: dict, truth_networkers: set):
    def judge(image: np.ndarray) -> Verdict:
        score = read_and_judge(image, truth_tiles, truth_networkers)
        if score.refused:
            return "refused", score.refused[:REASON_CHARS]
        if score.silent_wrong or score.networkers_silent_wrong:
            return "silent_wrong", "", score.pieces
        if score.asked or not score.networkers_exact:
            return "asked", "", score.pieces
        return "right", "", score.pieces

    return judge


def cases(first: int, frames: int) -> Iterator[Case]:
    for seed in range(first, first + frames):
        for condition in ("clean", "harsh"):
            frame, table = enigma_scene(seed, condition)
            yield Case(label=f"indep. enigma {condition}", seed=seed, frame=frame,
                       judge=_judge(*truth_of(table)), board=lambda image: None)
