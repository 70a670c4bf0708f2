"""Property tests over random legal games (hypothesis picks the seed, players and variant)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.indigo import (
    CORNER_BY_CELL,
    RULES,
    IndigoState,
    all_legal_placements,
    board_snapshot,
    new_game,
    owners,
    play,
    predict,
    to_record,
)
from companion.indigo.gems import Ending, faces_filled_cell
from companion.record import parse_record
from companion.replay import replay

NAMES = ("Ana", "Ben", "Cleo", "Dan")

games = st.tuples(
    st.integers(min_value=0, max_value=2**32 - 1),
    st.sampled_from(["2p", "3p", "3p-alt", "4p"]),
    st.sampled_from([1, 2]),
)


def _check_invariants(state: IndigoState) -> None:
    twins = tuple(start - left for start, left in zip((6, 5, 1), state.reserve, strict=True))
    assert all(t >= 0 for t in twins)
    board = [0, 0, 0]
    for gem in state.gems.values():
        board[gem.slot] += 1
    # the centre gives out 5 emeralds, then the sapphire
    centre = (0, max(state.centre_left - 1, 0), 1 if state.centre_left >= 1 else 0)
    for colour in range(3):
        held = sum(h[colour] for h in state.hauls)
        on_board = board[colour] + centre[colour]
        # every gem of the box is on the board, held, removed, or still in the reserve
        assert on_board + held + state.removed[colour] == (6, 5, 1)[colour] + twins[colour]
    assert state.gems_on_board + sum(map(sum, state.hauls)) + state.gems_removed == (
        12 + sum(twins))
    for point in state.gems:
        cell, edge = point
        assert not faces_filled_cell(point, state.tiles), f"gem on {point} faces a tile"
        corner = CORNER_BY_CELL.get(cell)
        if corner is None:
            assert cell in state.tiles
        else:
            assert edge == corner.arrow_edge or edge in corner.uturn


def _play_out(seed: int, layout: str, hand_size: int) -> IndigoState:
    rng = random.Random(seed)
    players = {"2p": 2, "3p": 3, "3p-alt": 3, "4p": 4}[layout]
    state = new_game(players, layout=layout, rng=rng, hand_size=hand_size)
    while not state.is_over:
        options = all_legal_placements(state)
        assert options, "a player with gems on the board has no legal placement"
        placement = rng.choice(options)
        predicted = predict(state, placement)
        state, report = play(state, placement)
        assert report == predicted
        for move in report.moves:
            if move.ending is Ending.EXIT:
                assert move.gateway is not None
                assert move.receivers == owners(state.layout, move.gateway)
            elif move.ending is Ending.COLLIDED:
                assert move.collided_with is not None
                assert report.moves[move.collided_with].collided_with == report.moves.index(move)
        _check_invariants(state)
        assert len(state.tiles) <= 54
    return state


@settings(max_examples=100)
@given(games)
def test_random_games_conserve_gems_and_end_with_an_empty_board(
    game: tuple[int, str, int]
) -> None:
    state = _play_out(*game)
    assert state.is_over and state.gems_on_board == 0
    assert not state.gems and state.centre_left == 0
    assert sum(state.reserve) >= 0


@settings(max_examples=50)
@given(games)
def test_replaying_the_exported_record_gives_the_same_state(game: tuple[int, str, int]) -> None:
    state = _play_out(*game)
    names = NAMES[:state.players]
    outcome = replay(parse_record(to_record(names, state)))
    assert outcome.exit_code == 0, outcome.error
    again = outcome.final_state.state
    assert (again.tiles, dict(again.gems), again.centre_left, again.hauls, again.reserve,
            again.removed, again.turn, again.history) == (
        state.tiles, dict(state.gems), state.centre_left, state.hauls, state.reserve,
        state.removed, state.turn, state.history)
    assert board_snapshot(again).differences(board_snapshot(state)) == []
    result = RULES.result(outcome.final_state, complete=True)
    assert result["over"] is True and result["gems_on_board"] == 0
    assert result["winners"]


def _naive_move(state: IndigoState, placement: object, rng: random.Random) -> dict[object, object]:
    """A second, independent reading of §7: move the gems one at a time in a random order on
    a mutable board; a gem that runs into any other gem's spot removes both. Returns the gems
    resting afterwards plus ``"removed"`` (count) and ``"exits"`` (sorted gem values)."""
    from companion.indigo.geometry import CENTRE, EXITS, is_on_board, neighbour, opposite
    from companion.indigo.pieces import CENTRE_STOCK

    cell_new, tile_new = placement.cell, placement.tile  # type: ignore[attr-defined]
    tiles = dict(state.tiles)
    tiles[cell_new] = tile_new
    resting = dict(state.gems)
    movers = []
    for edge in range(6):
        point = (neighbour(cell_new, edge), opposite(edge))
        if point in resting:
            movers.append(point)
        elif point[0] == CENTRE and state.centre_left:
            resting[point] = CENTRE_STOCK[6 - state.centre_left]
            movers.append(point)
    rng.shuffle(movers)
    removed, exits = 0, []
    for start in movers:
        if start not in resting:  # already removed by a collision
            continue
        gem = resting.pop(start)
        cell, edge = start
        while True:
            if (cell, edge) in EXITS:
                exits.append(gem.value)
                break
            nxt, entry = neighbour(cell, edge), opposite(edge)
            if (nxt, entry) in resting:
                del resting[(nxt, entry)]
                removed += 2
                break
            if nxt in tiles:
                cell, edge = nxt, tiles[nxt].other_end(entry)
            elif nxt in CORNER_BY_CELL:
                out = CORNER_BY_CELL[nxt].uturn_other(entry)
                assert out is not None
                cell, edge = nxt, out
            else:
                assert is_on_board(nxt) and nxt != CENTRE
                resting[(cell, edge)] = gem
                break
    return {**resting, "removed": removed, "exits": sorted(exits)}


@settings(max_examples=30)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_gem_order_does_not_matter(seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(4)
    while not state.is_over:
        placement = rng.choice(all_legal_placements(state))
        naive = _naive_move(state, placement, rng)
        after, report = play(state, placement)
        exits = sorted(m.gem.value for m in report.moves if m.ending is Ending.EXIT)
        assert {**after.gems, "removed": after.gems_removed - state.gems_removed,
                "exits": exits} == naive
        state = after
