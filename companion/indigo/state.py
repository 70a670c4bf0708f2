"""The Indigo game state and the placement rules (rules/indigo.md §5, §6, §8, §9).

A state is frozen; :func:`apply` returns a new one and raises
:class:`~companion.indigo.errors.PlacementError` (an ``IllegalMoveError``) naming the rule.
Players are seat indices 0..n-1 (P_i of the ownership tables); names live in the record layer.

Hands are optional. A state made with an ``rng`` shuffles the 54 tiles, deals each player 1
tile (or 2, the tactical variant) and checks that every placed tile comes from the mover's hand,
then draws. Without an ``rng`` (the table's real draw pile is hidden; replays) only the box
limit per type is checked.

>>> s = new_game(2)
>>> s, report = play(s, Placement((0, -1), Tile(1, 0)))   # touches the centre
>>> [(m.gem.value, m.ending.value) for m in report.moves]
[('emerald', 'rest')]
>>> s.turn, s.centre_left
(1, 5)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

from companion.indigo.errors import PlacementError, Rule, SetupError
from companion.indigo.gems import GemMove, Movement, move_gems
from companion.indigo.geometry import (
    CORNERS,
    LAYOUT_PLAYERS,
    LAYOUTS,
    ROUTE_CELLS,
    Cell,
    EdgePoint,
    default_layout,
    is_on_board,
    is_route_cell,
    is_treasure_cell,
    owners,
)
from companion.indigo.pieces import CENTRE_STOCK, GEM_ORDER, START_RESERVE, Gem
from companion.indigo.tiles import DISTINCT_ROTATIONS, TILE_COUNTS, TILE_TYPES, Tile

GemCounts = tuple[int, int, int]


@dataclass(frozen=True, order=True)
class Placement:
    """A tile put on a cell. Notation ``T3r2@1,-3`` (see :mod:`~companion.indigo.notation`)."""

    cell: Cell
    tile: Tile

    def __str__(self) -> str:
        return f"T{self.tile.kind}r{self.tile.rotation}@{self.cell[0]},{self.cell[1]}"


@dataclass(frozen=True)
class PlacementReport:
    """What a placement did: every gem's journey, in the order of the new tile's edges."""

    player: int
    placement: Placement
    moves: tuple[GemMove, ...]
    game_over: bool

    @property
    def exits(self) -> tuple[GemMove, ...]:
        return tuple(m for m in self.moves if m.is_exit)

    def gained(self, players: int) -> tuple[GemCounts, ...]:
        """Per player, the gems (amber, emerald, sapphire) received in this placement."""
        counts = [[0, 0, 0] for _ in range(players)]
        for move in self.moves:
            for who in move.receivers:
                counts[who][move.gem.slot] += 1
        return tuple((c[0], c[1], c[2]) for c in counts)


@dataclass(frozen=True)
class IndigoState:
    """Everything on and beside the table after some placements.

    * ``tiles``: placed route tiles by cell; ``gems``: gems resting on edge points, including
      the corner ambers that have not moved; ``centre_left``: gems still in the centre stock;
    * ``hauls``: per player, the gems behind their screen as (amber, emerald, sapphire), twins
      included; ``reserve``: the reserve beside the board; ``removed``: gems lost in collisions;
    * ``turn``: the seat to move; ``history``: the placements so far, in order;
    * ``hands`` and ``pile``: only when the state deals tiles (``None`` and ``()`` otherwise).

    Treat the mappings as read-only: states share them.
    """

    players: int
    layout: str
    tiles: Mapping[Cell, Tile]
    gems: Mapping[EdgePoint, Gem]
    centre_left: int
    hauls: tuple[GemCounts, ...]
    reserve: GemCounts
    removed: GemCounts
    turn: int
    history: tuple[Placement, ...] = ()
    hands: tuple[tuple[int, ...], ...] | None = None
    pile: tuple[int, ...] = field(default=(), repr=False)

    # ------------------------------------------------------------------ derived facts

    @property
    def is_over(self) -> bool:
        """True once no gem is left on the board (centre stock and corner ambers included)."""
        return not self.gems and self.centre_left == 0

    @property
    def gems_on_board(self) -> int:
        return len(self.gems) + self.centre_left

    @property
    def gems_removed(self) -> int:
        return sum(self.removed)

    def used(self, kind: int) -> int:
        """How many tiles of type ``kind`` are on the board."""
        return sum(1 for tile in self.tiles.values() if tile.kind == kind)

    def remaining(self, kind: int) -> int:
        """How many tiles of type ``kind`` are not on the board yet."""
        return TILE_COUNTS[kind] - self.used(kind)

    def empty_route_cells(self) -> Iterator[Cell]:
        return (cell for cell in ROUTE_CELLS if cell not in self.tiles)

    def hand(self, player: int) -> tuple[int, ...] | None:
        """The tile types ``player`` holds, or None when the state does not deal tiles."""
        return None if self.hands is None else self.hands[player]


def new_game(
    players: int,
    *,
    layout: str | None = None,
    rng: random.Random | None = None,
    hand_size: int = 1,
) -> IndigoState:
    """The state after setup (§5). With ``rng`` the tiles are shuffled and dealt.

    Raises SetupError for a player count outside 2..4, an unknown layout or one made for
    another player count, or a hand size other than 1 or 2.
    """
    if players not in (2, 3, 4):
        raise SetupError(f"Indigo takes 2-4 players, not {players}")
    chosen = default_layout(players) if layout is None else layout
    if chosen not in LAYOUTS:
        raise SetupError(f"unknown layout {chosen!r}; known: {', '.join(LAYOUTS)}")
    if LAYOUT_PLAYERS[chosen] != players:
        raise SetupError(
            f"layout {chosen!r} is for {LAYOUT_PLAYERS[chosen]} players, the game has {players}"
        )
    if hand_size not in (1, 2):
        raise SetupError(f"a hand holds 1 tile (or 2 in the tactical variant), not {hand_size}")
    hands: tuple[tuple[int, ...], ...] | None = None
    pile: tuple[int, ...] = ()
    if rng is not None:
        deck = [kind for kind in TILE_TYPES for _ in range(TILE_COUNTS[kind])]
        rng.shuffle(deck)
        dealt = [tuple(deck[i * hand_size:(i + 1) * hand_size]) for i in range(players)]
        hands = tuple(dealt)
        pile = tuple(deck[players * hand_size:])
    return IndigoState(
        players=players,
        layout=chosen,
        tiles={},
        gems={corner.amber_point: Gem.AMBER for corner in CORNERS},
        centre_left=len(CENTRE_STOCK),
        hauls=tuple((0, 0, 0) for _ in range(players)),
        reserve=START_RESERVE,
        removed=(0, 0, 0),
        turn=0,
        hands=hands,
        pile=pile,
    )


def check_placement(state: IndigoState, placement: Placement, *, player: int | None = None) -> None:
    """Raise PlacementError when ``placement`` breaks a rule; the message names it."""
    cell, tile = placement.cell, placement.tile
    where = f"{placement} by P{state.turn if player is None else player}"
    if state.is_over:
        raise PlacementError(
            Rule.GAME_OVER, f"{where}: the game is over, no gem is left on the board"
        )
    if player is not None:
        if not 0 <= player < state.players:
            raise PlacementError(
                Rule.UNKNOWN_PLAYER, f"{where}: no player {player} in a {state.players}-player game"
            )
        if player != state.turn:
            raise PlacementError(Rule.NOT_YOUR_TURN, f"{where}: it is P{state.turn}'s turn")
    if not is_on_board(cell):
        raise PlacementError(Rule.OFF_BOARD, f"{where}: cell {cell} is off the board")
    if is_treasure_cell(cell):
        raise PlacementError(Rule.TREASURE_CELL, f"{where}: cell {cell} holds a treasure tile")
    assert is_route_cell(cell)
    if cell in state.tiles:
        held = state.tiles[cell]
        raise PlacementError(
            Rule.OCCUPIED, f"{where}: cell {cell} already holds T{held.kind}r{held.rotation}"
        )
    if state.hands is not None:
        hand = state.hands[state.turn]
        if tile.kind not in hand:
            raise PlacementError(
                Rule.NOT_IN_HAND,
                f"{where}: P{state.turn} holds {', '.join(f'T{k}' for k in hand) or 'nothing'}",
            )
    if state.remaining(tile.kind) <= 0:
        raise PlacementError(
            Rule.TYPE_EXHAUSTED,
            f"{where}: all {TILE_COUNTS[tile.kind]} tiles of type {tile.kind} are on the board",
        )
    if tile.is_blocking(cell):
        raise PlacementError(
            Rule.BLOCKING,
            f"{where}: a path of T{tile.kind}r{tile.rotation} would join the two exits of "
            f"gateway cell {cell}",
        )


def legal_placements(
    state: IndigoState, kind: int, *, all_rotations: bool = False
) -> list[Placement]:
    """Every legal placement of a tile of type ``kind`` for the player to move.

    One rotation per distinct orientation unless ``all_rotations``. Empty when the game is
    over, the type is used up, or (when dealing) the mover does not hold that type.
    """
    if kind not in TILE_COUNTS:
        raise ValueError(f"no tile type {kind!r}; types are 0..4")
    if state.is_over or state.remaining(kind) <= 0:
        return []
    if state.hands is not None and kind not in state.hands[state.turn]:
        return []
    rotations = range(6) if all_rotations else DISTINCT_ROTATIONS[kind]
    out: list[Placement] = []
    for cell in state.empty_route_cells():
        for rotation in rotations:
            tile = Tile(kind, rotation)
            if not tile.is_blocking(cell):
                out.append(Placement(cell, tile))
    return out


def all_legal_placements(state: IndigoState) -> list[Placement]:
    """Legal placements for every type the mover may play (their hand, when dealing)."""
    kinds = TILE_TYPES if state.hands is None else tuple(sorted(set(state.hands[state.turn])))
    return [p for kind in kinds for p in legal_placements(state, kind)]


def _hand_out(
    state: IndigoState, movement: Movement
) -> tuple[tuple[GemMove, ...], list[list[int]], list[int], list[int]]:
    hauls = [list(h) for h in state.hauls]
    reserve = list(state.reserve)
    removed = list(state.removed)
    moves: list[GemMove] = []
    for move in movement.moves:
        slot = move.gem.slot
        if move.gateway is not None:
            who = owners(state.layout, move.gateway)
            hauls[who[0]][slot] += 1
            if len(who) > 1:
                if reserve[slot] <= 0:
                    raise AssertionError(f"the reserve has no {move.gem.value} left for a twin")
                reserve[slot] -= 1
                hauls[who[1]][slot] += 1
            move = replace(move, receivers=who)
        elif move.collided_with is not None:
            removed[slot] += 1
        moves.append(move)
    return tuple(moves), hauls, reserve, removed


def play(
    state: IndigoState, placement: Placement, *, player: int | None = None
) -> tuple[IndigoState, PlacementReport]:
    """Place a tile, move and hand out gems, draw; return the new state and what happened.

    ``player`` (optional) is checked against the seat to move.
    """
    check_placement(state, placement, player=player)
    mover = state.turn
    tiles = dict(state.tiles)
    tiles[placement.cell] = placement.tile
    movement = move_gems(tiles, state.gems, state.centre_left, placement.cell)
    moves, hauls, reserve, removed = _hand_out(state, movement)
    hands = state.hands
    pile = state.pile
    if hands is not None:
        hand = list(hands[mover])
        hand.remove(placement.tile.kind)
        if pile:
            hand.append(pile[0])
            pile = pile[1:]
        hands = hands[:mover] + (tuple(hand),) + hands[mover + 1:]
    new = IndigoState(
        players=state.players,
        layout=state.layout,
        tiles=tiles,
        gems=movement.resting,
        centre_left=movement.centre_left,
        hauls=tuple((h[0], h[1], h[2]) for h in hauls),
        reserve=(reserve[0], reserve[1], reserve[2]),
        removed=(removed[0], removed[1], removed[2]),
        turn=(mover + 1) % state.players,
        history=state.history + (placement,),
        hands=hands,
        pile=pile,
    )
    return new, PlacementReport(mover, placement, moves, new.is_over)


def apply(state: IndigoState, placement: Placement, *, player: int | None = None) -> IndigoState:
    """The state after ``placement``; raises PlacementError naming the broken rule."""
    return play(state, placement, player=player)[0]


def predict(
    state: IndigoState, placement: Placement, *, player: int | None = None
) -> PlacementReport:
    """What ``placement`` would do, without committing it (the state is unchanged anyway)."""
    return play(state, placement, player=player)[1]


def gem_totals(state: IndigoState) -> tuple[int, ...]:
    """Per player, the number of gems held (twins included)."""
    return tuple(sum(h) for h in state.hauls)


def haul_points(haul: GemCounts) -> int:
    return sum(n * gem.points for n, gem in zip(haul, GEM_ORDER, strict=True))


def scores(state: IndigoState) -> tuple[int, ...]:
    """Per player, points so far: sapphire 3, emerald 2, amber 1."""
    return tuple(haul_points(h) for h in state.hauls)


def rank_winners(points: tuple[int, ...], gems: tuple[int, ...]) -> tuple[int, ...]:
    """Seats that win: most points, then most gems; still tied, all of them win."""
    best = max(zip(points, gems, strict=True))
    return tuple(i for i, key in enumerate(zip(points, gems, strict=True)) if key == best)


def winners(state: IndigoState) -> tuple[int, ...]:
    """The winning seats once the game is over; ``()`` before."""
    if not state.is_over:
        return ()
    return rank_winners(scores(state), gem_totals(state))
