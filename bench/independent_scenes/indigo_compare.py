"""Read an independent Indigo photo with the public reader and hold the read against the truth.

The read is the one ``companion read indigo`` prints (``docs/cli.md``): tiles with their paths,
gems at a cell's edge, a corner or the centre, chips per gateway slot, the questions, and a
confidence per piece. A wrong piece is *asked* when its confidence is below the app's
``min_confidence`` or a question names its cell ("(q,r)") or, for the centre stock, the centre;
otherwise it is *silent*. A gem missed has no confidence: it is asked only when a question names
its place (or asks to check every gem); a chip is asked when a question names its place
("gateway G chip S").
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from companion.indigo import CORNER_BY_CELL, ROUTE_CELLS

from .indigo_board import Spot, Truth, edge_spot

#: words of a question that asks the players to check every gem on the board
EVERY_GEM = ("every gem", "all gems", "all the gems")
#: how a question names one chip place (gate, slot)
CHIP_QUESTION = "gateway {} chip {}"


@dataclass
class Judgement:
    """What one frame's read got right and wrong; counts of pieces."""

    refused: str = ""                # the refusal's message, "" when the frame was read
    cpu_ms: float = 0.0
    cells_right: int = 0
    cells_wrong_asked: int = 0
    cells_wrong_silent: int = 0
    gems: int = 0                    # gems lying on the board (centre stock included)
    gems_right: int = 0
    gems_wrong_asked: int = 0
    gems_wrong_silent: int = 0
    phantoms: int = 0                # gems read where none lies (any colour)
    chips_right: int = 0
    chips_wrong_asked: int = 0
    chips_wrong_silent: int = 0
    centre_exact: bool = False
    centre_asked: bool = False
    any_question: bool = False
    wrong_notes: list[str] = field(default_factory=list)
    #: every piece read: (its confidence, whether it is right), for a reliability table
    pieces: list[tuple[float, bool]] = field(default_factory=list)

    @property
    def wrong_silent(self) -> int:
        return self.cells_wrong_silent + self.gems_wrong_silent + self.chips_wrong_silent

    @property
    def frame_silent_wrong(self) -> bool:
        """Wrong pieces and no question at all: the app would apply this read as it is."""
        wrong = self.cells_wrong_asked + self.gems_wrong_asked + self.chips_wrong_asked + \
            self.wrong_silent
        return not self.refused and wrong > 0 and not self.any_question


@cache
def _reader_setup(pack_dir: str) -> tuple[Any, Any, float]:
    from config import load_config
    from vision.indigo.pack import load_indigo_pack
    from vision.indigo.settings import IndigoSettings

    cfg = load_config(None)
    return load_indigo_pack(Path(pack_dir)), IndigoSettings.from_config(cfg), \
        cfg.vision.min_confidence


def read_frame(frame: np.ndarray, pack_dir: Path) -> tuple[dict[str, Any] | str, float]:
    """What ``companion read indigo FRAME --pack DIR`` prints, or the refusal; CPU ms."""
    from vision.errors import FrameRefusedError
    from vision.indigo.reader import read_indigo

    pack, settings, _ = _reader_setup(str(pack_dir))
    start = time.process_time()
    try:
        out = read_indigo(frame, pack, settings=settings).to_json(pack)
    except FrameRefusedError as exc:
        return str(exc).removeprefix("frame refused: "), 1000 * (time.process_time() - start)
    return out, 1000 * (time.process_time() - start)


def min_confidence(pack_dir: Path | None = None) -> float:
    """The app's ``[vision] min_confidence``: below it a piece is asked."""
    if pack_dir is None:
        from config import load_config

        return float(load_config(None).vision.min_confidence)
    return _reader_setup(str(pack_dir))[2]


def _spot_of(at: dict[str, Any]) -> Spot:
    if at.get("centre"):
        return ("centre",)
    if "corner" in at:
        return ("corner", tuple(at["corner"]))
    cell, edge = tuple(at["cell"]), int(at["edge"])
    corner = CORNER_BY_CELL.get(cell)
    if corner is not None and corner.arrow_edge == edge:
        return ("corner", cell)
    return edge_spot(cell, edge)


def _named(spot: Spot, questions: list[str]) -> bool:
    text = " ".join(questions).lower().replace(", ", ",")
    if spot[0] != "cell" and any(words in text for words in EVERY_GEM):
        return True
    if spot[0] == "centre":
        return "centre" in text or "center" in text
    cells = list(spot[1]) if spot[0] == "edge" else [spot[1]]
    return any(f"({q},{r})" in text for q, r in cells)


def _judge_cells(j: Judgement, truth: Truth, out: dict[str, Any], floor: float) -> None:
    read = {tuple(t["cell"]): (tuple(sorted(tuple(sorted(p)) for p in t["paths"])),
                               float(t["confidence"])) for t in out["tiles"]}
    unsure_empty = {tuple(e["cell"]): float(e["confidence"]) for e in out.get("empty_cells", [])}
    for cell in ROUTE_CELLS:
        paths, confidence = read.get(cell, (None, unsure_empty.get(cell, 1.0)))
        j.pieces.append((confidence, paths == truth.tiles.get(cell)))
        if paths == truth.tiles.get(cell):
            j.cells_right += 1
        elif confidence < floor or _named(("cell", cell), out["questions"]):
            j.cells_wrong_asked += 1
        else:
            j.cells_wrong_silent += 1
            j.wrong_notes.append(f"cell {cell}: {truth.tiles.get(cell)} read {paths} "
                                 f"at {confidence:.2f}")


def _judge_gems(j: Judgement, truth: Truth, out: dict[str, Any], floor: float) -> None:
    expected: dict[Spot, Counter[str]] = {}
    for gem, spot in truth.gems:
        expected.setdefault(spot, Counter())[gem] += 1
    seen: dict[Spot, list[tuple[str, float]]] = {}
    for g in out["gems"]:
        seen.setdefault(_spot_of(g["at"]), []).append((g["gem"], float(g["confidence"])))
    j.gems = len(truth.gems)
    questions = out["questions"]
    for spot in set(expected) | set(seen):
        want = Counter(expected.get(spot, Counter()))
        got = sorted(seen.get(spot, []), key=lambda gc: -gc[1])
        extra = []
        for gem, confidence in got:
            j.pieces.append((confidence, want[gem] > 0))
            if want[gem] > 0:
                want[gem] -= 1
                j.gems_right += 1
            else:
                extra.append((gem, confidence))
        missed = list(want.elements())
        j.phantoms += max(0, len(extra) - len(missed))
        named = _named(spot, questions)
        for gem, confidence in extra:          # read wrong: a phantom or another colour
            asked = confidence < floor or named
            j.gems_wrong_asked += asked
            j.gems_wrong_silent += not asked
            if not asked:
                j.wrong_notes.append(f"gem {spot}: read {gem} at {confidence:.2f}, "
                                     f"lies {sorted(expected.get(spot, Counter()).elements())}")
        for gem in missed[len(extra):]:        # missed with nothing read in its place
            j.gems_wrong_asked += named
            j.gems_wrong_silent += not named
            if not named:
                j.wrong_notes.append(f"gem {spot}: {gem} missed")
    centre_read = Counter(g for g, _ in seen.get(("centre",), []))
    j.centre_exact = centre_read == expected.get(("centre",), Counter())
    j.centre_asked = _named(("centre",), questions)


def _judge_chips(j: Judgement, truth: Truth, out: dict[str, Any], floor: float) -> None:
    read = {(c["gate"], c["slot"]): (c["colour"], float(c["confidence"])) for c in out["chips"]}
    text = " ".join(out["questions"]).lower()
    for place, colour in truth.chips.items():
        got, confidence = read.get(place, (None, 0.0))
        j.pieces.append((confidence, got == colour))
        if got == colour:
            j.chips_right += 1
        elif confidence < floor or CHIP_QUESTION.format(*place) in text:
            j.chips_wrong_asked += 1
        else:
            j.chips_wrong_silent += 1
            j.wrong_notes.append(f"chip {place}: {colour} read {got} at {confidence:.2f}")


def judge(truth: Truth, out: dict[str, Any] | str, cpu_ms: float, floor: float) -> Judgement:
    """Hold one read (or refusal) against the truth."""
    j = Judgement(cpu_ms=cpu_ms)
    if isinstance(out, str):
        j.refused = out
        return j
    _judge_cells(j, truth, out, floor)
    _judge_gems(j, truth, out, floor)
    _judge_chips(j, truth, out, floor)
    confidences = [float(p["confidence"]) for key in ("tiles", "gems", "chips", "empty_cells")
                   for p in out.get(key, [])]
    j.any_question = bool(out["questions"]) or any(c < floor for c in confidences)
    return j
