"""What the app holds in memory, counted: for bench/app_memory.py --trace.

Counts live objects by type (after a full collection), numpy arrays and their bytes, Kivy
widgets and textures, and the entries of Kivy's Cache, so that two counts taken a game apart
show what a game leaves behind; and says where the resident size is (libraries, heap, other
anonymous memory; malloc's blocks in use, free and mapped; Python's blocks and its small-object
allocator's arenas, in use and free), so that a growth of the RSS can be told to be Python's
objects, or room kept between them, or not Python's at all.
"""

from __future__ import annotations

import ctypes
import gc
import os
import re
import sys
import tempfile
from collections import Counter
from typing import Any

from app_process import SOFTWARE_GL, rss_by_mapping

#: arrays at least this large are listed one by one, with what holds them
BIG_ARRAY_BYTES = 1_000_000


def census() -> Counter[str]:
    """Live objects by type name, plus ``numpy bytes``, ``widgets``, ``textures``, ``texture
    bytes`` and ``Cache <category>`` entries."""
    import numpy as np
    from kivy.cache import Cache
    from kivy.graphics.texture import Texture
    from kivy.uix.widget import Widget

    gc.unfreeze()  # what the app's collector froze between games is listed only unfrozen
    gc.collect()
    counts: Counter[str] = Counter()
    arrays: dict[int, int] = {}
    for obj in gc.get_objects():
        kind = type(obj)
        counts[kind.__name__] += 1
        for referent in _holding(obj):
            while type(referent) is np.ndarray and referent.base is not None:
                referent = referent.base  # a view holds the array it looks into
            if type(referent) is np.ndarray:
                arrays[id(referent)] = referent.nbytes
                if referent.nbytes >= BIG_ARRAY_BYTES:
                    counts[f"array {referent.shape} {referent.dtype} in {kind.__name__}"
                           f" {_name_of(obj)}"] = referent.nbytes
        if issubclass(kind, Widget):  # not isinstance: a dead weak proxy raises there
            counts["widgets"] += 1
        elif issubclass(kind, Texture):
            counts["textures"] += 1
            width, height = obj.size
            counts["texture bytes"] += width * height * 4
    counts["numpy arrays"] = len(arrays)
    counts["numpy bytes"] = sum(arrays.values())
    objects: dict[str, dict[Any, Any]] = getattr(Cache, "_objects", {})
    for category, entries in objects.items():
        counts[f"Cache {category}"] = len(entries)
    return counts


class _Mallinfo2(ctypes.Structure):
    """glibc's ``struct mallinfo2`` (malloc.h): totals over every arena."""

    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def where_the_rss_is() -> str:
    """The resident size by kind of mapping (MB), malloc's totals and Python's live blocks."""
    kinds: Counter[str] = Counter()
    for path, kib in rss_by_mapping():
        kind = ("software GL" if any(n in path for n in SOFTWARE_GL) else
                "libraries" if path.startswith("/") else
                path.strip("[]") if path else "anonymous")
        kinds[kind] += kib
    words = ", ".join(f"{k} {v / 1024:.0f}" for k, v in kinds.most_common() if v >= 1024)
    mallinfo2 = getattr(ctypes.CDLL(None), "mallinfo2", None)
    if mallinfo2 is not None:  # glibc 2.33 and later
        mallinfo2.restype = _Mallinfo2
        info = mallinfo2()
        words += (f" | malloc in use {info.uordblks / 2**20:.0f}, free "
                  f"{info.fordblks / 2**20:.0f}, mapped {info.hblkhd / 2**20:.0f} in "
                  f"{info.hblks} blocks")
    return (f"RSS MB: {words} | Python's blocks {sys.getallocatedblocks():,} | "
            f"{pymalloc_words()}")


def pymalloc_words() -> str:
    """Python's small-object allocator (pymalloc): its arenas of 1 MiB, the bytes of live
    objects in them and the bytes free in their pools. An arena goes back to the system only
    once nothing in it lives: arenas much fuller than their live bytes are room kept between
    objects that live on (a screen's thousands of widgets freed around them)."""
    printed = _debugmallocstats_text()
    if not printed:
        return "pymalloc: no statistics"

    def figure(label: str) -> int:
        found = re.search(re.escape(label) + r"\s*=\s*([\d,]+)", printed)
        return int(found.group(1).replace(",", "")) if found else 0

    mib = 2**20
    return (f"pymalloc arenas {figure('# arenas allocated current')} MiB, live objects "
            f"{figure('# bytes in allocated blocks') / mib:.1f}, free in pools "
            f"{figure('# bytes in available blocks') / mib:.1f}")


def _debugmallocstats_text() -> str:
    """What ``sys._debugmallocstats`` prints (to the C library's stderr, file descriptor 2)."""
    sys.stderr.flush()
    with tempfile.TemporaryFile(mode="w+") as caught:
        saved = os.dup(2)
        try:
            os.dup2(caught.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        caught.seek(0)
        return caught.read()


def _holding(obj: Any) -> list[Any]:
    """What ``obj`` refers to, through the dicts and tuples the collector does not track
    (a dict or tuple of arrays and strings only is not tracked: arrays are not)."""
    found = []
    for referent in gc.get_referents(obj):
        found.append(referent)
        if type(referent) in (dict, tuple, list) and not gc.is_tracked(referent):
            found.extend(gc.get_referents(referent))
    return found


def _name_of(obj: Any) -> str:
    name = getattr(obj, "__qualname__", "") if not isinstance(obj, dict) else \
        ",".join(str(key) for key in list(obj)[:3])
    return str(name)[:60]


def print_growth(before: Counter[str], after: Counter[str], *, top: int = 15) -> None:
    """The counts that grew most from ``before`` to ``after``, with the totals that matter."""
    keys = ("numpy arrays", "numpy bytes", "widgets", "textures", "texture bytes")
    print("   " + ", ".join(f"{k} {after[k]:,} ({after[k] - before[k]:+,})" for k in keys))
    caches = [k for k in after if k.startswith("Cache ") and after[k]]
    print("   " + ", ".join(f"{k} {after[k]}" for k in sorted(caches)))
    print("   big arrays: " + "; ".join(k for k in after if k.startswith("array ")))
    print("   grown: " + grown_words(before, after, top=top))


def grown_words(before: Counter[str], after: Counter[str], *, top: int = 15) -> str:
    """The object counts (by type, widgets, textures) that grew most from ``before``."""
    grown = sorted(((after[k] - before[k], k) for k in after if after[k] > before[k]
                    and not k.startswith(("array ", "numpy ", "texture bytes"))), reverse=True)
    return ", ".join(f"{k} {d:+,}" for d, k in grown[:top])
