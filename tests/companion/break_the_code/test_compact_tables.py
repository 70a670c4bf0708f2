"""The assistant's tables are flat arrays, made of the same values as the tables of one
``Code`` object per code that they replace, and the assistant answers the same from both."""

from __future__ import annotations

import gc
import random
import tracemalloc

import pytest

from companion.break_the_code import solver, tables, tile_sets
from companion.break_the_code.game import Ask, GameState, apply, deal_tiles, new_game
from tests.companion.break_the_code.old_tables import OldCodeTable, old_code_table

CHOICE = {"Q02": (1, 2), "Q03": (3, 4), "Q05": (6, 7), "Q06": (8, 9)}
NAMES = ("Ana", "Ben", "Cleo", "Dan")


@pytest.mark.parametrize("size", [4, 5])
def test_the_compact_tables_hold_the_old_tables_values(size: int) -> None:
    old, new = old_code_table(size), tables.code_table(size)
    assert tuple(new.keys) == old.keys
    assert new.tables == old.tables
    assert tuple(new.greens) == old.greens
    assert tuple(new.codes) == old.codes
    assert dict(new.index) == old.index
    assert new.codes[-3:] == old.codes[-3:]
    assert new.index.get(-1) is None and 1 << 30 not in new.index


def test_the_tables_keep_no_python_object_per_code() -> None:
    # the 16,473 codes of both rack sizes as Code objects were 5.6 MB of the app's memory
    # (1.4 MB of it for 4 tiles), and 33,000 objects that every full garbage collection walked
    tables.code_table.cache_clear()
    gc.collect()
    tracked = len(gc.get_objects())
    tracemalloc.start()
    try:
        table = tables.code_table(4)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    gc.collect()
    assert len(table.codes) == 4_029
    assert held < 300_000
    assert len(gc.get_objects()) - tracked < 100


def _positions(players: int, seed: int) -> list[GameState]:
    """A seeded game after 0, 3 and 8 questions."""
    rng = random.Random(seed)
    state = apply(new_game(NAMES[:players]), deal_tiles(players, rng))
    out = []
    while len(state.asked) <= 8 and not state.over:
        if len(state.asked) in (0, 3, 8):
            out.append(state)
        player = state.current_player
        assert player is not None
        card = rng.choice(state.askable_cards)
        state = apply(state, Ask(player, card, rng.choice(CHOICE[card]) if card in CHOICE
                                 else None))
    return out


def _advice(state: GameState) -> list[object]:
    out: list[object] = []
    for player in state.players:
        advice = solver.suggest(solver.view_of(state, player))
        out += [advice.to_json(top=20), advice.question, advice.guess, advice.probability,
                dict(advice.candidates.weights), advice.candidates.ranked(5)]
    return out


@pytest.mark.parametrize("players, seed", [(2, 21), (3, 22), (4, 23)])
def test_the_assistant_answers_alike_from_the_old_tables(
        players: int, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    positions = _positions(players, seed)
    assert len(positions) == 3
    new = [_advice(state) for state in positions]
    old_tables: dict[int, OldCodeTable] = {}

    def old_table(size: int) -> OldCodeTable:
        if size not in old_tables:
            old_tables[size] = old_code_table(size)
        return old_tables[size]

    for module in (solver, tables, tile_sets):
        monkeypatch.setattr(module, "code_table", old_table)
    for cached in (tile_sets.unseen_tiles, tile_sets.every_rack_set, solver._code_weights,
                   tables.twin_groups, tables._twin_map):
        cached.cache_clear()
    try:
        assert [_advice(state) for state in positions] == new
    finally:
        for cached in (tile_sets.unseen_tiles, tile_sets.every_rack_set,
                       solver._code_weights, tables.twin_groups, tables._twin_map):
            cached.cache_clear()
