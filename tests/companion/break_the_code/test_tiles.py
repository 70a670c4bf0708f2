"""Tiles, codes and the notation."""

from __future__ import annotations

import pytest

from companion.break_the_code.tiles import (
    ALL_TILES,
    BOX,
    Code,
    CodeNotationError,
    Colour,
    Tile,
    format_code,
    parse_code,
    parse_tile,
)
from companion.errors import IllegalMoveError


def test_the_box_holds_twenty_tiles_with_two_green_fives() -> None:
    assert len(ALL_TILES) == 20
    assert sum(BOX.values()) == 20
    assert BOX[Tile(5, Colour.GREEN)] == 2
    assert all(BOX[Tile(n, c)] == 1 for n in range(10) if n != 5
               for c in (Colour.BLACK, Colour.WHITE))


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("9b 5g 0b 1w 5g", "0b 1w 5g 5g 9b"),
        ("3w 3b 4w", "3b 3w 4w"),          # black left of white on equal numbers
        ("6w,6b, 5g 4w 4b", "4b 4w 5g 6b 6w"),
        ("0B 1W", "0b 1w"),
    ],
)
def test_codes_are_sorted_into_rack_order(text: str, canonical: str) -> None:
    assert format_code(parse_code(text)) == canonical
    assert str(Code.parse(text)) == canonical


def test_repr_round_trips() -> None:
    code = parse_code("0b 1w 5g 5g 9b")
    assert eval(repr(code), {"Code": Code}) == code
    tile = parse_tile("7w")
    assert eval(repr(tile), {"Tile": Tile}) == tile


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("5b", "5b"),          # 5 exists only in green
        ("5w", "5w"),
        ("3g", "3g"),          # only 5 is green
        ("0b 1x", "'1x'"),
        ("10b", "'10b'"),
        ("0b 0b 1w", "0b"),    # used twice, the box holds one
        ("5g 5g 5g", "5g"),    # three green 5s
    ],
)
def test_a_bad_tile_is_named(text: str, named: str) -> None:
    with pytest.raises(CodeNotationError, match=named) as info:
        parse_code(text)
    assert isinstance(info.value, IllegalMoveError)
    assert isinstance(info.value, ValueError)


def test_canonical_parsing_refuses_disorder_and_length() -> None:
    with pytest.raises(CodeNotationError, match="rack order"):
        parse_code("1w 0b", canonical=True)
    with pytest.raises(CodeNotationError, match="rack order"):
        parse_code("3w 3b", canonical=True)
    with pytest.raises(CodeNotationError, match="has 4 tiles, expected 5"):
        parse_code("0b 1b 2b 3b", length=5)
    with pytest.raises(CodeNotationError, match="empty"):
        parse_code("  ")
    assert str(parse_code("3b 3w", canonical=True)) == "3b 3w"


def test_code_constructor_insists_on_order() -> None:
    with pytest.raises(CodeNotationError):
        Code((Tile(2, Colour.BLACK), Tile(1, Colour.BLACK)))
    assert Code.of([Tile(2, Colour.BLACK), Tile(1, Colour.BLACK)]).numbers == (1, 2)
