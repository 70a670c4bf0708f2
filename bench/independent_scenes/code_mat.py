"""A Break the Code rack laid by hand on the printed code mat, photographed.

Our own tile look, from the rules digest only: 20 tiles (0-4 and 6-9 in black and in white, two
green 5s), about 28.5 x 38.7 mm, a big numeral in the middle (6 and 9 underlined, as numbered
tiles are), rounded corners, a bevel, a visible side (the tiles are a few mm thick and the lamp
is not overhead) and a soft shadow. The rack lies in the mat's top row, A to E, in rack order.
"""

from __future__ import annotations

import cv2
import numpy as np

from .camera import photograph
from .printed import MAT_PANEL, PX_PER_MM, code_mat_page, slot_centre_px

A4_LANDSCAPE_MM = (297.0, 210.0)
TILE_MM = (28.5, 38.7)
TILE_SIZE_JITTER_MM = 0.6          # our tiles are cut a little unevenly
CORNER_RADIUS_MM = 2.2
PLACEMENT_MM = 3.0                 # how far off the slot centre a hand lays a tile
PLACEMENT_DEG = 4.0
SIDE_MM = (0.6, 1.8)               # how much of the tile's side the camera sees
NUMERAL_HEIGHT_MM = (17.0, 23.0)
SLOTS_PER_ROW = 5
ROI_HALF_MM = 33.0               # the patch of mat one tile and its shadow are drawn in

BOX = [f"{n}{c}" for n in (0, 1, 2, 3, 4, 6, 7, 8, 9) for c in "bw"] + ["5g", "5g"]
#: body and ink colours (BGR) per tile colour; our own, a little off from pure
BODY = {"b": (38, 36, 34), "w": (226, 230, 232), "g": (70, 150, 62)}
INK = {"b": (235, 235, 235), "w": (30, 30, 32), "g": (245, 245, 240)}
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX)


def rack_order(tiles: list[str]) -> list[str]:
    """Ascending by number; of the same number, black left of white (the rules' rack order)."""
    colour_rank = {"b": 0, "g": 1, "w": 2}
    return sorted(tiles, key=lambda t: (int(t[:-1]), colour_rank[t[-1]]))


def deal_rack(rng: np.random.Generator) -> list[str]:
    size = int(rng.choice([4, 5]))
    picked = rng.choice(len(BOX), size=size, replace=False)
    return rack_order([BOX[i] for i in picked])


def _tile_face(tile: str, size_px: tuple[int, int], look: dict, rng) -> np.ndarray:
    """The tile seen from above, upright, with its bevel and numeral (BGR, float)."""
    w, h = size_px
    colour = tile[-1]
    body = np.clip(np.array(BODY[colour]) * rng.uniform(0.95, 1.05), 0, 255)
    face = np.empty((h, w, 3), np.uint8)
    face[:] = body.astype(np.uint8)
    text = tile[:-1]
    height_px = look["numeral_mm"] * PX_PER_MM
    thickness = max(2, int(height_px * look["weight"]))
    (tw, th), _ = cv2.getTextSize(text, look["font"], 1.0, thickness)
    scale = height_px / th
    (tw, th), _ = cv2.getTextSize(text, look["font"], scale, thickness)
    origin = (int((w - tw) / 2), int((h + th) / 2))
    cv2.putText(face, text, origin, look["font"], scale, INK[colour], thickness, cv2.LINE_AA)
    if text in ("6", "9"):
        bar_y = origin[1] + int(0.18 * th)
        cv2.line(face, (origin[0], bar_y), (origin[0] + tw, bar_y), INK[colour],
                 max(2, thickness // 2), cv2.LINE_AA)
    # bevel: lighter on the edges towards the lamp, darker on the far edges
    bevel = max(2, int(0.9 * PX_PER_MM))
    ramp = np.ones((h, w), np.float32)
    ramp[:bevel, :] *= 1.12
    ramp[:, :bevel] *= 1.08
    ramp[-bevel:, :] *= 0.85
    ramp[:, -bevel:] *= 0.88
    return face.astype(np.float32) * cv2.GaussianBlur(ramp, (0, 0), bevel / 2)[..., None]


def _rounded_mask(size_px: tuple[int, int]) -> np.ndarray:
    w, h = size_px
    mask = np.zeros((h, w), np.float32)
    r = int(CORNER_RADIUS_MM * PX_PER_MM)
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 1.0, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 1.0, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 1.0, -1, cv2.LINE_AA)
    return mask


def _composite(roi: np.ndarray, layer: np.ndarray, alpha: np.ndarray) -> None:
    """Lay ``layer`` (an image, or one colour) over ``roi`` where ``alpha`` says, in place."""
    weight = alpha[..., None]
    roi -= (roi - layer) * weight


def _lay_tile(page: np.ndarray, tile: str, centre: tuple[float, float], angle_deg: float,
              look: dict, rng: np.random.Generator) -> None:
    """Draw one tile on the page at ``centre`` turned by ``angle_deg``: shadow, side, face."""
    size_mm = np.array(TILE_MM) + rng.uniform(-TILE_SIZE_JITTER_MM, TILE_SIZE_JITTER_MM, 2)
    size_px = (int(size_mm[0] * PX_PER_MM), int(size_mm[1] * PX_PER_MM))
    face = _tile_face(tile, size_px, look, rng)
    mask = _rounded_mask(size_px)
    half = int(ROI_HALF_MM * PX_PER_MM)
    x0, y0 = int(centre[0]) - half, int(centre[1]) - half
    roi = page[y0:y0 + 2 * half, x0:x0 + 2 * half]
    turn = cv2.getRotationMatrix2D((size_px[0] / 2, size_px[1] / 2), angle_deg, 1.0)
    turn[:, 2] += np.array(centre) - [x0, y0] - np.array(size_px) / 2

    def placed(image: np.ndarray, shift_px: np.ndarray) -> np.ndarray:
        moved = turn.copy()
        moved[:, 2] += shift_px
        return cv2.warpAffine(image, moved, (roi.shape[1], roi.shape[0]), flags=cv2.INTER_LINEAR)

    shadow = placed(mask, look["shadow_dir"] * 2.5 * PX_PER_MM)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 1.8 * PX_PER_MM)
    roi *= (1 - look["shadow_depth"] * shadow)[..., None]
    side_colour = np.array(BODY[tile[-1]], np.float32) * 0.62
    side_px = look["side_dir"] * look["side_mm"] * PX_PER_MM
    for step in np.linspace(1.0, 0.0, 3):    # sweep the face's outline down the tile's side
        side = placed(mask, side_px * step)
        _composite(roi, side_colour, side)
    _composite(roi, placed(face, np.zeros(2)), placed(mask, np.zeros(2)))


def _table_look(rng: np.random.Generator) -> dict:
    """What stays the same for every tile of one photo: font, lamp direction, side seen."""
    lamp = rng.uniform(0, 2 * np.pi)
    seen = rng.uniform(0, 2 * np.pi)
    return {"font": FONTS[int(rng.integers(len(FONTS)))],
            "weight": rng.uniform(0.07, 0.12),
            "numeral_mm": rng.uniform(*NUMERAL_HEIGHT_MM),
            "shadow_dir": np.array([np.cos(lamp), np.sin(lamp)]),
            "shadow_depth": rng.uniform(0.25, 0.55),
            "side_dir": np.array([np.cos(seen), np.sin(seen)]),
            "side_mm": rng.uniform(*SIDE_MM)}


def draw_rack_on_mat(tiles: list[str], rng: np.random.Generator,
                     tile_look: dict | None = None) -> np.ndarray:
    """The printed mat (float BGR) with ``tiles`` laid by hand in its slots, row by row from
    the top row's A; ``tile_look`` keeps one box's font and numeral size across photos."""
    # a white margin so a tile's shadow near the page's edge needs no clipping
    margin = int(ROI_HALF_MM * PX_PER_MM)
    page = cv2.copyMakeBorder(code_mat_page(), margin, margin, margin, margin,
                              cv2.BORDER_CONSTANT, value=(255, 255, 255)).astype(np.float32)
    look = {**_table_look(rng), **(tile_look or {})}
    for index, tile in enumerate(tiles):
        cx, cy = slot_centre_px(index % SLOTS_PER_ROW, index // SLOTS_PER_ROW)
        offset = rng.uniform(-PLACEMENT_MM, PLACEMENT_MM, 2) * PX_PER_MM + margin
        angle = rng.uniform(-PLACEMENT_DEG, PLACEMENT_DEG)
        _lay_tile(page, tile, (cx + offset[0], cy + offset[1]), angle, look, rng)
    return page[margin:-margin, margin:-margin]


def box_look(box_seed: int) -> dict:
    """The print of one box of tiles: font, stroke weight and numeral size."""
    look = _table_look(np.random.default_rng([box_seed, 0xB0C5]))
    return {key: look[key] for key in ("font", "weight", "numeral_mm")}


def mat_outline(page_to_frame: np.ndarray) -> np.ndarray:
    """The mat's grey panel in the frame (image points), for the picture measures."""
    (left, top), (right, bottom) = MAT_PANEL
    panel = np.array([[[left, top], [right, top], [right, bottom], [left, bottom]]], np.float64)
    return cv2.perspectiveTransform(panel, page_to_frame)[0]


def code_scene_with_outline(seed: int, box_seed: int | None = None,
                            ) -> tuple[np.ndarray, list[str], np.ndarray]:
    """A rack photo, its tiles and the mat panel's outline; ``box_seed`` draws the tiles of
    that one box (as taught to the camera by :func:`teach_photo`), else a look per seed."""
    rng = np.random.default_rng([seed, 0xB7C])
    tiles = deal_rack(rng)
    look = None if box_seed is None else box_look(box_seed)
    page = draw_rack_on_mat(tiles, rng, look)
    frame, page_to_frame = photograph(np.clip(page, 0, 255).astype(np.uint8), A4_LANDSCAPE_MM,
                                      rng)
    return frame, tiles, mat_outline(page_to_frame)


def code_scene(seed: int) -> tuple[np.ndarray, list[str]]:
    """A photo of a 4- or 5-tile rack laid in rack order on the mat's top row, and the rack."""
    frame, tiles, _ = code_scene_with_outline(seed)
    return frame, tiles


def teach_photo(box_seed: int) -> np.ndarray:
    """All 20 tiles of one box on the mat in box order (rack order of the whole box, row by
    row), for ``companion teach code``; a calm photo: no glare on the tiles."""
    rng = np.random.default_rng([box_seed, 0x7EAC])
    page = draw_rack_on_mat(rack_order(BOX), rng, box_look(box_seed))
    frame, _ = photograph(np.clip(page, 0, 255).astype(np.uint8), A4_LANDSCAPE_MM, rng,
                          glare_spots=0)
    return frame
