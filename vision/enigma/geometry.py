"""Where the Enigma table lies: its four markers and the tile size (:class:`TableGeometry`).

The table lies in the frame of the four table markers (ids 0..3, millimetres, origin in the
middle of the rectangle their centres form). The reader, the teacher and the renderer all take
the geometry from here; the start tile is found on the table, not set.
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.enigma.pack import EnigmaPack
from vision.enigma.settings import TableSettings
from vision.markers import MarkerLayout, table_layout

DEFAULT_FRAME_MM = (760.0, 640.0)
DEFAULT_MARKER_MM = 40.0
#: tile side (mm) when neither the settings nor a pack give one
FALLBACK_TILE_MM = 60.0


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


def table_geometry(table: TableSettings, pack: EnigmaPack | None = None) -> TableGeometry:
    """The marker layout and tile size of ``table``; a tile size of 0 there means the pack's
    (taught) one, or :data:`FALLBACK_TILE_MM` without a pack."""
    tile = table.tile_mm
    if tile <= 0:
        tile = pack.tile_mm if pack is not None else FALLBACK_TILE_MM
    return TableGeometry(
        table_layout(frame_mm=table.marker_frame_mm, marker_size_mm=table.marker_size_mm,
                     dictionary_name=table.marker_dictionary),
        tile,
    )


__all__ = ["DEFAULT_FRAME_MM", "DEFAULT_MARKER_MM", "FALLBACK_TILE_MM", "TableGeometry",
           "table_geometry"]
