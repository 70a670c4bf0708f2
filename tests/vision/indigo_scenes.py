"""Shared helpers for the Indigo vision tests: seeded states and rendered frames."""

from __future__ import annotations

import random
from typing import Any

from companion.indigo.state import IndigoState
from vision.art_pack import IndigoPack
from vision.indigo_reader import IndigoRead
from vision.indigo_records import random_state

FRAME = (1280, 720)


def state(seed: int, placements: int) -> IndigoState:
    return random_state(random.Random(seed), placements=placements)


def cell_errors(read: IndigoRead, truth: dict[str, Any]) -> list[str]:
    """Cells whose read path set differs from the truth (empty cells included)."""
    want = {tuple(t["cell"]): [list(p) for p in t["paths"]] for t in truth["tiles"]}
    out = []
    for cell, r in read.cells.items():
        got = None if r.tile is None else [list(p) for p in r.tile.paths]
        if got != want.get(cell):
            out.append(f"{cell}: read {r.tile}, truth {want.get(cell)}")
    return out


def gem_multiset(doc: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((g["gem"], repr(sorted(g["at"].items()))) for g in doc["gems"])


def pack_name(pack: IndigoPack) -> str:
    return pack.name
