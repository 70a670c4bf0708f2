"""The assistant's code tables as session 14 built them (one ``Code`` object per code, a dict
index), kept word for word so that tests can check the compact tables against them."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from operator import itemgetter

from companion.break_the_code.tables import (
    SIGNATURE_ORDER,
    TILE_COLOURS,
    TILE_KEYS,
    TILE_NUMBERS,
    code_key,
    code_signature,
)
from companion.break_the_code.tiles import ALL_TILES, Code

GREEN_SHIFT = 18
_TILE_RANKS = tuple(ALL_TILES.index(t) for t in ALL_TILES)


@dataclass(frozen=True)
class OldCodeTable:
    """All codes of one rack size with their answers (``tables[q][i]`` is code i's key)."""

    size: int
    codes: tuple[Code, ...]
    keys: tuple[int, ...]
    index: dict[int, int]
    tables: tuple[bytes, ...]
    greens: tuple[int, ...]

    def index_of(self, code: Code) -> int:
        return self.index[code_key(code)]


def old_code_table(size: int) -> OldCodeTable:
    positions: dict[int, tuple[int, ...]] = {}
    for key, at in zip(map(sum, combinations(TILE_KEYS, size)),
                       combinations(range(len(ALL_TILES)), size), strict=True):
        positions.setdefault(key, at)
    ordered = sorted(positions.items(),
                     key=lambda kv: tuple(map(_TILE_RANKS.__getitem__, kv[1])))
    keys = tuple(key for key, _ in ordered)
    codes = tuple(Code(tuple(map(ALL_TILES.__getitem__, at))) for _, at in ordered)
    reorder = itemgetter(*SIGNATURE_ORDER)
    rows = (reorder(code_signature(tuple(map(TILE_NUMBERS.__getitem__, at)),
                               tuple(map(TILE_COLOURS.__getitem__, at))))
            for _, at in ordered)
    return OldCodeTable(
        size=size,
        codes=codes,
        keys=keys,
        index={k: i for i, k in enumerate(keys)},
        tables=tuple(map(bytes, zip(*rows, strict=True))),
        greens=tuple(key >> GREEN_SHIFT for key in keys),
    )
