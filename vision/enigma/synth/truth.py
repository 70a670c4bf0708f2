"""Scoring a read against the renderer's ground truth (tests and the benchmark).

Cells are matched by where they lie on the tile, not by name, so a reader that names two cells
in a row the other way round is not counted wrong; after matching, cells, colours, ports and
links (what is connected to what) must all agree for a tile to count as read exactly.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.enigma.tiles import Pos, Tile, parse_tile
from vision.enigma.read_types import EnigmaRead

Point = tuple[float, float]


@dataclass
class ReadScore:
    tiles: int = 0
    tiles_exact: int = 0
    networkers: int = 0
    networkers_exact: int = 0
    extra_networkers: int = 0
    extra_tiles: int = 0
    confident_wrong: int = 0  # tiles read wrong with confidence at or above the threshold
    wrong: list[str] = field(default_factory=list)
    #: each tile read where the truth has one: (its confidence, whether it is the truth)
    pieces: list[tuple[float, bool]] = field(default_factory=list)

    def add(self, other: ReadScore) -> None:
        for name in ("tiles", "tiles_exact", "networkers", "networkers_exact",
                     "extra_networkers", "extra_tiles", "confident_wrong"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.wrong.extend(other.wrong)
        self.pieces.extend(other.pieces)


def _match(truth_xy: Mapping[str, Point], read_xy: Mapping[str, Point]) -> dict[str, str] | None:
    """Read cell name -> truth cell name, nearest within 0.15 tile, one to one."""
    out: dict[str, str] = {}
    for name, (x, y) in read_xy.items():
        best = min(truth_xy, key=lambda t: math.hypot(truth_xy[t][0] - x, truth_xy[t][1] - y),
                   default=None)
        if best is None or math.hypot(truth_xy[best][0] - x, truth_xy[best][1] - y) > 0.15:
            return None
        out[name] = best
    if len(set(out.values())) != len(out) or len(out) != len(truth_xy):
        return None
    return out


def _renamed(tile: Tile, names: Mapping[str, str]) -> Tile:
    cells = {names[c]: colour for c, colour in tile.cells}
    links = [(names[a] if isinstance(a, str) else a, names[b] if isinstance(b, str) else b)
             for a, b in tile.links]
    return Tile.make(cells, links)


def same_tile(truth: Tile, truth_xy: Mapping[str, Point], read: Tile,
              read_xy: tuple[Point, ...]) -> bool:
    """Whether a tile read (its cells where ``read_xy`` says) is the tile of the truth
    (its cells where ``truth_xy`` says): cells matched by place, then what joins what."""
    names = _match(truth_xy, dict(zip(read.cell_ids, read_xy, strict=True)))
    return names is not None and _renamed(read, names).is_equivalent(truth)


def score_read(truth: Mapping[str, Any], truth_xy: Mapping[Pos, Mapping[str, Point]],
               read: EnigmaRead, *, min_confidence: float = 0.85) -> ReadScore:
    """Compare one read with the truth of its rendered frame."""
    score = ReadScore()
    maps: dict[Pos, dict[str, str]] = {}
    truth_tiles = {(t["at"][0], t["at"][1]): t for t in truth["tiles"]}
    for at, entry in truth_tiles.items():
        score.tiles += 1
        got = read.tiles.get(at)
        ok = False
        if got is not None:
            if at == (0, 0):
                ok = got.tile.is_equivalent(parse_tile(entry))
                maps[at] = {}
            else:
                names = _match(truth_xy[at], dict(zip(got.tile.cell_ids, got.centres,
                                                      strict=True)))
                if names is not None:
                    maps[at] = names
                    ok = _renamed(got.tile, names).is_equivalent(parse_tile(entry))
        if got is not None:
            score.pieces.append((got.confidence, ok))
        if ok:
            score.tiles_exact += 1
        else:
            score.wrong.append(f"tile {list(at)}: truth {entry['cells']} {entry['links']}, read "
                               f"{got.to_json() if got else None}")
            if got is not None and got.confidence >= min_confidence:
                score.confident_wrong += 1
    score.extra_tiles = len(set(read.tiles) - set(truth_tiles))
    wanted = {((n["at"][0], n["at"][1]), n["cell"], n["colour"]) for n in truth["networkers"]}
    seen = set()
    for n in read.networkers:
        cell = maps.get(n.at, {}).get(n.cell)
        seen.add((n.at, cell, n.colour))
    score.networkers = len(wanted)
    score.networkers_exact = len(wanted & seen)
    score.extra_networkers = len(seen - wanted)
    if wanted != seen:
        score.wrong.append(f"networkers: missed {sorted(wanted - seen)}, extra "
                           f"{sorted(seen - wanted, key=str)}")
    return score


__all__ = ["ReadScore", "same_tile", "score_read"]
