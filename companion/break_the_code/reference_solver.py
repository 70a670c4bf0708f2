"""Today's deduction assistant, kept word for word as the exact reference for
:mod:`companion.break_the_code.solver`.

The solver counts the same things faster; a test compares the two on seeded games for every
player count, and ``bench/break_the_code_assistant.py`` times them side by side. Nothing in the
app calls this module. :class:`View` and :class:`QuestionScore` are the solver's own, so that
results compare field by field.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from operator import itemgetter

from companion.break_the_code.cards import CARDS
from companion.break_the_code.solver import DEFAULT_GUESS_THRESHOLD, QuestionScore, View
from companion.break_the_code.tables import (
    ALL_MASK,
    QUESTION_INDEX,
    QUESTIONS,
    CodeTable,
    code_key,
    code_table,
    encode_answer,
    mask_to_code_key,
    tile_bits,
    twins_of,
)
from companion.break_the_code.tiles import Code
from companion.errors import IllegalMoveError


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

    def ranked(self) -> list[tuple[Code, float]]:
        """(code, probability), likeliest first, ties in code order."""
        total = self.total
        codes = self.table.codes
        order = sorted(self.weights.items(), key=lambda kv: (-kv[1], kv[0]))
        return [(codes[i], w / total) for i, w in order]

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


def answer_weights(cands: Candidates, question: int) -> Counter[int]:
    """Total weight of the candidates per answer key of ``question``."""
    column = cands.table.tables[question]
    by_weight: dict[int, list[int]] = defaultdict(list)
    for i, w in cands.weights.items():
        by_weight[w].append(i)
    acc: Counter[int] = Counter()
    for w, idx in by_weight.items():
        # itemgetter + Counter run in C: a few hundred microseconds for 12,444 codes.
        values = (column[idx[0]],) if len(idx) == 1 else itemgetter(*idx)(column)
        for key, n in Counter(values).items():
            acc[key] += n * w
    return acc


def _entropy(weights: Iterable[int]) -> float:
    ws = [w for w in weights if w]
    total = sum(ws)
    if total == 0:
        return 0.0
    return -sum(w / total * math.log2(w / total) for w in ws)


def codes_from(unseen_mask: int, size: int) -> Candidates:
    """Every code of ``size`` tiles drawn from a physical tile set, weighted by tile sets."""
    table = code_table(size)
    weights: Counter[int] = Counter()
    if unseen_mask == ALL_MASK:
        # Every code, each as many times as it has tile sets: C(2, green 5s in it).
        return Candidates(size, {i: math.comb(2, g) for i, g in enumerate(table.greens)})
    for mask in map(sum, combinations(_bit_values(unseen_mask), size)):
        weights[table.index[mask_to_code_key(mask)]] += 1
    return Candidates(size, dict(weights))


def _bit_values(mask: int) -> list[int]:
    return [1 << b for b in range(20) if mask >> b & 1]


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
    unseen = ALL_MASK & ~tile_bits(view.own_rack)
    table = code_table(view.size)
    per_rack = _rack_tile_sets(view, unseen)
    # Fold the racks, most constrained first, counting disjoint assignments per used tile set.
    used: dict[int, int] = {0: 1}
    for sets in sorted(per_rack, key=len):
        following: defaultdict[int, int] = defaultdict(int)
        allowed_sets = set(sets)
        for taken, w in used.items():
            for s in _fillings(unseen & ~taken, sets, allowed_sets, view.size, taken):
                following[taken | s] += w
        used = following
    weights: Counter[int] = Counter()
    for taken, w in used.items():
        weights[table.index[mask_to_code_key(unseen & ~taken)]] += w
    return Candidates(view.size, dict(weights)).without(view.wrong_codes)


def _rack_tile_sets(view: View, unseen: int) -> list[list[int]]:
    """For each other player (seat order), the physical tile sets their rack may be."""
    table = code_table(view.size)
    per_rack: list[list[int]] = []
    for player in (p for p in view.players if p != view.me):
        allowed = rack_candidates(view, player).weights
        per_rack.append([
            mask
            for mask in map(sum, combinations(_bit_values(unseen), view.size))
            if table.index[mask_to_code_key(mask)] in allowed
        ])
    return per_rack


def _fillings(free_mask: int, sets: list[int], allowed: set[int], size: int, taken: int
              ) -> Iterable[int]:
    """The candidate tile sets of one rack that fit in the free tiles."""
    free = _bit_values(free_mask)
    if math.comb(len(free), size) < len(sets):
        # Fewer ways to fill the rack from the free tiles than candidates: enumerate them.
        return (s for s in map(sum, combinations(free, size)) if s in allowed)
    return (s for s in sets if not s & taken)


#: 3-4 players: up to this many joint assignments of the other racks, questions are ranked by
#: their exact information about the central code; beyond it, by an approximation.
JOINT_LIMIT = 20_000


def joint_assignments(view: View, *, limit: int = JOINT_LIMIT
                      ) -> dict[tuple[tuple[int, ...], int], int] | None:
    """3-4 players: every way the other racks and the centre may be, as code indices
    ``((rack of each other player, in seat order), central) -> tile sets``; None when there are
    more than ``limit`` tile-set assignments."""
    unseen = ALL_MASK & ~tile_bits(view.own_rack)
    table = code_table(view.size)
    states: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    for sets in _rack_tile_sets(view, unseen):
        allowed = set(sets)
        grown: list[tuple[int, tuple[int, ...]]] = []
        for taken, chosen in states:
            for s in _fillings(unseen & ~taken, sets, allowed, view.size, taken):
                grown.append((taken | s, chosen + (s,)))
                if len(grown) > limit:
                    return None
        states = grown
    wrong = {table.index.get(code_key(c)) for c in view.wrong_codes if len(c) == view.size}
    out: Counter[tuple[tuple[int, ...], int]] = Counter()
    for taken, chosen in states:
        central = table.index[mask_to_code_key(unseen & ~taken)]
        if central in wrong:
            continue
        out[(tuple(table.index[mask_to_code_key(s)] for s in chosen), central)] += 1
    return dict(out)


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


def rank_questions(view: View, cands: Candidates | None = None) -> list[QuestionScore]:
    """Every askable question (each choice of a choose-one card) by expected information."""
    if len(view.players) == 2:
        target = cands if cands is not None else target_candidates(view)
        return rank_for(target, view.askable)
    askable = [q for q, (card, _) in enumerate(QUESTIONS) if card in view.askable]
    joint = joint_assignments(view)
    if joint is not None:
        scores = [
            QuestionScore(QUESTIONS[q][0], QUESTIONS[q][1],
                          central_information(joint, q, view.size))
            for q in askable
        ]
    else:
        racks = [rack_candidates(view, p) for p in view.players if p != view.me]
        scores = [
            QuestionScore(QUESTIONS[q][0], QUESTIONS[q][1], sum(r.bits(q) for r in racks))
            for q in askable
        ]
    scores.sort(key=lambda s: (-s.bits, s.card, s.number or 0))
    return scores


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
        ranked = self.candidates.ranked()
        out: dict[str, object] = {
            "candidates": len(ranked),
            "weight": self.candidates.total,
            "likeliest": [
                {"code": str(c), "p": round(p, 4)} for c, p in ranked[:top]
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
    cands = target_candidates(view)
    ranked = cands.ranked()
    if not ranked:
        return Suggestion(cands, None, None, 0.0, False)
    best_code, p = ranked[0]
    twins = len(ranked) > 1 and all(
        c == best_code or c in twins_of(best_code) for c, _ in ranked
    )
    questions = rank_questions(view, cands)
    best = questions[0] if questions else None
    if len(view.players) == 2:
        should_guess = len(ranked) <= 2
    else:
        threshold = DEFAULT_GUESS_THRESHOLD if guess_threshold is None else guess_threshold
        should_guess = p >= threshold - 1e-12
    if should_guess or best is None or best.bits <= 1e-12:
        return Suggestion(cands, None, best_code, p, twins)
    return Suggestion(cands, best, None, p, twins)
