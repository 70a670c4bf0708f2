"""The app's Enigma read lets the catalogue settle cell colours a pawn hides: when only those
colours are unsure and one legal placement of the solver's category fits whatever they are,
the placement is taken with no question; when several fit, or anything else is unsure, the
players are asked. (Seeded turns 3019, 3074 and 3081 of the Enigma bench asked about a tile
read right whose only doubt was the colour under a pawn.)"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from companion.enigma.catalogue import load_catalogue
from config import Config
from ui.reading import as_it_lies, read_enigma_frame
from vision.enigma.read_types import TileRead
from vision.enigma.synth.scenes import random_record


def _turn(seed: int, tiles: int) -> tuple[Any, Any, Any]:
    """The game before a placement, the placement event and its catalogue entry."""
    record, _after = random_record(seed, tiles=tiles)
    _, before = random_record(seed, tiles=tiles - 1)
    last = [e for e in record["events"] if e.get("type") == "place"][-1]
    return before, last, load_catalogue().entry(last["tile_id"])


def _read_as(monkeypatch: Any, seen: TileRead) -> Any:
    import vision.enigma.reader

    question = vision.enigma.reader.confidence_question(seen)
    monkeypatch.setattr(vision.enigma.reader, "read_enigma", lambda *a, **k: SimpleNamespace(
        tiles={seen.at: seen}, questions=[question], table_edges=()))
    return question


def _unsure_read(last: Any, entry: Any, shape: float, cell: str) -> TileRead:
    """The placed tile read right, as it lies, with one cell's colour unsure."""
    tile = entry.conduit.rotated(int(last["rotation"]))
    return TileRead(tuple(last["at"]), tile, 0.45, unsure_colours=(cell,),
                    shape_confidence=shape)


def _settles(seed: int, tiles: int, cell: str) -> bool:
    """Whether one placement of the category fits the turn's tile whatever the colour of
    ``cell`` (the test's own count, over the catalogue)."""
    before, last, entry = _turn(seed, tiles)
    tile = entry.conduit.rotated(int(last["rotation"]))
    fits = set()
    for colour in ("blue", "red", "yellow"):
        cells = dict(tile.cells) | {cell: colour}
        wanted = as_it_lies(type(tile).make(cells, tile.links))
        for other in load_catalogue().by_category(entry.category):
            for turn in range(4):
                lies = as_it_lies(other.conduit.rotated(turn))
                if lies == wanted and before.board.placement_problem(
                        other.conduit, tuple(last["at"]), turn,
                        require_edge_match=before.options.require_edge_match) is None:
                    fits.add(lies)
    return len(fits) == 1


#: seeded turns (seed, tiles, the unsure cell): the first settles by the catalogue (an
#: angular tile, two cells joined, each to a side), the second does not (a lone cell joined
#: to one side comes in every colour)
SETTLED, UNSETTLED = (3074, 4 + 74 % 37, "b"), (3019, 4 + 19 % 37, "a")


def test_the_seeded_turns_are_what_the_tests_say() -> None:
    assert _settles(*SETTLED) and not _settles(*UNSETTLED)


def test_a_colour_under_a_pawn_the_catalogue_settles_is_not_asked(monkeypatch: Any) -> None:
    seed, tiles, cell = SETTLED
    before, last, entry = _turn(seed, tiles)
    seen = _unsure_read(last, entry, 1.0, cell)
    _read_as(monkeypatch, seen)
    reading = read_enigma_frame(None, Config(), before, category=entry.category,
                                catalogue=load_catalogue(), pack=object())
    assert reading.questions == []
    assert reading.at == tuple(last["at"]) and reading.confidence == 1.0
    assert as_it_lies(reading.entry.conduit.rotated(reading.rotation)) == \
        as_it_lies(entry.conduit.rotated(int(last["rotation"])))


@pytest.mark.parametrize(("turn", "shape", "problems"), [
    (UNSETTLED, 1.0, ()),  # several placements fit: the colour is the players' to say
    (SETTLED, 0.5, ()),  # the channels are unsure too
    (SETTLED, 1.0, ("a channel passes close to a cell: joined or not?",)),
])
def test_anything_more_than_a_settled_colour_is_asked(
        monkeypatch: Any, turn: tuple[int, int, str], shape: float, problems: tuple[str, ...]
) -> None:
    seed, tiles, cell = turn
    before, last, entry = _turn(seed, tiles)
    seen = replace(_unsure_read(last, entry, shape, cell), problems=problems)
    question = _read_as(monkeypatch, seen)
    reading = read_enigma_frame(None, Config(), before, category=entry.category,
                                catalogue=load_catalogue(), pack=object())
    assert question in [q.message for q in reading.questions]
    assert reading.entry is None or "unsure" in [q.code for q in reading.questions]


def test_a_join_the_catalogue_settles_is_asked_when_anything_else_is_doubted(
        monkeypatch: Any) -> None:
    """The structures a channel passing close to a cell leaves open are settled by the
    catalogue only when that choice is all the reader doubts."""
    seed, tiles, _cell = SETTLED
    before, last, entry = _turn(seed, tiles)
    tile = entry.conduit.rotated(int(last["rotation"]))
    joined = "a channel passes close to a cell: joined or not?"
    other = "is there an opening at N0? the channel there is unclear"
    for problems, settled in (((joined,), True), ((joined, other), False)):
        seen = TileRead(tuple(last["at"]), tile, 0.4, problems=problems, shape_confidence=1.0,
                        alternatives=(tile,), choice_problems=(joined,))
        question = _read_as(monkeypatch, seen)
        reading = read_enigma_frame(None, Config(), before, category=entry.category,
                                    catalogue=load_catalogue(), pack=object())
        assert (question in [q.message for q in reading.questions]) is not settled
        assert (reading.entry is not None and not reading.questions) is settled
