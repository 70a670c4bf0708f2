"""Property tests over random legal games played with the demo catalogue.

Checked after every placement: scores only grow; supply + board + score marker = 4 for every
player; the incremental systems equal a from-scratch recomputation; a closed system has no
unmatched port; at most 3 networkers per player on the board.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.enigma.board import Board
from companion.enigma.catalogue import CATEGORIES, load_catalogue
from companion.enigma.game import EnigmaOptions, PlaceMove, RoundMove, apply, new_game
from companion.enigma.tiles import Port, neighbour

CATALOGUE = load_catalogue()


def reference_systems(board: Board) -> tuple[set[frozenset[object]], set[object]]:
    """Components and unmatched ports, recomputed from the placed tiles by a plain search."""
    adjacency: dict[object, set[object]] = {}

    def node(at: tuple[int, int], end: object) -> object:
        if isinstance(end, Port):
            return (at[0], at[1], end.side, end.position)
        return (at[0], at[1], end)

    unmatched = set()
    for at, placed in board.tiles.items():
        for cell, _ in placed.turned.cells:
            adjacency.setdefault(node(at, cell), set())
        for a, b in placed.turned.links:
            na, nb = node(at, a), node(at, b)
            adjacency.setdefault(na, set()).add(nb)
            adjacency.setdefault(nb, set()).add(na)
        for port in placed.turned.ports:
            other_at = neighbour(at, port.side)
            other = board.tiles.get(other_at)
            if other is not None and port.meets() in other.turned.ports:
                adjacency[node(at, port)].add(node(other_at, port.meets()))
            else:
                unmatched.add(node(at, port))
    seen: set[object] = set()
    components = set()
    for start in adjacency:
        if start in seen:
            continue
        stack, members = [start], set()
        while stack:
            current = stack.pop()
            if current in members:
                continue
            members.add(current)
            stack.extend(adjacency[current] - members)
        seen |= members
        components.add(frozenset(members))
    return components, unmatched


def incremental_systems(board: Board) -> tuple[set[frozenset[object]], set[object]]:
    components = set()
    unmatched: set[object] = set()
    for system in board.systems.values():
        components.add(frozenset([*(c for c, _ in system.cells), *system.ports]))
        unmatched |= system.open_ports
    return components, unmatched


def play_random_game(seed: int, *, rounds: int, edge_match: bool) -> None:
    rng = random.Random(seed)
    players = ["Ana", "Ben", "Cleo", "Dan"][: rng.randint(2, 4)]
    state = new_game(players, EnigmaOptions(require_edge_match=edge_match, target=1000))
    for _ in range(rounds):
        categories = rng.sample(CATEGORIES, len(players))
        solved = [p for p in players if rng.random() < 0.8]
        state = apply(state, RoundMove.make(dict(zip(players, categories, strict=True)), solved))
        for player in state.pending:
            entry = rng.choice(CATALOGUE.tiles)
            options = state.legal_placements(entry.conduit)
            if not options:
                continue  # no legal square: the tile goes to the box
            choice = rng.choice(options)
            before = state
            cells = state.networker_choices(player, entry.conduit, choice.at, choice.rotation)
            networker = rng.choice([None, *cells]) if cells else None
            state = apply(
                state, PlaceMove(player, entry.conduit, choice.at, choice.rotation, networker)
            )
            for seat, name in enumerate(players):
                assert state.scores[seat] >= before.scores[seat]
                on_board = state.board.networkers_of(name)
                assert state.supply[seat] + on_board + 1 == 4
                assert 0 <= on_board <= 3
            for system in state.board.systems.values():
                if system.is_closed:
                    assert not system.open_ports
                    assert not system.networkers  # scored and sent home
            assert incremental_systems(state.board) == reference_systems(state.board)
            for scored in state.last_scored:
                assert not state.board.systems[scored.system].open_ports


@settings(max_examples=25)
@given(st.integers(min_value=0, max_value=2**32))
def test_random_games_with_edge_matching(seed: int) -> None:
    play_random_game(seed, rounds=10, edge_match=True)


@settings(max_examples=10)
@given(st.integers(min_value=0, max_value=2**32))
def test_random_games_without_edge_matching(seed: int) -> None:
    play_random_game(seed, rounds=8, edge_match=False)
