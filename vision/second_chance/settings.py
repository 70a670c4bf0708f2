"""The sheet reader's thresholds (:class:`SheetReaderConfig`) and how a loaded configuration's
``[vision.sheet]`` becomes them; shared by every stage of :mod:`vision.second_chance.reader`."""

from __future__ import annotations

from dataclasses import dataclass, fields

from config.schema import Config


@dataclass(frozen=True)
class SheetReaderConfig:
    """Thresholds of the sheet reader (defaults tuned on rendered sheets; see bench).

    Config ``[vision.sheet]`` has the same keys and defaults: :func:`reader_config` turns a
    loaded configuration into this.
    """

    #: a pixel is ink when its most absorbed colour channel is darker than the paper by this
    ink_darkness: float = 0.2
    #: ... or, for a coloured mark, this much colour and at least ``ink_light`` darkness
    ink_chroma: float = 0.08
    ink_light: float = 0.08
    #: the fill score of a cell is the largest of: its share of ink pixels / ``ink_share_unit``,
    #: its texture (darkness std above ``texture_floor``) / ``texture_unit`` (hatching), its
    #: mean darkness / ``darkness_unit`` (solid shading). Up to ``empty_score`` empty, from
    #: ``filled_score`` filled, in between doubtful: a question (faint erased traces land there
    #: only when they are unclear)
    ink_share_unit: float = 0.10
    texture_floor: float = 0.01
    texture_unit: float = 0.035
    darkness_unit: float = 0.15
    empty_score: float = 0.6
    filled_score: float = 1.7
    #: the smallest ink share of a written 1
    one_min_ink: float = 0.02
    #: the inside of a cell, as a share of the cell kept on each side (outlines stay outside)
    inset: float = 0.16
    #: a 1: the ink's horizontal spread at most this share of its vertical spread; a sure one
    #: has at most ``one_max_ink`` of its cell in ink (a heavier 1-shaped mark is asked about)
    one_aspect: float = 0.6
    one_max_ink: float = 0.4
    #: a sure 1: horizontal spread at most ``one_strict`` of the vertical and at most
    #: ``one_max_spread`` of a cell, in one or two strokes; looser candidates are asked about
    one_strict: float = 0.5
    one_max_spread: float = 0.1
    #: outline score (darkness of the border over its sides): above ``cut`` an outline,
    #: below ``join`` none, between undecided (used as they are when a sheet's own scores do
    #: not show two clear groups, see ``min_outline_gap``)
    cut: float = 0.13
    join: float = 0.075
    #: a sheet's outline scores fall in two groups (outlines, none) whose levels differ from
    #: sheet to sheet (soft pencil over dark shading, firm pen): when the two groups' medians
    #: are at least ``min_outline_gap`` apart, a border is an outline above their midpoint plus
    #: ``outline_margin`` of the gap, none below the midpoint minus it, undecided between
    min_outline_gap: float = 0.12
    outline_margin: float = 0.15
    #: the light a printed grid line lets through, when a sheet has too few borders to tell
    printed_line_prior: float = 0.63
    #: the light that shading covering the paper completely lets through (relative to the
    #: paper): under shading the printed line is expected that much less distinct
    ink_floor: float = 0.3
    #: hue difference (1 - cos) between two cells' ink that marks two tiles, counted only
    #: when both inks have at least ``min_hue`` colour
    colour_cut: float = 0.06
    min_hue: float = 0.04
    #: a change of colour alone is an outline for sure when its hue difference and both inks'
    #: colour are this many times ``colour_cut`` and ``min_hue``; a smaller change counts only
    #: with a border that is not clearly without a line (else the border is undecided)
    sure_hue_factor: float = 2.0
    #: cells whose read is less sure than this are listed as doubtful
    doubtful_below: float = 0.6
    #: below this orientation confidence (pad without markers) the orientation is a question
    min_orientation: float = 0.2


def reader_config(cfg: Config | None = None) -> SheetReaderConfig:
    """The reader's thresholds from a loaded configuration's ``[vision.sheet]`` (``None``:
    the defaults); the section has one key for every field of :class:`SheetReaderConfig`.

    >>> reader_config().cut
    0.13
    """
    sheet = (cfg if cfg is not None else Config()).vision.sheet
    return SheetReaderConfig(**{f.name: getattr(sheet, f.name) for f in fields(SheetReaderConfig)})


DEFAULT_CONFIG = reader_config()
