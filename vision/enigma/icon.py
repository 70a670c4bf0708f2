"""Enigma reader, a tile's icon: the category whose icon best matches the tile's middle
(:func:`read_icon`), against each category's icon made once per pack and size. See
:mod:`vision.enigma.tile`.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.enigma.colours import ColourModel, colour_features
from vision.enigma.pack import EnigmaPack

# keyed by id(pack) and holding the pack itself: a freed pack's id can be reused by another
_ICONS: dict[tuple[int, int], tuple[EnigmaPack, tuple[tuple[str, ...], np.ndarray]]] = {}


def _icon_templates(pack: EnigmaPack, side: int) -> tuple[tuple[str, ...], np.ndarray]:
    """The categories, and each one's icon as a mask of its icon-coloured pixels, ``side``
    square, in 4 turns: one stack of masks (category by category, turn by turn)."""
    key = (id(pack), side)
    cached = _ICONS.get(key)
    if cached is not None and cached[0] is pack:
        return cached[1]
    icon_f = colour_features(np.array(pack.colour("icon"), np.float32))
    tile_f = colour_features(np.array(pack.colour("tile"), np.float32))
    masks: list[np.ndarray] = []
    for image in pack.icons.values():
        small = cv2.resize(image, (side, side), interpolation=cv2.INTER_AREA)
        f = colour_features(small)
        mask = ((f - icon_f) ** 2).sum(axis=-1) < ((f - tile_f) ** 2).sum(axis=-1)
        masks += [np.rot90(mask, k) for k in range(4)]
    out = (tuple(pack.icons), np.array(masks, bool).reshape(-1, side, side))
    if len(_ICONS) >= 8:
        _ICONS.clear()  # packs are few in the app; tests and benches make many
    _ICONS[key] = (pack, out)
    return out


def read_icon(labels: np.ndarray, model: ColourModel, pack: EnigmaPack) -> str | None:
    """The category whose icon (in any of 4 turns) best matches the tile's middle, over the
    pixels that channels and cells leave visible; None when too little is seen or two
    categories match about as well."""
    p = labels.shape[0]
    side = max(8, int(round(2.5 * pack.icon_radius * p)))
    a = (p - side) // 2
    middle = labels[a:a + side, a:a + side]
    seen = model.kind_mask(middle, ("tile", "icon"))
    if seen.mean() < 0.5:
        return None
    icon = model.kind_mask(middle, ("icon",))
    categories, turns = _icon_templates(pack, side)
    # every category's every turn at once: intersection over union on the pixels seen
    inter = np.count_nonzero(turns & (icon & seen), axis=(1, 2)).astype(np.float64)
    union = np.count_nonzero((turns | icon) & seen, axis=(1, 2)).astype(np.float64)
    best = (inter / np.maximum(union, 1.0)).reshape(len(categories), 4).max(axis=1)
    scores = {category: max(0.0, float(v)) for category, v in zip(categories, best, strict=True)}
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    if ranked[0][1] < 0.45 or ranked[0][1] - ranked[1][1] < 0.15:
        return None
    return ranked[0][0]
