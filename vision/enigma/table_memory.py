"""What a read of the Enigma table found that the next read of the same table reuses.

Between two reads in a game the camera and the markers stay put and one tile is added: the
next read need not find the markers in the whole frame, straighten the whole table and look
at every square again. :class:`TableMemory` keeps the marker fit, the start tile's place,
the table's colour, the squares that held tiles and a small grey copy of the frame. The next
read (:func:`vision.enigma.reader.read_enigma` with ``previous=``) uses it only when

- it was made with the same pack, settings and table geometry, on a frame of the same size;
- every marker is found again, in a small window round where it was, within
  :data:`MARKER_STILL_PX` of its old place (else the fit is stale: the whole table is read
  and fitted afresh);
- the picture changed on few squares (:func:`changed_squares`): a new light or a moved
  camera changes it everywhere, and that is a whole read again.

Then only the changed squares, the squares that held a tile the game did not know yet, and
their neighbours are looked at again.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass

import cv2
import numpy as np

from companion.enigma.tiles import Pos
from vision.art_pack import BGR
from vision.enigma.geometry import TableGeometry
from vision.enigma.pack import EnigmaPack
from vision.enigma.settings import ReaderSettings
from vision.enigma.squares import SquaresSeen
from vision.markers import PlaneFit, detect_markers
from vision.picture import PictureMeasures

#: the small grey copy of the frame the next read compares with: one pixel per this many
#: (averaged, so sensor noise mostly cancels)
SMALL_STEP = 8
#: a small pixel whose grey level moved by more than this changed (a tile or a pawn put down
#: moves it by far more; the averaged sensor noise of two frames by a few levels)
CHANGE_LEVEL = 20
#: a change smaller than this many small pixels across is noise or a glint, not a piece
CHANGE_SIDE = 3
#: a change counts for a square when it lies within this share of a tile of its middle
CHANGE_MIDDLE = 0.4
#: a frame whose picture changed on more than this share of the marker frame's small pixels
#: is read whole: new light, a moved camera, a hand over the table
MOST_CHANGED = 0.15
#: a marker found again this far (frame pixels, any corner) from where it was has moved:
#: the fit is made again from the whole frame
MARKER_STILL_PX = 1.0
#: the window a marker is looked for in again reaches this many marker sides round it
MARKER_WINDOW_SIDES = 1.0


@dataclass(frozen=True)
class TableMemory:
    """What a read of the table found (see the module's docstring). ``found``: the
    occupied squares, the questions and edge notes about squares; ``start``: the
    start tile's x, y and face score; ``small``: the frame, grey, :data:`SMALL_STEP` times
    smaller."""

    pack: EnigmaPack
    settings: ReaderSettings
    geometry: TableGeometry
    frame_shape: tuple[int, ...]
    fit: PlaneFit
    plane_to_canon: np.ndarray
    start: tuple[float, float, float]
    table_colour: BGR | None
    found: SquaresSeen
    small: np.ndarray
    middle_picture: PictureMeasures

    @property
    def squares(self) -> dict[Pos, tuple[float, float]]:
        """The squares the read saw holding a tile."""
        return self.found.squares

    def is_for(self, frame: np.ndarray, pack: EnigmaPack, settings: ReaderSettings,
               geometry: TableGeometry) -> bool:
        """Whether this memory was made reading with these pack, settings and geometry a
        frame of this size (a newly taught pack is another object: it is read afresh)."""
        return (self.pack is pack and self.settings == settings
                and self.geometry == geometry and self.frame_shape == frame.shape)


def small_grey(grey: np.ndarray) -> np.ndarray:
    """The frame's grey, :data:`SMALL_STEP` times smaller (averaged)."""
    h, w = grey.shape
    size = (max(1, w // SMALL_STEP), max(1, h // SMALL_STEP))
    small: np.ndarray = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    return small


def markers_kept(frame: np.ndarray, fit: PlaneFit) -> bool:
    """Whether each of the fit's markers is found again in a window round where it was, its
    corners within :data:`MARKER_STILL_PX`: the fit still holds. A marker not found, or
    moved, says the camera or the markers moved. ``frame``: the frame or its grey (the
    markers are searched in grey: the reader passes the grey it made)."""
    layout = fit.layout
    h, w = frame.shape[:2]
    for marker_id in layout.ids:
        old = fit.detections.get(marker_id)
        if old is None:
            return False
        corners = np.asarray(old.corners, np.float64)
        side = float(np.max(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)))
        reach = MARKER_WINDOW_SIDES * side
        x0 = max(0, int(math.floor(corners[:, 0].min() - reach)))
        y0 = max(0, int(math.floor(corners[:, 1].min() - reach)))
        x1 = min(w, int(math.ceil(corners[:, 0].max() + reach)))
        y1 = min(h, int(math.ceil(corners[:, 1].max() + reach)))
        if x1 <= x0 or y1 <= y0:
            return False
        found, _scale = detect_markers(frame[y0:y1, x0:x1], dictionary_name=layout.dictionary,
                                       wanted=(marker_id,))
        again = found.get(marker_id)
        if again is None:
            return False
        moved = np.linalg.norm(np.asarray(again.corners, np.float64) + (x0, y0) - corners,
                               axis=1)
        if float(moved.max()) > MARKER_STILL_PX:
            return False
    return True


def changed_squares(memory: TableMemory, small: np.ndarray) -> set[Pos] | None:
    """The grid squares where the picture changed since ``memory`` was made, or None when it
    changed on too much of the table (:data:`MOST_CHANGED`) to read only a part of it."""
    diff = cv2.absdiff(small, memory.small) > CHANGE_LEVEL
    to_canon = memory.plane_to_canon @ memory.fit.image_to_plane
    h, w = small.shape
    # the marker frame in the small picture: the share changed is the table's, not the room's
    corners = np.array([[[x, y] for x, y in memory.geometry.layout.centres_mm]], np.float64)
    outline = cv2.perspectiveTransform(corners, np.linalg.inv(memory.fit.image_to_plane))[0]
    table = np.zeros((h, w), np.uint8)
    cv2.fillPoly(table, [np.round(outline / SMALL_STEP).astype(np.int32)], 1)
    on_table = diff[table > 0] if table.any() else diff
    if float(on_table.mean()) > MOST_CHANGED:
        return None
    kernel = np.ones((CHANGE_SIDE, CHANGE_SIDE), np.uint8)
    vs, us = np.nonzero(cv2.morphologyEx(diff.view(np.uint8), cv2.MORPH_OPEN, kernel))
    if len(us) == 0:
        return set()
    points = np.stack([(us + 0.5) * SMALL_STEP, (vs + 0.5) * SMALL_STEP], axis=1)
    canon = cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64),
                                     to_canon).reshape(-1, 2)
    sx, sy, _score = memory.start
    p = memory.settings.px_per_tile
    cols, rows = (canon[:, 0] - sx) / p, (canon[:, 1] - sy) / p
    # a change in a square's middle is the square's; one on its edge is a piece's shadow
    # or the edge of the tile beside it
    middle = ((np.abs(cols - np.round(cols)) < CHANGE_MIDDLE)
              & (np.abs(rows - np.round(rows)) < CHANGE_MIDDLE))
    cols, rows = np.round(cols[middle]).astype(int), np.round(rows[middle]).astype(int)
    return {(int(i), int(j)) for i, j in set(zip(cols.tolist(), rows.tolist(), strict=True))}


def squares_to_look_at(memory: TableMemory, changed: set[Pos], placed: Collection[Pos]
                       ) -> set[Pos]:
    """The squares a read after a placement looks at again: where the picture changed,
    where the last read saw a tile the game does not know yet, and their neighbours (a
    tile's neighbours are read with it, and tell whether the table goes on)."""
    known = set(placed)
    middle = changed | {at for at in memory.squares if at not in known}
    return middle | {(i + di, j + dj) for i, j in middle
                     for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1))}


__all__ = ["TableMemory", "changed_squares", "markers_kept", "small_grey",
           "squares_to_look_at"]
