"""Keeping the app's heap from creeping up over an evening of play.

The camera and the readers allocate frames of a few megabytes each, many times a second, on
several threads. glibc's malloc then does two things that make the resident size grow for
hours without any leak: it raises its mmap threshold each time a large block is freed (so
later frames come from the heap, which fragments and is rarely given back), and it gives each
thread an arena of its own. Fixing the threshold and capping the arenas keeps each frame in a
mapping of its own, returned to the system when the frame is dropped. The threshold is set
below glibc's starting one, so that the many blocks of a few tens of KB made and dropped at
every move (a software OpenGL's textures) are mappings too, not holes in the heap.

What stays in the heap (widgets, small textures and arrays) is freed in the
middle of it, which glibc gives back only from the top. The panels rebuilt at every move make
and drop thousands of such blocks: within a minute of mixed play some 40 MB of the resident
size was free heap again. :func:`give_back_free_heap` returns those pages (``malloc_trim``:
about 7 ms of CPU when 120 MB are free, 0.3 ms when little is); the app calls it every few
seconds.
"""

from __future__ import annotations

import ctypes
import functools
import logging

log = logging.getLogger(__name__)

#: mallopt parameters (glibc's malloc.h)
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
#: blocks from this size on get a mapping of their own, given back whole when freed; setting
#: it also stops glibc from raising it by itself. 32 KiB, not glibc's starting 128 KiB: blocks
#: of 32 to 128 KiB (a software OpenGL's textures; the reads make almost none) made and
#: dropped at every move left 20 to 60 MB of free heap between blocks that live on, up to
#: 39 MB of it still resident between two trims (bench/figures/app_memory_s17_i23.txt)
MMAP_THRESHOLD_BYTES = 32 * 1024
#: the main thread's arena and one for all the worker threads
ARENA_MAX = 2


#: how often the app gives free heap pages back: a minute let 40 MB of free heap gather, and
#: 10 s still 20 to 45 MB at the end of a game (bench/app_memory.py --census: 305 MB, 279 MB
#: once trimmed); a trim every 2 s finds a fifth of that free, ~1 ms of CPU here
TRIM_INTERVAL_S = 2.0


@functools.cache
def _libc() -> ctypes.CDLL | None:
    # the process's own symbols, libc's among them: no ldconfig run (find_library) at launch
    try:
        return ctypes.CDLL(None)
    except OSError:
        return None


def give_back_free_heap() -> bool:
    """Return the heap's free pages to the system; False where there is no glibc."""
    trim = getattr(_libc(), "malloc_trim", None)
    if trim is None:  # musl and other C libraries
        return False
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    trim(0)
    return True


def limit_heap_growth() -> bool:
    """Set glibc's malloc to give large blocks back; False where there is no glibc."""
    mallopt = getattr(_libc(), "mallopt", None)
    if mallopt is None:  # musl and other C libraries have no mallopt
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    threshold_set: bool = mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) == 1
    arenas_set: bool = mallopt(M_ARENA_MAX, ARENA_MAX) == 1
    done = threshold_set and arenas_set
    if not done:
        log.info("malloc kept its defaults (mallopt refused)")
    return done
