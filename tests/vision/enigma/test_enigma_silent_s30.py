"""Networkers and tiles read wrong with no question on the independent tuning tables (session
30's census of harsh 6100-6199 and 7000-7099, at 30-45 tiles and at the default size): each
class fixed, one seeded frame each. The verdict asserted is what holds on any pixels: the
networkers on the square are read right, or doubted (below the threshold, or a question names
the square)."""

from __future__ import annotations

from config import Config
from tests.vision.enigma.independent_tile_verdicts import read_harsh_table
from vision.enigma.settings import ReaderSettings

#: the independent generator's default table size (its MODEST_TABLE), the frames found at it
DEFAULT_SIZE = (10, 22)


def _networkers_right_or_asked(read: dict, truth_networkers: set, at: tuple[int, int]) -> None:
    """Assert the networkers read on ``at`` (square, player colour, cell colour) are the
    truth's, or each is below the threshold, or a question names the square."""
    cells = {tuple(t["at"]): t["cells"] for t in read["tiles"]}
    here = [n for n in read["networkers"] if tuple(n["at"]) == at]
    seen = {(at, n["colour"], cells.get(at, {}).get(n["cell"])) for n in here}
    if seen == {n for n in truth_networkers if n[0] == at}:
        return
    threshold = ReaderSettings.from_config(Config()).min_confidence
    asked = any(q.startswith(f"tile [{at[0]}, {at[1]}]") for q in read["questions"])
    assert asked or all(n["confidence"] < threshold for n in here), (here, truth_networkers)


def test_a_dark_pawn_beside_its_cells_middle_as_read_is_judged(demo_pack):
    """Table 7026 (default size), [-2, 0]: a black pawn standing tall on a yellow cell hides
    all but a crescent of it, so the cell's middle is read 5.5 px off the pawn; the pawn
    leaves no blob, only a ringed place of its colour, nearer the middle than a pawn's reach
    (NEAR_PAWN) but outside the core search, and the search found bare tile in a channel's
    crook, pale and ringed: a white pawn, 0.85, the table's networkers silently wrong."""
    read, _, truth_networkers = read_harsh_table(demo_pack, 7026, DEFAULT_SIZE)
    _networkers_right_or_asked(read, truth_networkers, (-2, 0))


def test_bare_tile_in_a_channels_crook_beside_a_cell_is_no_white_pawn(demo_pack):
    """Table 7080 (default size), [1, 2]: beside a yellow cell's middle as read, outside the
    core search, bare tile closed in by channels is a ringed place nearest white. Judged as
    a pawn at the cell's middle (the first cut of the rule above), it was a white pawn, sure;
    a pale core seen only off the middle is judged as bare tile there (no pawn is read sure
    on that square). A guard: the reader of e7c15fb never judged that place."""
    read, _, truth_networkers = read_harsh_table(demo_pack, 7080, DEFAULT_SIZE)
    threshold = ReaderSettings.from_config(Config()).min_confidence
    assert not any(tuple(n["at"]) == (1, 2) and n["confidence"] >= threshold
                   for n in read["networkers"]), read["networkers"]
    _networkers_right_or_asked(read, truth_networkers, (1, 2))
