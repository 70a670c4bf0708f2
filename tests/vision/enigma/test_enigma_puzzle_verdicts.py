"""What a puzzle check gives a screen: the reason code, its facts, and marks over the camera
frame (the weights and the pans' sums, the silhouette left uncovered, an open channel), while
``check_puzzle_frame`` keeps its two-string dict for the command line and the bench."""

from __future__ import annotations

import random

import numpy as np
import pytest

from companion.enigma.puzzles import load_puzzles
from vision.enigma.puzzles.check import check_puzzle, check_puzzle_frame
from vision.enigma.puzzles.marks import cells_named, open_channels, to_frame
from vision.enigma.puzzles.verdicts import Mark, MarkKind, PuzzleVerdict, Reason
from vision.enigma.puzzles.view import CardView
from vision.enigma.synth.puzzles import default_solution, near_misses, render_puzzle_frame


@pytest.fixture(scope="module")
def box():
    return load_puzzles()


def _inside(mark: Mark, frame: np.ndarray) -> bool:
    h, w = frame.shape[:2]
    return all(0 <= x < w and 0 <= y < h for x, y in mark.points)


def _frame_and_verdict(kind, card, solution, pack, box, seed, **extra):
    frame = render_puzzle_frame(kind, card, pack, solution=solution, seed=seed, **extra)
    return frame, check_puzzle(kind, frame, pack, card=card, box=box)


def test_a_balanced_weight_card_marks_every_weight_and_both_pans(box, demo_pack) -> None:
    card = box.weight.cards["weight-demo-1"]
    frame, said = _frame_and_verdict("weight", card, default_solution("weight", card, box),
                                     demo_pack, box, 3)
    assert said.verdict == "solved" and said.code is Reason.BALANCED
    assert said.facts["left"] == said.facts["right"] and said.facts["used"] == card.count
    weights = [m for m in said.marks if m.kind is MarkKind.WEIGHT]
    pans = {m.label for m in said.marks if m.kind is MarkKind.PAN}
    assert len(weights) == card.count and pans == {str(said.facts["left"])}
    assert all(m.space == "frame" and _inside(m, frame) for m in said.marks)
    # the command line's dict is the same verdict, with nothing else in it
    assert check_puzzle_frame("weight", frame, demo_pack, card=card, box=box) == {
        "verdict": said.verdict, "reason": said.reason}


def test_a_weight_in_the_wrong_pan_shows_the_two_sums(box, demo_pack) -> None:
    card = box.weight.cards["weight-demo-1"]
    wrong = near_misses("weight", card, default_solution("weight", card, box), box,
                        random.Random(1))[0][1]
    _frame, said = _frame_and_verdict("weight", card, wrong, demo_pack, box, 2)
    assert said.verdict == "not solved" and said.code is Reason.UNBALANCED
    pans = sorted(int(m.label) for m in said.marks if m.kind is MarkKind.PAN)
    assert pans == sorted((said.facts["left"], said.facts["right"]))
    assert said.facts["left"] != said.facts["right"]
    # a pan's sum is written above its own cups: the left pan's left of the right pan's
    pan_at = {m.label: m.points[0][0] for m in said.marks if m.kind is MarkKind.PAN}
    assert pan_at[str(said.facts["left"])] < pan_at[str(said.facts["right"])]


def _washing_out(monkeypatch, how_many: int) -> None:
    """The first ``how_many`` whole weights judged are read as washed out by a lamp's glare
    (the weights of a solved card all lie in cups)."""
    from dataclasses import replace

    from vision.enigma.puzzles import weight as weight_check

    real = weight_check.judge_weight
    washed: list[object] = []

    def judge(level, centre, wr):
        judged = real(level, centre, wr)
        if judged.whole and len(washed) < how_many:
            washed.append(centre)
            return replace(judged, whole=False, doubt=weight_check.WASHED_OUT)
        return judged

    monkeypatch.setattr(weight_check, "judge_weight", judge)


def test_a_cup_washed_out_by_glare_is_asked_about_with_the_glare_code(box, demo_pack,
                                                                      monkeypatch) -> None:
    card = box.weight.cards["weight-demo-1"]
    _washing_out(monkeypatch, 1)
    _frame, said = _frame_and_verdict("weight", card, default_solution("weight", card, box),
                                      demo_pack, box, 3)
    assert said.verdict == "cannot tell" and said.code is Reason.GLARE, said
    assert "glare" in said.reason and said.facts == {"cups": 1}
    assert [m for m in said.marks if m.kind is MarkKind.DOUBT]


def test_a_missing_fragment_piece_marks_the_uncovered_part(box, demo_pack) -> None:
    card = list(box.fragment.cards.values())[1]
    solution = default_solution("fragment", card, box)
    missing = next(s for what, s, _ in near_misses("fragment", card, solution, box,
                                                     random.Random(5)) if what == "a piece missing")
    frame, said = _frame_and_verdict("fragment", card, missing, demo_pack, box, 5)
    assert said.verdict == "not solved" and said.code in (Reason.UNCOVERED, Reason.TOO_LITTLE)
    uncovered = [m for m in said.marks if m.kind is MarkKind.UNCOVERED]
    assert uncovered and all(len(m.points) >= 3 and _inside(m, frame) for m in uncovered)
    assert said.facts["uncovered"] > 0.0


def test_a_turned_conduit_piece_marks_an_open_channel(box, demo_pack) -> None:
    card = list(box.conduit.cards.values())[1]
    solution = default_solution("conduit", card, box)
    turned = near_misses("conduit", card, solution, box, random.Random(5))[0][1]
    frame, said = _frame_and_verdict("conduit", card, turned, demo_pack, box, 5)
    assert said.verdict != "solved"
    if said.code is Reason.CHANNEL_OPEN:
        spots = [m for m in said.marks if m.kind is MarkKind.CHANNEL]
        assert len(spots) == said.facts["open"] >= 1
        assert all(len(m.points) == 1 and _inside(m, frame) for m in spots)
    else:  # the camera's doubt: then the cells it doubts are marked
        assert said.verdict == "cannot tell" and said.marks


def test_open_channels_name_every_unmet_opening_and_stub(box) -> None:
    from companion.enigma.puzzle_conduit import ConduitCard

    card = ConduitCard("t", ((0, 0), (1, 0)), frozenset({((0, 0), "W")}), frozenset())
    # a straight piece E-W on (0, 0) meets the stub on W and the piece on (1, 0), which is
    # open towards S (a bare border) and closed towards W: two open spots
    layout = {(0, 0): frozenset({"E", "W"}), (1, 0): frozenset({"S"})}
    assert open_channels(card, layout) == [((0, 0), "E"), ((1, 0), "S")]
    assert open_channels(card, {(0, 0): frozenset({"E"}), (1, 0): frozenset({"W"})}) == [
        ((0, 0), "W")]  # the stub no opening meets


def test_doubted_cells_are_read_from_the_check_s_names() -> None:
    assert cells_named(["[1, 0]", "[2, 2]", "the middle"]) == [(1, 0), (2, 2)]


def test_marks_go_back_to_the_frame_through_the_views_homographies() -> None:
    shift = np.array([[1, 0, -100], [0, 1, -50], [0, 0, 1]], np.float64)  # frame -> view
    double = np.array([[2, 0, 0], [0, 2, 0], [0, 0, 1]], np.float64)  # frame -> mat
    view = CardView(np.zeros((10, 10, 3), np.uint8), 10, 0, np.zeros((4, 4, 3), np.uint8),
                    (0, 0), frame_to_view=shift, frame_to_mat=double)
    marks = to_frame([Mark(MarkKind.PAN, ((10.0, 20.0),), "7"),
                      Mark(MarkKind.STRUCTURE, ((10.0, 20.0),), space="mat")], view)
    assert [m.points[0] for m in marks] == [pytest.approx((110.0, 70.0)),
                                            pytest.approx((5.0, 10.0))]
    assert marks[0].label == "7" and {m.space for m in marks} == {"frame"}


def test_a_frame_without_the_mat_says_why_by_its_code(box, demo_pack) -> None:
    said = check_puzzle("weight", np.full((360, 640, 3), 90, np.uint8), demo_pack,
                        card=box.weight.cards["weight-demo-1"], box=box)
    assert said.verdict == "cannot tell" and said.code is Reason.FRAME_UNREADABLE
    assert said.facts["refusal"] and not said.marks
    wrong_kind = check_puzzle("weight", np.zeros((10, 10, 3), np.uint8), demo_pack,
                              card={"id": "x", "cells": []}, box=box)
    assert wrong_kind.code is Reason.CARD_NOT_OF_KIND


def test_a_plain_dict_verdict_is_read_as_an_unknown_code() -> None:
    from vision.enigma.puzzles.verdicts import as_verdict

    said = as_verdict({"verdict": "solved", "reason": "r"})
    assert isinstance(said, PuzzleVerdict) and said.code is Reason.UNKNOWN
    assert dict(said) == {"verdict": "solved", "reason": "r"}
