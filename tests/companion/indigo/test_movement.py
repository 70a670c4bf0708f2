"""Hand-built scenarios for every rule of gem movement and handing out (digest §7, §8, §10).

Each scenario is worked out by hand from the digest; the comments give the reasoning.
"""

from __future__ import annotations

import pytest

from companion.indigo import (
    Ending,
    Gem,
    IndigoState,
    Source,
    apply,
    new_game,
    parse_placement,
    parse_state,
    play,
    scores,
)
from companion.indigo.gems import faces_filled_cell

E, A, S = Gem.EMERALD, Gem.AMBER, Gem.SAPPHIRE


def board(layout: str, *, tiles: str = "", gems: str = "", centre: int = 0,
          hauls: str | None = None, reserve: str = "6/5/1", removed: str = "0/0/0",
          turn: int = 0) -> IndigoState:
    players = {"2p": 2, "3p": 3, "3p-alt": 3, "4p": 4}[layout]
    hauls = hauls or " ".join(["0/0/0"] * players)
    return parse_state(
        f"{layout} P{turn} | tiles {tiles} | gems {gems} | centre {centre} | hauls {hauls} | "
        f"reserve {reserve} | removed {removed}"
    )


def test_a_tile_far_from_everything_moves_nothing() -> None:
    state = new_game(2)
    after, report = play(state, parse_placement("T0r0@2,-2"))
    assert report.moves == ()
    assert after.gems == state.gems and after.centre_left == 6
    assert after.turn == 1 and after.hauls == ((0, 0, 0), (0, 0, 0))


def test_centre_gives_five_emeralds_then_the_sapphire() -> None:
    # Straight tiles around the centre: each gem runs straight out and rests facing ring 2.
    state = new_game(3)
    cells = ["0,-1", "1,0", "-1,1", "1,-1", "0,1", "-1,0"]  # any order
    released = []
    for cell in cells:
        state, report = play(state, parse_placement(f"T1r0@{cell}"))
        (move,) = report.moves
        assert move.source is Source.CENTRE and move.ending is Ending.REST
        released.append(move.gem)
    assert released == [E, E, E, E, E, S]
    assert state.centre_left == 0
    # edge k of the centre -> rests on edge k of the neighbour across it
    assert state.gems[((-1, 0), 5)] is S
    assert state.gems[((0, -1), 0)] is E
    assert state.gems_on_board == 12


def test_centre_gem_follows_the_path_of_the_new_tile() -> None:
    # (1,0) is across centre edge 2; the gem enters at edge 5; T3r0 joins 5-0 -> rests on edge 0
    after, report = play(new_game(2), parse_placement("T3r0@1,0"))
    (move,) = report.moves
    assert (move.gem, move.start, move.points) == (E, ((0, 0), 2), (((1, 0), 5), ((1, 0), 0)))
    assert after.gems[((1, 0), 0)] is E


def test_corner_amber_leaves_when_the_arrow_neighbour_is_filled() -> None:
    # Corner (4,0) has its arrow on edge 5, facing (3,0). The amber enters (3,0) at edge 2;
    # T1r0 runs it straight to edge 5, facing (2,0), empty: it rests there.
    state = new_game(2)
    assert state.gems[((4, 0), 5)] is A
    after, report = play(state, parse_placement("T1r0@3,0"))
    (move,) = report.moves
    assert move.source is Source.CORNER and move.gem is A and move.ending is Ending.REST
    assert ((4, 0), 5) not in after.gems
    assert after.gems[((3, 0), 5)] is A
    # a tile beside a corner but not on its arrow neighbour releases nothing
    _, report = play(state, parse_placement("T1r0@4,-1"))
    assert report.moves == ()


def test_a_resting_gem_moves_to_the_new_end_of_its_route() -> None:
    state = board("2p", tiles="T1r0@0,-1", gems="E@0,-1:0")
    after, report = play(state, parse_placement("T0r0@0,-2"))
    # enters (0,-2) at edge 3; T0r0 joins 3-5; rests on edge 5 facing (-1,-2)
    (move,) = report.moves
    assert move.points == (((0, -2), 3), ((0, -2), 5)) and move.ending is Ending.REST
    assert dict(after.gems) == {((0, -2), 5): E}


def test_all_gems_touching_the_new_tile_move() -> None:
    state = board("2p", tiles="T1r0@2,-2 T1r0@1,-1", gems="E@2,-2:5 A@1,-1:0")
    after, report = play(state, parse_placement("T1r0@1,-2"))
    assert len(report.moves) == 2
    assert dict(after.gems) == {((1, -2), 5): E, ((1, -2), 0): A}


def test_two_gems_that_meet_are_both_removed() -> None:
    # Both face (1,-2) from opposite sides; the straight 2-5 joins them.
    state = board("2p", tiles="T1r0@2,-2 T1r0@0,-2", gems="E@2,-2:5 A@0,-2:2",
                  hauls="1/0/0 0/1/0")
    after, report = play(state, parse_placement("T1r0@1,-2"))
    assert {m.ending for m in report.moves} == {Ending.COLLIDED}
    first, second = report.moves
    assert first.collided_with == 1 and second.collided_with == 0
    assert dict(after.gems) == {}
    assert after.removed == (1, 1, 0) and after.gems_removed == 2
    assert after.hauls == state.hauls  # nobody gets them
    assert after.is_over


def test_corner_amber_collides_with_a_gem_coming_the_other_way() -> None:
    # Straight column up from the centre ends at corner (0,-4): the amber comes down, the
    # emerald goes up, both on the straight 0-3 of (0,-3).
    state = board("2p", tiles="T1r0@0,-1 T1r0@0,-2", gems="E@0,-2:0 A@0,-4:3", centre=5)
    after, report = play(state, parse_placement("T1r0@0,-3"))
    assert sorted(m.source for m in report.moves) == [Source.CORNER, Source.ROUTE]
    assert all(m.ending is Ending.COLLIDED for m in report.moves)
    assert after.removed == (1, 1, 0)
    assert after.gems_on_board == 5  # the centre's stock


def test_centre_gem_collides_with_a_gem_coming_the_other_way() -> None:
    # A sapphire rests on edge 1 of (0,1), facing (1,0). T2r2 (0-3, 1-2, 4-5) on (1,0): the
    # centre gem enters at edge 5 and leaves by 4, straight into the sapphire's start: head on.
    state = board("2p", tiles="T1r0@0,1", gems="S@0,1:1", centre=3)
    after, report = play(state, parse_placement("T2r2@1,0"))
    kinds = sorted((m.source, m.gem, m.ending) for m in report.moves)
    assert kinds == [(Source.CENTRE, E, Ending.COLLIDED), (Source.ROUTE, S, Ending.COLLIDED)]
    assert after.centre_left == 2 and after.removed == (0, 1, 1)


def test_exit_pays_the_single_owner() -> None:
    # (1,-4) is a g0 cell (exits 0 and 1); in 2p g0 has two chips of P0: paid once.
    state = board("2p", tiles="T1r0@1,-3", gems="E@1,-3:0", centre=1, turn=1)
    after, report = play(state, parse_placement("T1r0@1,-4"))
    (move,) = report.moves
    assert move.ending is Ending.EXIT and move.gateway == 0 and move.receivers == (0,)
    assert move.end == ((1, -4), 0)
    assert after.hauls == ((0, 1, 0), (0, 0, 0))
    assert after.reserve == (6, 5, 1)  # no twin in 2p
    assert scores(after) == (2, 0)


@pytest.mark.parametrize(
    ("layout", "receivers", "hauls", "reserve"),
    [
        ("4p", (0, 1), ((0, 1, 0), (0, 1, 0), (0, 0, 0), (0, 0, 0)), (6, 4, 1)),
        ("3p", (0,), ((0, 1, 0), (0, 0, 0), (0, 0, 0)), (6, 5, 1)),
        ("3p-alt", (0,), ((0, 1, 0), (0, 0, 0), (0, 0, 0)), (6, 5, 1)),
    ],
)
def test_gateway_0_pays_by_layout(layout: str, receivers: tuple[int, ...],
                                  hauls: tuple[tuple[int, int, int], ...],
                                  reserve: tuple[int, int, int]) -> None:
    state = board(layout, tiles="T1r0@1,-3", gems="E@1,-3:0", centre=1)
    after, report = play(state, parse_placement("T1r0@1,-4"))
    assert report.moves[0].receivers == receivers
    assert after.hauls == hauls and after.reserve == reserve


def test_shared_gateway_second_owner_takes_a_twin_from_the_reserve() -> None:
    # 3p: g1 = P0 + P1. (4,-2) is a g1 cell (exits 1, 2); a sapphire resting on edge 2 of
    # (3,-2) faces it; a straight carries it out through edge 2.
    state = board("3p", tiles="T1r0@3,-2", gems="S@3,-2:2", centre=1, turn=2)
    after, report = play(state, parse_placement("T1r0@4,-2"))
    (move,) = report.moves
    assert move.gateway == 1 and move.receivers == (0, 1)
    assert after.hauls == ((0, 0, 1), (0, 0, 1), (0, 0, 0))
    assert after.reserve == (6, 5, 0)
    assert scores(after) == (3, 3, 0)
    # both owners score the same, whichever of the 6 exits: edge 1 of the same cell
    state = board("3p", tiles="T1r0@3,-1", gems="A@3,-1:1", centre=1, turn=2)
    after, report = play(state, parse_placement("T0r0@4,-2"))  # enters at 4; T0r0 joins 4-1
    assert report.moves[0].end == ((4, -2), 1) and report.moves[0].receivers == (0, 1)
    assert after.hauls == ((1, 0, 0), (1, 0, 0), (0, 0, 0)) and after.reserve == (5, 5, 1)


def test_a_gem_passes_through_a_corner_u_turn_and_can_rest_at_its_far_end() -> None:
    # Corner (0,-4): U-turn 2-4. A gem runs west along row -4 on straights, turns in the
    # corner and rests on its edge 4, facing the empty (-1,-3).
    state = board("2p", tiles="T1r0@1,-4 T1r0@3,-4", gems="E@3,-4:5", centre=1)
    after, report = play(state, parse_placement("T1r0@2,-4"))
    (move,) = report.moves
    assert move.points == (
        ((2, -4), 2), ((2, -4), 5), ((1, -4), 2), ((1, -4), 5), ((0, -4), 2), ((0, -4), 4),
    )
    assert move.cells == ((2, -4), (1, -4), (0, -4))
    assert dict(after.gems) == {((0, -4), 4): E}
    # the next tile on (-1,-3), a g5 cell (exits 5, 0), carries it out: T4r1 joins 1-0
    after, report = play(after, parse_placement("T4r1@-1,-3"))
    (move,) = report.moves
    assert move.source is Source.ROUTE and move.gateway == 5 and move.receivers == (1,)
    assert after.hauls == ((0, 0, 0), (0, 1, 0))


def test_a_chain_may_run_through_the_new_tile_twice() -> None:
    # New tile T1r0 on (1,1). The gem on (0,2) edge 1 enters at 4, leaves by 1 into (2,0)
    # (T4r0: 4-3), then (2,1) (T4r0: 0-5), back into (1,1) at edge 2, out by 5: rests facing
    # the empty (0,1).
    state = board("2p", tiles="T1r0@0,2 T4r0@2,0 T4r0@2,1", gems="A@0,2:1")
    after, report = play(state, parse_placement("T1r0@1,1"))
    (move,) = report.moves
    assert move.cells == ((1, 1), (2, 0), (2, 1), (1, 1))
    assert move.end == ((1, 1), 5) and move.ending is Ending.REST
    assert dict(after.gems) == {((1, 1), 5): A}


def test_one_tile_releases_an_amber_and_pushes_a_resting_gem() -> None:
    # (3,-3) is the arrow neighbour of corner (4,-4) (arrow edge 4). A resting emerald on
    # (2,-2) edge 1 also faces it. T1r0: amber enters at 1, leaves by 4 into (2,-2) at edge 1
    # = the emerald's start: with straights they collide. With T3r0 (0-5, 1-3, 2-4) the amber
    # enters at 1 and leaves by 3 (facing (3,-2), empty); the emerald enters at 4 and leaves
    # by 2 (facing (4,-3), empty).
    state = board("2p", tiles="T1r0@2,-2", gems="E@2,-2:1 A@4,-4:4", centre=5)
    after, report = play(state, parse_placement("T3r0@3,-3"))
    assert sorted((m.source, m.end) for m in report.moves) == [
        (Source.CORNER, ((3, -3), 3)), (Source.ROUTE, ((3, -3), 2))]
    assert dict(after.gems) == {((3, -3), 3): A, ((3, -3), 2): E}
    after, report = play(state, parse_placement("T1r0@3,-3"))
    assert all(m.ending is Ending.COLLIDED for m in report.moves)


def test_no_gem_rests_facing_a_filled_cell_after_a_turn() -> None:
    state = board("2p", tiles="T1r0@2,-2 T1r0@1,-1", gems="E@2,-2:5 A@1,-1:0")
    after = apply(state, parse_placement("T1r0@1,-2"))
    assert not any(faces_filled_cell(p, after.tiles) for p in after.gems)


def test_the_game_ends_when_no_gem_is_left_and_the_winner_is_decided() -> None:
    state = board("2p", tiles="T1r0@1,-3", gems="E@1,-3:0", hauls="3/1/0 2/0/1", turn=1)
    assert not state.is_over
    after, report = play(state, parse_placement("T1r0@1,-4"))
    assert report.game_over and after.is_over
    assert scores(after) == (7, 5)
    from companion.indigo import winners
    assert winners(after) == (0,)


def test_a_path_no_board_has_is_traced_as_none() -> None:
    """A gem's paths that run into the centre tile (a board read from a picture may show
    one) are no path: trace_path says None, where the engine's tracer raises."""
    from companion.indigo.gems import trace_path
    from companion.indigo.geometry import CENTRE, neighbour, opposite

    towards_centre = (neighbour(CENTRE, 0), opposite(0))
    assert trace_path(towards_centre, {}) is None
