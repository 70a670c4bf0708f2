"""The four puzzles: every check against its solver's solutions and against near misses."""

from __future__ import annotations

import itertools
import json

import pytest

from companion.enigma import puzzle_angular as angular
from companion.enigma import puzzle_conduit as conduit
from companion.enigma import puzzle_fragment as fragment
from companion.enigma import puzzle_weight as weight
from companion.enigma.catalogue import load_catalogue, read_data_text
from companion.enigma.demo_puzzles import dumps_puzzles, generate_demo_puzzles
from companion.enigma.errors import PuzzleError
from companion.enigma.geometry import area, is_convex, overlap_area, transform, triangulate
from companion.enigma.puzzles import load_puzzles

BOX = load_puzzles()


def test_demo_puzzles_load_are_labelled_and_match_the_generator() -> None:
    assert BOX.status == "demo" and "DEMO" in BOX.note
    assert read_data_text("puzzles.json") == dumps_puzzles(generate_demo_puzzles())
    assert len(BOX.conduit.pieces) == 9 and len(BOX.fragment.pieces) == 7
    assert len(BOX.angular.pieces) == 4 and BOX.weight.weights_in_box == 6
    for kind in ("weight", "conduit", "fragment", "angular"):
        assert len(getattr(BOX, kind).cards) >= 3


def test_every_catalogue_tile_names_a_card_of_its_own_category() -> None:
    for entry in load_catalogue().tiles:
        assert entry.puzzle is not None
        assert BOX.kind_of(entry.puzzle) == entry.category


# ------------------------------------------------------------------ weight
SEED_CARD = weight.WeightCard(left=(13, 6), right=(5, 7), count=5)


def test_seed_001_example_balances_and_is_the_only_solution() -> None:
    answer = weight.WeightSolution(left=(1, 1), right=(1, 2))
    assert weight.side_weights(SEED_CARD, answer) == (19, 19)
    assert weight.check(SEED_CARD, answer)
    assert weight.solve(SEED_CARD) == [answer]


def _brute_force(card: weight.WeightCard) -> list[weight.WeightSolution]:
    cups = len(card.left) + len(card.right)
    found = []
    for counts in itertools.product(range(card.count + 1), repeat=cups):
        if sum(counts) == card.count:
            a = weight.WeightSolution(counts[: len(card.left)], counts[len(card.left):])
            left, right = weight.side_weights(card, a)
            if left == right:
                found.append(a)
    return found


@pytest.mark.parametrize("card_id", sorted(BOX.weight.cards))
def test_weight_solver_agrees_with_brute_force_and_check(card_id: str) -> None:
    card = BOX.weight.cards[card_id]
    solutions = weight.solve(card)
    assert sorted(map(repr, solutions)) == sorted(map(repr, _brute_force(card)))
    assert list(BOX.weight.solutions[card_id]) == solutions
    for answer in solutions:
        assert weight.check(card, answer)
        # near misses: move one weight to another cup, or drop one
        flat = [*answer.left, *answer.right]
        for i, j in itertools.permutations(range(len(flat)), 2):
            if flat[i] == 0:
                continue
            moved = list(flat)
            moved[i] -= 1
            moved[j] += 1
            near = weight.WeightSolution(tuple(moved[: len(card.left)]),
                                         tuple(moved[len(card.left):]))
            assert weight.check(card, near) == (near in solutions)
        fewer = list(flat)
        fewer[flat.index(max(flat))] -= 1
        short = weight.WeightSolution(tuple(fewer[: len(card.left)]),
                                      tuple(fewer[len(card.left):]))
        assert weight.weight_problem(card, short) is not None


@pytest.mark.parametrize(
    ("counts", "words"),
    [
        (weight.WeightSolution((1, 1), (2, 1)), "not level: left 19, right 17"),
        (weight.WeightSolution((1, 1), (1, 1)), "all 5 weights must be used"),
        (weight.WeightSolution((1,), (1, 2)), "cups"),
        (weight.WeightSolution((1, -1), (1, 2)), ">= 0"),
    ],
)
def test_weight_problems_say_why(counts: weight.WeightSolution, words: str) -> None:
    assert words in (weight.weight_problem(SEED_CARD, counts) or "")


def test_empty_cups_can_be_forbidden() -> None:
    card = weight.WeightCard(left=(2, 9), right=(4,), count=3)
    allowed = weight.solve(card)
    assert weight.WeightSolution((2, 0), (1,)) in allowed
    assert weight.solve(card, allow_empty_cups=False) == [
        s for s in allowed if 0 not in (*s.left, *s.right)]


def test_bad_weight_cards_are_refused() -> None:
    with pytest.raises(PuzzleError, match="positive"):
        weight.WeightCard(left=(0,), right=(1,), count=1)
    with pytest.raises(PuzzleError, match="at least one cup"):
        weight.WeightCard(left=(), right=(1,), count=1)


# ------------------------------------------------------------------ conduit
PIECES = BOX.conduit.pieces


@pytest.mark.parametrize("card_id", sorted(BOX.conduit.cards))
def test_conduit_solver_finds_the_stored_solution_and_check_accepts_all(card_id: str) -> None:
    card = BOX.conduit.cards[card_id]
    solutions = conduit.solve(card, PIECES)
    assert BOX.conduit.solutions[card_id] in solutions
    assert all(conduit.check(card, PIECES, s) for s in solutions)
    layouts = {
        frozenset((cell, conduit.format_openings(p.turned(r)))
                  for pid, (cell, r) in s.items() for p in PIECES if p.id == pid)
        for s in solutions
    }
    assert len(layouts) == len(solutions)  # distinct layouts only


@pytest.mark.parametrize("card_id", sorted(BOX.conduit.cards))
def test_conduit_near_misses_fail(card_id: str) -> None:
    card = BOX.conduit.cards[card_id]
    solution = dict(BOX.conduit.solutions[card_id])
    solutions = conduit.solve(card, PIECES)
    for piece_id, (cell, rotation) in solution.items():
        piece = next(p for p in PIECES if p.id == piece_id)
        for turn in range(1, 4):
            near = {**solution, piece_id: (cell, (rotation + turn) % 4)}
            accepted = conduit.check(card, PIECES, near)
            if piece.turned(rotation + turn) == piece.turned(rotation):
                assert accepted  # a symmetric turn changes nothing
            else:
                # a turned piece is right only if that layout is itself a solution
                assert accepted == _same_layout_in(near, solutions)
    dropped = dict(solution)
    dropped.pop(next(iter(dropped)))
    assert "must be used" in (conduit.conduit_problem(card, PIECES, dropped) or "")
    if card.excluded:
        x = sorted(card.excluded)[0]
        free = next(c for c in card.cells if c not in {cell for cell, _ in solution.values()})
        assert "marked X" in (conduit.conduit_problem(
            card, PIECES, {**solution, x: (free, 0)}) or "")


def _same_layout_in(answer: conduit.ConduitSolution,
                    solutions: list[conduit.ConduitSolution]) -> bool:
    def layout(s: conduit.ConduitSolution) -> frozenset[object]:
        return frozenset((cell, conduit.format_openings(p.turned(r)))
                         for pid, (cell, r) in s.items() for p in PIECES if p.id == pid)

    return layout(answer) in {layout(s) for s in solutions}


def test_conduit_rules_on_a_tiny_card() -> None:
    straight = (conduit.ConduitPiece("A", frozenset("NS")),)
    card = conduit.parse_conduit_card(
        {"id": "t", "cells": [[0, 0]], "stubs": [{"cell": [0, 0], "side": "N"}]})
    assert conduit.solve(card, straight) == []  # S would face the bare border
    card2 = conduit.parse_conduit_card({"id": "t", "cells": [[0, 0]], "stubs": [
        {"cell": [0, 0], "side": "W"}, {"cell": [0, 0], "side": "E"}]})
    assert conduit.solve(card2, straight) == [{"A": ((0, 0), 1)}]
    assert "faces a bare border" in (conduit.conduit_problem(card2, straight,
                                                             {"A": ((0, 0), 0)}) or "")


def test_conduit_card_round_trip() -> None:
    card = BOX.conduit.cards["conduit-demo-3"]
    assert conduit.parse_conduit_card(json.loads(json.dumps(
        conduit.format_conduit_card(card)))) == card


# ------------------------------------------------------------------ fragment
F_PIECES = BOX.fragment.pieces


def test_tangram_pieces_are_convex_and_make_area_16() -> None:
    assert all(is_convex(p.polygon) for p in F_PIECES)
    assert sum(area(p.polygon) for p in F_PIECES) == pytest.approx(16.0)


@pytest.mark.parametrize("card_id", sorted(BOX.fragment.cards))
def test_fragment_stored_solutions_pass(card_id: str) -> None:
    card = BOX.fragment.cards[card_id]
    assert card.area == pytest.approx(16.0)
    report = fragment.cover_report(card.silhouette, fragment.placed_polygons(
        F_PIECES, BOX.fragment.solutions[card_id]))
    assert report.overlap == pytest.approx(0.0, abs=1e-9)
    assert report.uncovered == pytest.approx(0.0, abs=1e-9)
    assert report.outside == pytest.approx(0.0, abs=1e-9)
    assert fragment.check(card, F_PIECES, BOX.fragment.solutions[card_id])


@pytest.mark.parametrize("card_id", sorted(BOX.fragment.cards))
@pytest.mark.parametrize("index", range(7))
def test_fragment_near_misses_fail(card_id: str, index: int) -> None:
    card = BOX.fragment.cards[card_id]
    solution = list(BOX.fragment.solutions[card_id])
    p = solution[index]
    shifted = [*solution]
    shifted[index] = fragment.FragmentPlacement(p.piece, p.rotation, p.mirror,
                                                (p.at[0] + 0.3, p.at[1] + 0.2))
    assert not fragment.check(card, F_PIECES, shifted)
    turned = [*solution]
    turned[index] = fragment.FragmentPlacement(p.piece, p.rotation + 45, p.mirror, p.at)
    assert not fragment.check(card, F_PIECES, turned)
    assert "must be used" in (fragment.fragment_problem(
        card, F_PIECES, solution[:index] + solution[index + 1:]) or "")
    # A tiny hand tremor stays within the tolerance.
    tremor = [*solution]
    tremor[index] = fragment.FragmentPlacement(p.piece, p.rotation, p.mirror,
                                               (p.at[0] + 0.001, p.at[1]))
    assert fragment.check(card, F_PIECES, tremor)


def test_fragment_mirror_only_for_pieces_that_allow_it() -> None:
    card = BOX.fragment.cards["fragment-demo-1"]
    solution = list(BOX.fragment.solutions["fragment-demo-1"])
    solution[0] = fragment.FragmentPlacement(solution[0].piece, mirror=True)
    assert "may not be turned over" in (fragment.fragment_problem(card, F_PIECES, solution)
                                        or "")


def test_geometry_on_concave_shapes() -> None:
    ell = [(0, 0), (4, 0), (4, 1), (1, 1), (1, 4), (0, 4)]
    assert area(ell) == 7
    assert sum(area(t) for t in triangulate(ell)) == pytest.approx(7)
    assert overlap_area(ell, [(0, 0), (2, 0), (2, 2), (0, 2)]) == pytest.approx(3)
    assert overlap_area([(0, 0), (2, 0), (2, 2), (0, 2)], ell) == pytest.approx(3)
    moved = transform([(1, 0), (2, 0), (2, 1)], rotation=90, offset=(10, 0))
    assert moved == ((10.0, 1.0), (10.0, 2.0), (9.0, 2.0))
    assert fragment.check_polygons([ell], [[(0, 0), (4, 0), (4, 1), (0, 1)],
                                           [(0, 1), (1, 1), (1, 4), (0, 4)]])


# ------------------------------------------------------------------ angular
A_PIECES = BOX.angular.pieces


def _normalised(solution: dict[str, tuple[angular.Cube, ...]]) -> object:
    mx = min(c[0] for cubes in solution.values() for c in cubes)
    my = min(c[1] for cubes in solution.values() for c in cubes)
    return {k: sorted((x - mx, y - my, z) for x, y, z in v) for k, v in solution.items()}


@pytest.mark.parametrize("card_id", sorted(BOX.angular.cards))
def test_angular_solver_finds_the_stored_solution_and_check_accepts_all(card_id: str) -> None:
    card = BOX.angular.cards[card_id]
    stored = BOX.angular.solutions[card_id]
    assert angular.check(card, A_PIECES, stored)
    assert angular.picture_matches(angular.top_view(stored), card.top)
    solutions = angular.solve(card, A_PIECES)
    assert _normalised(stored) in [_normalised(s) for s in solutions]
    assert all(angular.check(card, A_PIECES, s) for s in solutions)


@pytest.mark.parametrize("card_id", sorted(BOX.angular.cards))
def test_angular_near_misses_fail(card_id: str) -> None:
    card = BOX.angular.cards[card_id]
    stored = BOX.angular.solutions[card_id]
    for piece_id, cubes in stored.items():
        lifted = {**stored, piece_id: tuple((x, y, z + 1) for x, y, z in cubes)}
        assert not angular.check(card, A_PIECES, lifted)
        without = {k: v for k, v in stored.items() if k != piece_id}
        assert "must be used" in (angular.angular_problem(card, A_PIECES, without) or "")
        broken = {**stored, piece_id: (*cubes[:-1], (cubes[-1][0] + 5, cubes[-1][1], 0))}
        assert "not its shape" in (angular.angular_problem(card, A_PIECES, broken) or "")


def test_angular_picture_turns_and_mirrors() -> None:
    picture = ("RRB", "G..")
    assert angular.picture_matches(angular.turn_picture(picture), picture)
    assert angular.picture_matches(("..", *angular.turn_picture(picture)), picture)
    mirrored = tuple(row[::-1] for row in picture)
    assert not angular.picture_matches(mirrored, picture)
    assert angular.picture_matches(mirrored, picture, allow_mirror=True)


def test_angular_whole_structure_turned_on_the_table_still_matches() -> None:
    card_id = sorted(BOX.angular.cards)[0]
    stored = BOX.angular.solutions[card_id]
    turned = {k: tuple((-y, x, z) for x, y, z in v) for k, v in stored.items()}
    assert angular.check(BOX.angular.cards[card_id], A_PIECES, turned)


def test_angular_floating_cube_and_gaps_are_refused() -> None:
    pieces = (angular.AngularPiece("R", "red", ((0, 0, 0), (1, 0, 0))),
              angular.AngularPiece("B", "blue", ((0, 0, 0),)))
    card = angular.AngularCard("t", ("RRB",))
    assert angular.check(card, pieces, {"R": ((0, 0, 0), (1, 0, 0)), "B": ((2, 0, 0),)})
    assert "stands on nothing" in (angular.angular_problem(
        card, pieces, {"R": ((0, 0, 0), (1, 0, 0)), "B": ((2, 0, 1),)}) or "")
    gap_card = angular.AngularCard("g", ("RR.B",))
    assert "gap" in (angular.angular_problem(
        gap_card, pieces, {"R": ((0, 0, 0), (1, 0, 0)), "B": ((3, 0, 0),)}) or "")
    assert angular.top_view({"R": ((0, 0, 0), (1, 0, 0)), "B": ((1, 0, 1),)}) == ("RB",)
