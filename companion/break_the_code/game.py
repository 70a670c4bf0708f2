"""The Break the Code game: setup, asking, guessing, turns and the end of the game.

A game is a frozen :class:`GameState`; :func:`apply` takes a move (:class:`Deal`, :class:`Ask`,
:class:`Guess`) and returns the next state or raises :class:`IllegalMoveError` naming the rule.
Rules follow ``rules/break_the_code.md`` and ``records.md`` ("Edge cases, settled"):

* 2 players: a wrong guess costs the turn; a right guess by the second player wins; after a
  right guess by the start player the second player gets one more turn, a guess only (right:
  both win, wrong: the start player wins).
* 3-4 players: a wrong guess puts the player out, a right guess makes them a winner and takes
  them out of the turn order; the round in which someone guessed right is completed, then the
  game ends. Everyone out and nobody right: no winner.
* The game ends at once when all 21 cards have been asked (2p: nobody wins; 3-4p: the right
  guessers so far win).

**Secrecy.** The racks and the central tiles are held by the state but never appear in its
``repr``, in an error message, or in :func:`result_json` while the game is not over. Guesses
are answered right or wrong only.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.break_the_code.cards import (
    CARD_IDS,
    Answer,
    answer,
    check_number,
    get_card,
)
from companion.break_the_code.tiles import ALL_TILES, Code, check_box_counts
from companion.errors import IllegalMoveError

FACE_UP = 6
HIDDEN = "<hidden>"


def rack_size(players: int) -> int:
    """5 tiles with 2 or 3 players, 4 (no column E) with 4 players."""
    return 4 if players == 4 else 5


def check_player_count(players: int) -> None:
    if not 2 <= players <= 4:
        raise IllegalMoveError(f"Break the Code takes 2-4 players, got {players}")


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class Deal:
    """Every player's rack (seat order) and, with 3-4 players, the central tiles."""

    racks: tuple[Code, ...]
    central: Code | None = None

    def __repr__(self) -> str:
        # The deal is the secret itself.
        return f"Deal(racks={HIDDEN}, central={HIDDEN if self.central else None})"


@dataclass(frozen=True)
class Ask:
    """``player`` asks ``card``; ``number`` is their choice on a choose-one card."""

    player: str
    card: str
    number: int | None = None


@dataclass(frozen=True)
class Guess:
    """``player`` states a code. In 3-4 player games the guess is written secretly."""

    player: str
    code: Code

    def __repr__(self) -> str:
        return f"Guess(player={self.player!r}, code={HIDDEN})"


Move = Deal | Ask | Guess


def deal_tiles(players: int, rng: random.Random) -> Deal:
    """Shuffle the 20 tiles with ``rng`` and deal them as the setup table says."""
    check_player_count(players)
    tiles = list(ALL_TILES)
    rng.shuffle(tiles)
    k = rack_size(players)
    racks = tuple(Code.of(tiles[i * k:(i + 1) * k]) for i in range(players))
    central = Code.of(tiles[players * k:(players + 1) * k]) if players > 2 else None
    return Deal(racks, central)


def shuffle_deck(rng: random.Random) -> tuple[str, ...]:
    """The 21 question cards in a shuffled order (the first six are face up)."""
    deck = list(CARD_IDS)
    rng.shuffle(deck)
    return tuple(deck)


def check_deck(deck: Sequence[str]) -> tuple[str, ...]:
    """A deck must list each of Q01..Q21 exactly once."""
    if sorted(deck) != sorted(CARD_IDS) or len(deck) != len(CARD_IDS):
        missing = sorted(set(CARD_IDS) - set(deck))
        extra = sorted({c for c in deck if c not in CARD_IDS or list(deck).count(c) > 1})
        raise IllegalMoveError(
            "a deck lists each of Q01..Q21 exactly once"
            + (f"; missing {', '.join(missing)}" if missing else "")
            + (f"; unknown or repeated {', '.join(map(str, extra))}" if extra else "")
        )
    return tuple(deck)


# --------------------------------------------------------------------------- state


@dataclass(frozen=True)
class AnswerEntry:
    """One public answer: ``by`` answered ``card`` (asked at ``event``)."""

    event: int
    card: str
    number: int | None
    by: str
    answer: Answer

    def to_json(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"event": self.event, "card": self.card}
        if get_card(self.card).is_choice:
            entry["number"] = self.number
        entry["by"] = self.by
        value = self.answer
        entry["answer"] = [list(p) if isinstance(p, list) else p for p in value] \
            if isinstance(value, list) else value
        return entry


@dataclass(frozen=True)
class GameState:
    """Everything about a game; the secret parts are kept out of ``repr``."""

    players: tuple[str, ...]
    #: the face-up row, with a deck; None means any card not yet asked may be asked
    row: tuple[str, ...] | None = None
    #: the rest of the deck, top first
    pile: tuple[str, ...] = ()
    asked: tuple[str, ...] = ()
    racks: tuple[Code, ...] | None = None
    central: Code | None = None
    turn: int = 0
    events: int = 0
    answers: tuple[AnswerEntry, ...] = ()
    #: players eliminated by a wrong guess (3-4p), in order
    out: tuple[str, ...] = ()
    #: players who guessed right, in order
    cracked: tuple[str, ...] = ()
    #: (guesser, code) of every wrong guess; each code is wrong for that target
    wrong_guesses: tuple[tuple[str, Code], ...] = ()
    #: 2p: the start player guessed right; the second player may only guess
    last_chance: bool = False
    over: bool = False
    winners: tuple[str, ...] = ()

    # -- derived, public ------------------------------------------------------------------

    @property
    def dealt(self) -> bool:
        return self.racks is not None

    @property
    def rack_size(self) -> int:
        return rack_size(len(self.players))

    @property
    def current_player(self) -> str | None:
        """Whose turn it is, or None once the game is over."""
        return None if self.over else self.players[self.turn]

    @property
    def askable_cards(self) -> tuple[str, ...]:
        """The cards that may be asked now: the face-up row, or every card not yet asked."""
        if self.row is not None:
            return self.row
        return tuple(c for c in CARD_IDS if c not in self.asked)

    def seat_of(self, player: str) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise IllegalMoveError(
                f"{player!r} does not play in this game; players: {', '.join(self.players)}"
            ) from None

    def is_active(self, seat: int) -> bool:
        """A player still takes turns: not out and (3-4p) not already a right guesser."""
        name = self.players[seat]
        if len(self.players) == 2:
            return True
        return name not in self.out and name not in self.cracked

    def answerers(self, asker: str) -> tuple[str, ...]:
        """Who answers ``asker``: the others clockwise from the asker's left; with 4 players
        the asker last."""
        seat = self.seat_of(asker)
        n = len(self.players)
        others = tuple(self.players[(seat + i) % n] for i in range(1, n))
        if n == 2:
            return others
        return others + ((asker,) if n == 4 else ())

    def target_of(self, player: str) -> str:
        """Whose code ``player`` is trying to guess: the opponent (2p) or ``"central"``."""
        if len(self.players) == 2:
            return self.players[1 - self.seat_of(player)]
        return "central"

    def rack_of(self, player: str) -> Code:
        """A player's own rack, to show to that player only."""
        if self.racks is None:
            raise IllegalMoveError("the tiles have not been dealt yet")
        return self.racks[self.seat_of(player)]

    def __repr__(self) -> str:
        if self.racks is None:
            shown = "not dealt"
        elif not self.over:
            shown = HIDDEN
        else:
            pairs = [f"{p!r}: {str(r)!r}" for p, r in zip(self.players, self.racks, strict=True)]
            if self.central is not None:
                pairs.append(f"'central': {str(self.central)!r}")
            shown = "{" + ", ".join(pairs) + "}"
        return (
            f"GameState(players={self.players!r}, turn={self.current_player!r}, "
            f"asked={self.asked!r}, row={self.row!r}, out={self.out!r}, "
            f"cracked={self.cracked!r}, over={self.over}, winners={self.winners!r}, "
            f"tiles={shown})"
        )


def new_game(players: Sequence[str], *, deck: Sequence[str] | None = None) -> GameState:
    """A game before the deal. ``players`` in seat order, the first is the start player."""
    check_player_count(len(players))
    if len(set(players)) != len(players):
        raise IllegalMoveError(f"player names must be unique, got {list(players)}")
    if deck is None:
        return GameState(players=tuple(players))
    order = check_deck(deck)
    return GameState(players=tuple(players), row=order[:FACE_UP], pile=order[FACE_UP:])


# --------------------------------------------------------------------------- rules


def apply(state: GameState, move: Move, *, index: int | None = None) -> GameState:
    """Apply one move and return the new state. ``index`` numbers the event (1-based) for the
    answer entries; by default the next one."""
    event = state.events + 1 if index is None else index
    if state.over:
        raise IllegalMoveError("the game is over; no more moves")
    if isinstance(move, Deal):
        new = _apply_deal(state, move)
    elif state.racks is None:
        raise IllegalMoveError("the tiles have not been dealt yet; the first event is the deal")
    elif isinstance(move, Ask):
        new = _apply_ask(state, move, event)
    else:
        new = _apply_guess(state, move)
    return replace(new, events=state.events + 1)


def _apply_deal(state: GameState, deal: Deal) -> GameState:
    if state.racks is not None:
        raise IllegalMoveError("the tiles are already dealt; a game has one deal")
    n = len(state.players)
    k = rack_size(n)
    if len(deal.racks) != n:
        raise IllegalMoveError(f"the deal needs a rack for each of the {n} players")
    for name, rack in zip(state.players, deal.racks, strict=True):
        if len(rack) != k:
            raise IllegalMoveError(
                f"{name}'s rack has {len(rack)} tiles; with {n} players a rack holds {k}"
            )
    if n == 2 and deal.central is not None:
        raise IllegalMoveError("a 2-player game has no central tiles")
    if n > 2:
        if deal.central is None:
            raise IllegalMoveError(f"a {n}-player game needs the {k} central tiles")
        if len(deal.central) != k:
            raise IllegalMoveError(
                f"the central code has {len(deal.central)} tiles; with {n} players it holds {k}"
            )
    every = [t for r in deal.racks for t in r.tiles] + list(
        deal.central.tiles if deal.central else ())
    check_box_counts(every, what="the deal")
    return replace(state, racks=deal.racks, central=deal.central)


def _apply_ask(state: GameState, ask: Ask, event: int) -> GameState:
    seat = _check_turn(state, ask.player)
    if state.last_chance:
        raise IllegalMoveError(
            f"{ask.player} has one more turn only to guess the start player's rack; "
            "asking is not allowed now"
        )
    card = get_card(ask.card)
    check_number(card, ask.number)
    if card.id in state.asked:
        raise IllegalMoveError(f"card {card.id} has already been asked; each card is asked once")
    row, pile = state.row, state.pile
    if row is not None:
        if card.id not in row:
            raise IllegalMoveError(
                f"card {card.id} is not face up; the face-up cards are {', '.join(row)}"
            )
        slot = row.index(card.id)
        if pile:
            row = row[:slot] + (pile[0],) + row[slot + 1:]
            pile = pile[1:]
        else:
            row = row[:slot] + row[slot + 1:]
    assert state.racks is not None
    entries = tuple(
        AnswerEntry(
            event=event,
            card=card.id,
            number=ask.number,
            by=name,
            answer=answer(card.id, state.racks[state.seat_of(name)], number=ask.number),
        )
        for name in state.answerers(ask.player)
    )
    new = replace(state, row=row, pile=pile, asked=state.asked + (card.id,),
                  answers=state.answers + entries)
    if len(new.asked) == len(CARD_IDS):
        # The questions ran out: the game ends at once.
        return _finish(new, new.cracked if len(state.players) > 2 else ())
    return _next_turn(new, seat)


def _apply_guess(state: GameState, guess: Guess) -> GameState:
    seat = _check_turn(state, guess.player)
    k = state.rack_size
    if len(guess.code) != k:
        raise IllegalMoveError(
            f"{guess.player}'s guess has {len(guess.code)} tiles; the code to guess has {k}"
        )
    n = len(state.players)
    assert state.racks is not None
    secret = state.central if n > 2 else state.racks[1 - seat]
    right = guess.code == secret
    if n == 2:
        start, second = state.players
        if state.last_chance:
            return _finish(state, (start, second) if right else (start,))
        if not right:
            return replace(state, turn=1 - seat,
                           wrong_guesses=state.wrong_guesses + ((guess.player, guess.code),))
        if seat == 1:
            return _finish(replace(state, cracked=(second,)), (second,))
        return replace(state, cracked=(start,), last_chance=True, turn=1)
    if right:
        return _next_turn(replace(state, cracked=state.cracked + (guess.player,)), seat)
    return _next_turn(
        replace(state, out=state.out + (guess.player,),
                wrong_guesses=state.wrong_guesses + ((guess.player, guess.code),)),
        seat,
    )


def _check_turn(state: GameState, player: str) -> int:
    seat = state.seat_of(player)
    if len(state.players) > 2:
        if player in state.out:
            raise IllegalMoveError(f"{player} is out after a wrong guess and takes no more turns")
        if player in state.cracked:
            raise IllegalMoveError(f"{player} has already guessed right and takes no more turns")
    if seat != state.turn:
        raise IllegalMoveError(f"it is {state.players[state.turn]}'s turn, not {player}'s")
    return seat


def _next_turn(state: GameState, seat: int) -> GameState:
    """Pass the turn on from ``seat``, ending the game where the rules say so."""
    n = len(state.players)
    if n == 2:
        return replace(state, turn=1 - seat)
    if state.cracked:
        # Complete the round: the players still in, seated after this one, then the end.
        for later in range(seat + 1, n):
            if state.is_active(later):
                return replace(state, turn=later)
        return _finish(state, state.cracked)
    for step in range(1, n + 1):
        nxt = (seat + step) % n
        if state.is_active(nxt):
            return replace(state, turn=nxt)
    return _finish(state, ())  # everyone is out: no winner


def _finish(state: GameState, winners: Iterable[str]) -> GameState:
    won = set(winners)
    return replace(state, over=True, winners=tuple(p for p in state.players if p in won))


def legal_asks(state: GameState) -> list[Ask]:
    """Every question the current player may ask now (each number of a choose-one card).

    Guesses are not listed: any well-formed code of the right length may be guessed, except
    in a 2-player last chance, where only a guess is legal (and this list is empty).
    """
    if state.over or state.racks is None or state.last_chance:
        return []
    player = state.players[state.turn]
    moves: list[Ask] = []
    for card_id in state.askable_cards:
        card = get_card(card_id)
        for number in card.choices if card.choices is not None else (None,):
            moves.append(Ask(player, card_id, number))
    return moves


# --------------------------------------------------------------------------- results


def result_json(state: GameState) -> dict[str, Any]:
    """The game's part of the replay result: ``answers`` and ``out`` (never the secret)."""
    return {
        "answers": [a.to_json() for a in state.answers],
        "out": list(state.out),
    }


def public_answers(state: GameState, about: str) -> list[AnswerEntry]:
    """Every answer given by ``about`` (all answers are public)."""
    return [a for a in state.answers if a.by == about]


def racks_by_name(state: GameState) -> Mapping[str, Code]:
    """Every rack by player, for the end-of-game reveal; refused while the game goes on."""
    if not state.over or state.racks is None:
        raise IllegalMoveError("the racks stay secret until the game is over")
    return dict(zip(state.players, state.racks, strict=True))
