"""Where the marker searches last found their markers, so that the next search looks there first.

A camera on an arm and markers taped to the table (or a score sheet laid in the same place)
stay put between two reads: :func:`vision.markers.detect_markers` first searches windows round
the remembered places, at the level's own resolution (the same pixels as a whole search, so
the same corners), before a coarse copy or the whole frame. A search is remembered per kind
(dictionary, wanted ids, frame size, level); only the last :data:`PLACES_KEPT` kinds are kept.
A place is searched again only when it still looks as it did (:func:`remembered_places`), so
a new scene costs a few tiny comparisons, not a search in vain.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass

import cv2
import numpy as np

#: how many searches' marker places are remembered (one per reader's layout and frame size)
PLACES_KEPT = 8
#: a remembered marker is looked for in a window this many marker sides wider than round a
#: coarse find: a camera that shook a little, a sheet laid down again (a tenth of a side: the
#: detector's time grows with the window's area, and large markers make large windows)
MOVED_SIDES = 0.1
#: ... and only when its place looks as it did: the grey of the marker's box, averaged down
#: to :data:`LOOK_SIDE` squared pixels, differs by at most this many levels on average (a
#: sheet taken away, another scene, a new light: the windows would be searched in vain)
LOOK_CHANGE = 24.0
LOOK_SIDE = 8


@dataclass(frozen=True)
class _Places:
    """Where one search found its wanted markers: corners in frame pixels, and how each
    marker's box looked (:func:`_look`)."""

    quads: dict[int, np.ndarray]
    looks: dict[int, np.ndarray]


_places: OrderedDict[tuple[object, ...], _Places] = OrderedDict()
_places_lock = threading.Lock()


def forget_marker_places() -> None:
    """Forget where searches found their markers: the next search of each kind starts in
    the whole frame (or its coarse copy), as a first search does."""
    with _places_lock:
        _places.clear()


def _look(gray: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The grey of a marker's box, averaged down to :data:`LOOK_SIDE` pixels a side (None
    when the box lies off the frame)."""
    h, w = gray.shape[:2]
    x0, y0 = max(0, int(quad[:, 0].min())), max(0, int(quad[:, 1].min()))
    x1 = min(w, int(math.ceil(quad[:, 0].max())) + 1)
    y1 = min(h, int(math.ceil(quad[:, 1].max())) + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    small: np.ndarray = cv2.resize(gray[y0:y1, x0:x1], (LOOK_SIDE, LOOK_SIDE),
                                   interpolation=cv2.INTER_AREA).astype(np.float32)
    return small


def remember_places(key: tuple[object, ...], gray: np.ndarray,
                    quads: dict[int, np.ndarray]) -> None:
    """Keep where a search of this kind (``key``) found its wanted markers (corners in frame
    pixels of ``gray``) and how their boxes look, for the next search of the same kind."""
    looks = {mid: _look(gray, quad) for mid, quad in quads.items()}
    kept = {mid: look for mid, look in looks.items() if look is not None}
    with _places_lock:
        if len(kept) < len(quads):
            _places.pop(key, None)
            return
        _places[key] = _Places(quads, kept)
        _places.move_to_end(key)
        while len(_places) > PLACES_KEPT:
            _places.popitem(last=False)


def remembered_places(key: tuple[object, ...], gray: np.ndarray) -> dict[int, np.ndarray] | None:
    """Where the last search of this kind found its markers (frame pixels), when each of
    their places in ``gray`` still looks as it did then; else None."""
    with _places_lock:
        places = _places.get(key)
    if places is None:
        return None
    for mid, quad in places.quads.items():
        look = _look(gray, quad)
        if look is None or float(np.mean(np.abs(look - places.looks[mid]))) > LOOK_CHANGE:
            return None
    return places.quads
