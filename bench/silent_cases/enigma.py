"""Enigma tables for bench/silent_reads.py.

Two judges per frame, both with the demo pack (what the app reads with until someone teaches
the camera): ``enigma/<style>`` is the app's own path (``ui.reading.read_enigma_frame``: the
one new tile, its catalogue entry, square and turn); ``enigma-table/<style>`` is the whole
table as the reader gives it: silent wrong when any tile or networker it vouches for (at the
app's threshold) is not the truth, whatever it asks about the others. The ``ink`` style
draws tiles and cells the demo pack was not drawn from.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from silent_cases import Case, Piece, Verdict

#: tiles on the table besides the start tile, the last of them the one just placed
TABLE_TILES = 10
#: the camera frame the cases are drawn at (the app's camera, as bench/enigma_reader.py draws it)
FRAME_SIZE = (1920, 1080)


def _scene(seed: int) -> tuple[Any, Any, dict[str, Any]]:
    """The state before the last placement, the state after it and the last place event."""
    from vision.enigma.synth.scenes import random_record

    record, after = random_record(seed, tiles=TABLE_TILES)
    _, before = random_record(seed, tiles=TABLE_TILES - 1)
    last = [e for e in record["events"] if e.get("type") == "place"][-1]
    return before, after, last


def _board(image: np.ndarray) -> np.ndarray | None:
    """The marker frame's outline in the frame (the table the reader reads)."""
    from vision.enigma.geometry import table_geometry
    from vision.enigma.reader import table_outline
    from vision.enigma.settings import DEFAULT_TABLE
    from vision.errors import FrameRefusedError
    from vision.markers import locate

    geo = table_geometry(DEFAULT_TABLE)
    try:
        return table_outline(locate(image, geo.layout), geo)
    except FrameRefusedError:
        return None


def _app_judge(before: Any, last: dict[str, Any], catalogue: Any, cfg: Any, pack: Any
               ) -> Any:
    from ui.reading import as_it_lies, read_enigma_frame
    from vision.errors import FrameRefusedError

    truth = catalogue.entry(last["tile_id"])
    at = (int(last["at"][0]), int(last["at"][1]))

    def judge(image: np.ndarray) -> tuple[str, str]:
        try:
            reading = read_enigma_frame(image, cfg, before, category=truth.category,
                                        catalogue=catalogue, pack=pack)
        except FrameRefusedError as exc:
            return "refused", exc.reason
        if reading.entry is None:
            return "asked", reading.problem
        if reading.questions:
            return "asked", "questions"
        # what lies on the table is judged: a tile that looks the same turned (a cell joined
        # to all four sides) is right in either turn, and a tile of the category drawn
        # alike is the same placement for the game (it is given the tile as it lies)
        same_turn = as_it_lies(reading.entry.conduit.rotated(reading.rotation)) == as_it_lies(
            truth.conduit.rotated(int(last["rotation"])))
        right = reading.at == at and same_turn
        return ("right", "") if right else ("silent_wrong", "")

    return judge


def _pieces(read: Any, rendered: Any, min_confidence: float) -> list[Piece]:
    """Every tile and networker read, with its confidence and whether it is the truth."""
    from vision.enigma.synth.truth import score_read

    score = score_read(rendered.truth, rendered.cell_xy, read, min_confidence=min_confidence)
    truth_at = {(t["at"][0], t["at"][1]) for t in rendered.truth["tiles"]}
    invented = [(tile.confidence, False) for at, tile in read.tiles.items() if at not in truth_at]
    wanted = {((n["at"][0], n["at"][1]), n["colour"]) for n in rendered.truth["networkers"]}
    networkers = [(n.confidence, (n.at, n.colour) in wanted) for n in read.networkers]
    return [*score.pieces, *invented, *networkers]


def _vouched_wrong(read: Any, rendered: Any, min_confidence: float) -> int:
    """Tiles and networkers the reader vouches for (confidence at or above the threshold)
    that are not the truth: misread tiles, tiles where the table shows none, networkers
    where none stands or of another colour. A question about some other tile does not
    excuse them: the players check what is asked, and take the rest as read."""
    from vision.enigma.synth.truth import score_read

    score = score_read(rendered.truth, rendered.cell_xy, read, min_confidence=min_confidence)
    truth_at = {(t["at"][0], t["at"][1]) for t in rendered.truth["tiles"]}
    invented = sum(1 for at, tile in read.tiles.items()
                   if at not in truth_at and tile.confidence >= min_confidence)
    wanted = {((n["at"][0], n["at"][1]), n["colour"]) for n in rendered.truth["networkers"]}
    extra_nets = sum(1 for n in read.networkers
                     if (n.at, n.colour) not in wanted and n.confidence >= min_confidence)
    return int(score.confident_wrong) + invented + extra_nets


def _table_judge(view: Any, rendered: Any, cfg: Any, pack: Any) -> Any:
    from vision.enigma.reader import read_enigma
    from vision.enigma.settings import ReaderSettings
    from vision.errors import FrameRefusedError

    settings = ReaderSettings.from_config(cfg)
    start = view.tiles[(0, 0)].tile

    def judge(image: np.ndarray) -> Verdict:
        try:
            read = read_enigma(image, pack, settings=settings, start_tile=start)
        except FrameRefusedError as exc:
            return "refused", exc.reason
        pieces = _pieces(read, rendered, settings.min_confidence)
        if _vouched_wrong(read, rendered, settings.min_confidence):
            return "silent_wrong", "", pieces
        return ("asked" if read.questions else "right",
                "questions" if read.questions else "", pieces)

    return judge


def cases(first: int, frames: int) -> Iterator[Case]:
    """Enigma tables of 10 tiles and the start tile, in the demo look and the ink look (which
    the demo pack was not drawn from), read with the demo pack."""
    from companion.enigma.catalogue import load_catalogue
    from config import Config
    from vision.enigma.pack import load_enigma_pack
    from vision.enigma.synth.art import draw_pack
    from vision.enigma.synth.render import TableView, render_frame
    from vision.enigma.synth.scenes import categories_of, random_record

    cfg = Config()
    catalogue = load_catalogue()
    demo = load_enigma_pack()
    looks = {"demo": demo, "ink": draw_pack("ink")}
    for index in range(frames):
        seed = first + index
        style = "demo" if index % 2 == 0 else "ink"
        before, after, last = _scene(seed)
        record, _ = random_record(seed, tiles=TABLE_TILES)
        view = TableView.of_state(after, looks[style], categories=categories_of(record))
        rendered = render_frame(view, looks[style], seed=seed, frame_size=FRAME_SIZE)
        yield Case(f"enigma/{style}", seed, rendered.image,
                   _app_judge(before, last, catalogue, cfg, demo), _board)
        yield Case(f"enigma-table/{style}", seed, rendered.image,
                   _table_judge(view, rendered, cfg, demo), _board)
