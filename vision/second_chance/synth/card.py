"""Second Chance puzzle cards: their look (a taught :class:`CardStyle`) and a renderer.

A puzzle card shows its polyomino as squares on the card face. The real art has not been
transcribed, so the look is data: a style gives the card's size, the side of one square, the
colours and the border. ``DEMO_STYLE`` is the project's own drawing; :func:`teach_card_style`
measures a user's card from one photo of a card whose shape is known (see ``card_reader``).

``companion render card SHAPE -o OUT.png`` draws a card lying on a table as a camera sees it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.second_chance.shapes import Shape, as_shape
from vision.synth.effects import DEFAULT_EFFECTS, apply_effects

BGR = tuple[int, int, int]


@dataclass(frozen=True)
class CardStyle:
    """How a puzzle card looks, in millimetres and BGR colours."""

    name: str = "demo"
    card_mm: tuple[float, float] = (56.0, 87.0)
    square_mm: float = 7.5
    face: BGR = (222, 236, 244)
    square: BGR = (40, 120, 220)
    square_edge: BGR = (30, 50, 90)
    border: BGR = (70, 110, 60)
    border_mm: float = 3.0

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["format"] = "tabletop-companion/second-chance-card-style/1"
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CardStyle:
        if data.get("format") != "tabletop-companion/second-chance-card-style/1":
            raise ValueError("not a Second Chance card style file (format is wrong or missing)")
        fields = {k: v for k, v in data.items() if k != "format"}
        for key in ("card_mm", "face", "square", "square_edge", "border"):
            if key in fields:
                fields[key] = tuple(fields[key])
        return cls(**fields)

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


DEMO_STYLE = CardStyle()


def load_card_style(path: str | Path | None) -> CardStyle:
    if path is None:
        return DEMO_STYLE
    try:
        return CardStyle.from_json(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, json.JSONDecodeError, TypeError) as exc:
        raise ValueError(f"cannot read card style {path}: {exc}") from exc


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
    noise = cv2.GaussianBlur(rng.normal(0, 8, table.shape[:2]).astype(np.float32), (0, 0), 4)
    table = np.clip(table.astype(np.float32) + noise[..., None], 0, 255).astype(np.uint8)
    angle = float(rng.uniform(0, 360))
    centre = (table.shape[1] / 2 + rng.uniform(-0.1, 0.1) * side,
              table.shape[0] / 2 + rng.uniform(-0.1, 0.1) * side)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[:, 2] += np.array(centre) - np.array([w / 2, h / 2])
    mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), m, table.shape[1::-1])
    card = cv2.warpAffine(face, m, table.shape[1::-1])
    table[mask > 127] = card[mask > 127]
    result = apply_effects(table, rng, list(effects), frame_size=frame_size, protect=mask,
                           max_tilt_deg=20.0)
    return RenderedCard(result.image, as_shape(shape).canonical().text,
                        {"angle": round(angle, 1), **result.applied})
