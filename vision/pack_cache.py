"""An art pack loaded once per version of its folder, for the app's reads.

Loading a pack reads its manifest and images from disk (an Indigo pack: about 4 ms and
0.4 MB here), and the app reads the table every turn with the same pack. A
:class:`PackCache` loads it again only when the folder's files changed (a pack taught again
into the same folder) or another folder is named (a newly taught pack chosen): the next read
then uses the new pack, never a stale one. The same pack object is returned while nothing
changed, so what a read keeps per pack (a model, a table's memory) is reused by the next.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

#: the folder's files as (name, modification time in ns, size), sorted
Stamp = tuple[tuple[str, int, int], ...]

PackT = TypeVar("PackT")


def folder_stamp(folder: Path) -> Stamp:
    """What changes when a file of the pack ``folder`` is written, added or removed."""
    try:
        files = [(entry.name, entry.stat()) for entry in folder.iterdir() if entry.is_file()]
    except OSError:
        return ()
    return tuple(sorted((name, stat.st_mtime_ns, stat.st_size) for name, stat in files))


class PackCache(Generic[PackT]):
    """``load(folder)`` of the last folder asked for, loaded again only when the folder or
    its files changed since the last call (thread-safe: the reads run on worker threads)."""

    def __init__(self, load: Callable[[str | Path | None], PackT], demo_folder: Path) -> None:
        self._load = load
        self._demo_folder = demo_folder
        self._lock = threading.Lock()
        self._last: tuple[str, Stamp, PackT] | None = None

    def pack(self, folder: str | Path | None = None) -> PackT:
        """The pack of ``folder`` (None or "": the demo pack)."""
        path = Path(folder) if folder else self._demo_folder
        key, stamp = str(path.resolve()), folder_stamp(path)
        with self._lock:
            if self._last is not None and self._last[0] == key and self._last[1] == stamp:
                return self._last[2]
        pack = self._load(folder)
        with self._lock:
            self._last = (key, stamp, pack)
        return pack


__all__ = ["PackCache", "Stamp", "folder_stamp"]
