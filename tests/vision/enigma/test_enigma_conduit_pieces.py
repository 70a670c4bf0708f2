"""Which box piece each laid conduit piece is: a piece read one opening away from a piece
still to use is asked about (an opening misread under strong light), never "not one of the
pieces to use"."""

from __future__ import annotations

from companion.enigma import puzzle_conduit as conduit
from companion.enigma.puzzles import load_puzzles
from vision.enigma.puzzles.conduit import laid_pieces
from vision.enigma.puzzles.verdicts import Reason

CORNER, TEE, CROSS = frozenset("EN"), frozenset("ENS"), frozenset("ENSW")


def _card(cells, excluded=()):
    return conduit.ConduitCard("test", tuple(cells), frozenset(), frozenset(excluded))


def test_a_tee_read_as_a_fourth_corner_is_asked() -> None:
    box = load_puzzles()
    seen = {(0, 0): CORNER, (1, 0): CORNER, (2, 0): CORNER, (0, 1): CORNER, (1, 1): TEE}
    _, said = laid_pieces(seen, _card(seen), box)
    assert said is not None
    assert said["verdict"] == "cannot tell"
    assert said.code == Reason.OPENINGS_UNCLEAR
    # "cannot tell" says what to do, as the screen's sentence does
    assert said["reason"].endswith("move the lamp or the hand off the card")


def test_a_piece_far_from_every_piece_to_use_is_not_one_of_them() -> None:
    """A cross on a card whose tees and cross are not to use: two openings or more from
    every piece left, so not a misread of one."""
    box = load_puzzles()
    seen = {(0, 0): CROSS, (1, 0): CORNER}
    _, said = laid_pieces(seen, _card(seen, excluded=("P6", "P7", "P9")), box)
    assert said is not None
    assert said["verdict"] == "not solved"
    assert said.code == Reason.PIECE_NOT_IN_SET


def test_the_pieces_to_use_are_given_their_ids() -> None:
    box = load_puzzles()
    seen = {(0, 0): CORNER, (1, 0): TEE, (2, 0): CROSS}
    solution, said = laid_pieces(seen, _card(seen), box)
    assert said is None
    assert {pid for pid in solution} == {"P1", "P6", "P9"}
