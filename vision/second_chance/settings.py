"""The sheet reader's settings: the ``[vision.sheet]`` section of the configuration,
:class:`config.schema.SheetReaderSettings` (where each threshold and its default is written),
taken as it is. Callers pass ``config.vision.sheet`` of their loaded configuration."""

from __future__ import annotations

from config.schema import Config, SheetReaderSettings

#: the built-in thresholds (``Config().vision.sheet``)
DEFAULT_SETTINGS: SheetReaderSettings = Config().vision.sheet
