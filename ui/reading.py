"""Turning a camera read into what the screens propose; the engine stays the judge.

A read is compared with the last accepted state: a cell that changed from empty to a tile is a
proposed placement; anything else (a tile that changed, several new tiles, a low confidence)
becomes a question mark on that cell. Nothing is applied without the players' confirmation.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import Any

from companion.enigma.tiles import Tile
from companion.second_chance.drawn import TileChoices
from config import art_pack_folder
from config.schema import Config

Cell = tuple[int, int]


@dataclass
class IndigoReading:
    """What the screen shows after "read the board".

    ``questions`` maps each cell to ask about to a code the screen words: ``tile-missing`` (an
    accepted tile is no longer seen), ``tile-changed`` (it is seen, another pattern),
    ``unsure`` (a new tile read with a low confidence), ``several-new`` (more than one new
    tile) or ``check`` (the rules' check of the read asks about it). ``message`` is the
    vision check's own English questions, for the logs only.
    """

    proposal: tuple[tuple[int, int], int, int] | None = None
    confidence: float = 0.0
    #: cells to ask about, with the code of why
    questions: dict[Cell, str] = field(default_factory=dict)
    message: str = ""
    #: what to draw over the camera picture: (u, v, kind), u and v in 0..1 of the frame
    #: (v from the top); kind is "tile", "empty", "question" or a gem colour
    overlay: list[tuple[float, float, str]] = field(default_factory=list)
    #: the gems and chips do not look like the art pack's (real pieces, the pack not taught
    #: from them): every gem is in doubt, and the screen says to teach the pack
    pieces_unlike_pack: bool = False


class ReaderUnavailableError(RuntimeError):
    """The vision package has no board reader for this game (yet)."""


def read_indigo_frame(frame: Any, cfg: Config, state: Any, *, pack: Any = None
                      ) -> IndigoReading:
    """Read ``frame`` and check it against ``state`` (runs on a worker thread).

    The vision package reads the board and its ``check_after`` asks the engine whether the
    difference is exactly one legal placement with the predicted gem moves.
    """
    try:
        from vision.indigo.after import check_after
        from vision.indigo.pack_cache import cached_indigo_pack
        from vision.indigo.reader import read_indigo
        from vision.indigo.settings import IndigoSettings
    except ImportError as exc:
        raise ReaderUnavailableError("the Indigo board reader is not installed") from exc
    settings = IndigoSettings.from_config(cfg)
    min_confidence = settings.min_confidence
    pack = pack or cached_indigo_pack(art_pack_folder(cfg, cfg.vision.pack))
    read = read_indigo(frame, pack, settings=settings)
    verdict = check_after(state, read, min_confidence=min_confidence)
    result = _with_overlay(IndigoReading(message="; ".join(verdict.questions)), read,
                           settings.geometry, frame.shape, min_confidence)
    result.pieces_unlike_pack = bool(getattr(read, "pieces_unlike_pack", False))
    placement = verdict.placement
    if placement is None:
        # fall back to the plain difference, so the players see which cell to look at
        plain = diff_indigo(read, state, min_confidence=min_confidence)
        plain.message = result.message
        plain.overlay = result.overlay
        plain.pieces_unlike_pack = result.pieces_unlike_pack
        if plain.proposal is not None:
            plain.questions.setdefault(plain.proposal[0], "check")
        return plain
    cell = placement.cell
    result.proposal = (cell, placement.tile.kind, placement.tile.rotation)
    cell_read = read.cells.get(cell)
    result.confidence = float(getattr(cell_read, "confidence", 1.0))
    if not verdict.consistent:
        result.questions[cell] = "check"
    for other, cell_read in read.cells.items():
        if cell_read.confidence >= min_confidence or other in state.tiles:
            continue
        # one placement a turn: once the rules have found it (a sure legal tile, the gems
        # where it moves them), a cell read empty, empty before, cannot have changed
        if verdict.consistent and cell_read.tile is None:
            continue
        result.questions.setdefault(other, "unsure")
    return result


def _with_overlay(result: IndigoReading, read: Any, geometry: Any, shape: Any,
                  min_confidence: float) -> IndigoReading:
    """Project the read cells and gems back onto the camera frame (board -> marker plane ->
    image), so the players see what was read where they look."""
    fit = getattr(read, "fit", None)
    if fit is None:
        return result
    import numpy as np

    from vision.indigo.board import cell_xy, point_xy

    height, width = shape[:2]
    to_image = fit.plane_to_image @ geometry.board_to_frame()

    def project(x: float, y: float) -> tuple[float, float]:
        u, v, w = to_image @ np.array([x, y, 1.0])
        return (float(u / w) / width, float(v / w) / height)

    for cell, cell_read in read.cells.items():
        kind = "question" if cell_read.confidence < min_confidence else (
            "tile" if cell_read.tile is not None else "")
        if kind:
            result.overlay.append((*project(*cell_xy(cell)), kind))
    for gem in getattr(read, "gems", []):
        if gem.point is not None:
            result.overlay.append((*project(*point_xy(gem.point)), str(gem.gem.value)))
    return result


def _cells_of(read: Any) -> dict[tuple[int, int], Any]:
    cells = getattr(read, "cells", None)
    if isinstance(cells, dict):  # vision's IndigoRead: CellRead with tile and confidence
        return {tuple(cell): value for cell, value in cells.items()}
    tiles = getattr(read, "tiles", read.get("tiles") if isinstance(read, dict) else {})
    return {tuple(cell): value for cell, value in dict(tiles or {}).items()}


def diff_indigo(read: Any, state: Any, *, min_confidence: float) -> IndigoReading:
    """Propose the one new tile of ``read``; everything unexpected becomes a question."""
    accepted = dict(getattr(state, "tiles", {}) or {})
    result = IndigoReading()
    new: list[tuple[tuple[int, int], int, int, float]] = []
    for cell, value in _cells_of(read).items():
        tile = getattr(value, "tile", value)
        if tile is None:
            if cell in accepted:
                result.questions[cell] = "tile-missing"
            continue
        kind = int(getattr(tile, "kind", getattr(value, "kind", -1)))
        rotation = int(getattr(tile, "rotation", getattr(value, "rotation", 0)))
        confidence = float(getattr(value, "confidence", 1.0))
        if cell in accepted:
            old = accepted[cell]
            same = getattr(old, "same_pattern", None)
            if callable(same) and hasattr(tile, "paths") and not same(tile):
                result.questions[cell] = "tile-changed"
            continue
        new.append((cell, kind, rotation, confidence))
    if len(new) == 1:
        cell, kind, rotation, confidence = new[0]
        result.proposal = (cell, kind, rotation)
        result.confidence = confidence
        if confidence < min_confidence:
            result.questions[cell] = "unsure"
    elif len(new) > 1:
        for cell, *_rest in new:
            result.questions[cell] = "several-new"
    return result


@dataclass(frozen=True)
class ReadingQuestion:
    """One thing to check on a camera read, as a code for the screen to word.

    ``code`` is ``unsure`` (the tile at ``cells[0]`` was read with a low confidence),
    ``pack`` (the tiles do not look like the ones the camera was taught) or
    ``vision`` (one of the table reader's own questions, which are English: kept in
    ``message`` for the logs, worded on screen as a plain "check it").
    """

    code: str
    cells: tuple[Cell, ...] = ()
    message: str = ""


@dataclass
class EnigmaReading:
    """A solver's placement as the camera saw it, matched against the tile catalogue.

    With no ``entry``, ``problem`` says why as a code the screen words: ``no-new`` (no new
    tile seen), ``several-new`` (``seen`` new tiles), ``not-in-catalogue`` (no catalogue tile
    of the solver's category fits what was seen) or ``several-match`` (more than one does).
    ``message`` is the same in English, for the logs only.
    """

    entry: Any = None
    at: tuple[int, int] | None = None
    rotation: int = 0
    confidence: float = 0.0
    problem: str = ""
    seen: int = 0
    message: str = ""
    questions: list[ReadingQuestion] = field(default_factory=list)
    #: the edges the table nears, as the reader gives them ((kind, side): ``markers`` or
    #: ``view``, at ``north``/``east``/``south``/``west``): for the screen to show the players
    #: where the camera's view ends
    table_edges: tuple[tuple[str, str], ...] = ()
    #: what the read found that the next read of the table reuses (``previous=``)
    memory: Any = None


def as_it_lies(tile: Any) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """What play depends on, without the cells' names: each channel network's cell colours
    and openings. The reader names cells in its reading order, the catalogue as it was
    written: a tile read right may name them otherwise."""
    colour = dict(tile.cells)
    return tuple(sorted((tuple(sorted(colour[c] for c in comp.cells)),
                         tuple(sorted(str(q) for q in comp.ports)))
                        for comp in tile.components()))


def _placements_seen(seen: Any, at: tuple[int, int], state: Any, entries: Any
                     ) -> list[tuple[Any, int]]:
    """The legal placements on ``at`` of the category's tiles (``entries``) that look like
    the tile ``seen``, one (entry, turn) per tile as it lies: tiles of the category drawn
    alike, or a tile alike in two turns, are the same placement for the game."""
    wanted = as_it_lies(seen)
    found: dict[Any, tuple[Any, int]] = {}
    edges = state.options.require_edge_match
    for entry in entries:
        for turn in range(4):
            lies = as_it_lies(entry.conduit.rotated(turn))
            if lies == wanted and state.board.placement_problem(
                    entry.conduit, at, turn, require_edge_match=edges) is None:
                found.setdefault(lies, (entry, turn))
    return list(found.values())


def _settled(seen: Any, at: tuple[int, int], state: Any, entries: Any,
             min_confidence: float) -> tuple[Any, int] | None:
    """The one legal placement of the category's tiles (``entries``) on ``at`` that fits the
    tile ``seen`` whatever colour its unsure cells have and whichever structure it has of
    those the reader left open (the one read and its alternatives: a channel passing close
    to a cell, joined or not), when only those are doubted (the rest sure, no other problem
    named); else None. Each unsure cell is tried in every colour the catalogue's cells have,
    in every structure: the placements that fit any of them are the ones the truth can be,
    so one alone is the truth."""
    shape = getattr(seen, "shape_confidence", None)
    unsure = tuple(getattr(seen, "unsure_colours", ()))
    structures = (seen.tile, *getattr(seen, "alternatives", ()))
    choice_problems = set(getattr(seen, "choice_problems", ()))
    if ((not unsure and len(structures) == 1) or set(seen.problems) - choice_problems
            or shape is None or shape < min_confidence or seen.confidence >= min_confidence):
        return None
    colours = sorted({colour for entry in entries for _cell, colour in entry.conduit.cells})
    found: dict[Any, tuple[Any, int]] = {}
    for structure in structures:
        for choice in itertools.product(colours, repeat=len(unsure)):
            recoloured = dict(structure.cells) | dict(zip(unsure, choice, strict=True))
            variant = Tile.make(recoloured, structure.links)
            for entry, turn in _placements_seen(variant, at, state, entries):
                found.setdefault(as_it_lies(entry.conduit.rotated(turn)), (entry, turn))
    return next(iter(found.values())) if len(found) == 1 else None


def read_enigma_frame(frame: Any, cfg: Config, state: Any, *, category: str,
                      catalogue: Any, pack: Any = None, previous: Any = None) -> EnigmaReading:
    """Find the one new tile on the table and which catalogue tile (and turn) it is.

    ``previous``: the ``memory`` of the last reading of this table; where the camera and
    markers have not moved, only the squares whose picture changed are looked at again."""
    try:
        from vision.enigma.pack_cache import cached_enigma_pack
        from vision.enigma.reader import confidence_question, read_enigma, tile_question
        from vision.enigma.settings import ReaderSettings
    except ImportError as exc:
        raise ReaderUnavailableError("the Enigma table reader is not installed") from exc
    # loaded again only when the pack's folder changed: a pack taught anew is read at once
    pack = pack or cached_enigma_pack(art_pack_folder(cfg, cfg.vision.enigma.pack))
    # the game's own rule: where openings need not meet, a neighbour's opening says nothing
    settings = replace(ReaderSettings.from_config(cfg),
                       require_edge_match=state.options.require_edge_match)
    placed = set(state.board.tiles)
    # only the new tile and the known tiles beside it are read: a few tiles, not the table
    read = read_enigma(frame, pack, settings=settings, start_tile=catalogue.start.conduit,
                       placed=placed, previous=previous)
    new = [t for at, t in read.tiles.items() if tuple(at) not in placed]
    result = EnigmaReading(questions=[ReadingQuestion("vision", message=str(q))
                                      for q in read.questions],
                           table_edges=tuple(getattr(read, "table_edges", ())),
                           memory=getattr(read, "memory", None))
    if not getattr(read, "pack_fits", True):
        # the tiles are not the pack's (or the light bent their colours): said first, in
        # the players' words, with what to do about it
        result.questions.insert(0, ReadingQuestion("pack", message=str(read.questions[0])))
    if len(new) != 1:
        result.seen = len(new)
        result.problem = "several-new" if new else "no-new"
        result.message = (f"{len(new)} new tiles seen" if new else "no new tile seen")
        return result
    seen = new[0]
    result.at = (int(seen.at[0]), int(seen.at[1]))
    result.confidence = float(seen.confidence)
    entries = catalogue.by_category(category)
    matches = _placements_seen(seen.tile, result.at, state, entries)
    settled = _settled(seen, result.at, state, entries, settings.min_confidence)
    if settled is not None and seen.shape_confidence is not None:
        # only the colours of cells under pawns, or whether a channel joins a cell it
        # passes close to, were unsure, and one placement of the category fits whatever
        # they are: the catalogue settles them, nothing is asked about them
        matches = [settled]
        result.confidence = float(seen.shape_confidence)
        dropped = {confidence_question(seen), *(tile_question(seen.at, problem) for problem
                                                in getattr(seen, "choice_problems", ()))}
        result.questions = [q for q in result.questions if q.message not in dropped]
    if len(matches) != 1:
        result.problem = "several-match" if matches else "not-in-catalogue"
        result.message = ("the tile seen is not in the catalogue" if not matches
                          else "several catalogue tiles look like this one")
        return result
    result.entry, result.rotation = matches[0]
    if result.confidence < settings.min_confidence:
        result.questions.append(ReadingQuestion("unsure", (result.at,),
                                                f"unsure of the tile at {list(result.at)}"))
    return result


@dataclass(frozen=True)
class SheetQuestion:
    """One of the sheet reader's questions, kept as the reader asked it for the screen to word.

    ``kind`` is the reader's: ``cell`` (is this square filled?), ``split`` (is there an outline
    between these squares?), ``outline`` (an outline that does not close), ``bonus`` (is this
    the handwritten 1?), ``orientation`` (no cells: which side is up?) or one it adds later.
    ``cells`` are the squares the question is about (0-based row, column), ``message`` the
    reader's own English, for the logs only.
    """

    kind: str
    cells: tuple[Cell, ...] = ()
    message: str = ""
    #: the one square a ``cell`` question asks about, or None when it asks about several
    #: (the reader's "are these cells empty?", asked when many cells were unclear)
    square: Cell | None = None


def sheet_question(question: Any, filled: set[Cell]) -> SheetQuestion:
    """A question of :func:`vision.second_chance.reader.read_sheet` (a dict) as a
    :class:`SheetQuestion`.

    A ``cell`` question names the cell it asks about first; the cells after it are the tiles
    next to it, which its answer changes, all read filled. So a ``cell`` question with more than
    one cell read empty asks about all of them (is each really empty?).
    """
    if not isinstance(question, dict):  # a reader that only says what it doubts
        return SheetQuestion(kind="", message=str(question))
    cells = tuple((int(r), int(c)) for r, c in question.get("cells", ()))
    kind = str(question.get("kind", ""))
    square = None
    if kind == "cell" and cells and sum(c not in filled for c in cells) <= 1:
        square = cells[0]
    return SheetQuestion(kind=kind, cells=cells, message=str(question.get("message", "")),
                         square=square)


@dataclass(frozen=True)
class SheetProblemSeen:
    """One problem of the rules' check of the sheet read, kept for the screen to word.

    ``code`` is the check's (:class:`companion.second_chance.SheetProblem`: ``centre-empty``,
    ``illegal-shape``, ``unsegmented``, ...), ``cells`` the squares it is about (0-based row,
    column) and ``message`` the check's own English, for the logs only.
    """

    code: str
    cells: tuple[Cell, ...] = ()
    message: str = ""


@dataclass
class SheetReadingResult:
    """A Second Chance sheet as read, against the player's accepted grid."""

    new_cells: list[Cell] = field(default_factory=list)
    missing: list[Cell] = field(default_factory=list)
    #: squares the reader is unsure of (those of its questions among them)
    doubtful: list[Cell] = field(default_factory=list)
    questions: list[SheetQuestion] = field(default_factory=list)
    #: what the rules' sheet check finds wrong (an illegal shape, the centre empty, ...)
    problems: list[SheetProblemSeen] = field(default_factory=list)
    #: how sure the reader is of each square's read, filled or empty (0..1), never more than
    #: of the sheet as a whole: a square read clearly on a sheet mostly unclear is no surer
    cell_confidence: dict[Cell, float] = field(default_factory=dict)


def read_sheet_frame(frame: Any, accepted: set[Cell], *,
                     cfg: Config | None = None,
                     choices: TileChoices | None = None,
                     one_possible: bool = True) -> SheetReadingResult:
    """Read a sheet and say which squares are newly filled (the drawing to enter).

    ``cfg`` is the app's config; its ``[vision.sheet]`` thresholds steer the reader, its
    ``[vision.picture]`` limits say which pictures it refuses (``FrameRefusedError``, worded
    by the screen from its reason). ``choices``: the cards the player drew, from the game's
    events (:func:`companion.second_chance.drawn.tile_choices`): they settle outlines the
    drawing leaves open; ``one_possible``: whether the player may have written the bonus 1.
    """
    try:
        from vision.second_chance.reader import read_sheet
        from vision.second_chance.settings import SheetSettings
    except ImportError as exc:
        raise ReaderUnavailableError("the sheet reader is not installed") from exc
    settings = SheetSettings.from_config(cfg if cfg is not None else Config())
    reading = read_sheet(frame, settings=settings, choices=choices, one_possible=one_possible)
    filled = {(int(r), int(c)) for r, c in reading.filled}
    problems = list(reading.check.problems)
    result = SheetReadingResult(
        new_cells=sorted(filled - accepted),
        missing=sorted(accepted - filled),
        doubtful=[(int(r), int(c)) for r, c in reading.doubtful],
        questions=[sheet_question(q, filled) for q in reading.questions],
        problems=[SheetProblemSeen(code=str(getattr(p, "code", "")),
                                   cells=tuple((int(r), int(c)) for r, c in
                                               getattr(p, "cells", ())),
                                   message=str(getattr(p, "message", p)))
                  for p in problems],
        cell_confidence={(r, c): min(float(v), float(reading.confidence))
                         for r, row in enumerate(reading.cell_confidence.tolist())
                         for c, v in enumerate(row)},
    )
    return result


def read_card_frame(frame: Any) -> Any:
    """The shape of the one card under the camera (vision's card reader), canonical."""
    try:
        from vision.second_chance.card_reader import read_card
    except ImportError as exc:
        raise ReaderUnavailableError("the card reader is not installed") from exc
    return read_card(frame)


@dataclass(frozen=True)
class RackReading:
    """A secret rack read from one camera frame: the code to store, or why nothing is stored.

    ``problem`` is a tag the screen words (``refused``, ``count``, ``box``, ``taken``,
    ``pack`` (the tiles do not look like the taught ones), ``order``, ``unsure``); ``detail``
    is the reader's own line, which names slots at most, never a tile. The repr leaves the code
    out: it is a secret.
    """

    code: Any = None
    confidence: float = 0.0
    problem: str = ""
    detail: str = ""
    #: tiles seen on the mat (with ``problem == "count"``)
    seen: int = 0
    #: the reader's tag of a refused frame (``no-markers``, ``bad-homography``, ...)
    reason: str = ""

    def __repr__(self) -> str:
        stored = f"{len(self.code)} tiles" if self.code is not None else "nothing"
        return (f"RackReading({stored}, confidence={self.confidence:.2f}, "
                f"problem={self.problem!r})")


def read_code_frame(frame: Any, *, expected: int | None, taken: Any = (),
                    cfg: Config | None = None,
                    pack: Any = None) -> RackReading:
    """Read the rack laid on the code mat in ``frame`` (runs on a worker thread).

    A code is returned only when exactly ``expected`` tiles are read confidently (config
    ``[vision.code] accept``), laid in rack order, and they fit in the box together with the
    racks already entered (``taken``: codes). The frame is neither kept nor logged.
    ``expected=None`` takes any number of tiles (the teach screen's test rack).
    """
    try:
        from companion.break_the_code import Code
        from companion.break_the_code.tiles import check_box_counts
        from companion.errors import CompanionError
        from vision.break_the_code.mat import SLOTS
        from vision.break_the_code.pack import load_code_pack
        from vision.break_the_code.reader import is_in_rack_order, read_tiles
        from vision.break_the_code.settings import DEFAULT_SETTINGS, CodeReaderSettings
        from vision.errors import FrameRefusedError
    except ImportError as exc:
        raise ReaderUnavailableError("the Break the Code tile reader is not installed") from exc
    settings = CodeReaderSettings.from_config(cfg) if cfg is not None else DEFAULT_SETTINGS
    try:
        if pack is None:
            pack = load_code_pack(art_pack_folder(cfg, cfg.vision.code.pack) if cfg else None)
        reading = read_tiles(frame, pack, settings=settings)
    except FrameRefusedError as exc:
        # a refusal's message names slots at most; the traceback (which holds the frame)
        # goes no further than here
        return RackReading(problem="refused", detail=exc.message, reason=exc.reason)
    finally:
        del frame
    tiles = [t.tile for t in reading.tiles]
    if (expected is not None and len(tiles) != expected) or not tiles:
        return RackReading(problem="count", seen=len(tiles), detail="; ".join(reading.problems))
    # tiles of another look misread alike, or out of order: the cause to tell is the look
    if reading.looks_unlike_pack():
        return RackReading(problem="pack", confidence=reading.confidence)
    try:
        check_box_counts(tiles)
    except CompanionError:
        # the engine's message names the tile: say only where to look
        counts: dict[Any, list[str]] = {}
        for t in reading.tiles:
            counts.setdefault(t.tile, []).append(SLOTS[t.slot].name)
        alike = next(slots for slots in counts.values() if len(slots) > 1)
        return RackReading(problem="box", detail=", ".join(alike))
    try:
        check_box_counts([*tiles, *(t for code in taken for t in code.tiles)])
    except CompanionError:
        return RackReading(problem="taken")
    if not is_in_rack_order(reading):
        return RackReading(problem="order", confidence=reading.confidence)
    if reading.confidence < settings.accept:
        return RackReading(problem="unsure", confidence=reading.confidence,
                           detail=reading.problems[0] if reading.problems else "")
    return RackReading(code=Code.of(tiles), confidence=reading.confidence)
