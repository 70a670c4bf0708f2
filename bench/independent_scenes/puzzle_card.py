"""The printed puzzle cards and the mat's marker papers, as a player has them on the table.

Every size here was measured on pictures ``companion render puzzle`` writes (straightened on
the mat's four markers, ids 16..19 clockwise from the top left, centres on the 240 x 150 mm
rectangle of ``[vision.enigma] mat_frame_mm``, markers 30 mm on 60 mm white paper), not taken
from the drawing code: the card is a 60 mm square with a dark triangle in its top-left corner;
the weight card prints a beam, a ring per cup and the cup values under them, the count in the
lower-right corner; the fragment card a grey silhouette at 6.5 mm per tangram unit, its box
centred; the conduit card a 3 x 3 grid of 14.8 mm cells with the stubs as small brown bars
outside it; the angular card the top picture at 10.6 mm per column. Our print uses its own
paper, inks and font (DejaVu Sans Bold when the machine has it, else a Hershey face).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

CARD_MM = 60.0
PX_PER_MM = 10.0                   # our print's resolution, before the camera sees it
SUPERSAMPLE = 2                    # drawn this much finer, then averaged down
CORNER_MM = 7.2                    # the legs of the dark triangle at the top left
# weight card (card mm, origin at the card's top-left corner, y down)
BEAM = ((4.9, 17.4), (55.2, 18.7))
FULCRUM = ((30.15, 19.0), (27.9, 24.2), (32.4, 24.2))
CUP_Y = 31.15
CUPS_X = {1: (-14.4,), 2: (-20.6, -8.4)}   # offsets from the middle, left side, outer first
CUP_RING_MM = {1: 6.7, 2: 5.75}     # ring radius to the middle of its stroke
RING_STROKE_MM = 0.55
MIDDLE_X = 30.15
DIGIT_TOP, DIGIT_MM = 44.1, 4.4
COUNT_RIGHT, COUNT_TOP = 54.3, 53.6
# fragment card
FRAGMENT_UNIT_MM = 6.5
# conduit card
CONDUIT_CELL_MM = 14.8
CONDUIT_GRID_LEFT_TOP = 7.8
STUB_MM = (3.3, 2.8)               # along the side, out from it
# angular card
PICTURE_CELL_MM = 10.6
# the mat
MAT_FRAME_MM = (240.0, 150.0)
MAT_MARKER_MM = 30.0
MAT_PAPER_MM = 60.0
MAT_IDS = (16, 17, 18, 19)          # top left, then clockwise
FONT_FILES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
              "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf")


def _px(mm: float) -> int:
    return int(round(mm * PX_PER_MM * SUPERSAMPLE))


def _pts(points_mm) -> np.ndarray:
    return np.round(np.asarray(points_mm, float) * PX_PER_MM * SUPERSAMPLE * 16).astype(np.int32)


class Print:
    """One card's paper and inks: a little different from card to card."""

    def __init__(self, rng: np.random.Generator):
        self.paper = np.clip(np.array([236, 240, 242], float) + rng.uniform(-8, 6, 3), 0, 255)
        self.ink = np.full(3, rng.uniform(25, 45))
        self.grey = self.paper * rng.uniform(0.62, 0.72)      # the silhouette's print
        self.stub = np.array([38, 88, 150], float) + rng.uniform(-10, 10, 3)
        self.line = self.ink * 1.3


def _blank(look: Print) -> np.ndarray:
    side = _px(CARD_MM)
    card = np.empty((side, side, 3), np.float32)
    card[:] = look.paper
    corner = _pts([(0, 0), (CORNER_MM, 0), (0, CORNER_MM)])
    cv2.fillPoly(card, [corner], look.ink.tolist(), cv2.LINE_AA, shift=4)
    return card


def _text(card: np.ndarray, text: str, left_mm: float, top_mm: float, height_mm: float,
          colour: np.ndarray, *, right_aligned: bool = False, centred: bool = False) -> None:
    """Digits in our print's font, their ink box ``height_mm`` tall."""
    from PIL import Image, ImageDraw, ImageFont

    font_file = next((f for f in FONT_FILES if Path(f).exists()), None)
    size_px = _px(height_mm)
    if font_file is None:               # no TrueType face here: a Hershey face will do
        scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_DUPLEX, size_px, 3)
        (w, _), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 3)
        x = _px(left_mm) - (w if right_aligned else w // 2 if centred else 0)
        cv2.putText(card, text, (x, _px(top_mm) + size_px), cv2.FONT_HERSHEY_DUPLEX, scale,
                    colour.tolist(), 3, cv2.LINE_AA)
        return
    font = ImageFont.truetype(font_file, int(size_px / 0.73))
    box = font.getbbox(text)
    mask = Image.new("L", (box[2] - box[0] + 4, box[3] - box[1] + 4), 0)
    ImageDraw.Draw(mask).text((2 - box[0], 2 - box[1]), text, fill=255, font=font)
    alpha = np.asarray(mask, np.float32)[..., None] / 255
    h, w = alpha.shape[:2]
    x = _px(left_mm) - (w if right_aligned else w // 2 if centred else 0)
    y = _px(top_mm)
    roi = card[y:y + h, x:x + w]
    roi -= (roi - colour.astype(np.float32)) * alpha[:roi.shape[0], :roi.shape[1]]


def cup_centres(cups: int, side: str) -> list[tuple[float, float, float]]:
    """(x, y, ring radius) in card mm of each cup on ``side``, in the card's cup order."""
    if cups not in CUPS_X:
        raise ValueError(f"our print has 1 or 2 cups a side, not {cups}")
    sign = 1 if side == "left" else -1     # the offsets are those of the left side
    xs = [MIDDLE_X + sign * dx for dx in CUPS_X[cups]]
    return [(x, CUP_Y, CUP_RING_MM[cups]) for x in sorted(xs)]


def weight_card(left: tuple[int, ...], right: tuple[int, ...], count: int,
                look: Print) -> np.ndarray:
    card = _blank(look)
    cv2.rectangle(card, tuple(int(v) for v in _pts(BEAM[0]) // 16),
                  tuple(int(v) for v in _pts(BEAM[1]) // 16), look.ink.tolist(), -1)
    cv2.fillPoly(card, [_pts(FULCRUM)], look.ink.tolist(), cv2.LINE_AA, shift=4)
    for side, values in (("left", left), ("right", right)):
        for (x, y, r), value in zip(cup_centres(len(values), side), values, strict=True):
            cv2.circle(card, (_px(x), _px(y)), _px(r), look.ink.tolist(),
                       _px(RING_STROKE_MM), cv2.LINE_AA)
            _text(card, str(value), x, DIGIT_TOP, DIGIT_MM, look.ink, centred=True)
    _text(card, str(count), COUNT_RIGHT, COUNT_TOP, DIGIT_MM, look.ink, right_aligned=True)
    return _finish(card)


def fragment_to_card(point_units: np.ndarray, silhouette: tuple) -> np.ndarray:
    """Tangram units -> card mm: the silhouette's box centred on the card, 6.5 mm a unit."""
    every = np.concatenate([np.asarray(part, float) for part in silhouette])
    middle = (every.min(axis=0) + every.max(axis=0)) / 2
    return (np.asarray(point_units, float) - middle) * FRAGMENT_UNIT_MM + CARD_MM / 2


def fragment_card(silhouette: tuple, look: Print) -> np.ndarray:
    card = _blank(look)
    for part in silhouette:
        cv2.fillPoly(card, [_pts(fragment_to_card(np.asarray(part), silhouette))],
                     look.grey.tolist(), cv2.LINE_AA, shift=4)
    return _finish(card)


def conduit_cell_box(cell: tuple[int, int]) -> tuple[float, float, float, float]:
    """Left, top, right, bottom (card mm) of a conduit card cell [x, y]."""
    left = CONDUIT_GRID_LEFT_TOP + cell[0] * CONDUIT_CELL_MM
    top = CONDUIT_GRID_LEFT_TOP + cell[1] * CONDUIT_CELL_MM
    return left, top, left + CONDUIT_CELL_MM, top + CONDUIT_CELL_MM


def conduit_card(cells, stubs, look: Print) -> np.ndarray:
    card = _blank(look)
    for cell in cells:
        l, t, r, b = conduit_cell_box(tuple(cell))
        cv2.polylines(card, [_pts([(l, t), (r, t), (r, b), (l, b)])], True,
                      look.line.tolist(), _px(0.22), cv2.LINE_AA, shift=4)
    along, out = STUB_MM
    for cell, side in stubs:
        l, t, r, b = conduit_cell_box(tuple(cell))
        mx, my = (l + r) / 2, (t + b) / 2
        box = {"N": (mx - along / 2, t - out, mx + along / 2, t),
               "S": (mx - along / 2, b, mx + along / 2, b + out),
               "W": (l - out, my - along / 2, l, my + along / 2),
               "E": (r, my - along / 2, r + out, my + along / 2)}[side]
        x0, y0, x1, y1 = box
        cv2.fillPoly(card, [_pts([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])],
                     look.stub.tolist(), cv2.LINE_AA, shift=4)
    return _finish(card)


def angular_card(top: tuple[str, ...], colours: dict[str, np.ndarray], look: Print) -> np.ndarray:
    card = _blank(look)
    rows, cols = len(top), len(top[0])
    left = CARD_MM / 2 - cols * PICTURE_CELL_MM / 2
    upper = CARD_MM / 2 - rows * PICTURE_CELL_MM / 2
    for y, row in enumerate(top):
        for x, letter in enumerate(row):
            if letter == ".":
                continue
            l, t = left + x * PICTURE_CELL_MM, upper + y * PICTURE_CELL_MM
            square = [(l, t), (l + PICTURE_CELL_MM, t), (l + PICTURE_CELL_MM, t + PICTURE_CELL_MM),
                      (l, t + PICTURE_CELL_MM)]
            cv2.fillPoly(card, [_pts(square)], colours[letter].tolist(), cv2.LINE_AA, shift=4)
            cv2.polylines(card, [_pts(square)], True, look.line.tolist(), _px(0.15),
                          cv2.LINE_AA, shift=4)
    return _finish(card)


def _finish(card: np.ndarray) -> np.ndarray:
    side = int(round(CARD_MM * PX_PER_MM))
    return cv2.resize(card, (side, side), interpolation=cv2.INTER_AREA)


def marker_paper(marker_id: int, rng: np.random.Generator) -> np.ndarray:
    """One of the mat's markers on its white paper (float BGR, PX_PER_MM)."""
    side = int(round(MAT_PAPER_MM * PX_PER_MM))
    inner = int(round(MAT_MARKER_MM * PX_PER_MM))
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    code = cv2.aruco.generateImageMarker(dictionary, marker_id, inner, borderBits=1)
    paper = np.empty((side, side, 3), np.float32)
    paper[:] = np.clip(np.array([240, 243, 245]) + rng.uniform(-6, 4, 3), 0, 255)
    pad = (side - inner) // 2
    ink = rng.uniform(18, 30)
    window = paper[pad:pad + inner, pad:pad + inner]
    window[code <= 127] = ink
    return paper
