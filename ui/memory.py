"""Keeping the app's heap from creeping up over an evening of play.

The camera and the readers allocate frames of a few megabytes each, many times a second, on
several threads. glibc's malloc then does two things that make the resident size grow for
hours without any leak: it raises its mmap threshold each time a large block is freed (so
later frames come from the heap, which fragments and is rarely given back), and it gives each
thread an arena of its own. Fixing the threshold and capping the arenas keeps each frame in a
mapping of its own, returned to the system when the frame is dropped.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging

log = logging.getLogger(__name__)

#: mallopt parameters (glibc's malloc.h)
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
#: blocks from this size on get a mapping of their own; setting it also stops glibc from
#: raising it by itself (its default, 128 KiB, is where it starts)
MMAP_THRESHOLD_BYTES = 128 * 1024
#: the main thread's arena and one for all the worker threads
ARENA_MAX = 2


def limit_heap_growth() -> bool:
    """Set glibc's malloc to give large blocks back; False where there is no glibc."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # musl and other C libraries have no mallopt
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    threshold_set: bool = mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) == 1
    arenas_set: bool = mallopt(M_ARENA_MAX, ARENA_MAX) == 1
    done = threshold_set and arenas_set
    if not done:
        log.info("malloc kept its defaults (mallopt refused)")
    return done
