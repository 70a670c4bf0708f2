"""Second Chance sheets for bench/silent_reads.py."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np

from silent_cases import Case, Verdict

#: every few frames a sheet in mid-game (its first tiles only), so a grid read full is wrong
PARTIAL_EVERY = 2


def _content(seed: int) -> object:
    """A player's sheet from a seeded game: at its end, or (every other seed) after its first
    few tiles, the start among them."""
    from companion.record import parse_record
    from companion.second_chance.simulate import simulate_game
    from vision.second_chance.synth.sheet import SheetContent, content_from_record

    players = ["Ana", "Ben", "Cleo"][: 2 + seed % 2]
    record = parse_record(simulate_game(players, rng=random.Random(seed)))
    content = content_from_record(record, "Ana")
    if seed % PARTIAL_EVERY == 0:
        return content
    kept = random.Random(seed).randint(1, max(1, len(content.tiles) - 1))
    return SheetContent(content.tiles[:kept], None, content.name)


def cases(first: int, frames: int) -> Iterator[Case]:
    """Sheets drawn in pencil, pen and coloured pencil, on the app's sheet (markers) and on the
    plain pad, read through ui.reading.read_sheet_frame with nothing accepted yet: the value
    the app would take is the set of filled squares (every square is new)."""
    from ui.reading import read_sheet_frame
    from vision.errors import FrameRefusedError
    from vision.second_chance.geometry import locate_grid, sheet_outline
    from vision.second_chance.synth.sheet import STYLES, SheetContent, render_sheet

    def board(image: np.ndarray) -> np.ndarray | None:
        try:
            return sheet_outline(locate_grid(image))
        except FrameRefusedError:
            return None

    for index in range(frames):
        seed = first + index
        content = _content(seed)
        assert isinstance(content, SheetContent)
        style = STYLES[index % len(STYLES)]
        markers = index % 4 != 3
        rendered = render_sheet(content, style=style, seed=seed, markers=markers)
        truth = {(r, c) for r, row in enumerate(content.grid.rows()) for c, ch in enumerate(row)
                 if ch != "."}

        def judge(image: np.ndarray, truth: set[tuple[int, int]] = truth) -> Verdict:
            try:
                reading = read_sheet_frame(image, set())
            except FrameRefusedError as exc:
                return "refused", exc.reason
            read = set(reading.new_cells)
            pieces = [(confidence, (cell in read) == (cell in truth))
                      for cell, confidence in reading.cell_confidence.items()]
            if reading.questions or reading.doubtful or reading.problems:
                return "asked", "", pieces
            return ("right" if read == truth else "silent_wrong"), "", pieces

        label = f"sheet/{style}"
        yield Case(label, seed, rendered.image, judge, board)
