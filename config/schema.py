"""The typed shape of the configuration: one frozen dataclass per ``[section]`` of
``default.toml``, each field carrying its default and what values it allows.

Adding a setting takes two lines: a field here, declared with :func:`setting` (its default
and its limits), and the same key with a comment in ``config/default.toml``. The loader finds
fields, types and limits by introspection, so nothing else needs to change, and
``tests/config`` checks that the two files agree.

>>> Config().timer.duration_s
30
>>> Config().gpio.player_button_pins
(17, 27, 22, 23)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: metadata key under which :func:`setting` keeps a field's limits
LIMITS = "tabletop-companion.limits"


@dataclass(frozen=True)
class Limits:
    """What a setting allows. ``low``/``high`` bound a number or every item of a list."""

    choices: tuple[Any, ...] | None = None
    low: float | None = None
    high: float | None = None
    #: inclusive bounds on the length of a list
    length: tuple[int, int] | None = None
    #: extra check: returns what is allowed (for the message) when the value is refused
    check: Callable[[Any], str | None] | None = None

    def describe(self) -> str:
        """What is allowed, for error messages: ``5..600``, ``"en", "es" or "uk"``."""
        parts = []
        if self.choices is not None:
            shown = [_toml_literal(c) for c in self.choices]
            parts.append(", ".join(shown[:-1]) + " or " + shown[-1] if len(shown) > 1
                         else shown[0])
        if self.low is not None or self.high is not None:
            low = "" if self.low is None else _number(self.low)
            high = "" if self.high is None else _number(self.high)
            parts.append(f"{low}..{high}")
        return "; ".join(parts)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _toml_literal(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


def setting(
    default: Any,
    *,
    choices: tuple[Any, ...] | None = None,
    low: float | None = None,
    high: float | None = None,
    length: tuple[int, int] | None = None,
    check: Callable[[Any], str | None] | None = None,
) -> Any:
    """Declare a config field: its default and the values it allows."""
    limits = Limits(choices=choices, low=low, high=high, length=length, check=check)
    return field(default=default, metadata={LIMITS: limits})


def limits_of(f: dataclasses.Field[Any]) -> Limits:
    """The limits declared for a field (none for a field declared without :func:`setting`)."""
    found = f.metadata.get(LIMITS)
    return found if isinstance(found, Limits) else Limits()


def _absolute_or_empty(value: Any) -> str | None:
    text = str(value)
    if text == "" or text.startswith("/") or text.startswith("~"):
        return None
    return 'an absolute path, a path starting with "~", or "" for the default'


#: a BCM GPIO number usable by the app: 0 and 1 are the HAT ID EEPROM bus
BCM_LOW, BCM_HIGH = 2, 27


def _bcm_pin(default: int) -> Any:
    return setting(default, low=BCM_LOW, high=BCM_HIGH)


def _bcm_pins(default: tuple[int, ...], *, length: tuple[int, int]) -> Any:
    return setting(default, low=BCM_LOW, high=BCM_HIGH, length=length)


#: ArUco dictionaries that both OpenCV 4.10 and 5.x name this way
MARKER_DICTIONARIES = tuple(
    f"DICT_{n}X{n}_{size}" for n in (4, 5, 6, 7) for size in (50, 100, 250, 1000)
) + ("DICT_ARUCO_ORIGINAL",)


@dataclass(frozen=True)
class AppConfig:
    """``[app]``: language, where data lives, demo mode."""

    language: str = setting("en", choices=("en", "es", "uk"))
    data_dir: str = setting("", check=_absolute_or_empty)
    demo: str = setting("auto", choices=("auto", "on", "off"))


@dataclass(frozen=True)
class DisplayConfig:
    """``[display]``: the window or touchscreen."""

    width: int = setting(800, low=200, high=4096)
    height: int = setting(480, low=200, high=4096)
    fullscreen: bool = setting(False)


@dataclass(frozen=True)
class TimerConfig:
    """``[timer]``: Enigma's sand timer as the light bar and buzzer play it."""

    duration_s: int = setting(30, low=5, high=600)
    warnings_s: tuple[int, ...] = setting((10, 5), low=1, high=600, length=(0, 8))
    tick_from_s: int = setting(10, low=0, high=600)


@dataclass(frozen=True)
class GpioConfig:
    """``[gpio]``: pins (BCM numbers) and the devices on them."""

    pin_factory: str = setting("auto", choices=("auto", "mock", "lgpio", "rpigpio"))
    light_bar: str = setting("leds", choices=("leds", "ws2812"))
    light_bar_pins: tuple[int, ...] = _bcm_pins((5, 6, 13, 19, 26, 16, 20, 21), length=(1, 16))
    strip_leds: int = setting(30, low=1, high=1000)
    strip_spi_bus: int = setting(0, low=0, high=1)
    strip_brightness: float = setting(0.3, low=0.0, high=1.0)
    buzzer_pin: int = _bcm_pin(18)
    buzzer_octaves: int = setting(2, low=1, high=4)
    player_button_pins: tuple[int, ...] = _bcm_pins((17, 27, 22, 23), length=(0, 4))
    confirm_pin: int = _bcm_pin(24)
    undo_pin: int = _bcm_pin(25)
    debounce_ms: int = setting(50, low=0, high=1000)


@dataclass(frozen=True)
class CameraConfig:
    """``[camera]``: where frames come from and at what size."""

    source: str = setting("auto", choices=("auto", "picamera2", "usb", "replay", "render"))
    device: int = setting(0, low=0, high=63)
    path: str = setting("")
    width: int = setting(2304, low=64, high=4608)
    height: int = setting(1296, low=64, high=2592)
    fps: int = setting(10, low=1, high=60)


@dataclass(frozen=True)
class IndigoBoardConfig:
    """``[vision.indigo]``: where the Indigo board lies in the marker frame (millimetres) and
    the reader's thresholds (``vision.indigo.settings.IndigoSettings`` says what each does)."""

    board_center_mm: tuple[float, ...] = setting((0.0, 0.0), low=-2000.0, high=2000.0,
                                                 length=(2, 2))
    board_radius_mm: float = setting(250.0, low=10.0, high=2000.0)
    rotation_deg: float = setting(0.0, low=-360.0, high=360.0)
    marker_size_mm: float = setting(60.0, low=10.0, high=300.0)
    marker_frame_mm: tuple[float, ...] = setting((580.0, 520.0), low=50.0, high=4000.0,
                                                 length=(2, 2))
    read_cell_px: int = setting(16, low=8, high=64)
    board_min_score: float = setting(0.35, low=-1.0, high=1.0)
    gem_min_fraction: float = setting(0.35, low=0.05, high=1.0)
    margin_full_confidence: float = setting(0.45, low=0.01, high=1.0)
    blur_min_edge: float = setting(0.12, low=0.0, high=1.0)


@dataclass(frozen=True)
class CodeReaderConfig:
    """``[vision.code]``: thresholds of the Break the Code tile reader
    (``vision.break_the_code.settings.CodeReaderSettings.from_config`` reads them)."""

    px_per_mm: float = setting(4.0, low=1.0, high=16.0)
    foreground: float = setting(40.0, low=1.0, high=255.0)
    min_area: float = setting(0.6, low=0.1, high=1.0)
    max_area: float = setting(1.5, low=1.0, high=5.0)
    ignore_area: float = setting(0.12, low=0.0, high=1.0)
    max_offset_mm: float = setting(14.0, low=1.0, high=100.0)
    accept: float = setting(0.5, low=0.0, high=1.0)
    pack: str = setting("")


@dataclass(frozen=True)
class SheetReaderSettings:
    """``[vision.sheet]``: thresholds of the Second Chance sheet reader
    (``vision.second_chance.reader`` takes this section as it is; tuned on rendered sheets,
    see ``bench/sheet_reader.py``)."""

    #: a pixel is ink when its most absorbed colour channel is darker than the paper by this
    ink_darkness: float = setting(0.2, low=0.01, high=1.0)
    #: ... or, for a coloured mark, this much colour and at least ``ink_light`` darkness
    ink_chroma: float = setting(0.08, low=0.01, high=1.0)
    ink_light: float = setting(0.08, low=0.0, high=1.0)
    #: the fill score of a cell is the largest of: its share of ink pixels / ``ink_share_unit``,
    #: its texture (darkness std above ``texture_floor``) / ``texture_unit`` (hatching), its
    #: mean darkness / ``darkness_unit`` (solid shading). Up to ``empty_score`` empty, from
    #: ``filled_score`` filled, in between doubtful: a question (faint erased traces land there
    #: only when they are unclear)
    ink_share_unit: float = setting(0.10, low=0.01, high=1.0)
    texture_floor: float = setting(0.01, low=0.0, high=0.5)
    texture_unit: float = setting(0.035, low=0.001, high=1.0)
    darkness_unit: float = setting(0.15, low=0.01, high=1.0)
    empty_score: float = setting(0.6, low=0.01, high=10.0)
    filled_score: float = setting(1.7, low=0.01, high=10.0)
    #: the smallest ink share of a written 1
    one_min_ink: float = setting(0.02, low=0.0, high=1.0)
    #: the inside of a cell, as a share of the cell kept on each side (outlines stay outside)
    inset: float = setting(0.16, low=0.0, high=0.4)
    #: a 1: the ink's horizontal spread at most this share of its vertical spread; a sure one
    #: has at most ``one_max_ink`` of its cell in ink (a heavier 1-shaped mark is asked about)
    one_aspect: float = setting(0.6, low=0.05, high=2.0)
    one_max_ink: float = setting(0.4, low=0.01, high=1.0)
    #: a sure 1: horizontal spread at most ``one_strict`` of the vertical and at most
    #: ``one_max_spread`` of a cell, in one or two strokes; looser candidates are asked about
    one_strict: float = setting(0.5, low=0.05, high=2.0)
    one_max_spread: float = setting(0.1, low=0.01, high=1.0)
    #: outline score (darkness of the border over its sides): above ``cut`` an outline,
    #: below ``join`` none, between undecided (used as they are when a sheet's own scores do
    #: not show two clear groups, see ``min_outline_gap``)
    cut: float = setting(0.13, low=-1.0, high=1.0)
    join: float = setting(0.075, low=-1.0, high=1.0)
    #: a sheet's outline scores fall in two groups (outlines, none) whose levels differ from
    #: sheet to sheet (soft pencil over dark shading, firm pen): when the two groups' medians
    #: are at least ``min_outline_gap`` apart, a border is an outline above their midpoint plus
    #: ``outline_margin`` of the gap, none below the midpoint minus it, undecided between
    min_outline_gap: float = setting(0.12, low=0.0, high=2.0)
    outline_margin: float = setting(0.15, low=0.0, high=0.5)
    #: the light a printed grid line lets through, when a sheet has too few borders to tell
    printed_line_prior: float = setting(0.63, low=0.05, high=1.0)
    #: the light that shading covering the paper completely lets through (relative to the
    #: paper): under shading the printed line is expected that much less distinct
    ink_floor: float = setting(0.3, low=0.0, high=0.9)
    #: hue difference (1 - cos) between two cells' ink that marks two tiles, counted only
    #: when both inks have at least ``min_hue`` colour
    colour_cut: float = setting(0.06, low=0.0, high=2.0)
    min_hue: float = setting(0.04, low=0.0, high=1.0)
    #: a change of colour alone is an outline for sure when its hue difference and both inks'
    #: colour are this many times ``colour_cut`` and ``min_hue``; a smaller change counts only
    #: with a border that is not clearly without a line (else the border is undecided)
    sure_hue_factor: float = setting(2.0, low=1.0, high=10.0)
    #: cells whose read is less sure than this are listed as doubtful
    doubtful_below: float = setting(0.6, low=0.0, high=1.0)
    #: below this orientation confidence (pad without markers) the orientation is a question
    min_orientation: float = setting(0.2, low=0.0, high=1.0)
    #: the burnt-out share of the sheet's picture allowed, in place of ``[vision.picture]
    #: max_clipped``: white paper at 250 and up (a bright room, a scan) loses nothing, since
    #: the marks are measured against the paper; 1.0 never refuses a sheet for it
    max_clipped: float = setting(1.0, low=0.0, high=1.0)


@dataclass(frozen=True)
class EnigmaVisionConfig:
    """``[vision.enigma]``: the Enigma table reader and puzzle checks (``vision.enigma``)."""

    pack: str = setting("")
    tile_mm: float = setting(0.0, low=0.0, high=300.0)
    marker_size_mm: float = setting(40.0, low=10.0, high=300.0)
    marker_frame_mm: tuple[float, ...] = setting((760.0, 640.0), low=50.0, high=4000.0,
                                                 length=(2, 2))
    read_px_per_tile: int = setting(64, low=32, high=160)
    start_min_score: float = setting(0.45, low=0.0, high=1.0)
    occupied_min: float = setting(0.6, low=0.1, high=1.0)
    port_min_fraction: float = setting(0.25, low=0.05, high=1.0)
    mat_marker_mm: float = setting(30.0, low=10.0, high=300.0)
    mat_frame_mm: tuple[float, ...] = setting((240.0, 150.0), low=50.0, high=2000.0,
                                              length=(2, 2))
    fragment_min_iou: float = setting(0.96, low=0.5, high=1.0)
    fragment_max_gap: float = setting(0.005, low=0.0, high=0.5)


@dataclass(frozen=True)
class PictureConfig:
    """``[vision.picture]``: what a picture must carry before any reader reads it
    (``vision.picture``). A picture past a limit is refused, naming the cause; one near a
    limit (within ``quality_band`` of it, as a share of the limit) is read with lowered
    confidence, so its reads are asked about."""

    #: share of the board's pixels burnt out (a channel at 250 or more)
    max_clipped: float = setting(0.15, low=0.0, high=1.0)
    #: share of the board's pixels crushed black (every channel at 5 or less)
    max_crushed: float = setting(0.2, low=0.0, high=1.0)
    #: grey levels between the board's 5th and 95th percentiles
    min_contrast: float = setting(20.0, low=0.0, high=255.0)
    #: sensor noise, standard deviation in grey levels, on the board's flattest parts
    max_noise: float = setting(12.0, low=0.1, high=255.0)
    #: chroma of the board's most colourful pixels (Lab), for readers that need colour
    min_colour: float = setting(12.0, low=0.0, high=200.0)
    #: fine detail per unit of contrast, at half size
    min_focus: float = setting(0.05, low=0.0, high=10.0)
    quality_band: float = setting(0.5, low=0.01, high=10.0)


@dataclass(frozen=True)
class VisionConfig:
    """``[vision]``: thresholds of the board readers; a read below them is asked, not applied."""

    marker_dictionary: str = setting("DICT_4X4_50", choices=MARKER_DICTIONARIES)
    min_confidence: float = setting(0.85, low=0.0, high=1.0)
    max_reprojection: float = setting(0.15, low=0.01, high=1.0)
    min_board_area: float = setting(0.05, low=0.0, high=1.0)
    blur_min_variance: float = setting(40.0, low=0.0, high=100000.0)
    pack: str = setting("")
    indigo: IndigoBoardConfig = field(default_factory=IndigoBoardConfig)
    code: CodeReaderConfig = field(default_factory=CodeReaderConfig)
    sheet: SheetReaderSettings = field(default_factory=SheetReaderSettings)
    enigma: EnigmaVisionConfig = field(default_factory=EnigmaVisionConfig)
    picture: PictureConfig = field(default_factory=PictureConfig)


@dataclass(frozen=True)
class Config:
    """The whole configuration. ``Config()`` is the built-in defaults.

    ``sources`` lists the files merged to make it, lowest precedence first; it takes no part
    in equality.
    """

    app: AppConfig = field(default_factory=AppConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    timer: TimerConfig = field(default_factory=TimerConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    vision: VisionConfig = field(default_factory=VisionConfig)
    sources: tuple[str, ...] = field(default=(), compare=False, metadata={"internal": True})


def is_section(value_type: Any) -> bool:
    """True when a field's type is a nested table (a dataclass) rather than a value."""
    return isinstance(value_type, type) and dataclasses.is_dataclass(value_type)


def is_internal(f: dataclasses.Field[Any]) -> bool:
    """True for bookkeeping fields that are not settings (``Config.sources``)."""
    return bool(f.metadata.get("internal"))
