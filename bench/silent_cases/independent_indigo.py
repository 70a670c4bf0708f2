"""Indigo boards drawn by the independent scene generator (``bench/independent_scenes``), read
whole as ``companion read indigo --pack PACK`` reads them (``vision.indigo.reader.read_indigo``).

Two looks per seed, in the generator's ``mild`` camera (the bench's conditions come on top):

- ``indep. indigo demo``: the demo pack's art with real-looking gems, read with the demo pack;
- ``indep. indigo scans``: the publisher's scanned art, read with a pack made from the scans.

A read with any question or any piece below ``[vision] min_confidence`` is shown to the players
before anything is applied: asked. Otherwise it is right, or a silent wrong read when any tile,
gem or chip differs from the truth (a gem missed included).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from independent_scenes.indigo_board import Truth
from independent_scenes.indigo_compare import judge, min_confidence, read_frame
from independent_scenes.indigo_scene import indigo_scene

from silent_cases import Case, Verdict

LOOKS = ("demo", "scans")
REASON_CHARS = 48                  # enough of a refusal's message to group the rows by it


def _judge(truth: Truth, pack):
    def verdict(image: np.ndarray) -> Verdict:
        out, cpu_ms = read_frame(image, pack)
        j = judge(truth, out, cpu_ms, min_confidence(pack))
        if j.refused:
            return "refused", j.refused[:REASON_CHARS]
        if j.any_question:
            return "asked", "", j.pieces
        wrong = j.wrong_silent + j.cells_wrong_asked + j.gems_wrong_asked + j.chips_wrong_asked
        return ("silent_wrong" if wrong else "right"), "", j.pieces

    return verdict


def cases(first: int, frames: int) -> Iterator[Case]:
    for seed in range(first, first + frames):
        for look in LOOKS:
            scene = indigo_scene(seed, look, "mild")
            yield Case(label=f"indep. indigo {look}", seed=seed, frame=scene.frame,
                       judge=_judge(scene.truth, scene.look.pack),
                       board=lambda image, outline=scene.outline: outline)
