"""Sheet reader stage 7: the segmentation of filled cells into tiles, from each border's decision
(:mod:`vision.second_chance.border_decisions`), closing gaps of drawn outlines, settling what
the drawing leaves open by the rules and the cards drawn, with questions where they cannot.
See :mod:`vision.second_chance.reader` for the whole pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from companion.second_chance.drawn import TileChoices
from companion.second_chance.shapes import Cell
from config.schema import SheetReaderSettings
from vision.second_chance.border_decisions import (
    FOLLOWED,
    INK_OVER_FILL,
    MODEL_CERTAIN,
    MOST_OF_A_SIDE,
    SIDES_SURE,
    BorderRule,
    border_evidence,
    check_by_sides,
    check_ink_over_fill,
    check_over_printed_line,
    decide_border,
)
from vision.second_chance.by_cards import MAX_SETTLEMENTS, Way, card_of, is_a_card, settle_by_cards
from vision.second_chance.layout import GRID_CELLS

N = GRID_CELLS


#: ... and of a border cut because a drawn outline's two loose ends face each other across it
CLOSURE_SURE = 0.55


@dataclass(frozen=True)
class Segmentation:
    """Tiles found on a sheet, and the questions the outlines leave open."""

    shapes: tuple[tuple[Cell, ...], ...]
    questions: tuple[dict[str, Any], ...]
    #: every border between two filled cells: (cell, cell) -> (outline there: True, False or
    #: None when asked; confidence 0..1, below 0.5 when the drawing left it undecided; what
    #: decided it: "drawing", "colour", "profile" (the shape of the border's profile, where the
    #: score left it open), "closure" (a gap between two loose ends of a drawn outline),
    #: "strokes" (a join across paper between hatch strokes, see
    #: vision.second_chance.border_decisions.is_paper_between_strokes), "rules" or "asked")
    outlines: dict[tuple[Cell, Cell], tuple[bool | None, float, str]] = field(
        default_factory=dict)


class _Union:
    def __init__(self) -> None:
        self.parent: dict[Cell, Cell] = {}

    def find(self, a: Cell) -> Cell:
        self.parent.setdefault(a, a)
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def union(self, a: Cell, b: Cell) -> None:
        self.parent[self.find(a)] = self.find(b)


def _is_legal_tile(cells: list[Cell]) -> bool:
    """A tile the rules allow: 1-7 cells, or the 8-cell start on the centre."""
    if (N // 2, N // 2) in cells:
        return len(cells) == 8
    return 1 <= len(cells) <= 7


Corner = tuple[int, int]


def _ends(border: tuple[Cell, Cell]) -> tuple[Corner, Corner]:
    """The two grid corners (row, col of the grid lines) a border between two cells joins."""
    (r, c), (nr, nc) = border
    if r == nr:  # cells side by side: the vertical line right of (r, c)
        return (r, c + 1), (r + 1, c + 1)
    return (r + 1, c), (r + 1, c + 1)


def _gaps(tiles: set[Cell], cuts: list[tuple[Cell, Cell]], joins: list[tuple[Cell, Cell]],
          unsure: list[tuple[Cell, Cell]]) -> list[tuple[Cell, Cell]]:
    """Joins where a drawn outline has a gap: both corners of the border are loose ends of the
    outlines (see :func:`_loose_corners`), and neither corner has another such join. (Loose
    ends next to an undecided border are left to the rules, which close every outline.)"""
    loose = _loose_corners(tiles, cuts, unsure)
    candidates = [b for b in joins if all(corner in loose for corner in _ends(b))]
    uses: dict[Corner, int] = {}
    for border in candidates:
        for corner in _ends(border):
            uses[corner] = uses.get(corner, 0) + 1
    return [b for b in candidates if all(uses[corner] == 1 for corner in _ends(b))]


def _loose_corners(tiles: set[Cell], cuts: list[tuple[Cell, Cell]],
                   maybe: list[tuple[Cell, Cell]]) -> set[Corner]:
    """Grid corners where exactly one outline ends (the cuts, and the sides of tile cells not
    shared with another tile cell) and no undecided border (``maybe``) could continue it: a
    drawn outline does not stop there."""
    degree: dict[Corner, int] = {}
    for border in cuts:
        for corner in _ends(border):
            degree[corner] = degree.get(corner, 0) + 1
    for r, c in tiles:
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            if (r + dr, c + dc) in tiles:
                continue
            a, b = sorted([(r, c), (r + dr, c + dc)])
            for corner in _ends((a, b)):
                degree[corner] = degree.get(corner, 0) + 1
    open_ends = {corner for border in maybe for corner in _ends(border)}
    return {corner for corner, n in degree.items() if n == 1 and corner not in open_ends}


def sheet_question(kind: str, cells: list[Cell], message: str) -> dict[str, Any]:
    return {"kind": kind, "cells": [list(x) for x in sorted(cells)], "message": message}


def segment(
    tiles: set[Cell],
    right: np.ndarray,
    below: np.ndarray,
    colour: np.ndarray,
    settings: SheetReaderSettings,
    *,
    max_unsure: int = 8,
    thresholds: tuple[float, float] | None = None,
    settle_by_rules: bool = True,
    profile_verdicts: dict[tuple[Cell, Cell], bool] | None = None,
    border_probability: dict[tuple[Cell, Cell], float] | None = None,
    sure_probability: tuple[float, float] = (1.0, 0.0),
    hatched_along: set[tuple[Cell, Cell]] | None = None,
    coverage: dict[tuple[Cell, Cell], float] | None = None,
    grid_hatched: set[tuple[Cell, Cell]] | None = None,
    stroked: set[tuple[Cell, Cell]] | None = None,
    choices: TileChoices | None = None,
    paper_between: set[tuple[Cell, Cell]] | None = None,
    over_fill: dict[tuple[Cell, Cell], float | None] | None = None,
    over_printed: dict[tuple[Cell, Cell], float] | None = None,
    cut_coverage: dict[tuple[Cell, Cell], float] | None = None,
) -> Segmentation:
    """Group filled cells into tiles; what the drawing leaves open becomes a question.

    Borders with a clear outline (or a change of colour) separate tiles, borders clearly
    without one join them, except where paper shows between the two fills
    (:data:`PAPER_BETWEEN`: two tiles shaded apart, no outline drawn). An undecided border is
    settled by the rules when only one way of settling the undecided borders around it gives
    tiles the rules allow (1-7 cells, the start 8 on the centre) and ``settle_by_rules`` (the
    sheet's outlines stand out); otherwise it is a question (and joined meanwhile).
    ``profile_verdicts`` (see :mod:`vision.second_chance.profiles`) decide some of the borders the
    score leaves undecided, by the shape of their profile. ``border_probability`` (see
    :mod:`vision.second_chance.borders`) is the learned chance of an outline on each border: at
    least
    the first of ``sure_probability`` cuts a border the score did not cut, at most the second
    joins one the score left undecided (never where paper shows between the fills or the
    colour changes). ``hatched_along`` are borders between two cells hatched alike with
    strokes that run along the border: a stroke there darkens the printed line like an
    outline: a cut the score made there is asked about unless the score made it surely
    (:data:`ALONG_CUT`) and the model is sure of it. ``coverage`` (see
    :mod:`vision.second_chance.sides`) is the share of each border a drawn stroke follows: it
    vetoes and settles decisions (see :func:`check_by_sides`), with ``grid_hatched`` the
    borders between two cells hatched along the grid's directions and ``stroked`` those
    between two cells filled with strokes (any direction). ``choices`` (see
    :mod:`companion.second_chance.drawn`) are the cards the player drew: undecided borders are
    settled where only one split gives tiles that can be those cards, and a tile read with a
    shape no card has is asked about. ``paper_between`` are borders lighter than the two even
    fills beside them (see :func:`~vision.second_chance.border_look.paper_between_fills`): a
    join there is left undecided (the rules or the cards may settle it), never sure.
    ``over_fill`` (see :func:`~vision.second_chance.sides.ink_over_fill`) is how much darker
    each border's line is than its fills' own strokes: read without the cards, a cut no
    stroke follows over most of the side with too little ink over the fill is asked (see
    :func:`~vision.second_chance.border_decisions.check_ink_over_fill`). ``over_printed`` (see
    :func:`~vision.second_chance.sides.over_printed_line`, given with the cards) is how much
    more ink over its fill each border carries than the printed line under a fill as light:
    a cut with no margin there is left to the cards (see
    :func:`~vision.second_chance.border_decisions.check_over_printed_line`).
    ``cut_coverage`` (see :meth:`~vision.second_chance.sides.SideCoverage.of_cut`) is the
    coverage a cut is held against, where it differs from ``coverage``.
    """
    verdicts = profile_verdicts or {}
    learned = border_probability or {}
    cut_at, join_at = thresholds if thresholds is not None else (settings.cut, settings.join)
    rule = BorderRule(settings, (cut_at, join_at), sure_probability, cards=choices is not None)
    decided = _Decided([], [], [], {})
    for border, evidence in border_evidence(tiles, right, below, colour, settings,
                                             (cut_at, join_at), learned,
                                             hatched_along or set(), verdicts):
        # border_evidence leaves the coverage unmeasured (None): one replace sets both
        evidence = replace(evidence, coverage=(coverage or {}).get(border),
                           stroked=border in (stroked or set()))
        kind, outline = decide_border(evidence, rule)
        held = (cut_coverage or coverage or {}).get(border)
        if coverage is not None and border in coverage:
            kind, outline = check_by_sides(kind, outline, evidence, coverage[border],
                                           border in (grid_hatched or set()),
                                           stroked=border in (stroked or set()),
                                           cut_chance=sure_probability[0], cut_coverage=held,
                                           join_chance=sure_probability[1])
        kind, outline = check_ink_over_fill(kind, outline, (over_fill or {}).get(border), held,
                                            cards=choices is not None, chance=evidence.chance)
        kind, outline = check_over_printed_line(kind, outline, (over_printed or {}).get(border),
                                                evidence.chance)
        if kind == "join" and border in (paper_between or set()):
            # the fills stop at the line, as two tiles shaded apart do: no sure join
            kind, outline = "unsure", (None, 0.25, "asked")
        {"cut": decided.cuts, "join": decided.joins, "unsure": decided.unsure}[kind].append(
            border)
        decided.outlines[border] = outline
    # a barely drawn outline stands only where the cards can ask about it: a row of loops
    # along the line can look the same (mixed harsh 1 of the tuning seeds)
    cut_followed_outlines(tiles, decided, cards=choices is not None)
    base = _close_gaps(tiles, decided)
    final, questions = _settle_undecided(tiles, decided, base, settle_by_rules, max_unsure,
                                         choices)
    groups: dict[Cell, list[Cell]] = {}
    for cell in tiles:
        groups.setdefault(final.find(cell), []).append(cell)
    questions += _group_questions(groups, decided.cuts, final, choices)
    shapes = tuple(sorted(tuple(sorted(g)) for g in groups.values()))
    if choices is None and coverage is not None:  # (the reader measures it on every sheet)
        questions += lone_square_questions(shapes, decided.outlines,
                                           cut_coverage or coverage, learned, over_fill or {})
    return Segmentation(shapes, tuple(_first_of_each(questions)), decided.outlines)


@dataclass
class _Decided:
    """The borders decided so far, and each one's outline entry (see :class:`Segmentation`)."""

    cuts: list[tuple[Cell, Cell]]
    joins: list[tuple[Cell, Cell]]
    unsure: list[tuple[Cell, Cell]]
    outlines: dict[tuple[Cell, Cell], tuple[bool | None, float, str]]


def _lines_at(corner: Corner, tiles: set[Cell], cuts: set[tuple[Cell, Cell]]) -> int:
    """How many outlines meet at a grid corner: the cuts, and the sides of tile cells not
    shared with another tile cell (against an empty cell or the sheet's edge)."""
    i, j = corner
    lines = 0
    for a, b in (((i - 1, j - 1), (i - 1, j)), ((i, j - 1), (i, j)),
                 ((i - 1, j - 1), (i, j - 1)), ((i - 1, j), (i, j))):
        if (a in tiles) != (b in tiles) or (a, b) in cuts:
            lines += 1
    return lines


def cut_followed_outlines(tiles: set[Cell], decided: _Decided, *, cards: bool) -> None:
    """The undecided borders tagged :data:`~vision.second_chance.border_decisions.FOLLOWED`
    (barely drawn between two stroked fills, a stroke the model takes for an outline all along
    them) that join the outlines decided at both their corners are cut, on a sheet read with
    the cards drawn (``cards``): a drawn outline runs from corner to corner and meets the
    others there; an overshoot past a corner, or a row of loops along the line, ends loose.
    The others stay undecided, asked (in place)."""
    cuts = set(decided.cuts)
    followed = [b for b in decided.unsure if decided.outlines[b][2] == FOLLOWED]
    for border in followed:
        if cards and all(_lines_at(corner, tiles, cuts) >= 1 for corner in _ends(border)):
            decided.unsure.remove(border)
            decided.cuts.append(border)
            decided.outlines[border] = (True, SIDES_SURE, "sides")
        else:
            decided.outlines[border] = (None, decided.outlines[border][1], "asked")


def _joined(tiles: set[Cell], joins: list[tuple[Cell, Cell]]) -> _Union:
    """The pieces ``tiles`` make, joined across ``joins``."""
    pieces = _Union()
    for cell in tiles:
        pieces.find(cell)
    for a, b in joins:
        pieces.union(a, b)
    return pieces


def _close_gaps(tiles: set[Cell], decided: _Decided) -> _Union:
    """The pieces joined where there is no outline, after closing the gaps of drawn outlines.

    A drawn outline never just stops: where two of its loose ends face each other across one
    border, the line runs there too (drawn too lightly to score); looked for only when an
    outline does not close. The borders closed move from the joins to the cuts (in place).
    """
    base = _joined(tiles, decided.joins)
    if any(base.find(a) == base.find(b) for a, b in decided.cuts):
        gaps = _gaps(tiles, decided.cuts, decided.joins, decided.unsure)
        for border in gaps:
            decided.joins.remove(border)
            decided.cuts.append(border)
            decided.outlines[border] = (True, CLOSURE_SURE, "closure")
        if gaps:
            base = _joined(tiles, decided.joins)
    return base


def _settle_undecided(tiles: set[Cell], decided: _Decided, base: _Union,
                      settle_by_rules: bool, max_unsure: int,
                      choices: TileChoices | None = None,
                      ) -> tuple[_Union, list[dict[str, Any]]]:
    """The tiles once the undecided borders are settled: clusters of base pieces linked by
    undecided borders, each settled by the rules when exactly one settlement is legal (and
    ``settle_by_rules``), or when the cards the player drew (``choices``) leave one, else
    joined and asked about. Rules' settlements update ``decided.outlines`` in place."""
    members: dict[Cell, list[Cell]] = {}
    for cell in tiles:
        members.setdefault(base.find(cell), []).append(cell)
    linked = _Union()
    for a, b in decided.unsure:
        linked.union(base.find(a), base.find(b))
    clusters: dict[Cell, list[tuple[Cell, Cell]]] = {}
    for edge in decided.unsure:
        clusters.setdefault(linked.find(base.find(edge[0])), []).append(edge)
    final = _Union()
    for cell in tiles:
        final.union(cell, base.find(cell))
    questions: list[dict[str, Any]] = []
    outlines = decided.outlines
    settlements = _settlements(list(clusters.values()), members, base, decided.cuts,
                               max_unsure, choices)
    for edges, settled in zip(clusters.values(), settlements, strict=True):
        roots = sorted({base.find(x) for edge in edges for x in edge})
        if settled is not None and settle_by_rules:
            for i, (a, b) in enumerate(edges):
                joined = bool(settled >> i & 1)
                if joined:
                    final.union(a, b)
                outlines[(a, b)] = (not joined, outlines[(a, b)][1],
                                    "rules" if choices is None else "cards")
            continue
        for a, b in edges:
            final.union(a, b)
        cells = [x for root in roots for x in members[root]]
        a, b = edges[0]
        questions.append(sheet_question(
            "split", cells,
            f"is there an outline between {list(a)} and {list(b)}? the drawing does not "
            "show it clearly",
        ))
    return final, questions


def _settlements(clusters: list[list[tuple[Cell, Cell]]], members: dict[Cell, list[Cell]],
                 base: _Union, cuts: list[tuple[Cell, Cell]], max_unsure: int,
                 choices: TileChoices | None) -> list[int | None]:
    """Each cluster's one settlement the rules (and the cards drawn, ``choices``) allow, or
    None where they allow several or none."""
    if choices is None:
        found = [_legal_settlements(edges, _roots(edges, base), members, base, cuts)
                 if len(edges) <= max_unsure else [] for edges in clusters]
        return [legal[0] if len(legal) == 1 else None for legal in found]
    ways: list[list[Way]] = []
    for edges in clusters:
        legal = (_legal_settlements(edges, _roots(edges, base), members, base, cuts,
                                    limit=MAX_SETTLEMENTS, choices=choices)
                 if len(edges) <= max_unsure else [])
        ways.append([(choice, _pieces_cards(choice, edges, members, base)) for choice in legal])
    in_clusters = {root for edges in clusters for root in _roots(edges, base)}
    fixed = [card_of(cells) for root, cells in members.items() if root not in in_clusters]
    return settle_by_cards(fixed, ways, choices)


def _roots(edges: list[tuple[Cell, Cell]], base: _Union) -> list[Cell]:
    return sorted({base.find(x) for edge in edges for x in edge})


def _trial(choice: int, edges: list[tuple[Cell, Cell]], roots: list[Cell],
           base: _Union) -> _Union:
    """The base pieces ``roots`` of ``edges``, joined where ``choice`` has a bit set."""
    trial = _Union()
    for root in roots:
        trial.find(root)
    for i, (a, b) in enumerate(edges):
        if choice >> i & 1:
            trial.union(base.find(a), base.find(b))
    return trial


def _pieces(choice: int, edges: list[tuple[Cell, Cell]], members: dict[Cell, list[Cell]],
            base: _Union, trial: _Union | None = None) -> list[list[Cell]]:
    """The pieces the base pieces of ``edges`` make, joined where ``choice`` has a bit set
    (``trial``, when already joined so)."""
    roots = _roots(edges, base)
    trial = trial if trial is not None else _trial(choice, edges, roots, base)
    pieces: dict[Cell, list[Cell]] = {}
    for root in roots:
        pieces.setdefault(trial.find(root), []).extend(members[root])
    return list(pieces.values())


def _pieces_cards(choice: int, edges: list[tuple[Cell, Cell]],
                  members: dict[Cell, list[Cell]], base: _Union) -> tuple[str, ...]:
    return tuple(card_of(p) for p in _pieces(choice, edges, members, base))


def _legal_settlements(edges: list[tuple[Cell, Cell]], roots: list[Cell],
                       members: dict[Cell, list[Cell]], base: _Union,
                       cuts: list[tuple[Cell, Cell]], *, limit: int = 2,
                       choices: TileChoices | None = None) -> list[int]:
    """The settlements of ``edges`` (bit i set: edge i joined) that give tiles the rules
    allow (the shapes of cards some round gave, with ``choices``), with every drawn outline
    between two tiles; stops at the ``limit``-th one found."""
    root_set = set(roots)
    legal: list[int] = []
    for choice in range(1 << len(edges)):
        trial = _trial(choice, edges, roots, base)
        # a drawn outline must end up between two tiles, not inside one: the ones
        # drawn clearly and the ones this settlement would draw
        closed = all(
            trial.find(base.find(a)) != trial.find(base.find(b))
            for a, b in cuts
            if base.find(a) in root_set and base.find(b) in root_set
        ) and all(
            trial.find(base.find(a)) != trial.find(base.find(b))
            for i, (a, b) in enumerate(edges) if not choice >> i & 1
        )
        if closed and all(_is_legal_tile(p) and (choices is None or is_a_card(p, choices))
                          for p in _pieces(choice, edges, members, base, trial)):
            legal.append(choice)
            if len(legal) >= limit:
                break
    return legal


def _group_questions(groups: dict[Cell, list[Cell]], cuts: list[tuple[Cell, Cell]],
                     final: _Union, choices: TileChoices | None = None
                     ) -> list[dict[str, Any]]:
    """Questions about the tiles found: an outline inside one, a shape no tile can be."""
    questions = []
    for a, b in cuts:
        if final.find(a) == final.find(b):
            questions.append(sheet_question(
                "outline", groups[final.find(a)],
                f"an outline between {list(a)} and {list(b)} does not close: are these one "
                "tile or several?",
            ))
    # a shape the rules do not allow is far more likely a missed outline than a player's
    # mistake: asked, never passed on as read
    for group in groups.values():
        if not _is_legal_tile(group):
            questions.append(sheet_question(
                "split", group,
                f"these {len(group)} cells read as one shape, which no tile can be: where are "
                "the outlines?",
            ))
        elif choices is not None and not is_a_card(group, choices):
            # a piece that no card drawn has: an outline missed, or one seen that is not
            # there
            questions.append(sheet_question(
                "split", group,
                f"these {len(group)} cells read as one tile, but no card drawn has that "
                "shape: where are the outlines?",
            ))
    return questions


#: the cuts that part a square read as a tile of its own, read without the cards, by what
#: decided them (a change of colour parts two tiles' fills; the rules' settlements have
#: their own question where they are not sure)
LONE_SQUARE_CUTS = ("drawing", "model", "profile", "closure", "sides")
#: ... and the confidence of such a cut once asked (below 0.5: undecided)
LONE_SQUARE_ASKED = 0.45


def lone_square_questions(shapes: tuple[tuple[Cell, ...], ...],
                          outlines: dict[tuple[Cell, Cell], tuple[bool | None, float, str]],
                          coverage: dict[tuple[Cell, Cell], float],
                          learned: dict[tuple[Cell, Cell], float],
                          over_fill: dict[tuple[Cell, Cell], float | None]
                          ) -> list[dict[str, Any]]:
    """Read without the cards, a square read as a tile of its own is asked about where a cut
    parting it from a filled neighbour may be no outline (see :func:`_is_doubtful_cut`). One
    false cut is enough to part a tile's end square from it, and nothing else on the sheet
    tells that square from a one-square tile: the cards would, but none are known. (Tuning
    seeds 0-15, mild, harsh and scan: ballpoint mild 8, the model at 0.96, and mixed harsh 10,
    the line followed 0.12 and 0.05 over the fill, were cut so with no question. Ballpoint
    harsh 14's square, a hatch stroke on the line between two hatched fills, followed all
    along and certain to the model, is not: the project's own pen renders' one-square tiles
    look the same.) The split is kept meanwhile; ``outlines`` updated in place: the cut
    asked."""
    questions: list[dict[str, Any]] = []
    tile_of = {cell: shape for shape in shapes for cell in shape}
    for shape in shapes:
        if len(shape) != 1:
            continue
        for border, (outline, sure, by) in sorted(outlines.items()):
            if (shape[0] not in border or not outline or by not in LONE_SQUARE_CUTS
                    or not _is_doubtful_cut(coverage.get(border, 0.0),
                                            learned.get(border, 0.0), over_fill.get(border))):
                continue
            a, b = border
            questions.append(sheet_question(
                "split", [*tile_of[a], *tile_of[b]],
                f"is there an outline between {list(a)} and {list(b)}? the drawing does not "
                "show it clearly",
            ))
            outlines[border] = (None, min(sure, LONE_SQUARE_ASKED), "asked")
    return questions


def _is_doubtful_cut(coverage: float, chance: float, over_fill: float | None) -> bool:
    """A cut that may be no outline: the learned model short of certain, or no drawn stroke
    follows most of it and its line is no darker than the fills' own strokes (where measured):
    the printed line under a dense fill. (The project's own renders' one-square tiles: the
    model at 0.9985 and up; faint pencil outlines a stroke follows a fifth of, but darker
    than the fill; pen outlines no darker than a pen fill, but followed all along.)"""
    return chance < MODEL_CERTAIN or (over_fill is not None and over_fill < INK_OVER_FILL
                                      and coverage < MOST_OF_A_SIDE)


def _first_of_each(questions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The questions without repeats (same kind and cells), first ones kept."""
    seen: set[tuple[str, str]] = set()
    unique = []
    for q in questions:
        key = (q["kind"], str(q["cells"]))
        if key not in seen:
            seen.add(key)
            unique.append(q)
    return unique
