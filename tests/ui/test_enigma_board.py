"""The Enigma table drawn and used as the board (issue 23): a networker placed stands on the
board in its player's colour, a closed system carries its score, and a placement is chosen by
tapping a glowing ghost square and tapping it again to turn the tile."""

from __future__ import annotations

import random
from typing import Any

import pytest
from notation import notation_texts

pytestmark = pytest.mark.ui

#: a seed whose random play closes a system with networkers on it within a round
CLOSING_SEED = 0
#: at most this many placements are tried per player turn while looking for a closure
TRIED_PER_TURN = 40
#: a seeded demo game whose table, at its last round, is too large for a finger at 800x480
LARGE_TABLE_SEED = 3
LARGE_TABLE_TILES = 20
#: 9 mm on the 7" 800x480 display, in pixels: a finger's target
FINGER_PX = 57


def _start_enigma(driver: Any) -> Any:
    driver.tap(driver.screen("home").ids.game_enigma)
    driver.tap(driver.screen("setup").ids.start_button)
    return driver.screen("enigma")


def _round_event(state: Any) -> dict[str, Any]:
    categories = ("conduit", "weight", "fragment", "angular")
    return {"type": "round", "choices": dict(zip(state.players, categories, strict=False)),
            "solved": list(state.players)}


def _place_event(player: str, entry: Any, placement: Any, networker: Any) -> dict[str, Any]:
    from companion.enigma.tiles import format_tile

    return {"type": "place", "player": player, "tile": format_tile(entry.conduit),
            "at": list(placement.at), "rotation": placement.rotation, "networker": networker}


def _closing_play(session: Any, catalogue: Any) -> tuple[list[dict[str, Any]], Any]:
    """Events of a random play up to the placement that closes a system with networkers on
    it, and that placement: (entry, placement, networker)."""
    from ui.widgets.enigma_board import distinct_tiles

    rng = random.Random(CLOSING_SEED)
    state = session.state
    events: list[dict[str, Any]] = []
    for _round in range(6):
        events.append(_round_event(state))
        state = session.rules.apply_event(state, events[-1], index=len(events))
        while state.pending:
            player = state.pending[0]
            # the tiles offered to choose from (alike ones once)
            tiles = distinct_tiles(catalogue.by_category(dict(state.choices)[player]))
            options = [(e, p) for e in tiles for p in state.legal_placements(e.conduit,
                                                                             distinct=True)]
            rng.shuffle(options)
            for entry, placement in options[:TRIED_PER_TURN]:
                for cell in state.networker_choices(player, entry.conduit, placement.at,
                                                    placement.rotation):
                    after = session.rules.apply_event(
                        state, _place_event(player, entry, placement, cell), index=0)
                    if any(s.awards for s in after.last_scored):
                        return events, (entry, placement, cell)
            entry, placement = options[0]
            cells = state.networker_choices(player, entry.conduit, placement.at,
                                            placement.rotation)
            events.append(_place_event(player, entry, placement, cells[0] if cells else None))
            state = session.rules.apply_event(state, events[-1], index=len(events))
    raise AssertionError("no closure in six rounds of random play")


def tile_picture(screen: Any, entry: Any) -> Any:
    """The tile's picture among those to choose from."""
    return next(w for w in screen.ids.panel.walk() if getattr(w, "entry", None) is entry)


def _choose_tile(driver: Any, screen: Any, entry: Any) -> None:
    driver.tap(tile_picture(screen, entry))
    assert screen.tile_entry is entry


def _tap_spot(driver: Any, screen: Any, at: tuple[int, int]) -> None:
    board = screen.ids.table
    driver.pump(2)
    assert at in board.tappable()
    driver.tap_at(*board.to_window(*board.spot_centre(at)))


def _button(screen: Any, text: str) -> Any:
    return next(w for w in screen.ids.panel.walk()
                if getattr(w, "text", None) == text and hasattr(w, "on_press"))


def _pixel(widget: Any, point: tuple[float, float]) -> tuple[float, float, float]:
    """The colour drawn at ``point`` (widget coordinates) of ``widget``, 0..1."""
    texture = widget.export_as_image().texture
    width, height = texture.size
    # the exported picture's rows run from the top down
    x, y = int(point[0] - widget.x), height - 1 - int(point[1] - widget.y)
    i = (y * width + x) * 4
    data = texture.pixels
    return (data[i] / 255, data[i + 1] / 255, data[i + 2] / 255)


def test_a_ghost_tapped_then_tapped_again_is_placed_turned(make_driver: Any) -> None:
    from ui.widgets.enigma_board import distinct_tiles

    driver = make_driver()
    screen = _start_enigma(driver)
    session = driver.app.session
    driver.app.apply(_round_event(session.state))
    solver = screen.solver()
    category = dict(screen.state().choices)[solver]
    # a tile and a square where it may go in two different turns
    entry, at, turns = next(
        (e, at, turns) for e in distinct_tiles(screen.catalogue().by_category(category))
        for at in dict.fromkeys(tuple(p.at) for p in screen.state().legal_placements(
            e.conduit, distinct=True))
        if len(turns := [p.rotation for p in screen.state().legal_placements(
            e.conduit, distinct=True) if tuple(p.at) == at]) > 1)
    _choose_tile(driver, screen, entry)
    board = screen.ids.table
    driver.pump(3)
    assert at in board.drawn["ghosts"] and not board.drawn["proposal"]
    assert board.square >= FINGER_PX
    _tap_spot(driver, screen, at)
    assert (tuple(screen.placement.at), screen.placement.rotation) == (at, turns[0])
    _tap_spot(driver, screen, at)
    assert (tuple(screen.placement.at), screen.placement.rotation) == (at, turns[1])
    driver.pump(3)
    assert board.drawn["proposal"] == [at]
    found = [f for top in driver.window.children for f in notation_texts(top)]
    assert not found, found
    driver.tap(_button(screen, "No networker"))
    event = session.events[-1]
    assert (event["type"], event["player"]) == ("place", solver)
    assert (tuple(event["at"]), event["rotation"]) == (at, turns[1])


def test_the_buttons_choose_a_square_and_turn_without_aiming(make_driver: Any) -> None:
    driver = make_driver()
    screen = _start_enigma(driver)
    driver.app.apply(_round_event(driver.app.session.state))
    category = dict(screen.state().choices)[screen.solver()]
    entry = next(e for e in screen.catalogue().by_category(category)
                 if screen.state().legal_placements(e.conduit, distinct=True))
    _choose_tile(driver, screen, entry)
    spots = list(dict.fromkeys(tuple(p.at) for p in screen.options))
    driver.tap(screen.placing.ids.next_spot)
    assert tuple(screen.placement.at) == spots[0]
    driver.tap(screen.placing.ids.next_spot)
    assert tuple(screen.placement.at) == spots[1 % len(spots)]
    driver.tap(screen.placing.ids.previous_spot)
    assert tuple(screen.placement.at) == spots[0]
    before = screen.placement.rotation
    turns = [p.rotation for p in screen.options if tuple(p.at) == spots[0]]
    # one turn alone fits there: nothing to turn
    assert screen.placing.ids.turn.disabled == (len(turns) == 1)
    driver.tap(screen.placing.ids.turn)
    assert screen.placement.rotation == turns[(turns.index(before) + 1) % len(turns)]
    for widget in (screen.placing.ids.next_spot, screen.placing.ids.turn):
        assert min(widget.size) >= widget.min_target


def test_a_networker_placed_and_a_closed_system_are_drawn_on_the_board(
        make_driver: Any) -> None:
    from ui.screens.enigma_words import networker_sentence

    driver = make_driver()
    screen = _start_enigma(driver)
    session = driver.app.session
    events, (entry, placement, cell) = _closing_play(session, screen.catalogue())
    for event in events:
        assert driver.app.apply(event)
    board = screen.ids.table
    driver.pump(3)
    standing = [e for e in session.events if e["type"] == "place" and e["networker"]]
    assert standing, "the play leaves a networker on the board before the closure"
    for event in standing:  # each networker placed stands on its cell, in its colour
        at, player = tuple(event["at"]), event["player"]
        drawn = [d for d in board.drawn["networkers"] if d[:3] == (at, event["networker"],
                                                                     player)]
        assert drawn, (event, board.drawn["networkers"])
        (x, y), radius = drawn[0][3:]
        colour = _pixel(board, (x + 0.75 * radius, y))  # the token, round its cell's dot
        assert colour == pytest.approx(screen.colour_of(player)[:3], abs=0.02)
    assert not board.drawn["scores"]
    # the closing placement, by touch: the tile, its square and turn, the networker
    solver = screen.solver()
    _choose_tile(driver, screen, entry)
    for _turn in range(4):
        _tap_spot(driver, screen, tuple(placement.at))
        if screen.placement.rotation == placement.rotation:
            break
    assert screen.placement == placement
    colour = dict(entry.conduit.cells)[cell]
    driver.tap(_button(screen, networker_sentence(colour, board.cell_marks.get(cell))))
    assert session.events[-1]["player"] == solver
    scored = screen.state().last_scored
    driver.pump(3)
    awarded = sorted(f"+{a.points}" for s in scored for a in s.awards)
    marked = sorted(text for _sid, text, *_rest in board.drawn["scores"])
    assert awarded and marked == awarded
    for _sid, _text, (x, y), radius, player in board.drawn["scores"]:
        # the badge is in its player's colour (looked at beside its number)
        assert _pixel(board, (x + 0.6 * radius, y + 0.6 * radius)) == \
            pytest.approx(screen.colour_of(player)[:3], abs=0.02)


def test_tiles_alike_even_turned_are_one_picture_to_choose() -> None:
    from types import SimpleNamespace

    from companion.enigma.tiles import Tile
    from ui.widgets.enigma_board import distinct_tiles

    elbow = Tile.make({"a": "red"}, [("N", "a"), ("a", "E")])
    other = Tile.make({"a": "blue"}, [("N", "a"), ("a", "E")])
    entries = [SimpleNamespace(id=i, conduit=t) for i, t in
               enumerate([elbow, elbow.rotated(1), other, elbow.rotated(3)])]
    assert [e.id for e in distinct_tiles(entries)] == [0, 2]


def test_the_tiles_to_choose_are_pictures_a_finger_wide(make_driver: Any) -> None:
    from ui.widgets.enigma_board import TilePicture, distinct_tiles

    driver = make_driver()
    screen = _start_enigma(driver)
    driver.app.apply(_round_event(driver.app.session.state))
    driver.pump(3)
    category = dict(screen.state().choices)[screen.solver()]
    pictures = [w for w in screen.ids.panel.walk() if isinstance(w, TilePicture)]
    shown = distinct_tiles(screen.catalogue().by_category(category))
    assert [p.entry for p in pictures] == shown
    assert all(min(p.size) >= FINGER_PX for p in pictures)
    assert not [t for t in driver.texts() if "tile 1" in t.lower()]  # no catalogue numbers


def test_cells_are_marked_in_the_order_the_turned_tile_reads() -> None:
    from companion.enigma.tiles import Tile
    from ui.widgets.enigma_board import in_reading_order

    # a near the bottom side, b near the top: the top one is read first
    tile = Tile.make({"a": "red", "b": "red"}, [("S", "a"), ("N", "b")])
    assert in_reading_order(tile, 0, ["a", "b"]) == ["b", "a"]
    assert in_reading_order(tile, 2, ["a", "b"]) == ["a", "b"]


def test_on_a_table_too_large_for_a_finger_a_tap_looks_closer_first(make_driver: Any) -> None:
    from ui.widgets.enigma_board import distinct_tiles
    from vision.enigma.synth.scenes import random_record

    driver = make_driver()
    record, _ = random_record(LARGE_TABLE_SEED, tiles=LARGE_TABLE_TILES, players=3)
    driver.app.new_game("enigma", list(record["players"]), record.get("options", {}))
    driver.app.show("enigma")
    events = record["events"]
    last_round = max(i for i, e in enumerate(events) if e["type"] == "round")
    for event in events[:last_round + 1]:
        assert driver.app.apply(event)
    screen = driver.screen("enigma")
    state = screen.state()
    entry = next(e for e in distinct_tiles(screen.catalogue().by_category(
        dict(state.choices)[screen.solver()])) if state.legal_placements(e.conduit))
    _choose_tile(driver, screen, entry)
    board = screen.ids.table
    driver.pump(3)
    assert board.square < FINGER_PX and board.needs_zoom()
    at = tuple(screen.options[0].at)
    _tap_spot(driver, screen, at)  # the first tap looks closer, round that square
    assert screen.placement is None and board.zoom_at == at
    driver.pump(3)
    assert board.square >= FINGER_PX
    _tap_spot(driver, screen, at)
    assert tuple(screen.placement.at) == at
    turned = screen.placement.rotation
    driver.pump(3)
    driver.tap_at(*board.to_window(*board.spot_centre(at)))
    driver.tap(_button(screen, "No networker"))
    event = driver.app.session.events[-1]
    assert (tuple(event["at"]), event["type"]) == (at, "place")
    turns = [p.rotation for p in screen.options if tuple(p.at) == at] or [turned]
    assert event["rotation"] == turns[(turns.index(turned) + 1) % len(turns)]
    driver.pump(3)
    assert board.zoom_at is None  # the tile is down: the whole table again
