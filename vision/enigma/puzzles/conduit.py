"""The conduit puzzle seen by the camera: each card cell's piece and its openings."""

from __future__ import annotations

from collections import Counter

from companion.enigma import puzzle_conduit as conduit
from companion.enigma.puzzles import PuzzleBox
from vision.enigma.mat import (
    CARD_PX_PER_MM,
)
from vision.enigma.pack import EnigmaPack
from vision.enigma.puzzles.cards import (
    conduit_grid,
)
from vision.enigma.puzzles.view import (
    CANNOT_TELL,
    NOT_SOLVED,
    SOLVED,
    CardView,
    flatten_light,
    nearest_colour,
    verdict,
)
from vision.enigma.settings import PuzzleSettings


def check_conduit(view: CardView, pack: EnigmaPack, card: conduit.ConduitCard | None,
                  box: PuzzleBox, st: PuzzleSettings) -> dict[str, str]:
    given = card is not None
    if card is None:
        card = conduit.ConduitCard("read", tuple((x, y) for y in range(3) for x in range(3)),
                                   frozenset(), frozenset())
    flat = flatten_light(view, pack, others={"piece": pack.colour("piece"),
                                             "channel": pack.colour("channel")})
    labels, names = nearest_colour(flat, {"card": pack.colour("card"), "ink": pack.colour("ink"),
                                         "piece": pack.colour("piece"),
                                         "channel": pack.colour("channel"),
                                         "table": pack.colour("table")})
    piece_m = labels == names.index("piece")
    chan_m = labels == names.index("channel")
    # on a piece nothing is printed: a dark pixel there is channel even if nearer the ink
    open_m = chan_m | (labels == names.index("ink"))
    cell_mm, gx, gy = conduit_grid(card, pack.tile_mm)
    cell = cell_mm * CARD_PX_PER_MM
    seen: dict[tuple[int, int], frozenset[str]] = {}
    doubts: list[str] = []
    offsets = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    stubs_seen: set[tuple[tuple[int, int], str]] = set()
    cells = set(card.cells)
    for at in card.cells:
        x0, y0 = view.mm_to_px(gx + at[0] * cell_mm, gy + at[1] * cell_mm)
        cx, cy = x0 + cell / 2, y0 + cell / 2
        inner = (slice(int(cy - 0.3 * cell), int(cy + 0.3 * cell)),
                 slice(int(cx - 0.3 * cell), int(cx + 0.3 * cell)))
        cover = float((piece_m[inner] | open_m[inner]).mean())
        if 0.25 < cover < 0.6:
            doubts.append(f"is there a piece on {list(at)}?")
            continue
        present = cover >= 0.6
        for sd, (ux, uy) in offsets.items():
            if present:
                wx, wy = cx + ux * 0.38 * cell, cy + uy * 0.38 * cell
            else:
                continue
            win = open_m[int(wy - 0.08 * cell):int(wy + 0.08 * cell) + 1,
                         int(wx - 0.08 * cell):int(wx + 0.08 * cell) + 1]
            f = float(win.mean()) if win.size else 0.0
            if 0.2 < f < 0.5:
                doubts.append(f"is the side {sd} of the piece on {list(at)} open?")
            if f >= 0.5:
                seen.setdefault(at, frozenset())
                seen[at] = seen[at] | {sd}
        if present:
            seen.setdefault(at, frozenset())
        for sd, (ux, uy) in offsets.items():
            if (at[0] + ux, at[1] + uy) in cells:
                continue
            wx, wy = cx + ux * 0.6 * cell, cy + uy * 0.6 * cell
            win = open_m[int(wy - 0.06 * cell):int(wy + 0.06 * cell) + 1,
                         int(wx - 0.06 * cell):int(wx + 0.06 * cell) + 1]
            if win.size and float(win.mean()) >= 0.5:
                stubs_seen.add((at, sd))
    if doubts:
        return verdict(CANNOT_TELL, "; ".join(doubts[:3]))
    if given and stubs_seen != set(card.stubs):
        return verdict(CANNOT_TELL, "the card in the frame does not show the stubs of the card "
                       "entered: is it the right card?")
    if not given:
        # which pieces are marked X is not read: judge the layout as if every piece not
        # laid were marked, and never call it solved
        laid_shapes = Counter(
            min((conduit.turn_openings(o, r) for r in range(4)), key=conduit.format_openings)
            for o in seen.values())
        unused: list[str] = []
        for piece in box.conduit.pieces:
            shape = min((piece.turned(r) for r in range(4)), key=conduit.format_openings)
            if laid_shapes[shape] > 0:
                laid_shapes[shape] -= 1
            else:
                unused.append(piece.id)
        card = conduit.ConduitCard("read", card.cells, frozenset(stubs_seen), frozenset(unused))
    # give each laid piece an id of the box's pieces with those openings
    free: dict[frozenset[str], list[str]] = {}
    for piece in box.conduit.pieces:
        if piece.id in card.excluded:
            continue
        shape = min((piece.turned(r) for r in range(4)), key=lambda o: conduit.format_openings(o))
        free.setdefault(shape, []).append(piece.id)
    by_id = {p.id: p for p in box.conduit.pieces}
    every_shape = {min((p.turned(r) for r in range(4)), key=conduit.format_openings)
                   for p in box.conduit.pieces}
    solution: conduit.ConduitSolution = {}
    for at, openings in sorted(seen.items()):
        shape = min((conduit.turn_openings(openings, r) for r in range(4)),
                    key=lambda o: conduit.format_openings(o)) if openings else frozenset()
        if shape not in every_shape:
            # no piece of the box looks like this: the camera misread it
            return verdict(CANNOT_TELL, f"the openings of the piece on {list(at)} are not seen "
                           "clearly")
        if not free.get(shape):
            return verdict(NOT_SOLVED, f"the piece on {list(at)} (openings "
                           f"{conduit.format_openings(openings)}) is not one of the pieces to "
                           "use (or one too many of its kind)")
        pid = free[shape].pop(0)
        rotation = next(r for r in range(4) if by_id[pid].turned(r) == openings)
        solution[pid] = (at, rotation)
    problem = conduit.conduit_problem(card, box.conduit.pieces, solution)
    if problem is not None:
        return verdict(NOT_SOLVED, problem)
    if not given:
        return verdict(CANNOT_TELL, "every channel is closed, but the pieces marked X are not "
                       "read from the card: enter the card")
    return verdict(SOLVED, f"every channel is connected or closed, {len(solution)} pieces used"
                   + (f", {', '.join(sorted(card.excluded))} set aside" if card.excluded else ""))


__all__ = ["check_conduit"]
