"""The tiles one player cannot see, and the ways the other racks may take them.

With 3-4 players the target is the central code: what is left of the unseen tiles when every
other rack has taken its tiles. Counting those ways one tile set at a time is what made the
assistant slow, so this module counts them with sets of tile sets held as Python ints (one bit
per tile set), whose AND, OR and bit count run in C.

Unseen tiles are numbered 0..n-1 in physical tile order (the bits of
:func:`companion.break_the_code.tables.tile_bits`); a set of them is a *local mask*. The tile
sets of one rack are listed in the order of :func:`itertools.combinations` over the unseen
tiles, which is the order in which :mod:`companion.break_the_code.reference_solver` enumerates
them: keeping it keeps every count, and every sum of floats, in the reference's order.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, combinations, compress, repeat

from companion.break_the_code.tables import code_table, mask_to_code_key

#: how many players' unseen tile sets to keep ready (each player of a game has their own)
UNSEEN_CACHE = 8
#: masks of up to 16 local tiles are looked up a byte at a time
_BYTE = 8
_BYTE_VALUES = 1 << _BYTE
#: rough relative costs (ns on the development machine), to choose the order of the counting:
#: per tile set looked at (one bit of a selector), per tile set taken (a dict update), per
#: partial assignment or centre visited (a few big-int operations)
_COST_PER_SET = 3
_COST_PER_FIT = 75
_COST_PER_VISIT = 1500
#: a bit string of 0s and 1s -> bytes 0 and 1, for itertools.compress
_SELECTOR_BYTES = bytes.maketrans(b"01", b"\x00\x01")


@dataclass(frozen=True, eq=False)
class Unseen:
    """The tiles one player cannot see, and every rack-sized tile set of them (one object per
    unseen tile set and rack size, from :func:`unseen_tiles`, compared by identity)."""

    size: int
    #: local mask of all unseen tiles
    full: int
    #: every ``size``-tile local mask, in combinations order
    combos: tuple[int, ...]
    #: the code index (in :func:`code_table`) of each combo
    codes: tuple[int, ...]
    #: local mask -> code index
    code_of: Mapping[int, int]


@lru_cache(maxsize=UNSEEN_CACHE)
def unseen_tiles(unseen_mask: int, size: int) -> Unseen:
    """The :class:`Unseen` of a physical tile set (the 20-bit mask of the unseen tiles)."""
    table = code_table(size)
    global_bits = [1 << b for b in range(unseen_mask.bit_length()) if unseen_mask >> b & 1]
    n = len(global_bits)
    combos = tuple(map(sum, combinations([1 << i for i in range(n)], size)))
    codes = tuple(map(table.index.__getitem__,
                      map(mask_to_code_key, map(sum, combinations(global_bits, size)))))
    return Unseen(size=size, full=(1 << n) - 1, combos=combos, codes=codes,
                  code_of=dict(zip(combos, codes, strict=True)))


class RackSets:
    """The tile sets one rack may be (combinations order), with their tiles as bit sets so
    that the sets clear of some tiles are found with a few big-int operations."""

    def __init__(self, unseen: Unseen, positions: list[int]) -> None:
        self.masks: list[int] = [unseen.combos[i] for i in positions]
        self.codes: list[int] = [unseen.codes[i] for i in positions]
        self.all_bits = (1 << len(positions)) - 1
        # holding[t]: bit k set when the k-th set holds tile t
        holding = bit_columns(self.masks, unseen.full.bit_length())
        self._low = _unions(holding[:_BYTE])
        self._high = _unions(holding[_BYTE:])

    def __len__(self) -> int:
        return len(self.masks)

    def clear_of(self, taken: int) -> int:
        """The sets that share no tile with ``taken``, as bits over :attr:`masks`."""
        return self.all_bits & ~(self._low[taken & (_BYTE_VALUES - 1)] | self._high[taken >> _BYTE])

    def fitting(self, taken: int) -> Iterator[int]:
        """The masks of the sets that share no tile with ``taken``, in order."""
        return compress(self.masks, selector(self.clear_of(taken)))


def bit_columns(values: list[int], width: int) -> list[int]:
    """Transpose: ``out[b]`` has bit k set when ``values[k]`` has bit b (for b < width)."""
    if not values or width == 0:
        return [0] * width
    rows = map(format, reversed(values), repeat(f"0{width}b"))
    return [int("".join(column), 2) for column in zip(*rows, strict=True)][::-1]


def _unions(holding: list[int]) -> list[int]:
    """For every byte value b: the OR of ``holding[t]`` over the bits t of b."""
    out = [0] * _BYTE_VALUES
    for b in range(1, _BYTE_VALUES):
        low = b & -b
        t = low.bit_length() - 1
        out[b] = out[b ^ low] | (holding[t] if t < len(holding) else 0)
    return out


def selector(bits: int) -> bytes:
    """Bits as bytes 0/1, lowest bit first, for :func:`itertools.compress`."""
    return bin(bits)[:1:-1].encode().translate(_SELECTOR_BYTES)


def rack_sets(unseen: Unseen, allowed: Collection[int] | None) -> RackSets:
    """The tile sets whose code is in ``allowed`` (code indices; None: every tile set)."""
    if allowed is None:
        return every_rack_set(unseen)
    positions = list(compress(range(len(unseen.codes)), map(allowed.__contains__, unseen.codes)))
    return RackSets(unseen, positions)


@lru_cache(maxsize=UNSEEN_CACHE)
def every_rack_set(unseen: Unseen) -> RackSets:
    """Every tile set of a rack that has answered nothing."""
    return RackSets(unseen, list(range(len(unseen.combos))))


def join(unions: Mapping[int, int], rack: RackSets) -> Counter[int]:
    """Add one rack to partial assignments: ``unions`` maps the tiles taken so far to the
    number of ways; the result maps the tiles taken with the rack to the number of ways."""
    by_ways: defaultdict[int, list[int]] = defaultdict(list)
    for taken, ways in unions.items():
        by_ways[ways].append(taken)
    out: Counter[int] = Counter()
    for ways, takens in by_ways.items():
        part: Counter[int] = Counter()
        for taken in takens:
            part.update(map(taken.__or__, rack.fitting(taken)))
        if ways == 1:
            out.update(part)
        else:
            for key, n in part.items():
                out[key] += n * ways
    return out


def spread(unions: Mapping[int, int], unseen: Unseen, free_racks: int) -> list[int]:
    """For every combo (the centre), the ways to complete ``unions`` with ``free_racks``
    racks that may take any tiles, leaving exactly the centre."""
    size = unseen.size
    if not unions:
        return [0] * len(unseen.combos)
    left = unseen.full.bit_count() - size - next(iter(unions)).bit_count()
    ways_free = math.factorial(left) // math.factorial(size) ** free_racks
    if list(unions.items()) == [(0, 1)]:
        return [ways_free] * len(unseen.combos)
    takens = list(unions)
    holding = bit_columns(takens, unseen.full.bit_length())
    low, high = _unions(holding[:_BYTE]), _unions(holding[_BYTE:])
    every = (1 << len(takens)) - 1
    # the ways of each union, bit-sliced: slices[b] holds the unions whose count has bit b
    ways = list(unions.values())
    slices = bit_columns(ways, max(ways).bit_length())
    out = []
    for centre in unseen.combos:
        clear = every & ~(low[centre & (_BYTE_VALUES - 1)] | high[centre >> _BYTE])
        out.append(ways_free * sum((s & clear).bit_count() << b for b, s in enumerate(slices)))
    return out


def assignments(racks: list[RackSets], limit: int
                ) -> tuple[list[list[int]], list[int]] | None:
    """Every way the racks (seat order) may take disjoint tile sets, in the reference's order:
    one column of masks per rack, and the tiles taken in all; None once there are more than
    ``limit`` ways."""
    taken = [0]
    columns: list[list[int]] = []
    for rack in racks:
        grown: list[int] = []
        chosen: list[int] = []
        counts: list[int] = []
        for t in taken:
            fits = list(rack.fitting(t))
            counts.append(len(fits))
            chosen += fits
            grown += map(t.__or__, fits)
            if len(grown) > limit:
                return None
        columns = [list(chain.from_iterable(map(repeat, col, counts))) for col in columns]
        columns.append(chosen)
        taken = grown
    return columns, taken


def central_ways(unseen: Unseen, racks: Sequence[RackSets | None]) -> list[int]:
    """For every combo as the centre: the ways the racks (None: a rack that may be any tile
    set) may take the other unseen tiles."""
    constrained = sorted((r for r in racks if r is not None), key=len)
    free = len(racks) - len(constrained)
    if free:
        unions: Mapping[int, int] = {0: 1}
        for rack in constrained:
            unions = join(unions, rack)
        return spread(unions, unseen, free)
    if len(constrained) == 2 and 2 * len(constrained[1]) > len(unseen.combos):
        return _pairs_by_complement(unseen, constrained[0], constrained[1])
    last = min(range(len(constrained)), key=lambda i: _cost_with_last(unseen, constrained, i))
    unions = {0: 1}
    for i, rack in enumerate(constrained):
        if i != last:
            unions = join(unions, rack)
    rack = constrained[last]
    if _finish_cost(unseen, rack) < _join_cost(unseen, len(unions), rack, len(racks) - 1):
        return finish(unions, rack, unseen)
    get = join(unions, rack).get
    return [get(unseen.full ^ centre, 0) for centre in unseen.combos]


def _pairs_by_complement(unseen: Unseen, small: RackSets, large: RackSets) -> list[int]:
    """Two racks, the larger allowing most tile sets: the pairs are the ways for the small rack
    to fit (a bit count), less the pairs with the tile sets the large rack does not allow."""
    allowed = set(large.masks)
    others = RackSets(unseen, [i for i, m in enumerate(unseen.combos) if m not in allowed])
    get = join(join({0: 1}, small), others).get
    full = unseen.full
    return [small.clear_of(centre).bit_count() - get(full ^ centre, 0)
            for centre in unseen.combos]


def finish(unions: Mapping[int, int], rack: RackSets, unseen: Unseen) -> list[int]:
    """For every combo as the centre: the ways to add the last rack to ``unions`` (the other
    racks) so that exactly the centre is left."""
    get = unions.get
    full = unseen.full
    return [sum(map(get, map((full ^ centre).__xor__, rack.fitting(centre)), repeat(0)))
            for centre in unseen.combos]


def _avoiding(unseen: Unseen, racks_taken: int) -> float:
    """The share of tile sets clear of ``racks_taken`` racks' tiles."""
    n, size = unseen.full.bit_length(), unseen.size
    return math.comb(n - racks_taken * size, size) / math.comb(n, size)


def _join_cost(unseen: Unseen, unions: float, rack: RackSets, racks_taken: int) -> float:
    fits = unions * len(rack) * _avoiding(unseen, racks_taken)
    return unions * (_COST_PER_VISIT + _COST_PER_SET * len(rack)) + _COST_PER_FIT * fits


def _finish_cost(unseen: Unseen, rack: RackSets) -> float:
    fits = len(rack) * len(unseen.combos) * _avoiding(unseen, 1)
    return (len(unseen.combos) * (_COST_PER_VISIT + _COST_PER_SET * len(rack))
            + _COST_PER_FIT * fits)


def _cost_with_last(unseen: Unseen, racks: list[RackSets], last: int) -> float:
    """The estimated cost of :func:`central_ways` joining the racks but ``last``, then it."""
    cost, unions = 0.0, 1.0
    for taken, rack in enumerate(r for i, r in enumerate(racks) if i != last):
        cost += _join_cost(unseen, unions, rack, taken)
        unions *= len(rack) * _avoiding(unseen, taken)
    return cost + min(_finish_cost(unseen, racks[last]),
                      _join_cost(unseen, unions, racks[last], len(racks) - 1))
