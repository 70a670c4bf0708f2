"""The Enigma pack loaded once per version of its folder, for the app's reads
(:class:`vision.pack_cache.PackCache`): the same pack object while nothing changed, so what a
read found can be reused by the next (:class:`vision.enigma.table_memory.TableMemory` is kept
for one pack object).
"""

from __future__ import annotations

from pathlib import Path

from vision.enigma.pack import DEMO_ENIGMA, EnigmaPack, load_enigma_pack
from vision.pack_cache import PackCache

_ENIGMA_PACKS = PackCache(load_enigma_pack, DEMO_ENIGMA)


def cached_enigma_pack(folder: str | Path | None = None) -> EnigmaPack:
    """:func:`~vision.enigma.pack.load_enigma_pack` of ``folder`` (None or "": the demo
    pack), loaded again only when the folder or its files changed since the last call."""
    return _ENIGMA_PACKS.pack(folder)


__all__ = ["cached_enigma_pack"]
