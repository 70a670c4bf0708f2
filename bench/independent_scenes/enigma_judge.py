"""Judging a read of one of our Enigma tables against its truth, in the reader's own terms.

The read is what ``companion read enigma`` prints (docs/cli.md): tiles with ``at``, ``cells``,
``links`` and ``confidence``, networkers with ``at``, ``cell``, ``colour`` and ``confidence``,
and ``questions``. A tile is:

- **exact** when its networks (openings and cell colours, whatever the cells are called and
  however the links are written) are the truth's;
- **asked** when the read doubts it: confidence below ``[vision] min_confidence`` (the app asks
  before applying it), or a question names its square, or a question names no square at all
  (the players see it before anything is applied);
- **silent wrong** when it is not exact and not asked: a tile read wrong, a tile on the table
  not read, or a tile read where there is none.

Networkers are exact per table when the set of (square, player colour, cell colour) read is
the truth's.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

import numpy as np

SQUARE = re.compile(r"(?:tile|square) \[(-?\d+), (-?\d+)\]")


@dataclass
class TableScore:
    """What one read of one table came to."""

    refused: str = ""
    tiles: int = 0
    exact: int = 0
    asked: int = 0
    silent_wrong: int = 0
    missed: int = 0                # on the table, not read and not asked
    invented: int = 0              # read where no tile lies, not asked
    networkers_exact: bool = False
    networkers_silent_wrong: bool = False
    cpu_ms: float = 0.0
    wall_ms: float = 0.0
    pieces: list[tuple[float, bool]] = field(default_factory=list)   # (confidence, exact)
    wrong: list[str] = field(default_factory=list)


def read_key(tile_json: dict):
    """A read tile's key as :func:`enigma_table.tile_key` makes it, or None if malformed."""
    from companion.enigma.tiles import parse_tile

    from .enigma_table import tile_key

    try:
        return tile_key(parse_tile({"cells": tile_json["cells"], "links": tile_json["links"]}))
    except Exception:                 # any malformed read is simply not the truth
        return None


def asked_squares(questions: list[str]) -> tuple[set[tuple[int, int]], bool]:
    """The squares the questions name, and whether one names none (asks about the table)."""
    squares, table_wide = set(), False
    for question in questions:
        found = {(int(x), int(y)) for x, y in SQUARE.findall(question)}
        squares |= found
        table_wide = table_wide or not found
    return squares, table_wide


def _networkers(read: dict) -> set:
    cells = {tuple(t["at"]): t["cells"] for t in read["tiles"]}
    return {(tuple(n["at"]), n["colour"], cells.get(tuple(n["at"]), {}).get(n["cell"]))
            for n in read["networkers"]}


def judge(read: dict, truth_tiles: dict, truth_networkers: set, threshold: float,
          ) -> TableScore:
    score = TableScore(tiles=len(truth_tiles))
    squares, table_wide = asked_squares(list(read["questions"]))
    read_tiles = {tuple(t["at"]): t for t in read["tiles"]}
    for at in sorted(set(truth_tiles) | set(read_tiles)):
        tile = read_tiles.get(at)
        confidence = float(tile["confidence"]) if tile else 0.0
        right = tile is not None and at in truth_tiles and read_key(tile) == truth_tiles[at]
        asked = table_wide or at in squares or (tile is not None and confidence < threshold)
        if tile is not None:
            score.pieces.append((confidence, right))
        if at in truth_tiles:
            score.exact += right
            score.asked += asked
        if not right and not asked:
            score.silent_wrong += 1
            score.missed += tile is None
            score.invented += at not in truth_tiles
            score.wrong.append(f"{at}: read {tile and (tile['cells'], tile['links'])} "
                               f"truth {truth_tiles.get(at)}")
    read_networkers = _networkers(read)
    score.networkers_exact = read_networkers == truth_networkers
    differing = {n[0] for n in read_networkers ^ truth_networkers}
    doubted = {tuple(n["at"]) for n in read["networkers"] if n["confidence"] < threshold}
    score.networkers_silent_wrong = bool(differing - squares - doubted) and not table_wide
    return score


def read_and_judge(frame: np.ndarray, truth_tiles: dict, truth_networkers: set) -> TableScore:
    """Read ``frame`` the way ``companion read enigma`` does (default config, demo pack)."""
    from config import Config, art_pack_folder
    from vision.enigma.pack import load_enigma_pack
    from vision.enigma.reader import read_enigma
    from vision.enigma.settings import ReaderSettings
    from vision.errors import FrameRefusedError

    cfg = Config()
    pack = load_enigma_pack(art_pack_folder(cfg, cfg.vision.enigma.pack))
    settings = ReaderSettings.from_config(cfg)
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        read = read_enigma(frame, pack, settings=settings).to_json()
    except FrameRefusedError as exc:
        return TableScore(refused=str(exc).removeprefix("frame refused: "),
                          tiles=len(truth_tiles))
    cpu_ms, wall_ms = 1000 * (time.process_time() - cpu), 1000 * (time.perf_counter() - wall)
    score = judge(read, truth_tiles, truth_networkers, cfg.vision.min_confidence)
    score.cpu_ms, score.wall_ms = cpu_ms, wall_ms
    return score


def summary(condition: str, scores: list[TableScore]) -> list[str]:
    """The figures of one camera condition: tiles exact, asked, silent wrong; networkers;
    read time."""
    read = [s for s in scores if not s.refused]
    tiles = sum(s.tiles for s in read) or 1
    exact, asked = sum(s.exact for s in read), sum(s.asked for s in read)
    silent = sum(s.silent_wrong for s in read)
    missed, invented = sum(s.missed for s in read), sum(s.invented for s in read)
    networkers = sum(s.networkers_exact for s in read)
    silent_networkers = sum(s.networkers_silent_wrong for s in read)
    cpu = sorted(s.cpu_ms for s in read) or [0.0]
    wall = sorted(s.wall_ms for s in read) or [0.0]
    return [
        f"{condition}: {len(scores)} tables, {len(scores) - len(read)} refused, "
        f"{tiles if read else 0} tiles read",
        f"  tiles exact {exact} ({100 * exact / tiles:.1f}%), asked {asked} "
        f"({100 * asked / tiles:.1f}%), SILENT WRONG {silent} (missed {missed}, "
        f"invented {invented})",
        f"  networkers exact on {networkers} of {len(read)} tables; silently wrong on "
        f"{silent_networkers}",
        f"  read time median {cpu[len(cpu) // 2]:.0f} ms CPU ({wall[len(wall) // 2]:.0f} ms "
        f"wall), most {cpu[-1]:.0f} ms CPU",
    ]
