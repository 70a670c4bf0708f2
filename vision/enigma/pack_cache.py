"""The Enigma pack loaded once per version of its folder, for the app's reads.

Loading a pack reads its manifest and images from disk; the app reads the table every turn
with the same pack. :func:`cached_enigma_pack` loads it again only when the folder's files
changed (a pack taught again into the same folder) or another folder is named (a newly
taught pack chosen): the next read then uses the new pack, never a stale one. The same pack
object is returned while nothing changed, so what a read found can be reused by the next
(:class:`vision.enigma.table_memory.TableMemory` is kept for one pack object).
"""

from __future__ import annotations

import threading
from pathlib import Path

from vision.enigma.pack import DEMO_ENIGMA, EnigmaPack, load_enigma_pack

#: the folder's files as (name, modification time in ns, size), sorted
Stamp = tuple[tuple[str, int, int], ...]

_lock = threading.Lock()
_last: tuple[str, Stamp, EnigmaPack] | None = None


def folder_stamp(folder: Path) -> Stamp:
    """What changes when a file of the pack ``folder`` is written, added or removed."""
    try:
        files = [(entry.name, entry.stat()) for entry in folder.iterdir() if entry.is_file()]
    except OSError:
        return ()
    return tuple(sorted((name, stat.st_mtime_ns, stat.st_size) for name, stat in files))


def cached_enigma_pack(folder: str | Path | None = None) -> EnigmaPack:
    """:func:`~vision.enigma.pack.load_enigma_pack` of ``folder`` (None or "": the demo
    pack), loaded again only when the folder or its files changed since the last call."""
    global _last
    path = Path(folder) if folder else DEMO_ENIGMA
    key, stamp = str(path.resolve()), folder_stamp(path)
    with _lock:
        if _last is not None and _last[0] == key and _last[1] == stamp:
            return _last[2]
    pack = load_enigma_pack(folder)
    with _lock:
        _last = (key, stamp, pack)
    return pack


__all__ = ["cached_enigma_pack", "folder_stamp"]
