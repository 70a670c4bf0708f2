"""The deck data file: 13 start tiles of 8 cells and 40 puzzle cards of 1-7 cells.

The real card shapes have not been transcribed (rules digest, Appendix B), so the package ships
``companion/data/second_chance/demo_deck.json`` with invented shapes and ``"status": "demo"``.
A transcription of the real cards replaces that file (or is loaded with ``load_deck(path)``);
nothing in the code depends on which shapes are in it.

Loading checks everything the rules say about a deck: the counts, the sizes, that every shape
is connected and written canonically, and that the start tiles are all different.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from companion.second_chance.errors import DeckError, ShapeError
from companion.second_chance.shapes import Shape, parse_shape, polyomino_problem

DECK_FORMAT = "tabletop-companion/second-chance-deck/1"
START_TILES = 13
START_SIZE = 8
PUZZLE_CARDS = 40
PUZZLE_SIZES = range(1, 8)
DEMO_DECK = "demo_deck.json"


@dataclass(frozen=True)
class StartTile:
    """One start card: its id on the card list and its canonical shape."""

    id: str
    shape: Shape


@dataclass(frozen=True)
class Deck:
    """A validated deck. ``puzzle`` maps each canonical puzzle shape to its number of copies."""

    status: str
    name: str
    start_tiles: tuple[StartTile, ...]
    puzzle: tuple[tuple[Shape, int], ...]

    @property
    def is_demo(self) -> bool:
        """True for the shipped invented deck; the UI must say so."""
        return self.status == "demo"

    @property
    def size(self) -> int:
        """The number of puzzle cards."""
        return sum(copies for _, copies in self.puzzle)

    def puzzle_cards(self) -> list[Shape]:
        """Every puzzle card, copies repeated, in file order (shuffle with a random.Random)."""
        return [shape for shape, copies in self.puzzle for _ in range(copies)]

    def copies_of(self, shape: Shape | str) -> int:
        """How many puzzle cards have this shape in any orientation (0 if none)."""
        canonical = (shape if isinstance(shape, Shape) else parse_shape(shape)).canonical()
        return dict(self.puzzle).get(canonical, 0)

    def start_tile_for(self, shape: Shape | str) -> StartTile | None:
        """The start tile with this shape in any orientation, or None."""
        canonical = (shape if isinstance(shape, Shape) else parse_shape(shape)).canonical()
        for tile in self.start_tiles:
            if tile.shape == canonical:
                return tile
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": DECK_FORMAT,
            "status": self.status,
            "name": self.name,
            "start_tiles": [{"id": t.id, "shape": t.shape.text} for t in self.start_tiles],
            "puzzle_tiles": [{"shape": s.text, "copies": n} for s, n in self.puzzle],
        }


def _canonical_shape(text: object, *, where: str, sizes: range) -> Shape:
    if not isinstance(text, str):
        raise DeckError(f"{where}: 'shape' must be text like '##./.##', got {text!r}")
    try:
        shape = parse_shape(text)
    except ShapeError as exc:
        raise DeckError(f"{where}: {exc}") from exc
    problem = polyomino_problem(shape, sizes=sizes)
    if problem is not None:
        raise DeckError(f"{where}: shape {text!r} {problem}")
    if shape.canonical().text != text:
        raise DeckError(
            f"{where}: shape {text!r} is not written canonically; write {shape.canonical().text!r}"
        )
    return shape


def parse_deck(
    data: Mapping[str, Any],
    *,
    start_tiles: int = START_TILES,
    puzzle_cards: int = PUZZLE_CARDS,
) -> Deck:
    """Validate a decoded deck document; raise DeckError naming the entry that is wrong."""
    if not isinstance(data, Mapping):
        raise DeckError(f"a deck must be a JSON object, got {type(data).__name__}")
    if data.get("format") != DECK_FORMAT:
        raise DeckError(f"deck: 'format' must be {DECK_FORMAT!r}, got {data.get('format')!r}")
    status = data.get("status")
    if status not in ("demo", "transcribed"):
        raise DeckError(f"deck: 'status' must be 'demo' or 'transcribed', got {status!r}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise DeckError("deck: 'name' must be a non-empty text")
    if status == "demo" and "DEMO" not in name:
        raise DeckError(f"deck: a demo deck's name must say DEMO, got {name!r}")

    raw_starts = data.get("start_tiles")
    if not isinstance(raw_starts, list):
        raise DeckError("deck: 'start_tiles' must be a list")
    if len(raw_starts) != start_tiles:
        raise DeckError(f"deck: {len(raw_starts)} start tiles, the game has {start_tiles}")
    starts: list[StartTile] = []
    for i, entry in enumerate(raw_starts, start=1):
        where = f"deck: start tile {i}"
        if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str):
            raise DeckError(f"{where}: must be an object with a text 'id' and a 'shape'")
        shape = _canonical_shape(entry.get("shape"), where=f"{where} ({entry['id']})",
                                 sizes=range(START_SIZE, START_SIZE + 1))
        starts.append(StartTile(entry["id"], shape))
    ids = Counter(t.id for t in starts)
    shapes = Counter(t.shape for t in starts)
    if max(ids.values(), default=1) > 1:
        repeated = sorted(i for i, n in ids.items() if n > 1)
        raise DeckError(f"deck: start tile ids repeat: {repeated}")
    if max(shapes.values(), default=1) > 1:
        twice = sorted(s.text for s, n in shapes.items() if n > 1)
        raise DeckError(f"deck: start tiles must all differ, repeated: {twice}")

    raw_puzzle = data.get("puzzle_tiles")
    if not isinstance(raw_puzzle, list):
        raise DeckError("deck: 'puzzle_tiles' must be a list")
    puzzle: dict[Shape, int] = {}
    for i, entry in enumerate(raw_puzzle, start=1):
        where = f"deck: puzzle tile {i}"
        if not isinstance(entry, Mapping):
            raise DeckError(f"{where}: must be an object with 'shape' and 'copies'")
        copies = entry.get("copies")
        if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
            raise DeckError(
                f"{where}: 'copies' must be a whole number of at least 1, got {copies!r}"
            )
        shape = _canonical_shape(entry.get("shape"), where=where, sizes=PUZZLE_SIZES)
        if shape in puzzle:
            raise DeckError(f"{where}: shape {shape.text!r} is listed twice; add up its copies")
        puzzle[shape] = copies
    total = sum(puzzle.values())
    if total != puzzle_cards:
        raise DeckError(f"deck: puzzle copies total {total}, the game has {puzzle_cards} cards")
    return Deck(status, name, tuple(starts), tuple(puzzle.items()))


def load_deck(path: str | Path | None = None, **counts: int) -> Deck:
    """Load and validate a deck file; without ``path``, the shipped demo deck."""
    try:
        if path is None:
            text = (resources.files("companion") / "data" / "second_chance" / DEMO_DECK).read_text(
                encoding="utf-8"
            )
        else:
            text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise DeckError(f"cannot read deck file {path or DEMO_DECK}: {exc.strerror}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DeckError(f"deck file {path or DEMO_DECK} is not valid JSON: {exc.msg} "
                        f"at line {exc.lineno}") from exc
    return parse_deck(data, **counts)
