"""Sheet reader stage 7, one border at a time: what is known of a border between two filled cells
(its outline score, the change of colour, the learned chance, the profile, how much of it a
drawn stroke follows) and the decision it makes: cut, join or undecided. See
:func:`vision.second_chance.outlines.segment`, which groups the cells by these decisions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.second_chance.shapes import Cell
from config.schema import SheetReaderSettings
from vision.second_chance.layout import GRID_CELLS

N = GRID_CELLS


#: the confidence of a border the profile decided (the score alone left it undecided)
PROFILE_SURE = 0.6


#: ... and of a border the learned model decided (see :mod:`vision.second_chance.borders`)
MODEL_SURE = 0.6


#: a border the score decided is left undecided where the model leans the other way past this
#: (where score and model disagree past even odds, the model is right far more often than
#: not)
MODEL_DOUBT = 0.5


#: a border the score only just cut (its confidence below this) is left undecided unless the
#: model is sure of the outline too
BARELY_CUT = 0.55


#: between two cells hatched alike with strokes along the border, a cut the score decided less
#: surely than this is asked even where the model is sure of it: the stroke along the printed
#: line fools both (such a cut can score a confidence of about 0.66 with the model near 0.97)
ALONG_CUT = 0.75


#: a border this much lighter than a printed line under the fill shows paper between the two
#: fills: undecided, never a join (inside a tile the score stays above about -0.2; between two
#: tiles shaded apart with no outline, half are below)
PAPER_BETWEEN = -0.2


def hue_gap(a: np.ndarray, b: np.ndarray, lengths: tuple[float, float],
            settings: SheetReaderSettings) -> float:
    """1 - cos of the angle between two inks' hues; 0 when either is grey (no evidence).
    ``lengths``: the two hues' lengths (``np.linalg.norm``), measured once a cell."""
    na, nb = lengths
    if na < settings.min_hue or nb < settings.min_hue:
        return 0.0
    return 1.0 - float(np.dot(a, b)) / (na * nb)


@dataclass(frozen=True)
class BorderEvidence:
    """What is known of one border between two filled cells (see :func:`decide_border`)."""

    score: float  # the outline score
    hue: float  # the hue gap of the two cells' inks (see :func:`hue_gap`)
    strong_hue: bool  # a change of colour that is an outline for sure
    sure: float  # the confidence of the score's side: 0.5 at the undecided band's edge
    distance: float  # from the middle of the undecided band, in half bands
    chance: float | None  # the learned chance of an outline (None: no model)
    hatched_along: bool  # the two cells are hatched alike along the border
    verdict: bool | None  # the profile's say (None: it has none)
    #: the share of the border a drawn stroke follows (None: not measured; see
    #: vision.second_chance.sides)
    coverage: float | None = None
    #: both cells are filled with strokes and paper between them (hatching, loops; see
    #: vision.second_chance.border_look.stroked_alike)
    stroked: bool = False


@dataclass(frozen=True)
class BorderRule:
    """The sheet's thresholds for :func:`decide_border`."""

    settings: SheetReaderSettings
    thresholds: tuple[float, float]  # (cut, join) outline scores
    sure_probability: tuple[float, float]  # (cut from, join up to) learned chances
    #: the sheet is read with the cards the player drew (see
    #: :func:`is_paper_between_strokes`)
    cards: bool = False


def border_evidence(
    tiles: set[Cell], right: np.ndarray, below: np.ndarray, colour: np.ndarray,
    settings: SheetReaderSettings, thresholds: tuple[float, float],
    learned: dict[tuple[Cell, Cell], float], along: set[tuple[Cell, Cell]],
    verdicts: dict[tuple[Cell, Cell], bool],
) -> list[tuple[tuple[Cell, Cell], BorderEvidence]]:
    """Every border between two of ``tiles`` (row by row), with what is known of it."""
    cut_at, join_at = thresholds
    middle, half = (cut_at + join_at) / 2, max((cut_at - join_at) / 2, 1e-6)
    # each cell's hue length once (a cell has up to four borders), the call as it was
    length = {cell: np.linalg.norm(colour[cell]) for cell in tiles}
    found = []
    for r, c in sorted(tiles):
        for (nr, nc), score in (
            ((r, c + 1), right[r, c] if c + 1 < N else 0.0),
            ((r + 1, c), below[r, c] if r + 1 < N else 0.0),
        ):
            if (nr, nc) not in tiles:
                continue
            a, b = length[(r, c)], length[(nr, nc)]
            hue = hue_gap(colour[r, c], colour[nr, nc], (float(a), float(b)), settings)
            strong_hue = (hue > settings.colour_cut * settings.sure_hue_factor
                          and min(a, b) >= settings.min_hue * settings.sure_hue_factor)
            # confidence: 0.5 at the edge of the undecided band, 1.0 at twice the distance
            # (clipped in plain floats: np.clip on one number costs more than the rest)
            distance = abs(float(score) - middle) / half
            sure = min(max(0.5 + (distance - 1) * 0.5, 0.5), 1.0)
            border = ((r, c), (nr, nc))
            found.append((border, BorderEvidence(
                score, hue, bool(strong_hue), sure, distance, learned.get(border),
                border in along, verdicts.get(border))))
    return found


def decide_border(e: BorderEvidence, rule: BorderRule
                  ) -> tuple[str, tuple[bool | None, float, str]]:
    """``("cut" | "join" | "unsure", the border's outline entry)``: see
    :func:`~vision.second_chance.outlines.segment`."""
    settings = rule.settings
    cut_at, join_at = rule.thresholds
    cut_chance, join_chance = rule.sure_probability
    score, hue, strong_hue, chance = e.score, e.hue, e.strong_hue, e.chance
    asked: tuple[str, tuple[bool | None, float, str]] = (
        "unsure", (None, 0.5 * min(e.distance, 1.0), "asked"))
    if (score > cut_at and hue <= settings.colour_cut and chance is not None
            and chance <= join_chance and e.coverage is not None
            and e.coverage < SIDE_CUT_NEEDS):
        # the score alone sees a line, the learned model surely none and no stroke follows
        # the line: the printed line through a dense fill or a translucent marker, on a sheet
        # whose outlines hardly stand out from its insides (its thresholds sit low)
        return "join", (False, MODEL_SURE, "model")
    # the score's side, against the model's: a border the score decided one way and the
    # model leans the other way (past even odds) is left undecided
    doubted = chance is not None and (
        (score > cut_at and not strong_hue and chance <= MODEL_DOUBT)
        or (score > cut_at and not strong_hue and (
            (e.sure < BARELY_CUT and chance < cut_chance)
            or (e.hatched_along and (e.sure < ALONG_CUT or chance < cut_chance))))
        or (join_at >= score >= PAPER_BETWEEN and hue <= settings.colour_cut
            and MODEL_DOUBT <= chance < cut_chance))
    if doubted:
        return asked
    if score > cut_at or strong_hue or (hue > settings.colour_cut and score > join_at):
        by_score = score > cut_at
        return "cut", (True, e.sure if by_score else 1.0 if strong_hue else 0.5,
                       "drawing" if by_score else "colour")
    if (chance if chance is not None else 0.0) >= cut_chance:
        # the score missed it, the sheet's other measures of the border did not
        return "cut", (True, MODEL_SURE, "model")
    if ((chance if chance is not None else 1.0) <= join_chance and score > join_at
            and hue <= settings.colour_cut):
        return "join", (False, MODEL_SURE, "model")
    if e.verdict is not None and score > join_at:
        # the score left it open, the profile across the border did not
        return "cut" if e.verdict else "join", (e.verdict, PROFILE_SURE, "profile")
    if is_paper_between_strokes(e, rule):
        return "join", (False, MODEL_SURE, BETWEEN_STROKES)
    if score > join_at or hue > settings.colour_cut or score < PAPER_BETWEEN:
        # a change of colour where no line is seen (or a line not clear enough): the
        # pencils of one tile can differ a little; or paper between the two fills (two
        # tiles shaded apart, no outline drawn): asked unless the rules settle it
        return asked
    return "join", (False, e.sure, "drawing")


#: a stroke that follows less than this share of a border is no drawn outline: an outline
#: follows the line over most of a cell side, a hatch stroke crosses it or follows it a little
#: way. (Tuning seeds 0-15, on the borders :func:`is_paper_between_strokes` looks at: inside
#: a tile below 0.5 but for four of 396, between two tiles 0.5-1.0, six of them)
LITTLE_FOLLOWED = 0.25


#: the tag of a join :func:`is_paper_between_strokes` made: it stands only where the cards
#: confirm the whole sheet (see vision.second_chance.by_cards.joins_left_to_the_cards)
BETWEEN_STROKES = "strokes"


def is_paper_between_strokes(e: BorderEvidence, rule: BorderRule) -> bool:
    """A border lighter than the printed line under the fill (:data:`PAPER_BETWEEN`) between
    two cells filled with strokes, which no stroke follows a good part of
    (:data:`LITTLE_FOLLOWED`), in one colour, the learned model sure of no outline: the paper
    is the paper between the hatch strokes (the strokes stop short of the line or cross it
    only here and there), not a gap between two tiles' fills (those are even fills, see
    :func:`~vision.second_chance.border_look.paper_between_fills`). Tuning seeds 0-15 (mild
    and harsh photos of the five styles, pencil and ballpoint scans): such borders a stroke
    follows less than a quarter of, 361, are all inside a tile (79 of them were left asked,
    on 28 sheets, where the rules and the cards could not settle them); the six between two
    tiles a stroke follows half of or more.

    But two tiles hatched apart whose player skipped the outline between them look the same
    (the project's own renders with outlines left out: sheet 22 of ``bench/sheet_reader.py
    --missing-outlines 0.3``, two unoutlined tiles inside other tiles' outlines): such a join
    is made only on a sheet read with the cards (``rule.cards``), and stands only where the
    cards confirm the whole sheet, one tile a round (a join of two tiles leaves a round
    without its tile); else it is asked."""
    return (rule.cards and e.stroked and e.score < PAPER_BETWEEN and e.chance is not None
            and e.chance <= rule.sure_probability[1] and e.hue <= rule.settings.colour_cut
            and e.coverage is not None and e.coverage < LITTLE_FOLLOWED)


#: a cut between two cells hatched along the grid's directions, or one the learned model made
#: alone, needs a drawn stroke along at least this share of the border: drawn outlines cover
#: nearly all of it (gaps, a wobble off the line); strokes of the hatching that lie along the
#: line inside a tile cover a half to two thirds of it, and score like an outline (the score
#: and the learned model both take them for one)
SIDE_CUT_NEEDS = 0.8


#: no cut stands where a drawn stroke follows less than this share of the border (half a cell
#: side), whatever the score and the model say: a drawn outline follows the line over most of
#: a side. Where no stroke does, the line the score and the model see is the printed one,
#: darkened by a dense fill or a translucent marker over it. (Tuning seeds 0-15 without the
#: cards, the cuts the drawing made: 12 inside a tile below 0.5, none 0.4-0.5; 12 drawn
#: outlines below 0.5 of some 11,000, these now asked or left to the rules)
MOST_OF_A_SIDE = 0.5


#: ... unless the learned model is all but certain of the outline: a faint pencil outline of
#: the project's own renders (the model's own kind) can escape the stroke measure (own renders
#: 5001 and 5025: such cuts at a chance of 0.9946 and up; the cuts inside a tile of the tuning
#: sheets below half a side: chance 0.5-1.0, 17 of 22 below 0.99)
MODEL_CERTAIN = 0.99


#: an undecided border is cut where a stroke follows this share of it (all of it) and the
#: learned model does not doubt an outline. (No stroke along a border is no join: players skip
#: outlines, and two touching tiles then show none between them.)
SIDE_SURELY_DRAWN = 1.0


SIDES_SURE = 0.6


#: the tag of an undecided border a cut barely drawn between two stroked fills left, which a
#: stroke follows all along (see :func:`check_by_sides`): cut where it joins other outlines at
#: both its corners
FOLLOWED = "followed"


def check_by_sides(kind: str, outline: tuple[bool | None, float, str], e: BorderEvidence,
                   coverage: float, grid_hatched: bool = False, *, stroked: bool = False,
                   cut_chance: float = MODEL_DOUBT, cut_coverage: float | None = None,
                   join_chance: float = 0.0
                   ) -> tuple[str, tuple[bool | None, float, str]]:
    """``decide_border``'s verdict held against how much of the border a drawn stroke follows
    (``coverage``) and the learned model's say (``e.chance``, sure of an outline from
    ``cut_chance``). A change of colour is an outline with or without a stroke; elsewhere a
    cut is asked (or left to the rules):

    - where no stroke follows most of the line (:data:`MOST_OF_A_SIDE`), even with the score
      and the model sure of it (short of :data:`MODEL_CERTAIN`): the printed line darkened by
      a dense fill or a translucent marker, which scores like an outline on both;
    - where no stroke follows most of the line (:data:`SIDE_CUT_NEEDS`) and the two cells are
      hatched along the grid's directions (``grid_hatched``) or filled with strokes at all
      (``stroked``), or the learned model is not sure of an outline (a dense fill or a
      translucent marker lets the printed line show through: the score alone sees a line);
    - where the learned model made it alone and no stroke follows all of the line, or the two
      cells are hatched alike along it (the model was fitted on the project's own renders,
      and takes other hands' hatching for outlines: a hatch stroke lying on the line follows
      all of it);
    - between two cells filled with strokes (hatching, loops), where the model is not sure of
      it or the drawing made it only barely (:data:`ALONG_CUT`): a row of loops lies along the
      line all the way, a hatch stroke or an outline's overshoot past its corner follows it a
      while, and each looks like an outline to the score or the model.

    A border joined because no line is seen there is asked where a stroke follows all of it
    and the fills' strokes do not run along it (an outline hidden under a dense fill in the
    same ink). An undecided border a stroke follows all along is cut, unless that stroke may be the
    fill's (hatching along it, or strokes the model does not take for an outline). Otherwise
    the cuts stand: a soft pencil outline over dark shading takes little more light than the
    printed line does, and is an outline.

    A cut is held against ``cut_coverage`` where given (None: ``coverage``): the coverage
    with an outline drawn on the printed line's shoulders between two fills too (see
    :func:`vision.second_chance.sides.side_coverage`). Followed all along by that measure,
    an undecided border the model leans to an outline on is cut, and a join the drawing made
    is asked where the model is not sure of no outline (above ``join_chance``)."""
    by = outline[2]
    model_unsure = e.chance is not None and e.chance < cut_chance
    held = coverage if cut_coverage is None else cut_coverage
    if kind == "cut" and by != "colour" and (
            (held < MOST_OF_A_SIDE and (e.chance is None or e.chance < MODEL_CERTAIN))
            or (held < SIDE_CUT_NEEDS and (grid_hatched or stroked or model_unsure))
            or (by == "model" and (held < SIDE_SURELY_DRAWN or e.hatched_along))
            or (stroked and model_unsure)):
        return "unsure", (None, 0.25, "asked")
    if kind == "cut" and stroked and by == "drawing" and e.sure < ALONG_CUT:
        # barely drawn: an outline's overshoot past its corner, or a row of loops along the
        # line. Followed all along by a stroke the model takes for an outline, and not by
        # the fills' own strokes, it is an outline if it joins the others at its corners
        # (see vision.second_chance.outlines.cut_followed_outlines)
        followed = (coverage >= SIDE_SURELY_DRAWN and e.chance is not None
                    and not e.hatched_along and not grid_hatched)
        return "unsure", (None, 0.25, FOLLOWED if followed else "asked")
    # the line's width between two fills (held) counts where the learned model has a say:
    # a marker's strokes overlapping on the line widen it inside a tile too
    modelled = e.chance is not None and held >= SIDE_SURELY_DRAWN
    if (kind == "join" and outline[2] == "drawing" and not e.hatched_along
            and not grid_hatched and (coverage >= SIDE_SURELY_DRAWN
                                      or (modelled and (e.chance or 0.0) > join_chance))):
        # no line seen, yet a stroke follows all of the border and the fills' strokes do
        # not run along it: an outline hidden under a dense fill in the same ink, or drawn
        # on the printed line's shoulders
        return "unsure", (None, 0.25, "asked")
    if (kind == "unsure" and (coverage >= SIDE_SURELY_DRAWN or modelled)
            and not e.hatched_along and not grid_hatched and not (stroked and model_unsure)
            and (e.chance is None or e.chance >= MODEL_DOUBT)):
        return "cut", (True, SIDES_SURE, "sides")
    return kind, outline


#: read without the cards, a cut that a drawn stroke does not follow over most of the side
#: (:data:`SIDE_CUT_NEEDS`) stands only where its line is darker than the darkest strokes of
#: the two fills beside it by this much (see vision.second_chance.sides.ink_over_fill): a
#: drawn outline adds its own ink on top of the fill; the printed line under a dense fill or a
#: translucent marker adds no more than the fill's own strokes. (Tuning seeds 0-15, mild and
#: harsh photos without the cards: the 17 sure cuts inside a tile at 0.05-0.16; of the 8,495
#: cuts between two tiles, 862 below 0.18, 21 of them (on 10 sheets) also below 0.8 of the
#: side followed, 5 (on 4 sheets) with the learned model short of MODEL_CERTAIN too)
INK_OVER_FILL = 0.18


def check_ink_over_fill(kind: str, outline: tuple[bool | None, float, str],
                        over_fill: float | None, coverage: float | None, *, cards: bool,
                        chance: float | None = None
                        ) -> tuple[str, tuple[bool | None, float, str]]:
    """A cut (not by colour) that no drawn stroke follows over most of the side
    (``coverage`` below :data:`SIDE_CUT_NEEDS`) and whose line is no darker than the fills'
    own strokes by :data:`INK_OVER_FILL` is asked (or left to the rules) on a sheet read
    without the cards: it is the printed line through the fill (a stroke along part of it, an
    outline's overshoot), which the score and the learned model take for an outline. With the
    cards drawn it stands as decided (the cards check every tile).

    A hatch stroke of the fill lying on the printed line all along (coverage 0.8-1.0 between
    two stroked cells) adds no more ink than the fill's strokes either, but so do a tenth of
    the drawn outlines between two such fills (a dense ballpoint fill as dark as its
    outline): not asked here (361 more outlines asked, on 32 of 160 tuning sheets)."""
    if (not cards and kind == "cut" and outline[2] != "colour" and over_fill is not None
            and over_fill < INK_OVER_FILL and coverage is not None
            and coverage < SIDE_CUT_NEEDS and (chance is None or chance < MODEL_CERTAIN)):
        return "unsure", (None, 0.25, "asked")
    return kind, outline


#: read with the cards, a cut whose line carries less ink over its fill than this more than
#: the printed line does under a fill as light on the same sheet (see
#: vision.second_chance.sides.over_printed_line) has no margin over the printed line. Tuning
#: seeds 0-15 with the cards (240 reads, the cuts the drawing, the sides or the model made):
#: the 18 cuts inside a tile lie between -0.09 and 0.15, 12 of them under 0.03; of the 10,260
#: cuts between two tiles, 960 (on 118 sheets) lie under 0.03 too: no margin either way. With
#: the model short of MODEL_CERTAIN as well: 9 cuts inside a tile (mixed harsh 1, 10, 13 and
#: the cards' own fixes) and 29 between tiles (18 sheets), which the cards decide
NO_MARGIN = 0.03


def check_over_printed_line(kind: str, outline: tuple[bool | None, float, str],
                            margin: float | None, chance: float | None
                            ) -> tuple[str, tuple[bool | None, float, str]]:
    """A cut (not by colour) whose line carries no more ink over its fill than the printed
    line under the same fill on this sheet (``margin`` under :data:`NO_MARGIN`), which the
    learned model is not all but certain of (:data:`MODEL_CERTAIN`), is doubted: the printed
    line through a dense fill or a hatch stroke on it looks the same. So is a barely drawn
    cut left to its corners (:data:`FOLLOWED`). Only given on a sheet read with the cards:
    the cards decide it (the rules and the cards settle where only one split fits, else it is
    asked)."""
    if (margin is not None and margin < NO_MARGIN and outline[2] != "colour"
            and (kind == "cut" or outline[2] == FOLLOWED)
            and (chance is None or chance < MODEL_CERTAIN)):
        return "unsure", (None, 0.25, "asked")
    return kind, outline
