"""The bare table's own colour, measured in the frame around the four table markers.

The reader tells tile from table by colour. A pack's table colour is only what the table looked
like where the pack was drawn or taught: the players' own table may be grey cloth, white
laminate or dark wood. Nearer to the tiles' art than to the pack's table colour, such a table
would be read as tile everywhere. The players lay the markers on the bare table around the
tiles, so the table is measured on a ring round each marker, outside its paper.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.art_pack import BGR
from vision.enigma.colours import colour_features
from vision.enigma.geometry import TableGeometry
from vision.enigma.pack import EnigmaPack
from vision.enigma.small_stats import masked_byte_medians

#: the ring round a marker's centre, in marker sides (square distance): from past the paper's
#: edge (the paper's quiet zone takes half a side each way, so the paper ends at 1.0) with room
#: for a hand-laid marker's tilt, to this far out
TABLE_RING_SIDES = (1.2, 1.7)
#: a ring counts when at least this share of it was seen
MIN_RING_SEEN = 0.3
#: a ring whose colour is nearer than this (colour features) to a tile's art is covered by
#: tiles, not bare table (the table has grown past that marker). Small: after the colour
#: balance a light grey cloth lies about 4 from the tiles' cream ground, and is still table
MIN_TILE_DISTANCE = 2.0


def _ring_mask(shape: tuple[int, int], centre_mm: tuple[float, float], side_mm: float,
               plane_to_canon: np.ndarray, sides_out: tuple[float, float] = TABLE_RING_SIDES
               ) -> tuple[np.ndarray, tuple[slice, slice]]:
    """The ring round one marker (``sides_out``: from and to, in marker sides), in the
    straightened image: the mask over the ring's bounding box (clipped to the image), and that
    box as (rows, columns) slices."""
    outlines = [_square_outline(centre_mm, sides * side_mm, plane_to_canon)
                for sides in sides_out[::-1]]
    x0, y0 = np.clip(outlines[0].min(axis=0), 0, None)
    x1 = min(int(outlines[0][:, 0].max()) + 1, shape[1])
    y1 = min(int(outlines[0][:, 1].max()) + 1, shape[0])
    box = (slice(int(y0), max(int(y0), y1)), slice(int(x0), max(int(x0), x1)))
    mask = np.zeros((box[0].stop - box[0].start, box[1].stop - box[1].start), np.uint8)
    if mask.size == 0:  # the ring lies wholly outside the straightened image
        return mask.astype(bool), box
    for outline, value in zip(outlines, (1, 0), strict=True):
        cv2.fillPoly(mask, [outline - np.array([x0, y0], np.int32)], value)
    return mask.astype(bool), box


def _square_outline(centre_mm: tuple[float, float], half: float, plane_to_canon: np.ndarray
                    ) -> np.ndarray:
    """The square ``half`` mm either side of ``centre_mm``, in straightened pixels (rounded)."""
    cx, cy = centre_mm
    corners = np.array([[[cx - half, cy - half], [cx + half, cy - half],
                         [cx + half, cy + half], [cx - half, cy + half]]], np.float64)
    outline: np.ndarray = np.round(cv2.perspectiveTransform(corners, plane_to_canon)[0]
                                   ).astype(np.int32)
    return outline


def ring_boxes(geometry: TableGeometry, plane_to_canon: np.ndarray
               ) -> list[tuple[int, int, int, int]]:
    """The boxes (x0, y0, x1, y1 straightened pixels, not clipped) holding the rings
    :func:`measured_table_colour` reads: what a table straightened part by part must make
    for it."""
    boxes = []
    for centre in geometry.layout.centres_mm:
        outer = _square_outline(centre, TABLE_RING_SIDES[1] * geometry.layout.size_mm,
                                plane_to_canon)
        x0, y0 = (int(v) for v in outer.min(axis=0))
        x1, y1 = (int(v) + 1 for v in outer.max(axis=0))
        boxes.append((x0, y0, x1, y1))
    return boxes


def _tile_art(pack: EnigmaPack) -> np.ndarray:
    colours = [pack.colour("tile"), pack.colour("tile_edge"), pack.colour("channel")]
    return colour_features(np.array(colours, np.float32)).reshape(-1, 3)


def ring_median(image: np.ndarray, centre: tuple[float, float], side: float,
                to_image: np.ndarray, *, seen: np.ndarray | None = None,
                sides_out: tuple[float, float] = TABLE_RING_SIDES) -> np.ndarray | None:
    """The median colour (float32 BGR) of ``image`` on the ring round a marker of ``side``
    centred on ``centre`` (both in the units ``to_image`` maps to the image's pixels), or
    None where the ring lies outside the image or less than :data:`MIN_RING_SEEN` of it was
    ``seen``."""
    ring, box = _ring_mask(image.shape[:2], centre, side, to_image, sides_out)
    if not ring.any():
        return None
    looked = ring if seen is None else ring & seen[box]
    if looked.sum() < MIN_RING_SEEN * ring.sum():
        return None
    if image.dtype == np.uint8 and image.ndim == 3:
        under = np.asarray(looked, bool).view(np.uint8)
        median: np.ndarray = masked_byte_medians(image[box], under)
    else:
        median = np.median(image[box][looked], axis=0)
    return median.astype(np.float32)


def ring_pixels(image: np.ndarray, centre: tuple[float, float], side: float,
                to_image: np.ndarray, *, sides_out: tuple[float, float] = TABLE_RING_SIDES
                ) -> np.ndarray:
    """The pixels (N x channels) of ``image`` on the ring round a marker, as
    :func:`ring_median` takes them (every one, none left out as unseen): what the table
    there is made of, not only its middle colour (a checked cloth is two colours)."""
    ring, box = _ring_mask(image.shape[:2], centre, side, to_image, sides_out)
    pixels: np.ndarray = image[box][ring]
    return pixels


def measured_table_colour(canon: np.ndarray, geometry: TableGeometry,
                          plane_to_canon: np.ndarray, seen: np.ndarray,
                          pack: EnigmaPack) -> BGR | None:
    """The median colour of the bare table round the markers in ``canon`` (the balanced,
    straightened frame), or None where no ring is seen bare (all covered or out of sight)."""
    art = _tile_art(pack)
    medians = []
    for centre in geometry.layout.centres_mm:
        median = ring_median(canon, centre, geometry.layout.size_mm, plane_to_canon, seen=seen)
        if median is None:
            continue
        distance = np.sqrt(((colour_features(median) - art) ** 2).sum(axis=-1)).min()
        if distance >= MIN_TILE_DISTANCE:
            medians.append(median)
    if not medians:
        return None
    b, g, r = (int(round(v)) for v in np.median(np.array(medians), axis=0))
    return (b, g, r)


def with_table_colour(pack: EnigmaPack, table: BGR | None) -> EnigmaPack:
    """``pack`` with the table measured in the frame, or as it was when none was measured."""
    if table is None:
        return pack
    return replace(pack, colours={**pack.colours, "table": table})
