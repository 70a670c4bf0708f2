"""An Enigma game: rounds, choices, solvers, placements, networker supply, scores and the end.

The state is frozen; :func:`apply` returns a new one and raises
:class:`~companion.enigma.errors.EnigmaIllegalMoveError` (an ``IllegalMoveError``) whose message
starts with the rule's name. A round (rules/enigma.md section 3):

1. every player chooses a category, each category once (:class:`RoundMove`, with the solvers);
2. the solvers place in seat order from the round's start player, at most once each, each
   optionally putting a networker on the tile just placed (:class:`PlaceMove`); every system
   that placement closed is scored at once;
3. the target check runs when the next round arrives (or the record ends).

The start player of round k is seat (k - 1) mod n.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from companion.enigma.board import NETWORKER_RULES, Board, Placement, ScoredSystem
from companion.enigma.catalogue import CATEGORIES
from companion.enigma.errors import EnigmaIllegalMoveError
from companion.enigma.tiles import CROSSROADS, Pos, Tile

#: Networkers each player keeps in supply at the start; the fourth marks the score.
SUPPLY = 3
DEFAULT_TARGET = 15


@dataclass(frozen=True)
class EnigmaOptions:
    """Game options (records.md): ``target``, ``require_edge_match``, ``start``.

    ``networker_rule`` settles the disputed reading of step B (rules/enigma.md section 9):
    ``"any"`` (default) or ``"others"``.
    """

    target: int = DEFAULT_TARGET
    require_edge_match: bool = True
    start: Tile = CROSSROADS
    networker_rule: str = "any"

    def __post_init__(self) -> None:
        if self.target < 1:
            raise ValueError(f"target must be at least 1, got {self.target}")
        if self.networker_rule not in NETWORKER_RULES:
            raise ValueError(
                f"networker_rule must be one of {', '.join(NETWORKER_RULES)}, "
                f"got {self.networker_rule!r}"
            )


@dataclass(frozen=True)
class RoundMove:
    """A round's choices (player -> category) and the players who solved their puzzle."""

    choices: tuple[tuple[str, str], ...]
    solved: tuple[str, ...]

    @classmethod
    def make(cls, choices: Mapping[str, str], solved: Sequence[str]) -> RoundMove:
        return cls(tuple(choices.items()), tuple(solved))


@dataclass(frozen=True)
class PlaceMove:
    """A solver places ``tile`` turned ``rotation`` on ``at`` and maybe a networker."""

    player: str
    tile: Tile
    at: Pos
    rotation: int
    networker: str | None = None


Move = RoundMove | PlaceMove


@dataclass(frozen=True)
class EnigmaState:
    """Everything the rules need; ``scores`` and ``supply`` are in seat order."""

    players: tuple[str, ...]
    options: EnigmaOptions
    board: Board
    scores: tuple[int, ...]
    supply: tuple[int, ...]
    round: int = 0
    choices: tuple[tuple[str, str], ...] = ()
    solved: tuple[str, ...] = ()
    pending: tuple[str, ...] = ()
    placed: tuple[str, ...] = ()
    last_at: Pos | None = None
    last_scored: tuple[ScoredSystem, ...] = field(default=())

    # -------------------------------------------------------------- derived
    def seat(self, player: str) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise EnigmaIllegalMoveError(
                f"rule 'players': unknown player {player!r}; players: {', '.join(self.players)}"
            ) from None

    @property
    def start_player(self) -> str:
        """The start player of the current round (of round 1 before any round)."""
        return self.players[(max(self.round, 1) - 1) % len(self.players)]

    def seat_order(self) -> tuple[str, ...]:
        """Players clockwise from the current start player."""
        first = self.players.index(self.start_player)
        return self.players[first:] + self.players[:first]

    def score(self, player: str) -> int:
        return self.scores[self.seat(player)]

    def networkers_on_board(self, player: str) -> int:
        return self.board.networkers_of(player)

    def networkers_in_supply(self, player: str) -> int:
        return self.supply[self.seat(player)]

    @property
    def is_target_reached(self) -> bool:
        return any(s >= self.options.target for s in self.scores)

    @property
    def is_round_finished(self) -> bool:
        return not self.pending

    def is_over(self, *, record_ended: bool = True) -> bool:
        """Over when someone reached the target and the round is done (or the record ended)."""
        return self.round > 0 and self.is_target_reached and (record_ended or not self.pending)

    def winners(self) -> tuple[str, ...]:
        """Most points; tie: more networkers on the board; still tied: all share the win."""
        best = max(self.scores)
        tied = [p for p, s in zip(self.players, self.scores, strict=True) if s == best]
        most = max(self.board.networkers_of(p) for p in tied)
        return tuple(p for p in tied if self.board.networkers_of(p) == most)

    # -------------------------------------------------------------- helpers for the UI
    def legal_placements(self, tile: Tile, *, distinct: bool = False) -> list[Placement]:
        return self.board.legal_placements(
            tile, require_edge_match=self.options.require_edge_match, distinct=distinct
        )

    def networker_choices(self, player: str, tile: Tile, at: Pos, rotation: int) -> tuple[str, ...]:
        """Cells of ``tile`` where ``player`` could put a networker if it went on ``at``.

        Step B is judged on the table after the tile joined it (merged systems count as one)
        and before step C scores anything; an empty supply allows none. The placement itself
        must be legal.
        """
        if self.supply[self.seat(player)] == 0:
            return ()
        board = self.board.place(
            tile, at, rotation, require_edge_match=self.options.require_edge_match
        )
        return board.networker_cells(at, player, rule=self.options.networker_rule)


def new_game(players: Sequence[str], options: EnigmaOptions | None = None) -> EnigmaState:
    """The table before round 1: the start tile on [0, 0], scores 0, full supplies."""
    if not 2 <= len(players) <= 4:
        raise ValueError(f"Enigma takes 2-4 players, got {len(players)}")
    if len(set(players)) != len(players):
        raise ValueError(f"player names must be unique: {list(players)}")
    opts = options or EnigmaOptions()
    n = len(players)
    return EnigmaState(
        players=tuple(players),
        options=opts,
        board=Board.start(opts.start),
        scores=(0,) * n,
        supply=(SUPPLY,) * n,
    )


def apply(state: EnigmaState, move: Move) -> EnigmaState:
    """The state after ``move``; an illegal move raises EnigmaIllegalMoveError."""
    if isinstance(move, RoundMove):
        return _apply_round(state, move)
    return place(state, move)[0]


def _illegal(message: str) -> EnigmaIllegalMoveError:
    return EnigmaIllegalMoveError(message)


def _apply_round(state: EnigmaState, move: RoundMove) -> EnigmaState:
    if state.round > 0 and state.is_target_reached:
        leaders = ", ".join(
            f"{p} {s}" for p, s in zip(state.players, state.scores, strict=True)
            if s >= state.options.target
        )
        error = _illegal(
            f"rule 'game over': {leaders} reached the target {state.options.target} "
            f"in round {state.round}, so no new round starts"
        )
        # The round's arrival runs the end-of-round check, which ends the game even when a
        # solver never placed: the result before it is that of a finished game.
        error.closes_record = True
        raise error
    chosen: dict[str, str] = {}
    for player, category in move.choices:
        state.seat(player)
        if player in chosen:
            raise _illegal(f"rule 'choices': {player} chooses twice")
        if category not in CATEGORIES:
            raise _illegal(
                f"rule 'choices': {player} chose {category!r}, not one of "
                f"{', '.join(CATEGORIES)}"
            )
        holder = next((p for p, c in chosen.items() if c == category), None)
        if holder is not None:
            raise _illegal(
                f"rule 'choices': {category} is chosen by {holder} and {player}; "
                "each category can be chosen by one player per round"
            )
        chosen[player] = category
    missing = [p for p in state.players if p not in chosen]
    if missing:
        raise _illegal(
            f"rule 'choices': every player chooses one category; {', '.join(missing)} did not"
        )
    solved: set[str] = set()
    for player in move.solved:
        state.seat(player)
        if player in solved:
            raise _illegal(f"rule 'solve': {player} is listed as a solver twice")
        solved.add(player)
    round_number = state.round + 1
    first = (round_number - 1) % len(state.players)
    order = state.players[first:] + state.players[:first]
    solvers = tuple(p for p in order if p in solved)
    return replace(
        state,
        round=round_number,
        choices=tuple((p, chosen[p]) for p in state.players),
        solved=solvers,
        pending=solvers,
        placed=(),
        last_at=None,
        last_scored=(),
    )


def place(state: EnigmaState, move: PlaceMove) -> tuple[EnigmaState, tuple[ScoredSystem, ...]]:
    """Steps A-C for one solver: place, maybe a networker, score the systems closed.

    Returns the new state and the breakdown of every system the placement closed.
    """
    seat = state.seat(move.player)
    if state.round == 0:
        raise _illegal("rule 'round': no round has started; a round event comes first")
    if move.player not in state.pending:
        if not state.pending and state.is_target_reached:
            raise _illegal(
                f"rule 'game over': round {state.round} is finished and the target "
                f"{state.options.target} was reached"
            )
        if move.player in state.placed:
            why = "already placed a tile this round"
        elif move.player not in state.solved:
            why = f"did not solve a puzzle in round {state.round}"
        else:
            why = (
                f"comes before {state.placed[-1]} in seat order from the start player "
                f"{state.start_player}, and solvers place clockwise"
            )
        raise _illegal(f"rule 'turn order': {move.player} {why}")
    board = state.board.place(
        move.tile, move.at, move.rotation, require_edge_match=state.options.require_edge_match
    )
    supply = list(state.supply)
    if move.networker is not None:
        if supply[seat] == 0:
            raise _illegal(
                f"rule 'networker supply': {move.player} has no networker in supply "
                f"({board.networkers_of(move.player)} on the board)"
            )
        board = board.put_networker(
            move.at, move.networker, move.player, rule=state.options.networker_rule
        )
        supply[seat] -= 1
    board, scored = board.score_closed(move.at)
    scores = list(state.scores)
    for system in scored:
        for award in system.awards:
            owner = state.players.index(award.player)
            scores[owner] += award.points
            supply[owner] += 1
    index = state.pending.index(move.player)
    new_state = replace(
        state,
        board=board,
        scores=tuple(scores),
        supply=tuple(supply),
        pending=state.pending[index + 1:],
        placed=(*state.placed, move.player),
        last_at=move.at,
        last_scored=scored,
    )
    return new_state, scored


__all__ = [
    "DEFAULT_TARGET",
    "EnigmaOptions",
    "EnigmaState",
    "Move",
    "PlaceMove",
    "RoundMove",
    "SUPPLY",
    "apply",
    "new_game",
    "place",
]
