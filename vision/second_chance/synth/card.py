"""Draw Second Chance puzzle cards, in a :class:`~vision.second_chance.card_style.CardStyle`.

A puzzle card shows its polyomino as squares on the card face; the style (the reader's side,
:mod:`vision.second_chance.card_style`) gives the card's size, the side of one square, the
colours and the border.

``companion render card SHAPE -o OUT.png`` draws a card lying on a table as a camera sees it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.second_chance.shapes import Shape, as_shape
from vision.second_chance.card_style import DEMO_STYLE, CardStyle
from vision.synth.effects import DEFAULT_EFFECTS, apply_effects, normal_field, with_grain


def card_face(shape: Shape | str, style: CardStyle = DEMO_STYLE, *, px_per_mm: float = 8.0
              ) -> np.ndarray:
    """The card face, portrait, with the shape's squares centred on it."""
    parsed = as_shape(shape)
    w_mm, h_mm = style.card_mm
    s = px_per_mm
    face = np.empty((int(round(h_mm * s)), int(round(w_mm * s)), 3), np.uint8)
    face[:] = np.array(style.face, np.uint8)
    b = int(round(style.border_mm * s))
    cv2.rectangle(face, (b // 2, b // 2), (face.shape[1] - b // 2, face.shape[0] - b // 2),
                  style.border, b)
    # tall shapes stand upright on the portrait card
    if parsed.width > parsed.height:
        parsed = Shape.from_cells((c, r) for r, c in parsed.cells)
    unit = style.square_mm * s
    x0 = face.shape[1] / 2 - parsed.width * unit / 2
    y0 = face.shape[0] / 2 - parsed.height * unit / 2
    edge = max(1, int(round(0.35 * s)))
    for r, c in parsed.cells:
        p = (int(round(x0 + c * unit)), int(round(y0 + r * unit)))
        q = (int(round(x0 + (c + 1) * unit)), int(round(y0 + (r + 1) * unit)))
        cv2.rectangle(face, p, q, style.square, -1)
        cv2.rectangle(face, p, q, style.square_edge, edge, cv2.LINE_AA)
    return face


@dataclass(frozen=True)
class RenderedCard:
    image: np.ndarray
    shape: str
    log: dict[str, Any]


def render_card(shape: Shape | str, *, style: CardStyle = DEMO_STYLE, seed: int = 0,
                effects: tuple[str, ...] | list[str] = DEFAULT_EFFECTS,
                frame_size: tuple[int, int] = (1280, 960)) -> RenderedCard:
    """A card lying on the table, turned at random, seen by the camera."""
    rng = np.random.default_rng(seed)
    face = card_face(shape, style)
    h, w = face.shape[:2]
    side = int(max(h, w) * 2.0)
    table = np.empty((side, int(side * 4 / 3), 3), np.uint8)
    table[:] = rng.integers(40, 150, 3).astype(np.uint8)
    # the grain and the turned card are not kept (named) while the camera effects run: a
    # card frame's peak held them too (10 and 8 MB at 1408x1877)
    table = with_grain(table, cv2.GaussianBlur(normal_field(rng, table.shape[:2], 8), (0, 0), 4))
    angle = float(rng.uniform(0, 360))
    centre = (table.shape[1] / 2 + rng.uniform(-0.1, 0.1) * side,
              table.shape[0] / 2 + rng.uniform(-0.1, 0.1) * side)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[:, 2] += np.array(centre) - np.array([w / 2, h / 2])
    mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), m, table.shape[1::-1])
    inside = mask > 127
    table[inside] = cv2.warpAffine(face, m, table.shape[1::-1])[inside]
    del inside
    # the table is not returned: the effects draw over it rather than beside it
    result = apply_effects(table, rng, list(effects), frame_size=frame_size, protect=mask,
                           max_tilt_deg=20.0, overwrite_scene=True)
    return RenderedCard(result.image, as_shape(shape).canonical().text,
                        {"angle": round(angle, 1), **result.applied})
