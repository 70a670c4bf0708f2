"""The cards a player's sheet holds, from the game's events (companion.second_chance.drawn)."""

from __future__ import annotations

import random

from companion.record import parse_record
from companion.second_chance.drawn import can_be_drawn, tile_choices
from companion.second_chance.shapes import Shape, canonical_text
from companion.second_chance.simulate import simulate_game


def test_each_tile_drawn_is_its_rounds_card() -> None:
    for seed in range(3):
        record = parse_record(simulate_game(["Ana", "Ben"], rng=random.Random(seed)))
        tiles = [[tuple(c) for c in e["cells"]] for e in record.events
                 if e.get("player") == "Ana" and e.get("cells")
                 and e.get("type") in ("start", "draw", "second-chance")]
        choices = tile_choices(record.events, "Ana")
        assert len(choices) == len(tiles)
        for tile, allowed in zip(tiles, choices, strict=True):
            assert allowed == {canonical_text(Shape.from_cells(tile))}
        assert can_be_drawn([canonical_text(Shape.from_cells(t)) for t in tiles], choices)


def test_a_round_not_drawn_yet_offers_both_cards() -> None:
    events = [{"type": "start", "player": "Ana", "cells": [[4, 4], [4, 5]]},
              {"type": "reveal", "cards": ["#", "###"]}]
    assert tile_choices(events, "Ana") == (frozenset({"##"}), frozenset({"#", "###"}))
    # a player out of the game draws no more
    events += [{"type": "second-chance", "player": "Ana", "card": "#####", "cells": None},
               {"type": "reveal", "cards": ["##", "#"]}]
    assert tile_choices(events, "Ana") == (frozenset({"##"}),)


def test_tiles_are_matched_one_a_round() -> None:
    choices = (frozenset({"#"}), frozenset({"#", "##"}))
    assert can_be_drawn(["#", "##"], choices)
    assert can_be_drawn(["#", "#"], choices)
    assert not can_be_drawn(["##", "##"], choices)  # one round gave a "##" at most
    assert not can_be_drawn(["#", "#", "#"], choices)  # a tile too many


def test_only_the_first_players_out_may_have_written_the_one() -> None:
    from companion.second_chance.drawn import may_have_the_one

    events = [{"type": "reveal", "cards": ["#", "##"]},
              {"type": "second-chance", "player": "Ana", "card": "###", "cells": None},
              {"type": "second-chance", "player": "Ben", "card": "###", "cells": None},
              {"type": "reveal", "cards": ["#", "##"]},
              {"type": "second-chance", "player": "Cleo", "card": "#", "cells": None}]
    assert may_have_the_one(events, "Ana") and may_have_the_one(events, "Ben")
    assert not may_have_the_one(events, "Cleo")  # out later
    assert not may_have_the_one(events[:1], "Ana")  # still in
    for seed in range(4):
        record = parse_record(simulate_game(["Ana", "Ben"], rng=random.Random(seed)))
        has_one = any(e.get("type") == "bonus" and e.get("player") == "Ana"
                      for e in record.events)
        assert may_have_the_one(record.events, "Ana") == has_one
