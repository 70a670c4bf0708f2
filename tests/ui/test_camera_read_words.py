"""What the Enigma and Indigo camera reads say is worded in the player's language: the readers
(ui.reading) return codes, the screens word them; the readers' own English goes to the log.

Driven on the real screens; only the read's result is replaced, at the ui.reading boundary (the
screens' ``_read_done`` gets the reading a worker thread would have handed it)."""

from __future__ import annotations

import logging
import re
from types import SimpleNamespace
from typing import Any

import pytest

pytestmark = pytest.mark.ui

#: words of the readers' English that must not reach an es or uk player
ENGLISH = re.compile(r"\b(tile|tiles|seen|unsure|catalogue|missing|changed|check|marked|"
                     r"cell|cells|new|square|squares|confidence|networker)\b")


# --- Enigma ---------------------------------------------------------------------------------
def enigma_placing(driver: Any) -> Any:
    """The Enigma screen at the first solver's placement, as the players get there."""
    from companion.timer import ManualClock

    driver.tap(driver.screen("home").ids.game_enigma)
    driver.tap(driver.screen("setup").ids.start_button)
    screen = driver.screen("enigma")
    screen.clock = ManualClock()
    players = driver.app.session.players
    for player, category in zip(players, ("conduit", "weight", "fragment"), strict=False):
        driver.tap(screen.choice_toggles[(player, category)])
    driver.tap(screen.go_button)
    driver.tap(screen.solver_toggles[players[0]])
    screen.finish_round()
    assert screen.phase == "place" and screen.solver() == players[0]
    return screen


@pytest.mark.parametrize(("language", "shown"), [
    ("en", {"no-new": "Not sure what was placed (no new tile seen); choose the tile",
            "several-new": "Not sure what was placed (3 new tiles seen); choose the tile",
            "not-in-catalogue": "Not sure what was placed (the tile seen is not in the "
                                "catalogue); choose the tile",
            "several-match": "Not sure what was placed (several catalogue tiles look like "
                             "this one); choose the tile"}),
    ("es", {"no-new": "No está claro qué se colocó (no se ve ninguna loseta nueva); "
                      "elige la loseta",
            "several-new": "No está claro qué se colocó (3 losetas nuevas vistas); "
                           "elige la loseta",
            "not-in-catalogue": "No está claro qué se colocó (la loseta vista no está en el "
                                "catálogo); elige la loseta",
            "several-match": "No está claro qué se colocó (varias losetas del catálogo se "
                             "parecen a esta); elige la loseta"}),
    ("uk", {"no-new": "Незрозуміло, що поклали (нової плитки не видно); оберіть плитку",
            "several-new": "Незрозуміло, що поклали (видно 3 нові плитки); оберіть плитку",
            "not-in-catalogue": "Незрозуміло, що поклали (побаченої плитки немає в "
                                "каталозі); оберіть плитку",
            "several-match": "Незрозуміло, що поклали (на неї схожі кілька плиток "
                             "каталогу); оберіть плитку"}),
])
def test_enigma_says_why_no_tile_was_read_in_the_players_language(
        in_language: Any, caplog: Any, language: str, shown: dict[str, str]) -> None:
    from ui.reading import EnigmaReading

    driver = in_language(language)
    screen = enigma_placing(driver)
    for problem, status in shown.items():
        english = f"the reader's own words for {problem}"
        with caplog.at_level(logging.INFO, logger="ui.screens.enigma"):
            screen._read_done(EnigmaReading(problem=problem, seen=3, message=english), None)
        driver.pump(2)
        assert screen.status == status
        assert status in " | ".join(driver.texts())
        assert english in caplog.text  # the English is kept, in the log
        if language != "en":
            assert not ENGLISH.search(screen.status), screen.status
    assert screen.tile_entry is None


def _legal_read(screen: Any, questions: list[Any]) -> Any:
    """A read of a catalogue tile of the solver's category at a square it can take."""
    from ui.reading import EnigmaReading

    state = screen.state()
    category = dict(state.choices)[screen.solver()]
    entry = screen.catalogue().by_category(category)[0]
    placement = state.legal_placements(entry.conduit)[0]
    return EnigmaReading(entry=entry, at=placement.at, rotation=placement.rotation,
                         confidence=0.4, questions=questions)


@pytest.mark.parametrize(("language", "check"), [
    ("en", "Please check it: unsure of the tile {where} from the start tile; the tile and the "
           "squares around it"),
    ("es", "Revísalo: dudas sobre la loseta a {where} de la loseta inicial; la loseta y las "
           "casillas de alrededor"),
    ("uk", "Перевірте: невпевнено щодо плитки: {where} від стартової плитки; плитку й клітинки "
           "навколо неї"),
])
def test_enigma_asks_to_check_a_read_tile_in_the_players_language(
        in_language: Any, caplog: Any, language: str, check: str) -> None:
    from ui.reading import ReadingQuestion
    from ui.screens.enigma_words import placement_words

    driver = in_language(language)
    screen = enigma_placing(driver)
    probe = _legal_read(screen, [])
    x, y = probe.at
    vision = ["tile [1, 0]: is it read right? (confidence 0.41)",
              "tile [1, 0] cell 2: is there a red networker? (confidence 0.30)"]
    reading = _legal_read(screen, [ReadingQuestion("unsure", (probe.at,), "unsure (log)"),
                                   *(ReadingQuestion("vision", message=q) for q in vision)])
    with caplog.at_level(logging.INFO, logger="ui.screens.enigma"):
        screen._read_done(reading, None)
    driver.pump(2)
    assert screen.tile_entry is reading.entry
    lines = screen.status.split("\n")
    where, _turn = placement_words(probe.at, 0)  # the square, told as a placement is
    assert lines[-1] == check.format(where=where)
    assert f"{x},{y}" not in lines[-1]
    assert all(q in caplog.text for q in vision)
    if language != "en":
        assert not ENGLISH.search(lines[-1]), lines[-1]


@pytest.mark.parametrize(("language", "view", "markers"), [
    ("en", "The table reaches the edge of the camera's picture on the right: move the camera so "
           "it sees the whole table.",
           "The table grows past the markers at the top, at the bottom: move those markers out, "
           "so the whole table lies between them."),
    ("es", "La mesa llega al borde de la imagen de la cámara a la derecha: mueve la cámara para "
           "que vea toda la mesa.",
           "La mesa crece más allá de los marcadores arriba, abajo: aleja esos marcadores para que "
           "toda la mesa quede entre ellos."),
    ("uk", "Стіл доходить до краю кадру камери праворуч: пересуньте камеру, щоб вона бачила весь "
           "стіл.",
           "Стіл виходить за маркери вгорі, внизу: відсуньте ці маркери, щоб увесь стіл лежав між "
           "ними."),
])
def test_enigma_says_where_the_table_nears_the_end_of_the_cameras_view(
        in_language: Any, language: str, view: str, markers: str) -> None:
    """The reader's table edges (kind, side) are told under the read, with what to move, on
    a read tile and on a read that found none (the new tile may be the one cut off)."""
    from ui.reading import EnigmaReading

    driver = in_language(language)
    screen = enigma_placing(driver)
    edges = (("markers", "north"), ("markers", "south"), ("view", "east"))
    reading = _legal_read(screen, [])
    reading.table_edges = edges
    screen._read_done(reading, None)
    driver.pump(2)
    assert screen.status.split("\n")[-1] == f"{view} {markers}"
    assert screen.tile_entry is reading.entry
    screen._read_done(EnigmaReading(problem="no-new", table_edges=(("view", "east"),)), None)
    driver.pump(2)
    assert screen.status.split("\n")[-1] == view
    # a read away from every edge says nothing of them
    screen._read_done(_legal_read(screen, []), None)
    assert "\n" not in screen.status


# --- Indigo ---------------------------------------------------------------------------------
def _indigo(driver: Any) -> Any:
    driver.tap(driver.screen("home").ids.game_indigo)
    driver.tap(driver.screen("setup").ids.start_button)
    return driver.screen("indigo")


def _free_cells(screen: Any, count: int) -> list[tuple[int, int]]:
    from companion.indigo.geometry import ROUTE_CELL_SET

    taken = set(screen.state().tiles)
    return [c for c in sorted(ROUTE_CELL_SET) if c not in taken][:count]


def _legal_proposal(screen: Any) -> tuple[tuple[int, int], int, int]:
    from companion.errors import CompanionError
    from companion.indigo.state import Placement, predict
    from companion.indigo.tiles import Tile

    for cell in _free_cells(screen, 40):
        for rotation in range(6):
            try:
                predict(screen.state(), Placement(cell, Tile(0, rotation)))
            except CompanionError:
                continue
            return cell, 0, rotation
    raise AssertionError("no legal placement found")


@pytest.mark.parametrize(("language", "shown"), [
    ("en", {"tile-missing": "1 tile missing; tap the cell where the tile was put",
            "tile-changed": "2 tiles changed; tap the cell where the tile was put",
            "several-new": "3 new tiles: one a turn; tap the cell where the tile was put",
            "check": "check 2 marked cells; tap the cell where the tile was put",
            "vision": "The camera is not sure what it saw; tap the cell where the tile was put",
            "none": "No new tile found; tap the cell where it was put"}),
    ("es", {"tile-missing": "falta 1 loseta; toca la casilla donde se puso la loseta",
            "tile-changed": "2 losetas cambiadas; toca la casilla donde se puso la loseta",
            "several-new": "3 losetas nuevas: una por turno; toca la casilla donde se puso la "
                           "loseta",
            "check": "revisa 2 casillas marcadas; toca la casilla donde se puso la loseta",
            "vision": "La cámara no está segura de lo que vio; toca la casilla donde se puso "
                      "la loseta",
            "none": "No hay loseta nueva; toca la casilla donde se puso"}),
    ("uk", {"tile-missing": "1 плитка зникла; торкніться клітинки, куди поклали плитку",
            "tile-changed": "2 плитки змінилися; торкніться клітинки, куди поклали плитку",
            "several-new": "3 нові плитки: одна за хід; торкніться клітинки, куди поклали "
                           "плитку",
            "check": "перевірте 2 позначені клітинки; торкніться клітинки, куди поклали "
                     "плитку",
            "vision": "Камера не впевнена в побаченому; торкніться клітинки, куди поклали "
                      "плитку",
            "none": "Нової плитки не знайдено; торкніться клітинки, куди її поклали"}),
])
def test_indigo_says_why_no_tile_is_proposed_in_the_players_language(
        in_language: Any, caplog: Any, language: str, shown: dict[str, str]) -> None:
    from ui.reading import IndigoReading

    driver = in_language(language)
    screen = _indigo(driver)
    cells = _free_cells(screen, 3)
    counts = {"tile-missing": 1, "tile-changed": 2, "several-new": 3, "check": 2}
    english = "no new tile, but the reader's own English"
    for code, status in shown.items():
        asked = {cell: code for cell in cells[:counts.get(code, 0)]}
        reading = IndigoReading(questions=asked, message=english if code == "vision" else "")
        with caplog.at_level(logging.INFO, logger="ui.screens.indigo"):
            screen._read_done(reading, None)
        driver.pump(2)
        assert screen.status == status
        assert set(screen.ids.board.marks) == set(asked)
        assert status in " | ".join(driver.texts())
        if language != "en":
            assert not ENGLISH.search(screen.status), screen.status
    assert english in caplog.text


@pytest.mark.parametrize(("language", "first", "why"), [
    ("en", "Please check the marked cells, then confirm or tap to correct",
     "1 cell read unsure; 1 tile missing"),
    ("es", "Revisa las casillas marcadas y confirma o toca para corregir",
     "1 casilla leída con dudas; falta 1 loseta"),
    ("uk", "Перевірте позначені клітинки, потім підтвердіть або торкніться, щоб виправити",
     "1 клітинку прочитано невпевнено; 1 плитка зникла"),
])
def test_indigo_asks_to_check_a_proposal_in_the_players_language(
        in_language: Any, caplog: Any, language: str, first: str, why: str) -> None:
    from ui.reading import IndigoReading

    driver = in_language(language)
    screen = _indigo(driver)
    proposal = _legal_proposal(screen)
    other = next(c for c in _free_cells(screen, 5) if c != proposal[0])
    english = "the gems do not move as predicted"
    # the rules' check asks about the proposed cell: the first line says to check it
    reading = IndigoReading(proposal=proposal, confidence=0.4, message=english,
                            questions={proposal[0]: "check", other: "unsure",
                                       (0, 0): "tile-missing"})
    with caplog.at_level(logging.INFO, logger="ui.screens.indigo"):
        screen._read_done(reading, None)
    driver.pump(2)
    assert screen.proposal is not None
    assert screen.status == f"{first}\n{why}"
    assert set(screen.ids.board.marks) == {proposal[0], other, (0, 0)}
    assert english in caplog.text
    only_check = IndigoReading(proposal=proposal, questions={proposal[0]: "check"})
    screen._read_done(only_check, None)
    assert screen.status == first
    if language != "en":
        assert not ENGLISH.search(screen.status), screen.status


# --- the readers' codes ---------------------------------------------------------------------
def test_the_indigo_difference_gives_a_code_for_each_cell_it_asks_about() -> None:
    from ui.reading import diff_indigo

    class _Old:
        def same_pattern(self, tile: Any) -> bool:
            return bool(tile.paths == "same")

    tile = SimpleNamespace(kind=1, rotation=0, paths="other")
    state = SimpleNamespace(tiles={(0, 1): _Old(), (0, 2): _Old()})
    read = {"tiles": {(0, 1): SimpleNamespace(tile=None, confidence=1.0),
                      (0, 2): SimpleNamespace(tile=tile, confidence=1.0),
                      (1, 1): SimpleNamespace(tile=tile, confidence=1.0),
                      (1, 2): SimpleNamespace(tile=tile, confidence=1.0)}}
    result = diff_indigo(read, state, min_confidence=0.8)
    assert result.proposal is None
    assert result.questions == {(0, 1): "tile-missing", (0, 2): "tile-changed",
                                (1, 1): "several-new", (1, 2): "several-new"}
    one_new = {"tiles": {(1, 1): SimpleNamespace(tile=tile, confidence=0.5)}}
    result = diff_indigo(one_new, SimpleNamespace(tiles={}), min_confidence=0.8)
    assert result.proposal == ((1, 1), 1, 0) and result.questions == {(1, 1): "unsure"}


# --- the score plot -------------------------------------------------------------------------
@pytest.mark.parametrize(("language", "shown"), [
    ("en", "no scores"), ("es", "sin puntuaciones"), ("uk", "немає очок")])
def test_an_empty_score_plot_says_so_in_the_players_language(
        in_language: Any, monkeypatch: Any, language: str, shown: str) -> None:
    import ui.widgets.score_plot as score_plot

    in_language(language)
    drawn: list[str] = []
    real = score_plot._text
    monkeypatch.setattr(score_plot, "_text",
                        lambda text, size: (drawn.append(text), real(text, size))[1])
    plot = score_plot.ScorePlot(size=(300, 200))
    plot.redraw()
    assert drawn[-1] == shown


# --- the longest of these fit -----------------------------------------------------------------
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("language", ["es", "uk"])
def test_the_longest_read_statuses_fit_and_are_not_english(
        make_driver: Any, language: str, size: tuple[int, int]) -> None:
    from test_layout_text_fits import (
        cut_buttons,
        english_only_words,
        english_texts,
        spilling_labels,
    )

    from ui.reading import EnigmaReading, IndigoReading, ReadingQuestion

    driver = make_driver(size=size)
    english = english_only_words()
    problems: list[Any] = []

    def look(name: str) -> None:
        driver.pump(3)
        for top in list(driver.window.children):
            problems.extend((name, "spills", *p) for p in spilling_labels(top))
            problems.extend((name, "button", *p) for p in cut_buttons(top))
            problems.extend((name, "english", *p) for p in english_texts(top, english))

    try:
        driver.screen("settings").change("app", "language", language)
        driver.set_size(size)
        screen = _indigo(driver)
        cells = _free_cells(screen, 6)
        codes = ("tile-missing", "tile-changed", "unsure", "several-new", "several-new", "check")
        screen._read_done(IndigoReading(questions=dict(zip(cells, codes, strict=True)),
                                        message="no new tile, but ..."), None)
        look("indigo-no-proposal")
        proposal = _legal_proposal(screen)
        others = [c for c in cells if c != proposal[0]]
        screen._read_done(IndigoReading(
            proposal=proposal, questions={proposal[0]: "check", others[0]: "unsure",
                                          others[1]: "tile-changed", (0, 0): "tile-missing"},
            message="the gems do not move as predicted"), None)
        look("indigo-proposal")
        driver.app.show("home")
        enigma = enigma_placing(driver)
        enigma._read_done(EnigmaReading(problem="several-match"), None)
        look("enigma-no-tile")
        read = _legal_read(enigma, [])
        checked = _legal_read(enigma, [
            ReadingQuestion("unsure", (read.at,)), ReadingQuestion("vision", message="x")])
        checked.table_edges = (("markers", "north"), ("markers", "east"), ("markers", "south"),
                               ("markers", "west"), ("view", "east"), ("view", "west"))
        enigma._read_done(checked, None)
        look("enigma-check")
    finally:
        driver.screen("settings").change("app", "language", "en")
    assert not problems, f"{language} {size}: " + "\n".join(map(str, problems))


def test_the_enigma_read_gives_codes_and_keeps_the_readers_english(monkeypatch: Any) -> None:
    import ui.reading
    import vision.enigma.reader
    from config import config_from_dict
    from ui.reading import ReadingQuestion, read_enigma_frame

    seen: dict[tuple[int, int], Any] = {}
    asked = ["tile [2, 1]: is it read right? (confidence 0.41)"]
    monkeypatch.setattr(vision.enigma.reader, "read_enigma", lambda *a, **k: SimpleNamespace(
        tiles=dict(seen), questions=list(asked)))
    entry = SimpleNamespace(category="conduit", conduit="c", id="C1")
    matches: list[Any] = []
    catalogue = SimpleNamespace(start=SimpleNamespace(conduit="s"),
                                by_category=lambda category: [entry])
    # which legal placements the tile seen matches is the matcher's own test's business
    monkeypatch.setattr(ui.reading, "_placements_seen",
                        lambda tile, at, state, entries: list(matches))
    state = SimpleNamespace(board=SimpleNamespace(tiles={(0, 0): "start"}),
                            options=SimpleNamespace(require_edge_match=True),
                            legal_placements=lambda conduit: [
                                SimpleNamespace(at=(2, 1), rotation=1)])
    cfg = config_from_dict({"vision": {"min_confidence": 0.8}})

    def read() -> Any:
        return read_enigma_frame(None, cfg, state, category="conduit", catalogue=catalogue,
                                 pack=object())

    first = read()
    assert (first.problem, first.entry, first.message) == ("no-new", None, "no new tile seen")
    assert first.questions == [ReadingQuestion("vision", message=asked[0])]
    seen[(2, 1)] = SimpleNamespace(at=(2, 1), tile="t", confidence=0.5)
    seen[(3, 1)] = SimpleNamespace(at=(3, 1), tile="t", confidence=0.9)
    assert (read().problem, read().seen) == ("several-new", 2)
    del seen[(3, 1)]
    assert read().problem == "not-in-catalogue"
    matches[:] = [(entry, 1), (SimpleNamespace(category="conduit", conduit="d"), 1)]
    assert read().problem == "several-match"
    matches[:] = [(entry, 1)]
    one = read()
    assert (one.problem, one.entry, one.at, one.rotation) == ("", entry, (2, 1), 1)
    assert [(q.code, q.cells) for q in one.questions] == [("vision", ()), ("unsure", ((2, 1),))]


def test_the_indigo_read_asks_with_codes_and_keeps_the_checks_english(monkeypatch: Any) -> None:
    import vision.indigo.after
    import vision.indigo.reader
    from config import config_from_dict
    from ui.reading import read_indigo_frame

    tile = SimpleNamespace(kind=2, rotation=3)
    cells = {(1, 0): SimpleNamespace(tile=tile, confidence=0.95),
             (2, 0): SimpleNamespace(tile=None, confidence=0.3)}
    monkeypatch.setattr(vision.indigo.reader, "read_indigo",
                        lambda *a, **k: SimpleNamespace(cells=cells))
    english = ["the gems do not move as predicted"]
    monkeypatch.setattr(vision.indigo.after, "check_after", lambda *a, **k: SimpleNamespace(
        questions=english, consistent=False,
        placement=SimpleNamespace(cell=(1, 0), tile=tile)))
    cfg = config_from_dict({"vision": {"min_confidence": 0.8}})
    frame = SimpleNamespace(shape=(480, 640, 3))
    result = read_indigo_frame(frame, cfg, SimpleNamespace(tiles={}), pack=object())
    assert result.proposal == ((1, 0), 2, 3)
    assert result.questions == {(1, 0): "check", (2, 0): "unsure"}
    assert result.message == english[0]


def test_the_enigma_read_follows_the_game_s_edge_rule(monkeypatch: Any) -> None:
    # a neighbour's opening settles a doubtful one only where the rules make openings meet
    import vision.enigma.reader
    from config import config_from_dict
    from ui.reading import read_enigma_frame

    rules_seen: list[bool] = []

    def read_enigma(*args: Any, settings: Any, **kwargs: Any) -> Any:
        rules_seen.append(settings.require_edge_match)
        return SimpleNamespace(tiles={}, questions=[])

    monkeypatch.setattr(vision.enigma.reader, "read_enigma", read_enigma)
    catalogue = SimpleNamespace(start=SimpleNamespace(conduit="s"), by_category=lambda c: [])
    for rule in (False, True):
        state = SimpleNamespace(board=SimpleNamespace(tiles={(0, 0): "start"}),
                                options=SimpleNamespace(require_edge_match=rule),
                                legal_placements=lambda conduit: [])
        read_enigma_frame(None, config_from_dict({}), state, category="conduit",
                          catalogue=catalogue, pack=object())
    assert rules_seen == [False, True]
