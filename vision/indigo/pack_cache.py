"""The Indigo pack loaded once per version of its folder, for the app's reads
(:class:`vision.pack_cache.PackCache`): a read loaded it from disk every turn before (about
4 ms and 0.4 MB each time), and what the reader keeps per pack (its board model) is now
reused from one read to the next.
"""

from __future__ import annotations

from pathlib import Path

from vision.indigo.pack import DEMO_INDIGO, IndigoPack, load_indigo_pack
from vision.pack_cache import PackCache

_INDIGO_PACKS = PackCache(load_indigo_pack, DEMO_INDIGO)


def cached_indigo_pack(folder: str | Path | None = None) -> IndigoPack:
    """:func:`~vision.indigo.pack.load_indigo_pack` of ``folder`` (None or "": the demo
    pack), loaded again only when the folder or its files changed since the last call."""
    return _INDIGO_PACKS.pack(folder)


__all__ = ["cached_indigo_pack"]
