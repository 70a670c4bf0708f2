"""A channel's blurred rim on a tile: the colours it takes, blends of a channel colour and
bare tile. A cell colour among them (demo: yellow on cream) shows in a lone crescent as often
at a channel's rim as at a cell's, so such a crescent never names a cell on its own."""

from __future__ import annotations

import numpy as np

from vision.enigma.colours import ColourModel

#: a cell colour within this colour distance of a blend of channel and bare tile is one a
#: channel's blurred rim takes (demo: yellow lies 11-13 from brown on cream, red 35, blue
#: 68): a lone crescent of it is a channel's rim as often as a cell's (tuning independent
#: table 2 clean: yellow rims where channels meet, read as white pawns on yellow cells)
BLEND_NEAR = 20.0


def blend_distance(feats: np.ndarray, model: ColourModel, kind: str | int) -> np.ndarray:
    """Per row of ``feats`` (n, 3), the colour distance to the nearest blend of a bare tile
    colour with a colour of ``kind`` (every class of that kind), or with class ``kind``."""
    ends = ([j for j, k in enumerate(model.kinds) if k == kind] if isinstance(kind, str)
            else [kind])
    near = np.full(len(feats), np.inf)
    for end in ends:
        for tile in (j for j, k in enumerate(model.kinds) if k == "tile"):
            a, b = model.centres[end], model.centres[tile]
            t = np.clip((feats - a) @ (b - a) / max(float(np.dot(b - a, b - a)), 1e-9), 0, 1)
            near = np.minimum(near, np.linalg.norm(feats - (a + t[:, None] * (b - a)), axis=1))
    return near


def is_rim_colour(model: ColourModel, i: int) -> bool:
    """Whether class ``i``'s colour lies within :data:`BLEND_NEAR` of a blend of a channel
    colour and a bare tile colour (a blurred channel's rim on the tile)."""
    return i in _rim_classes(model)


#: the classes :func:`is_rim_colour` names, per colour model (the model's id: one a frame,
#: with the table's colour measured in it, and one per pack): asked of every cell colour
#: several times a tile, they cost 27 ms CPU of a 45-tile table's read when measured anew
RIM_CLASSES_BY_MODEL_ID: dict[int, tuple[ColourModel, frozenset[int]]] = {}


def _rim_classes(model: ColourModel) -> frozenset[int]:
    cached = RIM_CLASSES_BY_MODEL_ID.get(id(model))
    if cached is not None and cached[0] is model:
        return cached[1]
    rims = frozenset(i for i in range(len(model.kinds))
                     if blend_distance(model.centres[i][None], model, "channel")[0]
                     < BLEND_NEAR)
    if len(RIM_CLASSES_BY_MODEL_ID) >= 8:
        RIM_CLASSES_BY_MODEL_ID.clear()  # a model a frame: only the last few are asked again
    RIM_CLASSES_BY_MODEL_ID[id(model)] = (model, rims)
    return rims


def off_channel_rims(model: ColourModel, feats: np.ndarray) -> np.ndarray:
    """Which of ``feats`` (n, 3) lie farther than :data:`BLEND_NEAR` from every blend of a
    channel colour and a bare tile colour: not a channel's blurred rim."""
    off: np.ndarray = blend_distance(feats, model, "channel") >= BLEND_NEAR
    return off
