"""The puzzle check screen's work off the main loop: the puzzle box's cards as pictures, and a
camera frame checked (:func:`vision.enigma.puzzles.check.check_puzzle`) and drawn with the
check's marks over it: the weights and each pan's sum, the silhouette left uncovered, an open
channel, what the camera doubts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from config import art_pack_folder

#: the puzzle kinds, in the order the screen offers them
KINDS = ("weight", "fragment", "angular", "conduit")
#: the checked picture's width on screen (the camera's preview width)
PICTURE_WIDTH = 960
#: BGR colours of the marks, by kind: what was counted in green and white, what is wrong in
#: red or orange, what the camera doubts in magenta
MARK_BGR = {
    "weight": (80, 230, 80), "cup": (255, 255, 255), "pan": (40, 220, 255),
    "doubt": (255, 60, 255), "uncovered": (40, 40, 255), "overhang": (0, 150, 255),
    "piece": (40, 40, 255), "channel": (40, 40, 255), "stub": (255, 60, 255),
    "structure": (80, 230, 80), "card": (235, 235, 235),
}
#: the marks filled see-through (a region), the others drawn as outlines
FILLED = frozenset({"uncovered", "overhang"})
FILL_ALPHA = 0.45
#: the picture shows the marks' region this many times its size, and at least this share of
#: the frame's width
REGION_MARGIN, MIN_REGION = 1.2, 0.2
#: the marks whose numbers are written on the picture: each pan's sum (a cup's count is seen
#: in the weights outlined in it)
NUMBERED = frozenset({"pan"})


def puzzle_box() -> Any:
    from companion.enigma.puzzles import load_puzzles

    return load_puzzles()


def enigma_pack(cfg: Any) -> Any:
    """The configured Enigma pack, loaded again only when its folder changed: a check a
    turn must not pay for reading the pack's images from disk each time."""
    from vision.enigma.pack_cache import cached_enigma_pack

    return cached_enigma_pack(art_pack_folder(cfg, cfg.vision.enigma.pack))


@dataclass(frozen=True)
class PuzzleCheckResult:
    verdict: Any  # vision.enigma.puzzles.verdicts.PuzzleVerdict
    picture: Any  # the frame checked, at PICTURE_WIDTH, with the marks drawn (BGR)


def check_frame(frame: Any, cfg: Any, kind: str, card_id: str) -> PuzzleCheckResult:
    """Check ``frame`` for puzzle ``card_id`` of ``kind`` (runs on a worker thread)."""
    from vision.enigma.puzzles.check import check_puzzle
    from vision.enigma.settings import PuzzleSettings

    box = puzzle_box()
    card = getattr(box, kind).cards[card_id]
    said = check_puzzle(kind, frame, enigma_pack(cfg), card=card, box=box,
                        settings=PuzzleSettings.from_config(cfg))
    return PuzzleCheckResult(said, draw_marks(frame, said.marks))


def draw_marks(frame: Any, marks: Any) -> Any:
    """``frame`` scaled to :data:`PICTURE_WIDTH` with ``marks`` (camera frame pixels) drawn."""
    import cv2
    import numpy as np

    x0, y0, x1, y1 = marked_region(frame.shape, marks)
    scale = PICTURE_WIDTH / (x1 - x0)
    picture = cv2.resize(frame[y0:y1, x0:x1],
                         (PICTURE_WIDTH, int(round((y1 - y0) * scale))),
                         interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    marks = [replace(m, points=tuple((x - x0, y - y0) for x, y in m.points)) for m in marks]
    fill = picture.copy()
    line = max(2, PICTURE_WIDTH // 320)
    for mark in marks:
        colour = MARK_BGR.get(str(mark.kind), (255, 255, 255))
        pts = np.round(np.array(mark.points, np.float64) * scale).astype(np.int32)
        if len(pts) == 1:
            x, y = (int(v) for v in pts[0])
            if not mark.label:  # a spot: a ring round a dot
                cv2.circle(picture, (x, y), 7 * line, colour, 2 * line, cv2.LINE_AA)
                cv2.circle(picture, (x, y), 2 * line, colour, -1, cv2.LINE_AA)
            continue
        if str(mark.kind) in FILLED:
            cv2.fillPoly(fill, [pts], colour, cv2.LINE_AA)
        width = {"doubt": 2 * line, "card": 1}.get(str(mark.kind), line)
        cv2.polylines(picture, [pts], True, colour, width, cv2.LINE_AA)
    picture = cv2.addWeighted(fill, FILL_ALPHA, picture, 1 - FILL_ALPHA, 0)
    for mark in marks:  # the numbers last, over everything
        if mark.label and str(mark.kind) in NUMBERED:
            centre = np.array(mark.points, np.float64).mean(axis=0) * scale
            big = str(mark.kind) == "pan"
            _number(picture, mark.label, centre, MARK_BGR.get(str(mark.kind), (255, 255, 255)),
                    1.9 if big else 0.8)
    return picture


def marked_region(shape: Any, marks: Any) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of the frame to show: the marks with a margin around them, at the
    frame's proportions, never under :data:`MIN_REGION` of it (the card is small in a camera
    frame of the whole mat, and its marks must read on a 7-inch screen); the whole frame
    without marks."""
    height, width = shape[:2]
    points = [p for m in marks for p in m.points]
    if not points:
        return 0, 0, width, height
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    w = max((max(xs) - min(xs)) * REGION_MARGIN, (max(ys) - min(ys)) * REGION_MARGIN
            * width / height, MIN_REGION * width)
    w = min(w, width)
    h = w * height / width
    x0 = int(round(min(max(cx - w / 2, 0), width - w)))
    y0 = int(round(min(max(cy - h / 2, 0), height - h)))
    return x0, y0, x0 + int(round(w)), y0 + int(round(h))


def _number(picture: Any, text: str, centre: Any, colour: Any, size: float) -> None:
    """Digits centred on ``centre``, dark-edged so they read on any table."""
    import cv2

    font, thick = cv2.FONT_HERSHEY_SIMPLEX, max(2, int(2 * size))
    (w, h), _ = cv2.getTextSize(text, font, size, thick)
    at = (int(centre[0] - w / 2), int(centre[1] + h / 2))
    cv2.putText(picture, text, at, font, size, (0, 0, 0), thick + 4, cv2.LINE_AA)
    cv2.putText(picture, text, at, font, size, colour, thick, cv2.LINE_AA)


__all__ = ["KINDS", "PuzzleCheckResult", "check_frame", "draw_marks", "enigma_pack",
           "marked_region", "puzzle_box"]
