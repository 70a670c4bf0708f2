"""Teach the look of the user's own Break the Code tiles from one photo of all 20.

Lay the 20 tiles on the code mat in box order, row by row, A to E::

    0b 0w 1b 1w 2b  /  2w 3b 3w 4b 4w  /  5g 5g 6b 6w 7b  /  7w 8b 8w 9b 9w

and take one photo. :func:`teach_pack` finds the tile on every slot by the slot grid and the
tile's outline against the mat (:mod:`vision.break_the_code.teach_layout`), cuts it out
upright, measures the tile size and the three body colours, and keeps each face as the template
of that tile. It then checks the result: the colours must be told apart and reading the same
photo with the new pack must give every tile back, confidently.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.break_the_code.tiles import Colour
from vision.break_the_code.features import SHIFT, body_colour, grey_of, ink_map, template_of
from vision.break_the_code.mat import SLOTS
from vision.break_the_code.pack import TEACH_ORDER, CodePack
from vision.break_the_code.reader import FoundTile, classify_tile, relative_body
from vision.break_the_code.settings import DEFAULT_SETTINGS, CodeReaderSettings
from vision.break_the_code.teach_layout import find_all_twenty
from vision.errors import ArtPackError


def teach_pack(
    image: np.ndarray,
    *,
    name: str = "taught",
    description: str = "taught from a photo of the user's tiles",
    settings: CodeReaderSettings = DEFAULT_SETTINGS,
) -> CodePack:
    """Build a pack from a photo of all 20 tiles on the mat in box order."""
    return pack_of_found(find_all_twenty(image, settings=settings), name=name,
                         description=description)


def pack_of_found(found: list[FoundTile], *, name: str = "taught",
                  description: str = "taught from a photo of the user's tiles") -> CodePack:
    """Build a pack from the 20 tiles already found on a teach photo (slot order), so a
    caller that has found them to show each slot (the app's teach screen) need not find
    them twice."""
    by_slot = {f.slot: f for f in found}
    sizes = np.array([f.size_mm for f in found])
    tile_mm = (float(np.median(sizes[:, 0])), float(np.median(sizes[:, 1])))
    colours = body_colours(by_slot)
    _check_colours(colours)
    pack = CodePack(name=name, tile_mm=tile_mm, colours=colours, tiles=tile_faces(by_slot),
                    description=description)
    _check_self_read(pack, found)
    return pack


def body_colours(by_slot: dict[int, FoundTile]) -> dict[str, np.ndarray]:
    """The median body colour (beside the printed panel grey) of each tile colour, b, w, g."""
    colours: dict[str, np.ndarray] = {}
    for letter in ("b", "w", "g"):
        bodies = [relative_body(by_slot[i].norm, by_slot[i].panel)
                  for i, t in enumerate(TEACH_ORDER) if t.colour is Colour(letter)]
        colours[letter] = np.median(np.array(bodies), axis=0).astype(np.float32)
    return colours


def tile_faces(by_slot: dict[int, FoundTile]) -> dict[str, np.ndarray]:
    """The face of each tile kind; the two green 5s give the mean of both faces, the second
    moved onto the first (each was cut out on its own, a pixel or two apart, and a mean of
    two faces out of step blurs the digit and any grain of the tile)."""
    tiles: dict[str, np.ndarray] = {}
    for i, tile in enumerate(TEACH_ORDER):
        key = str(tile)
        face = by_slot[i].norm
        if key in tiles:
            moved = align_face(face, tiles[key])
            tiles[key] = ((tiles[key].astype(np.float32) + moved) / 2).astype(np.uint8)
        else:
            tiles[key] = face.copy()
    return tiles


def align_face(face: np.ndarray, onto: np.ndarray) -> np.ndarray:
    """``face`` shifted by whole pixels (up to the matching's play) to lie on ``onto``."""
    ink = ink_map(face, grey_of(body_colour(face)))
    template = template_of(ink_map(onto, grey_of(body_colour(onto))))
    _, _, _, (x, y) = cv2.minMaxLoc(cv2.matchTemplate(ink, template, cv2.TM_CCOEFF_NORMED))
    dx, dy = SHIFT - x, SHIFT - y
    move = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
    moved: np.ndarray = cv2.warpAffine(face, move, (face.shape[1], face.shape[0]),
                                       borderMode=cv2.BORDER_REPLICATE)
    return moved


#: the least grey-level difference (0..255) between the taught white and black bodies
MIN_BLACK_WHITE_CONTRAST = 40
#: how much the green body's green channel must exceed its red and blue (0..255)
MIN_GREENNESS = 15
#: the least colour distance (0..255 per channel) of the green body from black and white
MIN_GREEN_DISTANCE = 30


def _check_colours(colours: dict[str, np.ndarray]) -> None:
    """Refuse colours that cannot be told apart (the tiles are not in box order, or the
    light is too poor)."""
    def grey(v: np.ndarray) -> float:
        return float(0.114 * v[0] + 0.587 * v[1] + 0.299 * v[2])

    b, w, g = colours["b"], colours["w"], colours["g"]
    if grey(w) - grey(b) < MIN_BLACK_WHITE_CONTRAST:
        raise ArtPackError(
            "the black and white tiles look alike in this photo; are they in box order "
            "(0b 0w 1b 1w ...) and well lit?"
        )
    greenness = float(g[1]) - max(float(g[0]), float(g[2]))
    if (greenness < MIN_GREENNESS
            or min(np.linalg.norm(g - b), np.linalg.norm(g - w)) < MIN_GREEN_DISTANCE):
        raise ArtPackError(
            "the two green 5s (slots A3 and B3) do not look green; are the tiles in box order?"
        )


def _check_self_read(pack: CodePack, found: list[FoundTile]) -> None:
    """Refuse a pack that misreads the photo it was taught from."""
    wrong = []
    for f in found:
        expected = TEACH_ORDER[f.slot]
        scores = classify_tile(f.norm, f.panel, pack)
        if scores.tile != expected:
            wrong.append(SLOTS[f.slot].name)
    if wrong:
        raise ArtPackError(
            f"the taught pack misreads its own photo on slots {', '.join(wrong)}; "
            "check the tiles are in box order and retake the photo"
        )
