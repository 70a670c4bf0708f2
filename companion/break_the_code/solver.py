"""The deduction assistant: which codes are still possible, and which question to ask.

It works from one player's :class:`View`: their own rack, every public answer and the wrong
guesses, and never from the other racks. A candidate code is weighted by the number of
physical tile sets it stands for, so a code with one green 5 counts twice while both green 5s
are unseen (``rules/break_the_code.md`` section 9).

* 2 players: the target is the opponent's rack, a code from the 15 tiles you cannot see,
  filtered by the opponent's answers and your wrong guesses. The suggested question is the
  askable one whose answer has the greatest entropy over the candidates (exact).
* 3-4 players: the target is the central code, the complement of the other racks. Each other
  rack has its own candidate list (filtered by its answers); the central weights count the joint
  assignments of disjoint racks. While there are at most :data:`JOINT_LIMIT` such assignments,
  questions are ranked by the exact mutual information between the answers and the central
  code; before that (early in the game) by the summed entropy of the answerers' replies over
  their own rack candidates, an approximation that needs no joint enumeration.

Twins: 28 pairs of codes answer every question alike (:func:`tables.twin_groups`); when only
such codes are left, no question helps and the assistant says to guess.

Speed (3-4 players). The results are those of :mod:`companion.break_the_code.reference_solver`
to the last bit of every float; only the counting is different:

* the central weights come from :func:`tile_sets.central_ways`: the other racks' tile sets as
  bit sets, joined in the cheapest order, with racks that answered nothing counted in closed
  form instead of enumerated;
* the exact information reads each question's answers for all joint assignments at once
  and counts them with C-level Counters, in the reference's order, so the entropies add up
  in the same order;
* :func:`suggest` works the exact information out only for the questions that may come first
  (it is at most the sum of the answerers' entropies); :func:`rank_questions` for all.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import compress
from operator import itemgetter
from types import MappingProxyType
from typing import overload

from companion.break_the_code.cards import CARDS
from companion.break_the_code.game import AnswerEntry, GameState, rack_size
from companion.break_the_code.tables import (
    ALL_MASK,
    QUESTION_INDEX,
    QUESTIONS,
    CodeTable,
    code_key,
    code_table,
    encode_answer,
    tile_bits,
    twins_of,
)
from companion.break_the_code.tile_sets import (
    UNSEEN_CACHE,
    RackSets,
    Unseen,
    assignments,
    central_ways,
    rack_sets,
    unseen_tiles,
)
from companion.break_the_code.tiles import Code
from companion.errors import IllegalMoveError

#: 3-4 players: suggest a guess only when the likeliest code is at least this probable
#: (a wrong guess puts you out).
DEFAULT_GUESS_THRESHOLD = 1.0


@dataclass(frozen=True)
class View:
    """What one player knows: their rack, the public answers, the known-wrong target codes."""

    players: tuple[str, ...]
    me: str
    own_rack: Code
    answers: tuple[AnswerEntry, ...] = ()
    wrong_codes: tuple[Code, ...] = ()
    #: the cards that may be asked now (the face-up row, or every unasked card)
    askable: tuple[str, ...] = tuple(CARDS)

    @property
    def target(self) -> str:
        """The opponent's name (2 players) or ``"central"``."""
        if len(self.players) == 2:
            return self.players[1 - self.players.index(self.me)]
        return "central"

    @property
    def size(self) -> int:
        return rack_size(len(self.players))


def view_of(state: GameState, player: str) -> View:
    """The view of ``player`` in a dealt game: wrong guesses count when they were aimed at the
    same secret (2p: your own; 3-4p: everyone's, all aimed at the centre)."""
    rack = state.rack_of(player)
    target = state.target_of(player)
    wrong = tuple(
        code for guesser, code in state.wrong_guesses if state.target_of(guesser) == target
    )
    return View(
        players=state.players,
        me=player,
        own_rack=rack,
        answers=state.answers,
        wrong_codes=wrong,
        askable=state.askable_cards,
    )


@dataclass(frozen=True)
class Candidates:
    """Codes still possible for one rack or the centre, with their weights (tile sets)."""

    size: int
    #: code index in :func:`code_table` -> weight
    weights: Mapping[int, int]

    @property
    def table(self) -> CodeTable:
        return code_table(self.size)

    def __len__(self) -> int:
        return len(self.weights)

    def __repr__(self) -> str:
        return f"Candidates(size={self.size}, codes={len(self.weights)}, weight={self.total})"

    @property
    def total(self) -> int:
        return sum(self.weights.values())

    def __contains__(self, code: object) -> bool:
        if not isinstance(code, Code) or len(code) != self.size:
            return False
        return self.table.index.get(code_key(code), -1) in self.weights

    def ranked(self, top: int | None = None) -> list[tuple[Code, float]]:
        """(code, probability), likeliest first, ties in code order; the first ``top`` only
        when given (each code is made when asked for)."""
        total = self.total
        codes = self.table.codes
        return [(codes[i], self.weights[i] / total) for i in self.order()[:top]]

    def order(self) -> list[int]:
        """The code indices, likeliest first, ties in code order."""
        return sorted(self.weights, key=lambda i: (-self.weights[i], i))

    def filter(self, question: int, key: int | None) -> Candidates:
        """Keep the codes that answer ``question`` with ``key``."""
        column = self.table.tables[question]
        return Candidates(self.size, {i: w for i, w in self.weights.items() if column[i] == key})

    def without(self, codes: Iterable[Code]) -> Candidates:
        drop = {self.table.index.get(code_key(c)) for c in codes if len(c) == self.size}
        return Candidates(self.size, {i: w for i, w in self.weights.items() if i not in drop})

    def bits(self, question: int) -> float:
        """The expected information (entropy of the answer) of asking ``question``."""
        return _entropy(answer_weights(self, question).values())


    @cached_property
    def by_weight(self) -> list[tuple[int, Callable[[bytes], tuple[int, ...]]]]:
        """(weight, a getter of the answers of the codes of that weight), weights in order of
        first appearance."""
        groups: dict[int, list[int]] = defaultdict(list)
        for i, w in self.weights.items():
            groups[w].append(i)
        return [(w, itemgetter(*idx) if len(idx) > 1 else _one(idx[0]))
                for w, idx in groups.items()]


def _one(i: int) -> Callable[[bytes], tuple[int, ...]]:
    return lambda column: (column[i],)


def answer_weights(cands: Candidates, question: int) -> Counter[int]:
    """Total weight of the candidates per answer key of ``question``."""
    column = cands.table.tables[question]
    acc: Counter[int] = Counter()
    for w, get in cands.by_weight:
        # itemgetter + Counter run in C: a few hundred microseconds for 12,444 codes.
        for key, n in Counter(get(column)).items():
            acc[key] += n * w
    return acc


def _entropy(weights: Iterable[int]) -> float:
    ws = [w for w in weights if w]
    total = sum(ws)
    if total == 0:
        return 0.0
    # The reference's terms, each worked out once per distinct weight, summed in its order:
    # the same float to the last bit.
    term = {w: w / total * math.log2(w / total) for w in set(ws)}
    return -sum(map(term.__getitem__, ws))


def codes_from(unseen_mask: int, size: int) -> Candidates:
    """Every code of ``size`` tiles drawn from a physical tile set, weighted by tile sets."""
    return Candidates(size, _code_weights(unseen_mask, size))


@lru_cache(maxsize=UNSEEN_CACHE)
def _code_weights(unseen_mask: int, size: int) -> Mapping[int, int]:
    if unseen_mask == ALL_MASK:
        # Every code, each as many times as it has tile sets: C(2, green 5s in it).
        table = code_table(size)
        return MappingProxyType({i: math.comb(2, g) for i, g in enumerate(table.greens)})
    # In combinations order, as the candidates' weights are summed in that order.
    return MappingProxyType(dict(Counter(unseen_tiles(unseen_mask, size).codes)))


def _answers_by(view: View, player: str) -> list[tuple[int, object]]:
    return [
        (QUESTION_INDEX[(a.card, a.number if CARDS[a.card].is_choice else None)], a.answer)
        for a in view.answers
        if a.by == player
    ]


def apply_answers(cands: Candidates, answers: Sequence[tuple[int, object]]) -> Candidates:
    for question, value in answers:
        cands = cands.filter(question, encode_answer(question, value))
    return cands


def rack_candidates(view: View, player: str) -> Candidates:
    """Codes another player's rack may still be, from their answers (ignoring the other racks
    beyond your own)."""
    unseen = ALL_MASK & ~tile_bits(view.own_rack)
    return apply_answers(codes_from(unseen, view.size), _answers_by(view, player))


def target_candidates(view: View) -> Candidates:
    """The codes the target may still be, weighted by the tile sets behind each."""
    if view.me not in view.players:
        raise IllegalMoveError(f"{view.me!r} does not play; players: {', '.join(view.players)}")
    if len(view.players) == 2:
        return rack_candidates(view, view.target).without(view.wrong_codes)
    weights, _ = _central_weights(view, _other_racks(view))
    return Candidates(view.size, weights).without(view.wrong_codes)


def _unseen(view: View) -> Unseen:
    return unseen_tiles(ALL_MASK & ~tile_bits(view.own_rack), view.size)


def _other_racks(view: View) -> list[RackSets | None]:
    """For each other player (seat order), the tile sets their rack may be; None for a player
    who has answered nothing yet (any tile set)."""
    unseen = _unseen(view)
    return [
        rack_sets(unseen, rack_candidates(view, player).weights)
        if _answers_by(view, player) else None
        for player in view.players if player != view.me
    ]


def _central_weights(view: View, racks: list[RackSets | None]) -> tuple[dict[int, int], int]:
    """3-4 players: central code index -> the ways the other racks leave it (wrong guesses
    not yet taken out), and the number of those ways."""
    unseen = _unseen(view)
    weights: Counter[int] = Counter()
    for code, ways in zip(unseen.codes, central_ways(unseen, racks), strict=True):
        if ways:
            weights[code] += ways
    return dict(weights), sum(weights.values())


#: 3-4 players: up to this many joint assignments of the other racks, questions are ranked by
#: their exact information about the central code; beyond it, by an approximation.
JOINT_LIMIT = 20_000


@dataclass(frozen=True)
class _Joint:
    """Every joint assignment (tile sets) of the other racks, in the reference's order, as code
    indices: one column per rack (seat order) and the central codes."""

    racks: list[list[int]]
    central: list[int]


def _joint(view: View, racks: list[RackSets | None], limit: int, total: int | None = None
           ) -> _Joint | None:
    """The assignments, or None when there are more than ``limit`` (``total``, when known,
    is their number)."""
    if total is not None and total > limit:
        return None
    unseen = _unseen(view)
    found = assignments([r if r is not None else rack_sets(unseen, None)
                         for r in racks], limit)
    if found is None:
        return None
    columns, taken = found
    central = list(map(unseen.code_of.__getitem__, map(unseen.full.__xor__, taken)))
    codes = [list(map(unseen.code_of.__getitem__, column)) for column in columns]
    wrong = {code_table(view.size).index.get(code_key(c)) for c in view.wrong_codes
             if len(c) == view.size}
    if wrong & set(central):
        keep = [c not in wrong for c in central]
        central = list(compress(central, keep))
        codes = [list(compress(column, keep)) for column in codes]
    return _Joint(codes, central)


def joint_assignments(view: View, *, limit: int = JOINT_LIMIT
                      ) -> dict[tuple[tuple[int, ...], int], int] | None:
    """3-4 players: every way the other racks and the centre may be, as code indices
    ``((rack of each other player, in seat order), central) -> tile sets``; None when there are
    more than ``limit`` tile-set assignments."""
    joint = _joint(view, _other_racks(view), limit)
    if joint is None:
        return None
    return dict(Counter(zip(zip(*joint.racks, strict=True), joint.central, strict=True)))


def central_information(joint: Mapping[tuple[tuple[int, ...], int], int], question: int,
                        size: int) -> float:
    """Mutual information (bits) between the others' answers to ``question`` and the centre."""
    column = code_table(size).tables[question]
    answers: Counter[tuple[int, ...]] = Counter()
    both: Counter[tuple[tuple[int, ...], int]] = Counter()
    centres: Counter[int] = Counter()
    for (racks, central), w in joint.items():
        key = tuple(column[r] for r in racks)
        answers[key] += w
        both[(key, central)] += w
        centres[central] += w
    return max(0.0, _entropy(answers.values()) + _entropy(centres.values())
               - _entropy(both.values()))


@dataclass(frozen=True)
class QuestionScore:
    card: str
    number: int | None
    bits: float

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"card": self.card}
        if self.number is not None:
            out["number"] = self.number
        out["bits"] = round(self.bits, 3)
        return out


def rank_questions(view: View, cands: Candidates | None = None) -> list[QuestionScore]:
    """Every askable question (each choice of a choose-one card) by expected information."""
    if len(view.players) == 2:
        target = cands if cands is not None else target_candidates(view)
        return rank_for(target, view.askable)
    return _rank_central(view, _other_racks(view), None)


def _rank_central(view: View, racks: list[RackSets | None], total: int | None,
                  *, best_only: bool = False) -> list[QuestionScore]:
    """3-4 players: :func:`rank_questions`, given the other racks' tile sets; with
    ``best_only``, only its first question."""
    askable = [q for q, (card, _) in enumerate(QUESTIONS) if card in view.askable]
    joint = _joint(view, racks, JOINT_LIMIT, total)
    if joint is None:
        others = [rack_candidates(view, p) for p in view.players if p != view.me]
        # racks that answered nothing share one candidate list: work its entropies out once
        by_list: dict[int, list[float]] = {}
        for r in others:
            if id(r.weights) not in by_list:
                by_list[id(r.weights)] = [r.bits(q) for q in askable]
        bits = [sum(by_list[id(r.weights)][i] for r in others) for i in range(len(askable))]
    elif best_only:
        return _best_central(joint, askable, view.size)
    else:
        information = _Information(joint, view.size)
        bits = [information.bits(q) for q in askable]
    return _ranked(askable, bits)


def _ranked(questions: Sequence[int], bits: Sequence[float]) -> list[QuestionScore]:
    scores = [QuestionScore(QUESTIONS[q][0], QUESTIONS[q][1], b)
              for q, b in zip(questions, bits, strict=True)]
    scores.sort(key=_rank_key)
    return scores


#: a question whose bound on the information is this far below the best found is not worked
#: out (far above the rounding of either figure)
_BOUND_MARGIN = 1e-9


def _best_central(joint: _Joint, questions: Sequence[int], size: int) -> list[QuestionScore]:
    """The first question of the exact ranking, working out only the questions that may be
    first: the information about the centre is at most the entropy of the answers, which is at
    most the sum of each answerer's entropy, cheap to find from the codes' counts."""
    per_rack = [Counter(column) for column in joint.racks]
    tables = code_table(size).tables
    bound = {q: sum(_spread_bits(tables[q], counts) for counts in per_rack) for q in questions}
    information = _Information(joint, size)
    best: QuestionScore | None = None
    for q in sorted(questions, key=bound.__getitem__, reverse=True):
        if best is not None and bound[q] < best.bits - _BOUND_MARGIN:
            break
        bits = information.bits(q, None if best is None else best.bits - _BOUND_MARGIN)
        if bits is None:
            continue
        score = QuestionScore(QUESTIONS[q][0], QUESTIONS[q][1], bits)
        if best is None or _rank_key(score) < _rank_key(best):
            best = score
    return [] if best is None else [best]


def _spread_bits(column: bytes, counts: Counter[int]) -> float:
    """The entropy of the answers in ``column`` of codes counted ``counts`` times (any order:
    it only bounds)."""
    acc: defaultdict[int, int] = defaultdict(int)
    for key, n in zip(itemgetter(*counts)(column) if len(counts) > 1 else
                      [column[c] for c in counts], counts.values(), strict=True):
        acc[key] += n
    return _entropy(acc.values())


def _rank_key(score: QuestionScore) -> tuple[float, str, int]:
    """Most information first; ties in card order."""
    return (-score.bits, score.card, score.number or 0)


class _Information:
    """:func:`central_information` of any question, from the assignments one by one: the
    reference's counts in the reference's order, so the same floats, with each rack's answers
    read at once (itemgetter) into the bytes of one key per assignment."""

    def __init__(self, joint: _Joint, size: int) -> None:
        n = len(joint.central)
        self._tables = code_table(size).tables
        self._answers = [_answers_getter(column) for column in joint.racks]
        # one 8-byte key per assignment: the racks' answers, then the central code
        self._both = bytearray(_KEY_BYTES * n)
        self._both[_CENTRAL_BYTE::_KEY_BYTES] = bytes(map((0xFF).__and__, joint.central))
        self._both[_CENTRAL_BYTE + 1::_KEY_BYTES] = bytes(map((8).__rrshift__, joint.central))
        self._alone = bytearray(_ANSWERS_BYTES * n)
        self._centres = _entropy(Counter(joint.central).values())

    @overload
    def bits(self, question: int) -> float: ...

    @overload
    def bits(self, question: int, at_least: float | None) -> float | None: ...

    def bits(self, question: int, at_least: float | None = None) -> float | None:
        """The information of ``question``; None when it is surely below ``at_least`` (the
        entropy of the answers, its bound, is)."""
        column = self._tables[question]
        for j, get in enumerate(self._answers):
            answers = get(column)
            self._both[j::_KEY_BYTES] = answers
            self._alone[j::_ANSWERS_BYTES] = answers
        answered = _entropy(Counter(memoryview(self._alone).cast("I").tolist()).values())
        if at_least is not None and answered < at_least:
            return None
        together = _entropy(Counter(memoryview(self._both).cast("Q").tolist()).values())
        return max(0.0, answered + self._centres - together)


#: the byte layout of the keys in :class:`_Information` (at most 3 racks, codes < 2**16)
_KEY_BYTES = 8
_CENTRAL_BYTE = 4
_ANSWERS_BYTES = 4


def _answers_getter(codes: list[int]) -> Callable[[bytes], bytes]:
    """A function from a question's column of answer keys to the answers of ``codes``."""
    if len(codes) > 1:
        get = itemgetter(*codes)
        return lambda column: bytes(get(column))
    return lambda column: bytes(column[c] for c in codes)


def rank_for(cands: Candidates, askable: Iterable[str]) -> list[QuestionScore]:
    """The questions on ``askable`` cards by the entropy of their answer over ``cands``."""
    cards = set(askable)
    scores = [
        QuestionScore(card, number, cands.bits(q))
        for q, (card, number) in enumerate(QUESTIONS)
        if card in cards
    ]
    scores.sort(key=lambda s: (-s.bits, s.card, s.number or 0))
    return scores


@dataclass(frozen=True)
class Suggestion:
    """Ask ``question``, or guess ``guess`` (with its probability)."""

    candidates: Candidates
    question: QuestionScore | None
    guess: Code | None
    probability: float
    twins: bool

    def to_json(self, *, top: int = 10) -> dict[str, object]:
        out: dict[str, object] = {
            "candidates": len(self.candidates),
            "weight": self.candidates.total,
            "likeliest": [
                {"code": str(c), "p": round(p, 4)} for c, p in self.candidates.ranked(top)
            ],
            "twins": self.twins,
        }
        if self.guess is not None:
            out["suggest"] = {"guess": str(self.guess), "p": round(self.probability, 4)}
        elif self.question is not None:
            out["suggest"] = {"ask": self.question.to_json()}
        else:
            out["suggest"] = None
        return out


def suggest(view: View, *, guess_threshold: float | None = None) -> Suggestion:
    """The candidates and what to do next.

    2 players: guess at one or two candidates (the likelier; a wrong guess costs only the
    turn), else ask the question with the most information. 3-4 players: guess when the
    likeliest code reaches ``guess_threshold``; otherwise ask. When no askable question tells
    the candidates apart (twins, or no cards left), guess the likeliest.
    """
    if len(view.players) == 2:
        cands = target_candidates(view)
    else:
        if view.me not in view.players:
            raise IllegalMoveError(
                f"{view.me!r} does not play; players: {', '.join(view.players)}")
        racks = _other_racks(view)
        weights, total = _central_weights(view, racks)
        cands = Candidates(view.size, weights).without(view.wrong_codes)
    order = cands.order()
    if not order:
        return Suggestion(cands, None, None, 0.0, False)
    codes = cands.table.codes
    best_code, p = codes[order[0]], cands.weights[order[0]] / cands.total
    twins = len(order) > 1 and all(
        c == best_code or c in twins_of(best_code) for c in map(codes.__getitem__, order)
    )
    questions = (rank_for(cands, view.askable) if len(view.players) == 2
                 else _rank_central(view, racks, total, best_only=True))
    best = questions[0] if questions else None
    if len(view.players) == 2:
        should_guess = len(order) <= 2
    else:
        threshold = DEFAULT_GUESS_THRESHOLD if guess_threshold is None else guess_threshold
        should_guess = p >= threshold - 1e-12
    if should_guess or best is None or best.bits <= 1e-12:
        return Suggestion(cands, None, best_code, p, twins)
    return Suggestion(cands, best, None, p, twins)
