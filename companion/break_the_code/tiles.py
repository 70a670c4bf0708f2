"""Number tiles, codes and their notation (``0b 1w 5g 5g 9b``).

The box holds 20 tiles: 0-4 and 6-9 once in black and once in white, and two green 5s that
cannot be told apart. A rack (or the central code) is kept in canonical order: ascending by
number, black left of white on equal numbers. Since a number never occurs in more than two
colours, a code is a multiset and its positions follow from it, so :class:`Code` stores the
sorted tuple and every constructor sorts.

>>> code = parse_code("9b 5g 0b 1w 5g")
>>> format_code(code)
'0b 1w 5g 5g 9b'
>>> code
Code.parse('0b 1w 5g 5g 9b')
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from companion.errors import IllegalMoveError


class CodeNotationError(IllegalMoveError):
    """A tile or code that does not exist in the box, or is not written right.

    It is an :class:`IllegalMoveError` because in a record this is the content of a well-typed
    field (exit 3 of ``companion replay``).
    """


class Colour(enum.Enum):
    """The colour of a tile's number. The value is the notation letter."""

    BLACK = "b"
    WHITE = "w"
    GREEN = "g"

    @property
    def order(self) -> int:
        """Left-to-right order on equal numbers: black before white (green is only 5)."""
        return _COLOUR_ORDER[self]


_COLOUR_ORDER = {Colour.BLACK: 0, Colour.WHITE: 1, Colour.GREEN: 2}
_LETTERS = {c.value: c for c in Colour}


@dataclass(frozen=True, order=False)
class Tile:
    """One number tile. ``Tile(5, Colour.GREEN)`` is either of the two green 5s."""

    number: int
    colour: Colour

    def __post_init__(self) -> None:
        if not (0 <= self.number <= 9) or (self.number == 5) != (self.colour is Colour.GREEN):
            raise CodeNotationError(
                f"there is no tile {self.number}{self.colour.value}: the box holds 0-9 in black "
                "(b) and white (w) except 5, which exists only as two green 5s (5g)"
            )

    @property
    def sort_key(self) -> tuple[int, int]:
        """Canonical rack order: ascending number, black before white."""
        return (self.number, self.colour.order)

    def __lt__(self, other: Tile) -> bool:
        return self.sort_key < other.sort_key

    def __str__(self) -> str:
        return f"{self.number}{self.colour.value}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Tile:
        """Parse one tile such as ``7w``; a tile that is not in the box is named in the error."""
        return parse_tile(text)


def parse_tile(text: str) -> Tile:
    """``"7w"`` -> ``Tile(7, Colour.WHITE)``; the error names the bad tile."""
    token = text.strip().lower()
    if len(token) != 2 or not token[0].isdigit() or token[1] not in _LETTERS:
        raise CodeNotationError(
            f"{text!r} is not a tile: write a digit and a colour letter b, w or g, like 7w or 5g"
        )
    return Tile(int(token[0]), _LETTERS[token[1]])


#: How many copies of each tile the box holds.
BOX: dict[Tile, int] = {
    **{Tile(n, c): 1 for n in range(10) if n != 5 for c in (Colour.BLACK, Colour.WHITE)},
    Tile(5, Colour.GREEN): 2,
}

#: The 20 physical tiles in canonical order (the green 5 twice).
ALL_TILES: tuple[Tile, ...] = tuple(sorted(t for t, n in BOX.items() for _ in range(n)))


def check_box_counts(tiles: Iterable[Tile], *, what: str = "the code") -> None:
    """Raise :class:`CodeNotationError` naming a tile used more often than the box holds."""
    counts = Counter(tiles)
    for tile, n in sorted(counts.items()):
        if n > BOX[tile]:
            held = "once" if BOX[tile] == 1 else "twice"
            raise CodeNotationError(
                f"{what} uses tile {tile} {n} times, but the box holds it only {held}"
            )


@dataclass(frozen=True)
class Code:
    """A rack or the central tiles: tiles in canonical order. Construct with :meth:`of`."""

    tiles: tuple[Tile, ...]

    def __post_init__(self) -> None:
        if list(self.tiles) != sorted(self.tiles):
            raise CodeNotationError(
                f"tiles {' '.join(map(str, self.tiles))} are not in rack order; "
                f"use Code.of() to sort them"
            )
        check_box_counts(self.tiles)

    @classmethod
    def of(cls, tiles: Iterable[Tile]) -> Code:
        """A code from tiles in any order."""
        return cls(tuple(sorted(tiles)))

    @classmethod
    def from_canonical(cls, tiles: tuple[Tile, ...]) -> Code:
        """A code from tiles known to be in rack order and within the box, not checked again:
        the assistant's tables make thousands of codes from their keys at a time."""
        code = object.__new__(cls)
        object.__setattr__(code, "tiles", tiles)
        return code

    @classmethod
    def parse(cls, text: str) -> Code:
        """See :func:`parse_code`."""
        return parse_code(text)

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(t.number for t in self.tiles)

    @property
    def colours(self) -> tuple[Colour, ...]:
        return tuple(t.colour for t in self.tiles)

    def __len__(self) -> int:
        return len(self.tiles)

    def __str__(self) -> str:
        return format_code(self)

    def __repr__(self) -> str:
        return f"Code.parse({format_code(self)!r})"


def parse_code(text: str, *, length: int | None = None, canonical: bool = False) -> Code:
    """Parse ``"0b 1w 5g 5g 9b"``: tiles separated by spaces or commas.

    Tiles may come in any order and are sorted, unless ``canonical`` is true: then they must
    already be in rack order (a spoken guess or a record's rack). ``length`` checks the number
    of tiles. Errors name the tile that does not exist or is over-used.
    """
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise CodeNotationError("an empty code: write tiles like '0b 1w 5g 5g 9b'")
    tiles = [parse_tile(tok) for tok in tokens]
    check_box_counts(tiles, what=f"code {text.strip()!r}")
    if length is not None and len(tiles) != length:
        raise CodeNotationError(
            f"code {text.strip()!r} has {len(tiles)} tiles, expected {length}"
        )
    if canonical and tiles != sorted(tiles):
        raise CodeNotationError(
            f"code {text.strip()!r} is not in rack order (ascending, black before white): "
            f"write {' '.join(map(str, sorted(tiles)))}"
        )
    return Code(tuple(sorted(tiles)))


def format_code(code: Code | Iterable[Tile]) -> str:
    """``Code`` -> ``"0b 1w 5g 5g 9b"``."""
    tiles = code.tiles if isinstance(code, Code) else tuple(sorted(code))
    return " ".join(str(t) for t in tiles)
