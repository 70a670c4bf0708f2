"""Rules as a second opinion: compare a read with the last accepted table (``--after``).

The new frame may differ from the accepted state only by the solvers' tiles, each a legal
placement (in some order), and by at most one networker per new tile, on that tile, allowed
by the networker rule; networkers may leave the table only from systems those tiles closed.
Anything else becomes a question for the players; nothing is applied here.

The accepted state is a game record (replayed through the engine; its pending solvers say how
many tiles may come, a ``"colours"`` object may map players to networker colours) or a
previous ``read enigma`` output (then ``"solvers"`` may give how many tiles may come).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.enigma.board import Board
from companion.enigma.errors import EnigmaError
from companion.enigma.tiles import CROSSROADS, Pos, Tile, parse_tile
from vision.enigma.read_types import EnigmaRead


@dataclass
class AcceptedTable:
    """The last accepted table: a board, networker colours by player, and the solvers."""

    board: Board
    colour_of: dict[str, str]  # player -> networker colour
    solvers: int | None  # how many tiles may be added (None: not known)
    rule: str = "any"
    require_edge_match: bool = True
    start: Tile = CROSSROADS
    extra: dict[str, Any] = field(default_factory=dict)


def accepted_from_json(data: Mapping[str, Any], *, pack_colours: list[str]) -> AcceptedTable:
    """Build the accepted table from a record or a previous read (see the module text)."""
    if "events" in data:
        from companion.enigma.game import apply, new_game
        from companion.enigma.rules import parse_event, parse_options

        options = parse_options(data.get("options") or {})
        state = new_game(list(data["players"]), options)
        for index, event in enumerate(data["events"], start=1):
            state = apply(state, parse_event(event, index=index))
        colours = dict(data.get("colours") or {})
        for i, player in enumerate(state.players):
            colours.setdefault(player, pack_colours[i % len(pack_colours)])
        return AcceptedTable(state.board, colours, len(state.pending),
                             options.networker_rule, options.require_edge_match, options.start)
    # a previous read: rebuild the board tile by tile (any order that is legal)
    start = CROSSROADS
    tiles: dict[Pos, Tile] = {}
    for entry in data.get("tiles", []):
        at = (int(entry["at"][0]), int(entry["at"][1]))
        tile = parse_tile(entry, where=f"tile {list(at)}")
        if at == (0, 0):
            start = tile
        else:
            tiles[at] = tile
    board = Board.start(start)
    pending = dict(tiles)
    while pending:
        progress = False
        for at, tile in sorted(pending.items()):
            if board.can_place(tile, at, 0):
                board = board.place(tile, at, 0)
                del pending[at]
                progress = True
        if not progress:
            raise EnigmaError(f"the accepted state's tiles {sorted(pending)} cannot be laid "
                              "legally from the start tile")
    for n in data.get("networkers", []):
        colour = str(n["colour"])
        board = board.put_networker((int(n["at"][0]), int(n["at"][1])), str(n["cell"]), colour)
    solvers = data.get("solvers")
    return AcceptedTable(board, {c: c for c in pack_colours},
                         int(solvers) if isinstance(solvers, int) else None, start=start)


def _match_cells(seen: Tile, placed: Tile) -> dict[str, str] | None:
    """Seen cell name -> the placed tile's cell id, when the two tiles are the same up to
    naming (colours and connections)."""
    seen_ids = list(seen.cell_ids)
    for perm in itertools.permutations(placed.cell_ids, len(seen_ids)):
        names = dict(zip(seen_ids, perm, strict=True))
        cells = {names[c]: colour for c, colour in seen.cells}
        links = [(names[a] if isinstance(a, str) else a, names[b] if isinstance(b, str) else b)
                 for a, b in seen.links]
        try:
            if Tile.make(cells, links).is_equivalent(placed):
                return names
        except EnigmaError:
            continue
    return None


@dataclass
class RulesOpinion:
    questions: list[str]
    placed: list[Pos]
    networkers: list[dict[str, Any]]

    @property
    def agrees(self) -> bool:
        return not self.questions


#: up to this many new tiles every order of placing them is tried; more are tried as read
MAX_ORDERED = 5


def _compare_old(read: EnigmaRead, accepted: AcceptedTable, min_confidence: float,
                 questions: list[str]) -> tuple[dict[Pos, dict[str, str]], set[Pos]]:
    """The accepted tiles against the read: a missing or changed tile is a question. Returns
    each compared tile's cell names (read -> accepted) and the tiles not compared (the start
    tile, and reads below ``min_confidence``)."""
    old_names: dict[Pos, dict[str, str]] = {}
    doubtful: set[Pos] = set()
    for at, placed in accepted.board.tiles.items():
        got = read.tiles.get(at)
        if got is None:
            questions.append(f"tile [{at[0]}, {at[1]}] is missing from the frame: tiles are "
                             "never taken back")
            continue
        if at == (0, 0) or got.confidence < min_confidence:
            doubtful.add(at)
            continue
        names = _match_cells(got.tile, placed.turned)
        if names is None:
            questions.append(f"tile [{at[0]}, {at[1]}] looks different from the accepted one")
        else:
            old_names[at] = names
    return old_names, doubtful


def _play(read: EnigmaRead, accepted: AcceptedTable, order: tuple[Pos, ...],
          seen_by_tile: dict[Pos, list[Any]]) -> tuple[Board, list[str]]:
    """Place the new tiles in ``order``, each with its networker, scoring closed systems;
    the board reached and the rule problems met (it stops at the first tile refused)."""
    player_of = {colour: player for player, colour in accepted.colour_of.items()}
    trial = accepted.board
    problems: list[str] = []
    for at in order:
        tile = read.tiles[at].tile
        why = trial.placement_problem(tile, at, 0, require_edge_match=accepted.require_edge_match)
        if why is not None:
            problems.append(f"tile [{at[0]}, {at[1]}]: {why}")
            break
        trial = trial.place(tile, at, 0, require_edge_match=accepted.require_edge_match)
        for n in seen_by_tile.get(at, [])[:1]:
            player = player_of.get(n.colour, n.colour)
            why = trial.networker_problem(at, n.cell, player, rule=accepted.rule)
            if why is not None:
                problems.append(f"networker on tile [{at[0]}, {at[1]}] cell {n.cell}: {why}")
            else:
                trial = trial.put_networker(at, n.cell, player, rule=accepted.rule)
        trial, _ = trial.score_closed(at)
    return trial, problems


def _best_order(read: EnigmaRead, accepted: AcceptedTable, new: list[Pos],
                seen_by_tile: dict[Pos, list[Any]]) -> tuple[Board, list[str]] | None:
    """An order in which every new tile is legal (with no problems), else the first order's
    board and problems; None without new tiles to order."""
    best: tuple[Board, list[str]] | None = None
    for order in itertools.permutations(new) if len(new) <= MAX_ORDERED else [tuple(new)]:
        trial, problems = _play(read, accepted, order, seen_by_tile)
        if not problems:
            return (trial, [])
        if best is None:
            best = (trial, problems)
    return best


def second_opinion(read: EnigmaRead, accepted: AcceptedTable, *,
                   min_confidence: float = 0.85) -> RulesOpinion:
    """Questions for every change the rules do not allow (empty when the read is legal).

    An older tile read below ``min_confidence`` is not compared (the reader already asks
    about it): a doubtful read is not taken for a changed tile."""
    board = accepted.board
    questions: list[str] = []
    old_names, doubtful = _compare_old(read, accepted, min_confidence, questions)
    new = sorted((at for at in read.tiles if at not in board.tiles),
                 key=lambda a: (a[1], a[0]))
    if accepted.solvers is not None and len(new) > accepted.solvers:
        questions.append(f"{len(new)} new tiles but only {accepted.solvers} solver(s) may place")
    # networkers seen on new tiles: at most one per tile
    seen_by_tile: dict[Pos, list[Any]] = {}
    for n in read.networkers:
        seen_by_tile.setdefault(n.at, []).append(n)
    for at in new:
        if len(seen_by_tile.get(at, [])) > 1:
            questions.append(f"tile [{at[0]}, {at[1]}] carries {len(seen_by_tile[at])} "
                             "networkers; a solver puts at most one on the tile just placed")
    best = _best_order(read, accepted, new, seen_by_tile)
    expected = best[0] if best else board
    questions.extend(best[1] if best else [])
    # networkers on old tiles: those still expected must be seen, no new ones may appear
    seen_old = {(n.at, old_names.get(n.at, {}).get(n.cell, n.cell), n.colour)
                for n in read.networkers if n.at in board.tiles and n.at not in doubtful}
    want_old = {(n.at, n.cell, accepted.colour_of.get(n.player, n.player))
                for n in expected.networkers() if n.at in board.tiles and n.at not in doubtful}
    for at, cell, colour in sorted(seen_old - want_old):
        questions.append(f"a {colour} networker appeared on the older tile [{at[0]}, {at[1]}] "
                         f"(cell {cell}): networkers go only on the tile just placed")
    for at, cell, colour in sorted(want_old - seen_old):
        questions.append(f"the {colour} networker on tile [{at[0]}, {at[1]}] (cell {cell}) is "
                         "gone, but its conduit system is not closed")
    placed_nets = [n.to_json() for at in new for n in seen_by_tile.get(at, [])[:1]]
    return RulesOpinion(questions, new, placed_nets)


__all__ = ["AcceptedTable", "RulesOpinion", "accepted_from_json", "second_opinion"]
