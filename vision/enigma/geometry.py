"""Where the Enigma table lies: its four markers and the tile size (:class:`TableGeometry`).

The table lies in the frame of the four table markers (ids 0..3, millimetres, origin in the
middle of the rectangle their centres form). The reader, the teacher and the renderer all take
the geometry from here; the start tile is found on the table, not set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vision.config_values import config_value
from vision.enigma.pack import EnigmaPack
from vision.markers import RESERVED_IDS, MarkerLayout

DEFAULT_FRAME_MM = (760.0, 640.0)
DEFAULT_MARKER_MM = 40.0


@dataclass(frozen=True)
class TableGeometry:
    """The four table markers and the tile size (mm). The start tile is found, not set."""

    layout: MarkerLayout
    tile_mm: float

    @property
    def frame_mm(self) -> tuple[float, float]:
        xs = [c[0] for c in self.layout.centres_mm]
        ys = [c[1] for c in self.layout.centres_mm]
        return (max(xs) - min(xs), max(ys) - min(ys))


def table_layout(
    frame_mm: tuple[float, float] = DEFAULT_FRAME_MM,
    marker_size_mm: float = DEFAULT_MARKER_MM,
    dictionary_name: str = "DICT_4X4_50",
) -> MarkerLayout:
    """The table markers at the corners of a ``frame_mm`` rectangle centred on 0."""
    w, h = frame_mm[0] / 2, frame_mm[1] / 2
    return MarkerLayout(
        ids=RESERVED_IDS["table"],
        centres_mm=((-w, -h), (w, -h), (w, h), (-w, h)),
        size_mm=marker_size_mm,
        dictionary=dictionary_name,
    )


def geometry_from_config(cfg: Any = None, pack: EnigmaPack | None = None) -> TableGeometry:
    """Marker frame and tile size from config ``[vision.enigma]``; a tile size of 0 there
    means the pack's (taught) one."""
    frame = config_value(cfg, "vision.enigma.marker_frame_mm", DEFAULT_FRAME_MM)
    tile = float(config_value(cfg, "vision.enigma.tile_mm", 0.0))
    if tile <= 0:
        tile = pack.tile_mm if pack is not None else 60.0
    return TableGeometry(
        table_layout(
            (float(frame[0]), float(frame[1])),
            float(config_value(cfg, "vision.enigma.marker_size_mm", DEFAULT_MARKER_MM)),
            str(config_value(cfg, "vision.marker_dictionary", "DICT_4X4_50")),
        ),
        tile,
    )
