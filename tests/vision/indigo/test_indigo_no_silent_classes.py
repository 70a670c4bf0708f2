"""Classes of wrong reads the Indigo reader gave with no question (issue 19), each drawn on
purpose: the read may be wrong, but then it is asked."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from companion.indigo import CHIPS
from companion.indigo.geometry import CENTRE
from companion.indigo.state import all_legal_placements, new_game, play
from vision.indigo.board import cell_xy, chip_spaces
from vision.indigo.chips import read_chips, settle_by_charts
from vision.indigo.glare import glare_mask
from vision.indigo.model import canonical_size, colour_distance, pack_model
from vision.indigo.pack import IndigoPack
from vision.indigo.reader import chip_questions, read_indigo
from vision.indigo.settings import DEFAULT_SETTINGS
from vision.indigo.synth.render import render_frame
from vision.indigo.synth.table_camera import SKIN
from vision.indigo.view import BoardView

FRAME = (1280, 720)
SURE = DEFAULT_SETTINGS.min_confidence
#: a player index the renderer has no chip colour for: the space is drawn empty
NO_CHIP = 9


def test_a_chip_space_seen_empty_among_chips_is_asked(demo: IndigoPack) -> None:
    """Every layout fills the twelve chip spaces: one read empty (a red chip on an orange
    gateway in the scans look, independent seed 1005) is a chip missed, never sure."""
    before = new_game(2)
    view = BoardView.of_state(play(before, all_legal_placements(before)[0])[0])
    assert view.chips is not None
    chips = ((NO_CHIP, view.chips[0][1]), *view.chips[1:])
    rendered = render_frame(dataclasses.replace(view, chips=chips), demo, seed=11,
                            frame_size=FRAME)
    read = read_indigo(rendered.image, demo)
    missing = next(c for c in read.chips if (c.gate, c.slot) == (0, 0))
    assert missing.player is None
    assert missing.confidence < SURE
    assert any(q.startswith("gateway 0 chip 0") for q in read.questions)
    assert all(c.confidence >= SURE for c in read.chips if c is not missing)



def test_the_pale_wash_round_a_clipped_reflection_is_glare() -> None:
    """A lamp's reflection clips a small core and washes the print out well beyond it: a tile
    half under such a wash was read as another pattern at 1.00 (independent tuning seed 1001,
    demo harsh). The wash is left out of the comparison like the core."""
    cell_px = DEFAULT_SETTINGS.cell_px
    size = canonical_size(cell_px)
    canon = np.full((size, size, 3), (165, 200, 220), np.uint8)  # cream tiles
    canon[::8] = (150, 60, 40)  # blue paths
    middle = (size // 2 + 3 * cell_px, size // 2)
    cv2.circle(canon, middle, cell_px, (232, 236, 240), -1)  # the wash
    cv2.circle(canon, middle, cell_px // 4, (255, 255, 255), -1)  # the clipped core
    mask = glare_mask(canon, cell_px)
    x, y = middle
    assert mask[y, x + int(0.8 * cell_px)]  # in the wash, beyond the core's own rim
    assert not mask[y, x + int(1.3 * cell_px)]  # the print beside it
    assert not mask[y, x - 6 * cell_px]  # the board far from it


def test_a_fingertip_over_a_tile_is_never_a_sure_empty_cell(demo: IndigoPack) -> None:
    """A fingertip flat over a laid tile hides its paths: the cell looks flat like an empty
    one, but not in the empty print's colour (held-apart demo harsh frames read it empty at
    0.95). It is asked."""
    before = new_game(2)
    placement = all_legal_placements(before)[0]
    after = play(before, placement)[0]
    rendered = render_frame(after, demo, seed=13, frame_size=FRAME, effects=())
    image = rendered.image.copy()
    fit = read_indigo(image, demo).fit
    assert fit is not None
    to_frame = fit.plane_to_image @ DEFAULT_SETTINGS.geometry.board_to_frame()
    middle, side = (to_frame @ np.array([*cell_xy(c), 1.0]) for c in (placement.cell, CENTRE))
    centre_px = middle[:2] / middle[2]
    radius = 0.95 * float(np.linalg.norm(centre_px - side[:2] / side[2])) / np.sqrt(3)
    cv2.circle(image, (int(centre_px[0]), int(centre_px[1])), int(radius), SKIN[0], -1)
    cell = read_indigo(image, demo).cells[placement.cell]
    assert cell.tile is not None or cell.confidence < SURE


def test_a_chip_under_a_reflection_is_asked(demo: IndigoPack) -> None:
    """A lamp's reflection on a turquoise chip whitens it: it was read white at 1.00 (held-
    apart demo harsh). A chip under glare is asked."""
    before = new_game(2)
    after = play(before, all_legal_placements(before)[0])[0]
    rendered = render_frame(after, demo, seed=14, frame_size=FRAME, effects=())
    image = rendered.image.copy()
    read = read_indigo(image, demo)
    chip = next(c for c in read.chips if c.colour == "turquoise")
    assert read.fit is not None
    to_frame = read.fit.plane_to_image @ DEFAULT_SETTINGS.geometry.board_to_frame()
    space = next(xy for gate, slot, xy in chip_spaces() if (gate, slot) == (chip.gate, chip.slot))
    middle, side = (to_frame @ np.array([*xy, 1.0]) for xy in (space, cell_xy(CENTRE)))
    at = middle[:2] / middle[2]
    cell_radius = float(np.linalg.norm(at - side[:2] / side[2])) / 9
    centre = (int(at[0]), int(at[1]))
    cv2.circle(image, centre, int(0.5 * cell_radius), (236, 240, 242), -1)  # the wash
    cv2.circle(image, centre, int(0.15 * cell_radius), (255, 255, 255), -1)  # clipped
    again = next(c for c in read_indigo(image, demo).chips if (c.gate, c.slot) ==
                 (chip.gate, chip.slot))
    assert again.colour == "turquoise" or again.confidence < SURE


@pytest.mark.parametrize("layout", ["2p", "3p", "4p"])
def test_a_chip_no_chart_puts_there_is_asked_by_name(demo: IndigoPack, layout: str) -> None:
    """A fingertip over a turquoise chip read it white, sure, among red and turquoise chips:
    the layout matched no chart and the one question about it named no chip. The chips that
    no ownership chart allows where they lie are asked, each by name, with the other chip
    of their gateway (the pair is matched either way round)."""
    model = pack_model(demo, DEFAULT_SETTINGS.cell_px)
    chart = CHIPS[layout]
    players = [chart[gate][slot] for gate, slot, _ in chip_spaces()]
    odd = next(i for i, p in enumerate(players) if p != 3)
    players[odd] = 3  # the fourth colour, on a space the chart gives another player
    colours = np.array([model.chip_lab[p] for p in players], np.float32)
    chips = read_chips(colours, demo, model)
    gate, slot, _ = chip_spaces()[odd]
    assert [(c.gate, c.slot) for c in chips if c.confidence < SURE] == sorted(
        [(gate, slot), (gate, 1 - slot)])
    assert any(q.startswith(f"gateway {gate} chip {slot}:")
               for q in chip_questions(chips, DEFAULT_SETTINGS))


def test_a_chip_near_the_empty_print_is_told_from_the_other_chips(demo: IndigoPack) -> None:
    """Every layout fills the twelve chip spaces, so on a board in play the empty space is no
    rival for a chip: red chips whose colour lay between the pack's red and the empty print
    (nearer red) were all asked at 0.43-0.76 (independent tuning seed 1005, scans-taught
    harsh). Their margin is taken against the other chip colours; one nearer the empty
    print is still asked."""
    model = pack_model(demo, DEFAULT_SETTINGS.cell_px)
    empty = model.chip_lab[len(model.chip_names)]
    players = [CHIPS["2p"][gate][slot] for gate, slot, _ in chip_spaces()]
    colours = np.array([model.chip_lab[p] for p in players], np.float32)
    first, second = [i for i, p in enumerate(players) if p == 0][:2]
    colours[first] += 0.4 * (empty - colours[first])  # nearer the chip's own colour
    colours[second] += 0.6 * (empty - colours[second])  # nearer the empty print
    chips = read_chips(colours, demo, model)
    assert chips[first].player == 0 and chips[first].confidence >= SURE
    assert chips[second].player is None and chips[second].confidence < SURE


def _chart_colours(demo: IndigoPack, layout: str) -> tuple[np.ndarray, list[int], np.ndarray]:
    """The chip spaces' colour features for ``layout`` as the chart sets the chips out, the
    player on each space, and the pack's chip colours (then the empty space)."""
    model = pack_model(demo, DEFAULT_SETTINGS.cell_px)
    players = [CHIPS[layout][gate][slot] for gate, slot, _ in chip_spaces()]
    return np.array([model.chip_lab[p] for p in players], np.float32), players, model.chip_lab


@pytest.mark.parametrize("layout", ["2p", "3p", "3p-alt", "4p"])
def test_a_doubtful_chip_the_charts_put_there_is_sure(demo: IndigoPack, layout: str) -> None:
    """A chip whose colour lies near another chip's (a red on an orange gateway, a cast) is
    read right but doubted for its small margin. The chips never move after the set-out, and
    every chart that fits the sure chips puts that very chip there: the rules settle it, as
    sure as the chips they were matched on (independent tuning boards 2000-2019 mild, scans
    look: chips the only question in 5 of 20 frames)."""
    colours, players, pack_colours = _chart_colours(demo, layout)
    model = pack_model(demo, DEFAULT_SETTINGS.cell_px)
    odd = next(i for i, p in enumerate(players) if p == 1)
    away = colour_distance(pack_colours[:len(model.chip_names)], pack_colours[1])
    away[1] = np.inf
    rival = pack_colours[int(np.argmin(away))]  # the chip colour nearest player 1's
    colours[odd] += 0.4 * (rival - colours[odd])  # still nearer its own colour
    chips = read_chips(colours, demo, model)
    assert chips[odd].player == 1 and chips[odd].confidence < SURE
    settled = settle_by_charts(chips, SURE)
    assert settled[odd].player == 1 and settled[odd].confidence >= SURE
    assert [c for i, c in enumerate(settled) if i != odd] == \
        [c for i, c in enumerate(chips) if i != odd]


@pytest.mark.parametrize("case", ["read empty", "read as another", "either way round"])
def test_a_doubtful_chip_the_charts_do_not_settle_is_asked(demo: IndigoPack, case: str) -> None:
    """A space read empty (a chip knocked off shows the print too), a chip read as a colour
    the charts do not put there, and the two doubtful chips of a gateway two players share
    (the charts allow them either way round) stay asked."""
    colours, players, pack_colours = _chart_colours(demo, "4p")
    model = pack_model(demo, DEFAULT_SETTINGS.cell_px)
    first = 0  # gateway 0, chip 0; its pair (gateway 0, chip 1) is another player's
    doubted = [first]
    if case == "read empty":
        colours[first] = pack_colours[len(model.chip_names)]
    elif case == "read as another":
        other = next(p for p in range(4) if p not in CHIPS["4p"][0])
        colours[first] += 0.55 * (pack_colours[other] - colours[first])
    else:
        doubted = [0, 1]
        for i in doubted:
            colours[i] += 0.45 * (pack_colours[players[1 - i]] - colours[i])
    chips = read_chips(colours, demo, model)
    assert all(chips[i].confidence < SURE for i in doubted)
    settled = settle_by_charts(chips, SURE)
    assert all(settled[i].confidence < SURE for i in doubted)
