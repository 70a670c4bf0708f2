"""The learned border model of the sheet reader (vision/second_chance/borders.py and its
weights)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.second_chance.drawn import TileChoices
from companion.second_chance.shapes import Shape, canonical_text
from vision.second_chance.borders import (
    FEATURES,
    MODEL_PATH,
    SIDE_FEATURES,
    BorderModel,
    load_border_model,
    load_side_model,
)
from vision.second_chance.outlines import Segmentation, segment
from vision.second_chance.reader import read_sheet
from vision.second_chance.settings import DEFAULT_SETTINGS
from vision.second_chance.synth.sheet import render_sheet
from vision.second_chance.unoutlined import unoutlined_tiles


def test_the_shipped_model_loads_with_this_codes_features() -> None:
    model = load_border_model()
    assert model is not None
    assert model.mean.shape == (len(FEATURES),) and model.scale.shape == (len(FEATURES),)
    assert model.hidden_weights.shape[0] == len(FEATURES)
    assert 0.0 < model.join_below < 0.5 < model.cut_above < 1.0
    p = model.probabilities(np.tile(model.mean, (3, 1)))
    assert p.shape == (3,) and np.all((p >= 0) & (p <= 1))


def test_a_model_for_other_features_is_refused(tmp_path: Path) -> None:
    data = json.loads(MODEL_PATH.read_text())
    data["features"] = data["features"][:-1]
    with pytest.raises(ValueError):
        BorderModel.from_json(data)
    assert load_border_model(tmp_path / "missing.json") is None


# sheets from no bench range and no training range: pencil (7779) and coloured pencil (7781)
@pytest.mark.parametrize("seed", [7779, 7781])
def test_the_borders_of_a_rendered_sheet_are_classified_right(seed: int,
                                                              sheet_content: Any) -> None:
    content = sheet_content(seed, 2 + seed % 2)
    style = ("pencil", "pen", "colour")[seed % 3]
    reading = read_sheet(render_sheet(content, style=style, seed=seed).image)
    model = load_border_model()
    assert model is not None
    tile_of = {cell: i for i, tile in enumerate(content.tiles) for cell in tile}
    probability = reading.debug["border_probability"]
    known = [(b, tile_of[b[0]] != tile_of[b[1]]) for b in probability
             if b[0] in tile_of and b[1] in tile_of]
    assert len(known) > 20 and any(outline for _, outline in known)
    for border, outline in known:
        if probability[border] >= model.cut_above:
            assert outline, border
        if probability[border] <= model.join_below:
            assert not outline, border
    wrong = [b for b, outline in known if (probability[b] > 0.5) != outline]
    assert len(wrong) <= 1, wrong



def test_the_learned_probability_cuts_joins_or_leaves_a_border_to_a_question(
    border_scores: Any,
) -> None:
    # two I3 tiles side by side in a 2 x 3 block; the border under the middle decides
    tiles = {(r, c) for r in range(2) for c in range(3)}
    between = ((0, 1), (1, 1))
    outer = {((0, 0), (1, 0)): 0.4, ((0, 2), (1, 2)): 0.4}
    sure = (0.95, 0.05)
    colour = np.zeros((9, 9, 3))

    def run(score: float, probability: float):  # type: ignore[no-untyped-def]
        right, below = border_scores({**outer, between: score})
        return segment(tiles, right, below, colour, DEFAULT_SETTINGS, thresholds=(0.13, 0.075),
                       settle_by_rules=False, border_probability={between: probability},
                       sure_probability=sure)

    # scored as no line, but the model is sure of one: cut, by the model, no question
    seg = run(0.0, 0.99)
    assert seg.outlines[between][:1] == (True,) and seg.outlines[between][2] == "model"
    assert seg.shapes == (((0, 0), (0, 1), (0, 2)), ((1, 0), (1, 1), (1, 2)))
    assert not seg.questions
    # undecided by the score and by the model: a question
    seg = run(0.1, 0.5)
    assert seg.outlines[between][2] == "asked" and seg.questions
    # undecided by the score, the model is sure there is none: joined, no question (without
    # the model the same border is asked)
    block = {(0, 0), (0, 1), (1, 0), (1, 1)}
    inside = ((0, 0), (0, 1))
    right, below = border_scores({inside: 0.1})
    for probability, decided_by in ((0.01, "model"), (0.5, "asked")):
        seg = segment(block, right, below, colour, DEFAULT_SETTINGS, thresholds=(0.13, 0.075),
                      settle_by_rules=False, border_probability={inside: probability},
                      sure_probability=sure)
        assert seg.outlines[inside][2] == decided_by
        assert bool(seg.questions) == (decided_by == "asked")
    assert seg.shapes == (tuple(sorted(block)),)
    # a score in the join group stays a join while the model leans the same way; where it
    # leans the other way the border is undecided (a question here, the rules being off)
    right, below = border_scores({inside: 0.0})
    for probability, decided in ((0.3, False), (0.7, None)):
        seg = segment(block, right, below, colour, DEFAULT_SETTINGS, thresholds=(0.13, 0.075),
                      settle_by_rules=False, border_probability={inside: probability},
                      sure_probability=sure)
        assert seg.outlines[inside][0] is decided
        assert bool(seg.questions) == (decided is None)
    # and a score cut the model gives less than even odds is undecided too
    right, below = border_scores({inside: 0.4})
    seg = segment(block, right, below, colour, DEFAULT_SETTINGS, thresholds=(0.13, 0.075),
                  settle_by_rules=False, border_probability={inside: 0.2}, sure_probability=sure)
    assert seg.outlines[inside][0] is None and seg.questions


def test_a_cut_between_cells_hatched_along_the_border_needs_a_sure_score_and_model(
    border_scores: Any,
) -> None:
    # two cells hatched alike with strokes along their border: a stroke there darkens the
    # printed line like an outline, so a score just past the cut is no proof of one
    tiles = {(0, 0), (0, 1)}
    border = ((0, 0), (0, 1))
    colour = np.zeros((9, 9, 3))
    # (thresholds 0.13 and 0.075: a score of 0.141 is cut with a sureness of 0.7, 0.3 of 1.0)
    for score, along, chance, decided in (
            (0.131, set(), 0.97, True),  # barely cut, the model sure: cut
            (0.131, {border}, 0.97, None),  # ... hatched along: asked
            (0.141, {border}, 0.97, None),  # cut less than surely, hatched along: asked
            (0.3, {border}, 0.9, None),  # surely cut, hatched along, the model unsure: asked
            (0.3, {border}, 0.97, True),  # surely cut and the model sure: cut
            (0.3, set(), 0.9, True)):  # not hatched along: the score decides
        right, below = border_scores({border: score})
        seg = segment(tiles, right, below, colour, DEFAULT_SETTINGS, thresholds=(0.13, 0.075),
                      settle_by_rules=False, border_probability={border: chance},
                      sure_probability=(0.95, 0.05), hatched_along=along)
        assert seg.outlines[border][0] is decided, (score, along, chance)
        assert bool(seg.questions) == (decided is None)


def test_a_barely_drawn_outline_a_stroke_follows_is_cut_where_it_joins_outlines_at_its_corners(
    border_scores: Any,
) -> None:
    # two rows of three stroked cells (loops, hatching); the border under the middle is
    # barely cut by the score (0.131: a sureness of 0.52), the model sure and a stroke all
    # along it (tuning seeds 0-15: 81 such outlines between tiles asked on scan and mild,
    # pencil scan 14, ballpoint mild 5, mixed mild 12, ...). Where the borders beside it are
    # outlines, it meets them at both its corners: an outline; where they are not, it ends
    # loose (an outline's overshoot past its corner, a row of loops along the line): asked
    tiles = {(r, c) for r in range(2) for c in range(3)}
    between = ((0, 1), (1, 1))
    colour = np.zeros((9, 9, 3))

    straight = frozenset({canonical_text(Shape.from_cells([(0, 0), (0, 1), (0, 2)]))})
    choices = (straight, straight)  # the player drew two I3 cards

    def run(outer: float, coverage: float = 1.0, chance: float = 0.99,
            choices: TileChoices | None = choices) -> Segmentation:
        right, below = border_scores({between: 0.131, ((0, 0), (1, 0)): outer,
                                      ((0, 2), (1, 2)): outer})
        return segment(tiles, right, below, colour, DEFAULT_SETTINGS, thresholds=(0.13, 0.075),
                       settle_by_rules=False, border_probability={between: chance},
                       sure_probability=(0.95, 0.05), coverage={between: coverage},
                       stroked={between}, choices=choices)

    seg = run(outer=0.4)
    assert seg.outlines[between][:1] == (True,) and seg.outlines[between][2] == "sides"
    assert seg.shapes == (((0, 0), (0, 1), (0, 2)), ((1, 0), (1, 1), (1, 2)))
    assert not seg.questions
    # ... and only where the cards can ask about it (without them a row of loops along the
    # line would be a silent wrong cut)
    for loose in (run(outer=0.0), run(outer=0.4, coverage=0.9), run(outer=0.4, chance=0.9),
                  run(outer=0.4, choices=None)):
        assert loose.outlines[between][::2] == (None, "asked") and loose.questions


def test_paper_between_two_even_fills_is_never_a_sure_join(border_scores: Any) -> None:
    # tuning seeds 0-15 (ballpoint scan 8 and 13, mild 5, harsh 5): dense shading drawn
    # a hair inside each tile's outline leaves paper between two tiles' fills, lighter than
    # both; the outline score (the printed line under full cover is about as light) read no
    # line there and joined the tiles at 0.96-1.0
    from dataclasses import replace

    from vision.second_chance.border_look import paper_between_fills
    from vision.second_chance.borders import SheetBorderLevels

    zeros_r, zeros_b = np.zeros((9, 8)), np.zeros((8, 9))
    levels = SheetBorderLevels(
        zeros_r, zeros_b, np.full((9, 8), 0.3), np.full((8, 9), 0.3), zeros_r, zeros_b,
        np.full((9, 8), 0.3), np.full((8, 9), 0.3), np.zeros((9, 8, 13)),
        np.zeros((8, 9, 13)), 0.6, (0.13, 0.075), True, np.zeros((9, 9, 3)),
        np.full((9, 9), 0.7), np.full((9, 9), 0.01))
    gap, below_gap, inside = ((2, 2), (2, 3)), ((4, 4), (5, 4)), ((6, 6), (6, 7))
    levels.through_right[2, 2] = 0.36  # 1.2 times the fills' light: paper shows between
    levels.through_below[4, 4] = 0.36
    levels.through_right[6, 6] = 0.31  # the printed line under one tile's fill
    assert paper_between_fills([gap, below_gap, inside], levels) == {gap, below_gap}
    hatched = replace(levels, texture=np.full((9, 9), 0.15))  # paper between hatch strokes
    assert not paper_between_fills([gap, below_gap, inside], hatched)
    # such a border the score would join surely is asked (the rules or the cards may settle it)
    tiles = {(2, 2), (2, 3)}
    right, below = border_scores({gap: -0.05})
    for between, decided in ((set(), False), ({gap}, None)):
        seg = segment(tiles, right, below, np.zeros((9, 9, 3)), DEFAULT_SETTINGS,
                      thresholds=(0.13, 0.075), settle_by_rules=False,
                      border_probability={gap: 0.01}, sure_probability=(0.95, 0.05),
                      paper_between=between)
        assert seg.outlines[gap][0] is decided
        assert bool(seg.questions) == (decided is None)


def test_the_model_never_joins_where_the_colour_changes(border_scores: Any) -> None:
    tiles = {(0, 0), (0, 1)}
    border = ((0, 0), (0, 1))
    right, below = border_scores({border: 0.1})
    colour = np.zeros((9, 9, 3))
    colour[0, 0] = (0.1, -0.05, -0.05)
    colour[0, 1] = (-0.05, 0.1, -0.05)  # a clear change of hue, weaker than a sure one
    colour[0, 1] *= 0.5
    seg = segment(tiles, right, below, colour, DEFAULT_SETTINGS, thresholds=(0.13, 0.075),
                  settle_by_rules=False, border_probability={border: 0.0},
                  sure_probability=(0.95, 0.05))
    assert seg.outlines[border][2] != "model"


def test_the_shipped_side_model_loads_with_this_codes_features() -> None:
    model = load_side_model()
    assert model is not None and model.features == SIDE_FEATURES
    assert model.mean.shape == (len(SIDE_FEATURES),)
    assert 0.5 < model.cut_above < 1.0


# a coloured pencil sheet with every outline drawn, and one whose player skipped some outlines
@pytest.mark.parametrize("outline_probability", [1.0, 0.4])
def test_a_side_the_model_is_sure_of_has_its_outline_drawn(
    outline_probability: float, question_cells: Any, sheet_content: Any,
) -> None:
    seed = 7781
    content = sheet_content(seed, 2 + seed % 2)
    rendered = render_sheet(content, style="colour", seed=seed,
                            outline_probability=outline_probability)
    bare = set(rendered.log.get("no_outline", []))
    assert bool(bare) == (outline_probability < 1.0)
    reading = read_sheet(rendered.image)
    model = load_side_model()
    assert model is not None
    tile_of = {cell: i for i, tile in enumerate(content.tiles) for cell in tile}
    drawn = reading.debug["side_drawn"]
    known = [(side, tile_of[side[0]] not in bare) for side in drawn
             if side[0] in tile_of and side[1] not in tile_of and side[1] != content.bonus]
    assert len(known) > 10
    for side, outlined in known:
        if drawn[side] >= model.cut_above:
            assert outlined, side
    # the tiles drawn without an outline are still asked about
    asked = question_cells(reading)
    for index in bare:
        tile = content.tiles[index]
        if len(tile) > 1 and any(tile_of.get(n) not in (index, None)
                                 for r, c in tile for n in ((r + 1, c), (r, c + 1))):
            assert asked & set(tile), tile


def test_a_surely_drawn_side_keeps_a_tile_from_being_asked_about() -> None:
    # one I2 tile whose sides on the empty cells let through as much light as the printed line
    tile = ((0, 0), (0, 1))
    seg = Segmentation((tile,), (), {(tile[0], tile[1]): (False, 0.9, "drawing")})
    through_right, through_below = np.full((9, 8), 0.7), np.full((8, 9), 0.7)
    empty = {(r, c) for r in range(9) for c in range(9)} - set(tile)
    sides = {(cell, n) for cell in tile for n in ((cell[0] + 1, cell[1]), (cell[0], cell[1] + 1),
                                                  (cell[0], cell[1] - 1)) if n in empty}
    asked = unoutlined_tiles(seg, through_right, through_below, 0.7, empty)
    assert asked.questions
    for chance, questions in ((0.99, False), (0.5, True)):
        result = unoutlined_tiles(seg, through_right, through_below, 0.7, empty,
                                  side_drawn=dict.fromkeys(sides, chance), surely_drawn=0.95)
        assert bool(result.questions) == questions


def test_paper_between_hatch_strokes_inside_a_tile_is_a_join_the_cards_must_confirm(
    border_scores: Any,
) -> None:
    # tuning seeds 0-15, mild photos (ballpoint 5, 9, 11, 14, coloured 6, 13, ...): between two
    # cells of one tile filled with strokes the line lets through more light than the printed
    # line under the fill (the strokes stop short of it, or cross it only here and there):
    # scored below PAPER_BETWEEN and asked as paper between two tiles' fills, though no stroke
    # follows it and the model is sure of no outline. A stroke that follows it all along is
    # an outline that may be there; two even fills with paper between them stay asked too;
    # and so does a sheet read without the cards (two tiles hatched apart, their outline
    # skipped, look the same: the own renders' sheet 22 with outlines left out)
    from vision.second_chance.by_cards import joins_left_to_the_cards

    tiles = {(0, 0), (0, 1)}
    border = ((0, 0), (0, 1))
    right, below = border_scores({border: -0.3})
    domino = frozenset({canonical_text(Shape.from_cells([(0, 0), (0, 1)]))})
    single = frozenset({canonical_text(Shape.from_cells([(0, 0)]))})

    def run(coverage: float, stroked: bool, chance: float = 0.0,
            choices: TileChoices | None = (domino, single)) -> Segmentation:
        return segment(tiles, right, below, np.zeros((9, 9, 3)), DEFAULT_SETTINGS,
                       thresholds=(0.13, 0.075), settle_by_rules=False,
                       border_probability={border: chance}, sure_probability=(0.95, 0.05),
                       coverage={border: coverage}, stroked={border} if stroked else set(),
                       choices=choices)

    seg = run(coverage=0.2, stroked=True)
    assert seg.outlines[border][:1] == (False,) and seg.shapes == (((0, 0), (0, 1)),)
    assert not seg.questions
    # the join stands where the cards confirm the sheet; else (a tile a round short) asked
    assert not joins_left_to_the_cards(seg, set(tiles))
    assert joins_left_to_the_cards(seg, set())[0]["cells"] == [[0, 0], [0, 1]]
    for asked in (run(coverage=1.0, stroked=True), run(coverage=0.2, stroked=False),
                  run(coverage=0.2, stroked=True, chance=0.3),
                  run(coverage=0.2, stroked=True, choices=None)):
        assert asked.outlines[border][0] is None and asked.questions


def test_a_square_read_as_a_tile_of_its_own_on_a_doubtful_cut_is_asked() -> None:
    from vision.second_chance.outlines import lone_square_questions

    lone, domino = ((0, 0),), ((0, 1), (0, 2))
    border = ((0, 0), (0, 1))
    inner = ((0, 1), (0, 2))

    def asked(coverage: float, chance: float, over_fill: float | None,
              by: str = "drawing") -> list[dict[str, Any]]:
        outlines: dict[Any, Any] = {border: (True, 1.0, by), inner: (False, 1.0, "drawing")}
        questions = lone_square_questions((lone, domino), outlines, {border: coverage},
                                          {border: chance}, {border: over_fill})
        if questions:  # the cut is asked; the split kept meanwhile
            assert outlines[border][0] is None and outlines[border][2] == "asked"
            assert {tuple(c) for c in questions[0]["cells"]} == {*lone, *domino}
        else:
            assert outlines[border] == (True, 1.0, by)
        return questions

    # followed all along, certain to the model, darker than the fills' strokes: a
    # one-square tile's outline
    assert not asked(1.0, 1.0, 0.3)
    assert not asked(1.0, 1.0, None)  # (the ink over the fill measured only without cards)
    # the model short of certain (ballpoint mild 8: 0.96), the printed line under a dense
    # fill (mixed harsh 10: followed 0.12, 0.05 over the fill): asked
    assert asked(0.81, 0.96, 0.3)
    assert asked(0.12, 0.9955, 0.05)
    # a pen outline as dark as a pen fill, followed all along; a faint outline a stroke
    # follows a fifth of, darker than the fill (the project's own renders): not asked
    assert not asked(1.0, 1.0, 0.06)
    assert not asked(0.22, 0.9998, 0.2)
    # a change of colour parts two tiles' fills whatever the line
    assert not asked(0.5, 0.5, 0.0, by="colour")
    # a cut inside two squares or more is not this question's
    outlines: dict[Any, Any] = {inner: (True, 1.0, "drawing")}
    assert not lone_square_questions((((0, 0), (0, 1)), ((0, 2), (0, 3))), outlines,
                                     {}, {}, {})


def test_a_cut_no_darker_than_the_printed_line_under_the_same_fill_is_left_to_the_cards(
    border_scores: Any,
) -> None:
    # tuning seeds 0-15 read with the cards, class D of issue 22 (mixed harsh 1, 10, 13): the
    # printed line under a dense fill scored like an outline, the model agreeing short of
    # certain, and cut a tile at 1.0. Its line carries no more ink over the fill than the
    # sheet's printed line under fills as light (over_printed below NO_MARGIN): doubted, and
    # the cards (one I3 drawn) join it. A margin, a model all but certain, or no measure
    # (a read without the cards) leave the cut as the drawing made it
    from vision.second_chance.border_decisions import MODEL_CERTAIN, NO_MARGIN

    tiles = {(0, 0), (0, 1), (0, 2)}
    border = ((0, 1), (0, 2))
    right, below = border_scores({border: 0.4})
    straight = frozenset({canonical_text(Shape.from_cells([(0, 0), (0, 1), (0, 2)]))})

    def run(margin: float | None, chance: float = 0.9) -> Segmentation:
        return segment(tiles, right, below, np.zeros((9, 9, 3)), DEFAULT_SETTINGS,
                       thresholds=(0.13, 0.075),
                       border_probability={border: chance}, sure_probability=(0.95, 0.05),
                       coverage={border: 1.0}, choices=(straight,),
                       over_printed=None if margin is None else {border: margin})

    seg = run(margin=NO_MARGIN - 0.04)
    assert seg.shapes == (((0, 0), (0, 1), (0, 2)),)
    assert seg.outlines[border][0] is not True and not seg.questions
    for kept in (run(margin=NO_MARGIN + 0.01), run(margin=NO_MARGIN - 0.04, chance=MODEL_CERTAIN),
                 run(margin=None)):
        assert kept.outlines[border][:1] == (True,)
        assert kept.shapes == (((0, 0), (0, 1)), ((0, 2),))


def test_the_printed_line_under_a_fill_is_measured_on_the_sides_inside_a_tile_as_dark() -> None:
    # the ink over the fill of a side, less the 90th percentile of the sides inside a tile
    # under fills within FILL_ALIKE of its own: a light fill's sides do not set a dense one's
    from vision.second_chance.sides import SideCoverage, over_printed_line

    empty = np.zeros((9, 9), np.float32)
    over = np.full((9, 9), 0.3, np.float32)
    over[2, :] = 0.1                      # the sides right of row 2's cells (dense fill)
    fill = np.full((9, 9), 0.2)
    fill[2, :] = 0.8
    sides = SideCoverage(empty, empty, 0.65, over, over)
    inside = frozenset({((0, 0), (0, 1)), ((1, 0), (1, 1)), ((2, 0), (2, 1)), ((2, 2), (2, 3))})
    found = over_printed_line(sides, [((2, 5), (2, 6)), ((5, 5), (5, 6))], inside, fill)
    assert found[((2, 5), (2, 6))] == pytest.approx(0.0)
    assert found[((5, 5), (5, 6))] == pytest.approx(0.0)
    # a side whose fill no inside side shares has no say; nor a sheet not measured
    fill[7, :] = 0.5
    assert ((7, 0), (7, 1)) not in over_printed_line(sides, [((7, 0), (7, 1))], inside, fill)
    assert not over_printed_line(SideCoverage(empty, empty, 0.65), [((2, 5), (2, 6))],
                                 inside, fill)
