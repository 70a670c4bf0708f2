"""Indigo's gems: kinds, points and how many the box holds (rules/indigo.md §1, §9).

>>> Gem.SAPPHIRE.points
3
>>> Gem.parse("E") is Gem.EMERALD
True
>>> [g.letter for g in CENTRE_STOCK]
['E', 'E', 'E', 'E', 'E', 'S']
"""

from __future__ import annotations

from enum import StrEnum


class Gem(StrEnum):
    """A gem colour; the value is the name used in records and results."""

    AMBER = "amber"
    EMERALD = "emerald"
    SAPPHIRE = "sapphire"

    @property
    def points(self) -> int:
        return _POINTS[self]

    @property
    def letter(self) -> str:
        """One-letter notation: ``A``, ``E``, ``S``."""
        return self.value[0].upper()

    @property
    def slot(self) -> int:
        """Position in per-colour count tuples: amber 0, emerald 1, sapphire 2."""
        return _ORDER.index(self)

    @classmethod
    def parse(cls, text: str) -> Gem:
        """A gem from its letter (``A``/``E``/``S``) or name, any case."""
        key = text.strip().lower()
        for gem in _ORDER:
            if key in (gem.value, gem.value[0]):
                return gem
        raise ValueError(f"unknown gem {text!r}; expected A, E, S or amber, emerald, sapphire")


_ORDER: tuple[Gem, ...] = (Gem.AMBER, Gem.EMERALD, Gem.SAPPHIRE)
_POINTS: dict[Gem, int] = {Gem.AMBER: 1, Gem.EMERALD: 2, Gem.SAPPHIRE: 3}

#: Gem colours in the order of per-colour count tuples ``(amber, emerald, sapphire)``.
GEM_ORDER: tuple[Gem, ...] = _ORDER
#: The centre's stock, in the order it gives gems out: emeralds first, the sapphire last.
CENTRE_STOCK: tuple[Gem, ...] = (Gem.EMERALD,) * 5 + (Gem.SAPPHIRE,)
#: Gems on the board at the start: 6 corner ambers and the centre's stock.
START_ON_BOARD: tuple[int, int, int] = (6, 5, 1)
#: The reserve beside the board: one twin of every starting gem.
START_RESERVE: tuple[int, int, int] = (6, 5, 1)
#: All gems in the box.
TOTAL_GEMS = 24
#: Gems on the board at the start.
BOARD_GEMS = 12
