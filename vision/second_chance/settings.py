"""The sheet reader's settings: the ``[vision.sheet]`` section of the configuration,
:class:`config.schema.SheetReaderSettings` (where each threshold and its default is written),
with the picture check's limits of ``[vision.picture]`` beside it. Callers pass
``SheetSettings.from_config(config)`` of their loaded configuration; a plain
``config.vision.sheet`` is still taken, with the built-in picture limits."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

from config.schema import Config, PictureConfig, SheetReaderSettings
from vision.picture import PictureSettings


@dataclass(frozen=True)
class SheetSettings(SheetReaderSettings):
    """``[vision.sheet]`` and the limits a picture of the sheet must keep (``[vision.picture]``,
    shared by every reader)."""

    picture: PictureSettings = field(default_factory=PictureConfig)

    @classmethod
    def from_config(cls, config: Config) -> SheetSettings:
        """The settings of a loaded configuration.

        >>> SheetSettings.from_config(Config()).picture.max_noise
        12.0
        """
        return cls(**asdict(config.vision.sheet),
                   picture=paper_picture_limits(config.vision.picture, config.vision.sheet))


def paper_picture_limits(picture: PictureSettings, sheet: SheetReaderSettings
                         ) -> PictureSettings:
    """``[vision.picture]`` with the sheet's own burnt-out share (``[vision.sheet]
    max_clipped``)."""
    return replace(picture, max_clipped=sheet.max_clipped)


def picture_limits(settings: SheetReaderSettings) -> PictureSettings:
    """The picture limits ``settings`` carries, or the built-in ones with the section's own
    burnt-out share for a plain ``[vision.sheet]`` section."""
    if isinstance(settings, SheetSettings):
        return settings.picture
    return paper_picture_limits(Config().vision.picture, settings)


#: the built-in thresholds (``Config()``)
DEFAULT_SETTINGS: SheetSettings = SheetSettings.from_config(Config())
