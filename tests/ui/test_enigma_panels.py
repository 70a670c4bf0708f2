"""The Enigma screen keeps its panels from move to move and changes what they say.

Made again at every move, the round's choices and the tile choice with its tile pictures were
some 7,500 objects of cyclic garbage per move, which the app's full collections walk on the
main thread.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui

#: a seeded game's first rounds: two rounds of choices, and a category (fragment) that two
#: solvers of different rounds choose a tile of
EVENTS = 11


def test_moves_keep_the_panels_and_tile_pictures_and_change_their_words(
        make_driver: Any) -> None:
    from ui.widgets.enigma_board import TilePicture, distinct_tiles
    from vision.enigma.synth.scenes import random_record

    driver = make_driver()
    record, _ = random_record(1, tiles=20, players=3)
    app = driver.app
    app.new_game("enigma", list(record["players"]), record.get("options", {}))
    screen = app.screen("enigma")
    panels: dict[str, Any] = {}
    pictures_of: dict[str, list[Any]] = {}
    for event in record["events"][:EVENTS]:
        app.apply(event)
        driver.pump(1)
        state = screen.state()
        (panel,) = screen.ids.panel.children
        assert panels.setdefault(screen.phase, panel) is panel
        if screen.phase == "place":
            category = dict(state.choices)[screen.solver()]
            pictures = [w for w in panel.walk() if isinstance(w, TilePicture)]
            assert [p.entry for p in pictures] == \
                distinct_tiles(screen.catalogue().by_category(category))
            kept = pictures_of.setdefault(category, pictures)
            assert all(p is k for p, k in zip(pictures, kept, strict=True))
            assert panel.prompt.startswith(f"{screen.solver()} solved a ")
        else:
            rows = list(reversed(panel.ids.rows.children))
            assert [row.player for row in rows] == list(state.seat_order())
            assert panel.round == state.round + 1
            assert all(t.state == "normal" for t in screen.choice_toggles.values())
    assert set(panels) == {"place", "choices"}
    assert len(pictures_of) == 4
