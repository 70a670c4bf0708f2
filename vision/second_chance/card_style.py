"""How a Second Chance puzzle card looks: a taught style, in millimetres and BGR colours.

The real card art has not been transcribed, so the look is data: a style gives the card's size,
the side of one square, the colours and the border. ``DEMO_STYLE`` is the project's own drawing.
The reader (:mod:`vision.second_chance.card_reader`) and the renderer
(:mod:`vision.second_chance.synth.card`) both take a style from here.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from vision.art_pack import write_private_file

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
        text = json.dumps(self.to_json(), indent=1) + "\n"
        write_private_file(path, text.encode("utf-8"))


DEMO_STYLE = CardStyle()


def load_card_style(path: str | Path | None) -> CardStyle:
    """The style saved at ``path`` (by ``companion teach card``), or :data:`DEMO_STYLE` for
    ``None``; ValueError when the file cannot be read as a style."""
    if path is None:
        return DEMO_STYLE
    try:
        return CardStyle.from_json(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, json.JSONDecodeError, TypeError) as exc:
        raise ValueError(f"cannot read card style {path}: {exc}") from exc
