"""The Break the Code tile reader's settings, built once from the loaded configuration.

Every threshold comes from ``[vision.code]`` (:class:`config.schema.CodeReaderConfig`), where
its default lives; :data:`DEFAULT_SETTINGS` is the reader with those defaults.
"""

from __future__ import annotations

from dataclasses import dataclass

from config.schema import Config, PictureConfig
from vision.markers import MarkerChecks

#: the homography checks of the code mat: the core's own thresholds (the mat is a small
#: printed sheet; the ``[vision]`` board thresholds are not applied to it)
MAT_MARKER_CHECKS = MarkerChecks()


@dataclass(frozen=True)
class CodeReaderSettings:
    """Thresholds of the tile reader (``vision.break_the_code.reader``) and of teaching."""

    #: resolution of the straightened mat panel the tiles are found in, pixels per mm
    px_per_mm: float
    #: colour distance from the local panel grey (on a 0..255 scale) that makes a tile pixel
    foreground: float
    #: a tile's area must be within these shares of the pack's tile area
    min_area: float
    max_area: float
    #: pieces smaller than this share of a tile are ignored (dust, a reflection)
    ignore_area: float
    #: a tile whose centre is farther than this from every slot centre is a problem
    max_offset_mm: float
    #: the confidence at which the app stores a reading without asking
    accept: float
    #: the checks the mat's four markers must pass
    markers: MarkerChecks
    #: what the picture of the mat's panel must carry before a tile is read
    #: (``[vision.picture]``, shared by every reader)
    picture: PictureConfig

    @classmethod
    def from_config(cls, config: Config) -> CodeReaderSettings:
        """The settings of a loaded configuration (``[vision.code]``).

        >>> CodeReaderSettings.from_config(Config()).accept
        0.5
        """
        code = config.vision.code
        return cls(
            px_per_mm=code.px_per_mm,
            foreground=code.foreground,
            min_area=code.min_area,
            max_area=code.max_area,
            ignore_area=code.ignore_area,
            max_offset_mm=code.max_offset_mm,
            accept=code.accept,
            markers=MAT_MARKER_CHECKS,
            picture=config.vision.picture,
        )


#: the reader's settings with the shipped defaults
DEFAULT_SETTINGS = CodeReaderSettings.from_config(Config())
