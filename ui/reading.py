"""Turning a camera read into what the screens propose; the engine stays the judge.

A read is compared with the last accepted state: a cell that changed from empty to a tile is a
proposed placement; anything else (a tile that changed, several new tiles, a low confidence)
becomes a question mark on that cell. Nothing is applied without the players' confirmation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class IndigoReading:
    """What the screen shows after "read the board"."""

    proposal: tuple[tuple[int, int], int, int] | None = None
    confidence: float = 0.0
    #: cells to ask about, with why
    questions: dict[tuple[int, int], str] = field(default_factory=dict)
    message: str = ""


class ReaderUnavailableError(RuntimeError):
    """The vision package has no board reader for this game (yet)."""


def read_indigo_frame(frame: Any, cfg: Any, state: Any) -> IndigoReading:
    """Read ``frame`` and diff it against ``state`` (runs on a worker thread)."""
    try:
        from vision.indigo import read_indigo  # type: ignore[import-not-found]
    except ImportError as exc:
        raise ReaderUnavailableError("the Indigo board reader is not installed") from exc
    read = read_indigo(frame, cfg)
    return diff_indigo(read, state, min_confidence=float(cfg.vision.min_confidence))


def _cells_of(read: Any) -> dict[tuple[int, int], Any]:
    tiles = getattr(read, "tiles", read.get("tiles") if isinstance(read, dict) else {})
    return {tuple(cell): value for cell, value in dict(tiles or {}).items()}


def diff_indigo(read: Any, state: Any, *, min_confidence: float) -> IndigoReading:
    """Propose the one new tile of ``read``; everything unexpected becomes a question."""
    accepted = dict(getattr(state, "tiles", {}) or {})
    result = IndigoReading()
    new: list[tuple[tuple[int, int], int, int, float]] = []
    for cell, value in _cells_of(read).items():
        tile = getattr(value, "tile", value)
        if tile is None:
            if cell in accepted:
                result.questions[cell] = "tile missing"
            continue
        kind = int(getattr(tile, "kind", getattr(value, "kind", -1)))
        rotation = int(getattr(tile, "rotation", getattr(value, "rotation", 0)))
        confidence = float(getattr(value, "confidence", 1.0))
        if cell in accepted:
            old = accepted[cell]
            same = getattr(old, "same_pattern", None)
            if callable(same) and hasattr(tile, "paths") and not same(tile):
                result.questions[cell] = "tile changed"
            continue
        new.append((cell, kind, rotation, confidence))
    if len(new) == 1:
        cell, kind, rotation, confidence = new[0]
        result.proposal = (cell, kind, rotation)
        result.confidence = confidence
        if confidence < min_confidence:
            result.questions[cell] = "unsure"
    elif len(new) > 1:
        for cell, *_rest in new:
            result.questions[cell] = "more than one new tile"
    return result
