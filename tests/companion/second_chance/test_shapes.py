"""Shapes: notation round-trip, orientations, canonical form, free polyomino counts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.second_chance import ShapeError, free_polyominoes, parse_shape
from companion.second_chance.shapes import (
    Shape,
    canonical_text,
    check_polyomino,
    connected_groups,
    is_connected,
)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("#./#./##", "###/#.."),
        ("##./.##", "##./.##"),
        (".##/##.", "##./.##"),
        ("##/##", "##/##"),
        ("#/#/#", "###"),
        ("###", "###"),
        ("#", "#"),
        (".#./###", "###/.#."),
    ],
)
def test_canonical_forms_of_the_digest_examples(text: str, canonical: str) -> None:
    assert canonical_text(text) == canonical


@pytest.mark.parametrize("text", ["##./.##", "###/#..", "#", ".#./###/.#.", "#.#/###"])
def test_parse_and_format_round_trip(text: str) -> None:
    assert parse_shape(text).text == text
    assert repr(parse_shape(text)) == f"parse_shape({text!r})"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "at least one character"),
        ("##/#", "equally wide"),
        ("#x", "only '#' and '.'"),
        ("../..", "no filled cell"),
        ("#//#", "at least one character"),
    ],
)
def test_malformed_shapes_say_why(text: str, words: str) -> None:
    with pytest.raises(ShapeError, match=words):
        parse_shape(text)


def test_empty_border_rows_are_dropped() -> None:
    assert parse_shape("..../.##./....").text == "##"


@pytest.mark.parametrize(("text", "count"), [("#", 1), ("##", 2), ("##/##", 1), ("###/#..", 8),
                                              ("##./.##", 4), ("###/.#.", 4)])
def test_number_of_orientations(text: str, count: int) -> None:
    assert len(parse_shape(text).orientations()) == count


def test_check_polyomino_refuses_disconnected_and_wrong_sizes() -> None:
    with pytest.raises(ShapeError, match="not connected"):
        check_polyomino("#.#")
    with pytest.raises(ShapeError, match="has 8 cells, a tile has 1-7"):
        check_polyomino("########")
    assert check_polyomino("########", sizes=range(8, 9)).size == 8


@pytest.mark.parametrize(("size", "count"), [(1, 1), (2, 1), (3, 2), (4, 5), (5, 12), (6, 35),
                                             (7, 108), (8, 369)])
def test_free_polyomino_counts(size: int, count: int) -> None:
    shapes = free_polyominoes(size)
    assert len(shapes) == count
    assert len({s.text for s in shapes}) == count  # canonical texts are unique
    for shape in shapes:
        assert shape.is_connected()
        # every orientation canonicalises back to the same shape, and to no other
        assert {o.canonical() for o in shape.orientations()} == {shape}


def test_connected_groups_split_by_sides_not_corners() -> None:
    groups = connected_groups([(0, 0), (1, 1), (1, 2), (5, 5)])
    assert groups == [((0, 0),), ((1, 1), (1, 2)), ((5, 5),)]
    assert not is_connected([])


def _transform(cells: list[tuple[int, int]], k: int, mirror: bool, dr: int, dc: int
               ) -> list[tuple[int, int]]:
    out = cells
    for _ in range(k):
        out = [(c, -r) for r, c in out]
    if mirror:
        out = [(r, -c) for r, c in out]
    return [(r + dr, c + dc) for r, c in out]


@settings(max_examples=80)
@given(
    index=st.integers(0, 107),
    k=st.integers(0, 3),
    mirror=st.booleans(),
    dr=st.integers(-5, 5),
    dc=st.integers(-5, 5),
)
def test_canonical_form_is_invariant_under_the_8_symmetries(
    index: int, k: int, mirror: bool, dr: int, dc: int
) -> None:
    shape = free_polyominoes(7)[index]
    moved = Shape.from_cells(_transform(list(shape.cells), k, mirror, dr, dc))
    assert moved.canonical() == shape
    assert moved.is_same_card(shape.text)


def test_duplicate_cells_are_refused() -> None:
    with pytest.raises(ShapeError, match="twice"):
        Shape.from_cells([(0, 0), (0, 0)])


def test_every_orientation_of_a_shape_shares_one_set_of_orientations() -> None:
    # the orientations are cached per shape asked, and a card is asked in each way a player
    # drew it: each entry held 8 shapes of its own, a few hundred more every evening's round
    shape = parse_shape("#./##/.#/.#")  # no symmetry: 8 orientations
    answers = [orientation.orientations() for orientation in shape.orientations()]
    assert len(answers) == 8
    assert len({id(o) for answer in answers for o in answer}) == 8
    assert all(answer == answers[0] for answer in answers)
