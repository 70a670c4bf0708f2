"""Colour features of the Enigma reader and the pack's colour model (:class:`ColourModel`):
which colour class each pixel of the rectified table is nearest to.
See :mod:`vision.enigma.reader`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from vision.enigma.pack import EnigmaPack
from vision.enigma.read_types import BRIGHTNESS, CHROMA, DARK

# ---------------------------------------------------------------------------- colours


def colour_features(bgr: np.ndarray) -> np.ndarray:
    """(..., 3) BGR -> chromaticity (b, r) scaled by CHROMA and log brightness by BRIGHTNESS:
    a shadow changes the brightness and keeps the chromaticity. Near black the chromaticity
    is mostly noise, so it counts less there (deviations from grey are damped)."""
    img = np.asarray(bgr, np.float32) + 1.0
    b, r = img[..., 0], img[..., 2]
    # the channels added in their order, as a sum along the last axis adds them, but four
    # times faster than numpy's reduction along an axis three wide
    total = b + img[..., 1]
    total += r
    out = np.empty(img.shape, np.float32)
    trust = np.clip(total / DARK, 0.25, 1.0)
    out[..., 0] = CHROMA * ((b / total - 1 / 3) * trust + 1 / 3)
    out[..., 1] = CHROMA * ((r / total - 1 / 3) * trust + 1 / 3)
    out[..., 2] = BRIGHTNESS * np.log(total)
    return out


@dataclass(frozen=True)
class ColourModel:
    """The pack's colours as classes: names, feature centres, and what each class is."""

    names: tuple[str, ...]
    kinds: tuple[str, ...]  # "tile", "edge", "channel", "icon", "table", "cell", "net"
    centres: np.ndarray  # (k, 3)

    def index(self, kind: str, name: str | None = None) -> int:
        for i, (k, n) in enumerate(zip(self.kinds, self.names, strict=True)):
            if k == kind and (name is None or n == name):
                return i
        raise KeyError((kind, name))

    def labels(self, feats: np.ndarray, *, skip: tuple[str, ...] = ()) -> np.ndarray:
        """Per pixel the index of the nearest class centre, leaving out the kinds in ``skip``
        (one pass per class: no big temporary arrays)."""
        flat = feats.reshape(-1, 3)
        best = np.zeros(flat.shape[0], np.int32)
        best_d = np.full(flat.shape[0], np.inf, np.float32)
        for i, centre in enumerate(self.centres):
            if self.kinds[i] in skip:
                continue
            diff = flat - centre
            d = (diff * diff).sum(axis=1)
            closer = d < best_d
            best[closer] = i
            best_d[closer] = d[closer]
        return best.reshape(feats.shape[:-1])


    def labels_with_and_without(self, feats: np.ndarray, skip: tuple[str, ...]
                                ) -> tuple[np.ndarray, np.ndarray]:
        """(labels without the kinds in ``skip``, labels with every class), in one pass."""
        without, every = self.labels_leaving_out(feats, (skip, ()))
        return without, every

    def labels_leaving_out(self, feats: np.ndarray, skips: tuple[tuple[str, ...], ...]
                           ) -> list[np.ndarray]:
        """Per set of kinds in ``skips``, the labels without those kinds: one pass over the
        classes for all the sets (each class's distances are computed once; ties go to the
        first class)."""
        planes = np.ascontiguousarray(feats.reshape(-1, 3).T)
        n = planes.shape[1]
        best = [np.zeros(n, np.int32) for _ in skips]
        best_d = [np.full(n, np.inf, np.float32) for _ in skips]
        d = np.empty(n, np.float32)
        term = np.empty(n, np.float32)
        for i, centre in enumerate(self.centres):
            # the squared distance summed in the order x, y, brightness
            np.subtract(planes[0], centre[0], out=d)
            np.multiply(d, d, out=d)
            for c in (1, 2):
                np.subtract(planes[c], centre[c], out=term)
                np.multiply(term, term, out=term)
                np.add(d, term, out=d)
            for k, skip in enumerate(skips):
                if self.kinds[i] in skip:
                    continue
                closer = d < best_d[k]
                best[k][closer] = i
                np.copyto(best_d[k], d, where=closer)
        return [b.reshape(feats.shape[:-1]) for b in best]

    def kind_mask(self, labels: np.ndarray, kinds: tuple[str, ...]) -> np.ndarray:
        """Where ``labels`` name a class of one of ``kinds`` (a table look-up per pixel)."""
        mask: np.ndarray = _kind_table(self.kinds, kinds)[labels]
        return mask


@lru_cache(maxsize=64)
def _kind_table(model_kinds: tuple[str, ...], kinds: tuple[str, ...]) -> np.ndarray:
    """Per class of a model with these ``model_kinds``, whether it is of one of ``kinds``
    (cached: a tile asks for the same few sets of kinds many times)."""
    table = np.array([kind in kinds for kind in model_kinds])
    table.setflags(write=False)
    return table


#: the colour models made, keyed by id(pack) and holding the pack itself: a freed pack's id
#: can be reused by another, and :func:`colour_model` must notice
MODELS_BY_PACK_ID: dict[int, tuple[EnigmaPack, ColourModel]] = {}


def colour_model(pack: EnigmaPack) -> ColourModel:
    key = id(pack)
    cached = MODELS_BY_PACK_ID.get(key)
    if cached is not None and cached[0] is pack:
        return cached[1]
    names: list[str] = []
    kinds: list[str] = []
    colours: list[tuple[int, int, int]] = []
    for kind, name in (
        ("tile", "tile"),
        ("edge", "tile_edge"),
        ("channel", "channel"),
        ("icon", "icon"),
        ("table", "table"),
    ):
        names.append(name)
        kinds.append(kind)
        colours.append(pack.colour(name))
    # a channel's dark outline (when a style draws one) is still channel
    b, g, r = pack.colour("channel")
    names.append("channel")
    kinds.append("channel")
    colours.append((int(b * 0.55), int(g * 0.55), int(r * 0.55)))
    for name, c in pack.cells.items():
        names.append(name)
        kinds.append("cell")
        colours.append(c)
    for name, c in pack.networkers.items():
        names.append(name)
        kinds.append("net")
        colours.append(c)
    model = ColourModel(
        tuple(names), tuple(kinds), colour_features(np.array(colours, np.float32)).reshape(-1, 3)
    )
    if len(MODELS_BY_PACK_ID) >= 8:
        MODELS_BY_PACK_ID.clear()  # packs are few in the app; tests and benches make many
    MODELS_BY_PACK_ID[key] = (pack, model)
    return model
