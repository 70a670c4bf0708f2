"""Indigo boards for bench/silent_reads.py.

Each seed is a random game after one to 40 placements, drawn in the demo look (the shipped
pack's own), the ``ink`` look, or the demo board with the ink look's gems and chips
(``mixed``: real pieces before the pack was taught from them). Demo and mixed frames are read
with the demo pack; ink frames with a pack of the ink look (``ink``, as if taught from those
pieces) and with the demo pack, which was not drawn from them (``ink-demo-pack``). Each is read
in two ways:

- ``indigo-app/<look>``: through ``ui.reading.read_indigo_frame`` against the state before
  the last placement, as the screen reads a turn. Applied without a question is a proposal
  with no cell to check; it is silent wrong when it is not the placement made.
- ``indigo-read/<look>``: the whole read of the reader (what ``companion read indigo`` and the
  after-check are given), judged at ``[vision] min_confidence``: silent wrong is a tile, gem
  or chip read at or above it that is not the truth, or a gem of the truth that is neither
  read nor asked about (a read that says its pieces do not fit the pack asks about all).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np

from silent_cases import Case, Piece, Verdict

#: the most placements a drawn game has had
MOST_PLACEMENTS = 40
LOOKS = ("demo", "ink", "mixed")
FRAME_SIZE = (1920, 1080)


def _truth_tiles(truth: dict[str, Any]) -> dict[tuple[int, int], list[list[int]]]:
    return {tuple(t["cell"]): [list(p) for p in t["paths"]] for t in truth["tiles"]}


def _gem_keys(gems: list[dict[str, Any]]) -> Counter[tuple[str, str]]:
    return Counter((g["gem"], repr(sorted(g["at"].items()))) for g in gems)


def _gem_asked(key: tuple[str, str], questions: list[str]) -> bool:
    """A question points at this gem's place: the centre, or the cell/corner it names."""
    _, at = key
    if "centre" in at:
        return any(q.startswith("centre:") for q in questions)
    digits = [int(t) for t in at.replace("[", " ").replace("]", " ").replace(",", " ")
              .replace(")", " ").split() if t.lstrip("-").isdigit()]
    return any(f"({digits[0]},{digits[1]})" in q for q in questions)


def read_is_silently_wrong(read: Any, truth: dict[str, Any], min_confidence: float) -> bool:
    """Whether a whole read holds a value at or above ``min_confidence`` that is not the
    truth, or misses a gem without asking."""
    tiles = _truth_tiles(truth)
    for cell, r in read.cells.items():
        got = None if r.tile is None else [list(p) for p in r.tile.paths]
        if got != tiles.get(cell) and r.confidence >= min_confidence:
            return True
    doc = read.to_json()
    sure = [g for g in doc["gems"] if g["confidence"] >= min_confidence]
    want, got_all, got_sure = _gem_keys(truth["gems"]), _gem_keys(doc["gems"]), _gem_keys(sure)
    if got_sure - want:
        return True
    # a read whose pieces do not fit the pack asks about every gem at once
    missed = [key for key in want - got_all if not _gem_asked(key, read.questions)]
    if missed and not read.pieces_unlike_pack:
        return True
    players = {(c["gate"], c["slot"]): c["player"] for c in truth.get("chips", [])}
    return any(chip.confidence >= min_confidence
               and chip.player != players.get((chip.gate, chip.slot))
               for chip in read.chips)


def read_pieces(read: Any, truth: dict[str, Any]) -> list[Piece]:
    """Every tile, gem and chip a whole read gave, with its confidence and whether it is the
    truth (a gem is right when the truth holds one of its colour at its place)."""
    tiles = _truth_tiles(truth)
    pieces = [(r.confidence, (None if r.tile is None else [list(p) for p in r.tile.paths])
               == tiles.get(cell)) for cell, r in read.cells.items()]
    want = _gem_keys(truth["gems"])
    for gem in read.to_json()["gems"]:
        key = _gem_keys([gem])
        pieces.append((gem["confidence"], not (key - want)))
    players = {(c["gate"], c["slot"]): c["player"] for c in truth.get("chips", [])}
    pieces += [(chip.confidence, chip.player == players.get((chip.gate, chip.slot)))
               for chip in read.chips]
    return pieces


def _board(image: np.ndarray) -> np.ndarray | None:
    """The board's rim outline in a frame, None when its markers are not found."""
    from vision.errors import FrameRefusedError
    from vision.indigo.picture_check import board_outline_in_frame
    from vision.indigo.settings import DEFAULT_SETTINGS as SETTINGS
    from vision.markers import locate

    try:
        fit = locate(image, SETTINGS.geometry.layout, checks=SETTINGS.checks)
    except FrameRefusedError:
        return None
    return board_outline_in_frame(fit, SETTINGS.geometry)


def cases(first: int, frames: int) -> Iterator[Case]:
    """Indigo turns in the demo and ink looks (see the module docstring)."""
    from companion.indigo.state import all_legal_placements, play
    from vision.indigo.pack import load_indigo_pack
    from vision.indigo.records import random_state
    from vision.indigo.settings import DEFAULT_SETTINGS
    from vision.indigo.synth.art import draw_pack
    from vision.indigo.synth.render import render_frame
    from vision.synth.effects import ALL_EFFECTS

    demo = load_indigo_pack()
    ink = draw_pack("ink")
    looks = {"demo": demo, "ink": ink,
             "mixed": dataclasses.replace(demo, gems=ink.gems, chips=ink.chips)}
    for index in range(frames):
        seed = first + index
        rng = random.Random(seed)
        before = random_state(rng, placements=rng.randint(0, MOST_PLACEMENTS - 1))
        options = all_legal_placements(before)
        if not options:
            continue
        placement = rng.choice(options)
        after = play(before, placement)[0]
        look = LOOKS[index % len(LOOKS)]
        rendered = render_frame(after, looks[look], settings=DEFAULT_SETTINGS, seed=seed,
                                effects=ALL_EFFECTS, frame_size=FRAME_SIZE)
        packs = {"demo": [("demo", demo)], "mixed": [("mixed", demo)],
                 "ink": [("ink", ink), ("ink-demo-pack", demo)]}[look]
        for label, pack in packs:
            yield from _judged(label, seed, rendered, pack, before, placement)


def _judged(label: str, seed: int, rendered: Any, pack: Any, before: Any, placement: Any
            ) -> Iterator[Case]:
    """The two cases of one rendered frame read with ``pack``: the app's and the reader's."""
    from config import Config
    from ui.reading import read_indigo_frame
    from vision.errors import FrameRefusedError
    from vision.indigo.reader import read_indigo
    from vision.indigo.settings import IndigoSettings

    cfg = Config()
    settings = IndigoSettings.from_config(cfg)

    def judge_app(image: np.ndarray) -> tuple[str, str]:
        try:
            reading = read_indigo_frame(image, cfg, before, pack=pack)
        except FrameRefusedError as exc:
            return "refused", exc.reason
        if reading.proposal is None or reading.questions:
            return "asked", ""
        cell, kind, rotation = reading.proposal
        seen = type(placement.tile)(kind, rotation)
        right = cell == placement.cell and seen.same_pattern(placement.tile)
        return ("right", "") if right else ("silent_wrong", "")

    def judge_read(image: np.ndarray) -> Verdict:
        try:
            read = read_indigo(image, pack, settings=settings)
        except FrameRefusedError as exc:
            return "refused", exc.reason
        pieces = read_pieces(read, rendered.truth)
        if read_is_silently_wrong(read, rendered.truth, settings.min_confidence):
            return "silent_wrong", "", pieces
        return "asked" if read.questions else "right", "", pieces

    yield Case(f"indigo-app/{label}", seed, rendered.image, judge_app, _board)
    yield Case(f"indigo-read/{label}", seed, rendered.image, judge_read, _board)
