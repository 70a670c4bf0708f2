"""One setting from a loaded configuration, or a default: the readers and renderers take
``cfg`` as a :class:`config.Config`, a plain dict (tests, the command line) or ``None``."""

from __future__ import annotations

from typing import Any


def config_value(cfg: Any, dotted: str, default: Any) -> Any:
    """``cfg``'s value at ``dotted`` (``"vision.enigma.tile_mm"``), or ``default`` when
    ``cfg`` is ``None`` or has no such key."""
    node = cfg
    for part in dotted.split("."):
        if node is None:
            return default
        node = node.get(part) if isinstance(node, dict) else getattr(node, part, None)
    return default if node is None else node
