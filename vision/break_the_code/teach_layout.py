"""Find the 20 tiles of a teach photo by the mat's slot grid, whatever the tiles look like.

Teaching cannot lean on any pack: the user's tiles may be dark wood on the grey mat, light
plastic, two-layer tiles with a bevel, thick tiles whose side the camera sees. So each slot is
looked at on its own: whatever differs from the panel's local grey there (by any colour,
lighter or darker) and has a tile's rough size and portrait shape is the tile of that slot; its
outline against the mat gives where it lies and how it is turned. Two tiles that touch are cut
apart along the lane between their slots.

A slot that gives no usable tile is named with the reason in one whole sentence, which names
the tile expected there (the teach photo is no secret): "slot C3: no tile seen; is the green 5
there?".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np

from companion.break_the_code.tiles import Tile
from vision.break_the_code.mat import PITCH_MM, SLOTS, Slot
from vision.break_the_code.pack import TEACH_ORDER
from vision.break_the_code.reader import (
    DEMO_TILE_AREA_MM2,
    VIEW_MM,
    FoundTile,
    clean_kernel,
    cut_out_tile,
    find_mat,
    foreground,
    panel_at,
    panel_background,
    panel_picture_factor,
    top_view,
    view_transform,
)
from vision.break_the_code.settings import DEFAULT_SETTINGS, CodeReaderSettings
from vision.errors import FrameRefusedError

#: a slot is looked at this far (mm) beyond the lanes around it: a hand-laid tile may lie a
#: few millimetres over a lane
WINDOW_MARGIN_MM = 4.0
#: a tile's area (mm^2) while teaching: the user's tiles may be well smaller or larger than
#: the demo's, and only a rough size is needed to find them
MIN_TILE_MM2 = 0.4 * DEMO_TILE_AREA_MM2
MAX_TILE_MM2 = 2.2 * DEMO_TILE_AREA_MM2
#: a tile is a portrait rectangle: its short side over its long side lies in this range
TILE_RATIO = (0.5, 0.97)
#: the strip (mm) cut along a lane to part two tiles that touch
LANE_CUT_MM = 1.0
#: a tile whose area differs from the median tile's by more than this share is not whole
#: (partly covered, or two tiles merged)
SIZE_AGREEMENT = 0.3

COLOUR_WORDS = {"b": "black", "w": "white", "g": "green"}


def tile_words(tile: Tile) -> str:
    """The tile in words: ``"the green 5"``."""
    return f"the {COLOUR_WORDS[tile.colour.value]} {tile.number}"


class SlotReason(Enum):
    """Why a slot of the teach photo gave no usable tile; the value completes "slot C3: ..."
    in the log's English (a screen words the reason in the player's language)."""

    NO_TILE = "no tile seen"
    PART_OF_TILE = "only part of a tile is seen (covered, or in a shadow)"
    LARGER_THAN_TILE = "something larger than a tile lies there (a hand, or tiles on top)"
    NOT_TILE_SHAPED = "what lies there is not shaped like a tile"
    SMALLER_THAN_OTHERS = "the tile seen there is smaller than the others"
    LARGER_THAN_OTHERS = "the tile seen there is larger than the others"


@dataclass(frozen=True)
class SlotProblem:
    """Why a slot of the teach photo gave no usable tile: the reason, and one whole English
    sentence for the log and the command line."""

    slot: Slot
    reason: SlotReason
    sentence: str


def find_teach_tiles(image: np.ndarray, *, settings: CodeReaderSettings = DEFAULT_SETTINGS
                     ) -> tuple[list[FoundTile], list[SlotProblem]]:
    """The tile on each of the 20 slots (slot order) and the slots that gave none."""
    fit = find_mat(image, settings=settings)
    panel_picture_factor(image, fit, settings=settings)
    top = top_view(image, fit, settings=settings)
    field = panel_background(top, settings=settings, tile_area_mm2=MAX_TILE_MM2 / 2.2)
    mask, _ = foreground(top, field, settings)
    to_frame = np.linalg.inv(view_transform(settings) @ fit.image_to_plane)
    found: list[FoundTile] = []
    problems: list[SlotProblem] = []
    for slot in SLOTS[:len(TEACH_ORDER)]:
        rect, why = tile_in_slot(mask, slot, settings.px_per_mm)
        if rect is None:
            problems.append(SlotProblem(slot, why, f"slot {slot.name}: {why.value}; is "
                                                   f"{tile_words(TEACH_ORDER[slot.index])} "
                                                   "there?"))
            continue
        (cx, cy), (rw, rh), _ = rect
        p = settings.px_per_mm
        centre_mm = (cx / p + VIEW_MM[0], cy / p + VIEW_MM[1])
        offset = float(np.hypot(centre_mm[0] - slot.centre_mm[0],
                                centre_mm[1] - slot.centre_mm[1]))
        short, long_ = sorted((rw / p, rh / p))
        found.append(FoundTile(slot.index, offset, centre_mm, (short, long_),
                               cut_out_tile(image, rect, to_frame), panel_at(field, cx, cy)))
    problems.extend(_odd_sizes(found))
    return found, problems


def find_all_twenty(image: np.ndarray, *, settings: CodeReaderSettings = DEFAULT_SETTINGS
                    ) -> list[FoundTile]:
    """The 20 tiles of the teach photo in slot order; refused, naming every slot that gave
    no usable tile and why, unless all 20 were found."""
    found, problems = find_teach_tiles(image, settings=settings)
    if problems:
        sentences = " ".join(f"{p.sentence[0].upper()}{p.sentence[1:]}" for p in problems)
        raise FrameRefusedError(
            f"{sentences} Lay all 20 tiles in box order, one on each slot, and take the "
            "photo again.", reason="no-tiles")
    return found


def _window(slot: Slot, shape: tuple[int, int], px_per_mm: float
            ) -> tuple[int, int, int, int]:
    """The slot's window in the top view (x0, y0, x1, y1): the slot and its lanes, and a
    margin beyond them."""
    cx = (slot.centre_mm[0] - VIEW_MM[0]) * px_per_mm
    cy = (slot.centre_mm[1] - VIEW_MM[1]) * px_per_mm
    hx = (PITCH_MM[0] / 2 + WINDOW_MARGIN_MM) * px_per_mm
    hy = (PITCH_MM[1] / 2 + WINDOW_MARGIN_MM) * px_per_mm
    h, w = shape
    return (max(0, round(cx - hx)), max(0, round(cy - hy)), min(w, round(cx + hx)),
            min(h, round(cy + hy)))


def _central_piece(piece_mask: np.ndarray, centre: tuple[float, float]
                   ) -> tuple[np.ndarray | None, float]:
    """The outline and pixel area of the largest piece whose middle is nearest the slot's
    centre (the tile of the slot, not a neighbour's corner reaching into the window)."""
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(piece_mask, connectivity=8)
    if count <= 1:
        return None, 0.0
    areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
    near = np.hypot(centroids[1:, 0] - centre[0], centroids[1:, 1] - centre[1])
    # a large piece near the middle wins over a speck on it and a neighbour's corner
    label = 1 + int(np.argmax(areas / (1.0 + near)))
    piece = (labels == label).astype(np.uint8)
    contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return max(contours, key=cv2.contourArea).reshape(-1, 2), float(areas[label - 1])


def tile_in_slot(mask: np.ndarray, slot: Slot, px_per_mm: float
                 ) -> tuple[tuple | None, SlotReason]:  # type: ignore[type-arg]
    """The rotated rectangle (top-view pixels) of the tile on ``slot``, or None and why not
    (the reason is meaningless with a rectangle)."""
    x0, y0, x1, y1 = _window(slot, mask.shape[:2], px_per_mm)
    window = mask[y0:y1, x0:x1].copy()
    centre = ((slot.centre_mm[0] - VIEW_MM[0]) * px_per_mm - x0,
              (slot.centre_mm[1] - VIEW_MM[1]) * px_per_mm - y0)
    outline, area = _central_piece(window, centre)
    area_mm2 = area / px_per_mm ** 2
    if outline is not None and (area_mm2 > MAX_TILE_MM2 or _reaches_edge(outline, window)):
        # touching a neighbour, or lying over a lane: part it along the lanes
        _cut_lanes(window, centre, px_per_mm)
        outline, area = _central_piece(window, centre)
        area_mm2 = area / px_per_mm ** 2
    if outline is None or area_mm2 < MIN_TILE_MM2 / 4:
        return None, SlotReason.NO_TILE
    if area_mm2 < MIN_TILE_MM2:
        return None, SlotReason.PART_OF_TILE
    if area_mm2 > MAX_TILE_MM2:
        return None, SlotReason.LARGER_THAN_TILE
    rect = cv2.minAreaRect((outline + [x0, y0]).astype(np.float32))
    short, long_ = sorted(rect[1])
    if not TILE_RATIO[0] <= short / max(long_, 1e-6) <= TILE_RATIO[1]:
        return None, SlotReason.NOT_TILE_SHAPED
    return rect, SlotReason.NO_TILE


def _reaches_edge(outline: np.ndarray, window: np.ndarray) -> bool:
    h, w = window.shape[:2]
    return bool((outline[:, 0] <= 0).any() or (outline[:, 1] <= 0).any()
                or (outline[:, 0] >= w - 1).any() or (outline[:, 1] >= h - 1).any())


def _cut_lanes(window: np.ndarray, centre: tuple[float, float], px_per_mm: float) -> None:
    """Clear the lanes around the slot (half a pitch from its centre) in the window."""
    half = max(1, round(LANE_CUT_MM * px_per_mm / 2))
    for dx in (-PITCH_MM[0] / 2, PITCH_MM[0] / 2):
        x = round(centre[0] + dx * px_per_mm)
        window[:, max(0, x - half):max(0, x + half + 1)] = 0
    for dy in (-PITCH_MM[1] / 2, PITCH_MM[1] / 2):
        y = round(centre[1] + dy * px_per_mm)
        window[max(0, y - half):max(0, y + half + 1), :] = 0
    kernel = clean_kernel(px_per_mm)
    window[:] = cv2.morphologyEx(window, cv2.MORPH_OPEN, kernel)


def _odd_sizes(found: list[FoundTile]) -> list[SlotProblem]:
    """Tiles whose size is far from the others' (partly covered, or merged with something)."""
    if len(found) < len(TEACH_ORDER) // 2:
        return []
    areas = np.array([f.size_mm[0] * f.size_mm[1] for f in found])
    median = float(np.median(areas))
    problems = []
    for f, a in zip(found, areas, strict=True):
        if abs(a - median) <= SIZE_AGREEMENT * median:
            continue
        why = SlotReason.SMALLER_THAN_OTHERS if a < median else SlotReason.LARGER_THAN_OTHERS
        problems.append(SlotProblem(SLOTS[f.slot], why,
                                    f"slot {SLOTS[f.slot].name}: {why.value}; is "
                                    f"{tile_words(TEACH_ORDER[f.slot])} there, whole and "
                                    "alone?"))
    return problems
