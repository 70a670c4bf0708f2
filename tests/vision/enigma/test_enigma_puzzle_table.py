"""Puzzle scenes on a real table: the card is found upright on any table colour, and the
light field takes a hand's shadow out of the card."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from companion.enigma.puzzles import load_puzzles
from tests.vision.scene_stack import SCENES_AS_FOUND
from vision.enigma.mat import MARK
from vision.enigma.pack import load_enigma_pack
from vision.enigma.puzzles.check import check_puzzle_frame
from vision.enigma.puzzles.view import CardView, bare_card, flatten_light, view_card
from vision.enigma.synth.puzzle_table import TableCondition, render_table_frame


def _right_frame(kind: str, surface: str, strength: str, seed: int) -> tuple[Any, np.ndarray]:
    """The bench's card and right solution for ``seed`` (bench/puzzle_checks.py), drawn on
    the table under that condition: (card, frame)."""
    from pathlib import Path
    from sys import path

    path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    from puzzle_checks import cases

    card, todo = cases(kind, seed, load_puzzles())
    _is_right, solution, extra = todo[0]
    frame = render_table_frame(kind, card, load_enigma_pack(), solution=solution, seed=seed,
                               condition=TableCondition(surface, strength), **extra)
    return card, frame


def test_the_card_is_found_upright_on_cloth_and_wood() -> None:
    box = load_puzzles()
    pack = load_enigma_pack()
    card = box.fragment.cards[next(iter(box.fragment.cards))]
    for surface in ("cloth", "wood"):
        frame = render_table_frame("fragment", card, pack, seed=3, frame_size=(1920, 1080),
                                   condition=TableCondition(surface, "mild"))
        view = view_card(frame, pack)
        flat = flatten_light(view, pack)
        a = int(view.margin_px)
        t = int(view.side_px * MARK * 0.3)
        corner = flat[a + 2:a + t, a + 2:a + t].mean()
        # the triangle's corner is ink; the card's other corners are bare paper
        other = flat[a + 2:a + t, int(a + view.side_px) - t:int(a + view.side_px) - 2].mean()
        assert corner < 110 < other, (surface, corner, other)
        assert abs(float(np.median(flat[a + 20:a + 60, int(a + view.side_px) - 60:
                                        int(a + view.side_px) - 20])) -
                   float(np.mean(pack.colour("card")))) < 25


def _card_under_a_shadow(pack, dim: float) -> tuple[CardView, np.ndarray]:
    """A card view (the card's colour, a printed bar of ink) with a band of shadow across its
    middle, ``dim`` of the light; and the band."""
    side, margin = 480, 168
    size = side + 2 * margin
    image = np.full((size, size, 3), 90, np.float32)  # the table around
    image[margin:margin + side, margin:margin + side] = pack.colour("card")
    image[margin + 100:margin + 110, margin + 40:margin + side - 40] = pack.colour("ink")
    band = np.zeros((size, size), bool)
    band[margin + 150:margin + 350, :] = True
    light = np.where(band, dim, 1.0).astype(np.float32)
    # a hand's breadth above the card: a soft edge over a centimetre wide
    light = cv2.GaussianBlur(light, (0, 0), 45)
    shaded = np.clip(image * light[..., None], 0, 255).astype(np.uint8)
    return CardView(shaded, float(side), float(margin), shaded, (0.0, 0.0)), band


def test_paper_deep_in_a_hand_s_shadow_is_still_bare_card(demo_pack) -> None:
    """A strong hand's shadow dims the paper to under half: grey as ink is in full light, it is
    still the card's paper, so the light field follows it and the flattened card is even
    (cloth/strong seed 3, a weight card: the shadowed cups were 'cannot tell')."""
    view, band = _card_under_a_shadow(demo_pack, 0.42)
    inside = view.inside_card()
    middle = band & inside & (cv2.erode(band.astype(np.uint8), np.ones((61, 61))) > 0)
    assert bare_card(view, greys=True)[middle].mean() > 0.9
    flat = flatten_light(view, demo_pack, greys=True).astype(np.float32).mean(axis=2)
    assert abs(float(np.median(flat[middle])) - float(np.mean(demo_pack.colour("card")))) < 12


def test_a_weight_card_under_a_hand_s_shadow_is_solved() -> None:
    """cloth/strong seed 3: a hand's shadow across the cups left them unflattened, and a
    right answer was 'cannot tell'."""
    box = load_puzzles()
    pack = load_enigma_pack()
    card = list(box.weight.cards.values())[3 % len(box.weight.cards)]
    frame = render_table_frame("weight", card, pack, seed=3,
                               condition=TableCondition("cloth", "strong"))
    result = check_puzzle_frame("weight", frame, pack, card=card, box=box)
    assert result["verdict"] == "solved", result


def test_an_angular_structure_on_cloth_is_not_the_cloth() -> None:
    """Blue or green cloth lies nearer a piece's colour than the pack's brown table: the
    whole cloth was a piece lying apart, and right solutions were "not solved" (tuning seeds
    0 and 1 on cloth, mild). The table is measured round the markers."""
    from vision.enigma.puzzles.view import table_colour

    box = load_puzzles()
    pack = load_enigma_pack()
    for seed in (0, 1):
        card, frame = _right_frame("angular", "cloth", "mild", seed)
        measured = table_colour(view_card(frame, pack), pack)
        # the cloth's own colour (blue, then green), not the pack's brown
        assert np.linalg.norm(np.subtract(measured, pack.colour("table"))) > 40, measured
        result = check_puzzle_frame("angular", frame, pack, card=card, box=box)
        assert result["verdict"] == "solved", (seed, result["reason"])


def test_an_angular_structure_shaped_like_a_j_is_read_along_its_cubes() -> None:
    """The smallest rectangle round a J four cubes high lies across its grid: the top view
    was straightened 41 degrees off and a right solution was "cannot tell: 4.8 x 3.4 cubes"
    (tuning seed 8 on wood, mild). The grid is turned along the structure's edges."""
    box = load_puzzles()
    pack = load_enigma_pack()
    card, frame = _right_frame("angular", "wood", "mild", 8)
    result = check_puzzle_frame("angular", frame, pack, card=card, box=box)
    assert result["verdict"] == "solved", result["reason"]


def test_the_grid_of_a_turned_l_of_squares_is_found_from_its_edges() -> None:
    from vision.enigma.puzzles.angular_tall import grid_angle

    for turn in (-30.0, -3.0, 0.0, 7.5, 44.0):
        mask = np.zeros((400, 400), np.uint8)
        for x, y in ((0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (3, 2), (3, 3)):
            mask[100 + 40 * y:140 + 40 * y, 100 + 40 * x:140 + 40 * x] = 1
        m = cv2.getRotationMatrix2D((200, 200), turn, 1.0)
        turned = cv2.warpAffine(mask, m, (400, 400), flags=cv2.INTER_NEAREST) > 0
        # the angle that turns it back upright, modulo a quarter turn
        off = (grid_angle(turned) + turn) % 90
        assert min(off, 90 - off) < 1.0, (turn, grid_angle(turned))


def test_a_conduit_card_under_a_lamp_s_hotspot_is_solved() -> None:
    """wood/strong seeds 0 and 2: the lamp's hotspot burns the card out when the view is
    balanced on the markers' paper, and the pale pieces went with it (seed 2); where a piece's
    face still could not be told from the card, its channel in the cell's middle is the piece
    (seed 0). Both right solutions were 'the pieces are not seen clearly'.

    Seed 2 is solved with OpenCV 4.11 and later; with the Pi floor's 4.10 its piece on [0, 2]
    stays "not seen clearly" (a doubt, never "not solved")."""
    box = load_puzzles()
    pack = load_enigma_pack()
    card, frame = _right_frame("conduit", "wood", "strong", 0)
    result = check_puzzle_frame("conduit", frame, pack, card=card, box=box)
    assert result["verdict"] == "solved", result["reason"]
    card, frame = _right_frame("conduit", "wood", "strong", 2)
    result = check_puzzle_frame("conduit", frame, pack, card=card, box=box)
    if tuple(int(v) for v in cv2.__version__.split(".")[:2]) >= (4, 11):
        assert result["verdict"] == "solved", result["reason"]
    else:
        assert result["verdict"] != "not solved", result["reason"]


def test_a_conduit_card_under_a_strong_cast_on_grey_cloth_is_found() -> None:
    """cloth/strong seeds 2 and 3: the pieces colour the conduit card's middle, so the whole
    square was no whiter than the lit grey cloth, and the best square sat on a marker's paper:
    'no puzzle card on the mat'. The card's margin is bare paper on every card."""
    pack = load_enigma_pack()
    for seed in (2, 3):
        _card, frame = _right_frame("conduit", "cloth", "strong", seed)
        view = view_card(frame, pack)
        grey = view.image.astype(np.float32).mean(axis=2)
        a, b = int(view.margin_px), int(view.margin_px + view.side_px)
        t = int(view.side_px * MARK * 0.3)
        # upright on the card: the orientation triangle's corner is ink, the other corners
        # of the view's square are the card's paper
        corner = grey[a + 2:a + t, a + 2:a + t].mean()
        others = [grey[a + 2:a + t, b - t:b - 2].mean(), grey[b - t:b - 2, a + 2:a + t].mean(),
                  grey[b - t:b - 2, b - t:b - 2].mean()]
        assert corner < 0.6 * min(others), (seed, corner, others)


def test_a_conduit_channel_washed_by_a_lamp_s_glare_is_still_channel() -> None:
    """cloth/strong seed 0 and wood/strong seed 1: a glare washed the channels on the top row
    and a printed stub to under 0.72 of the paper's level darker, and right solutions were
    'not seen clearly' and 'shows no stub'. Across a small patch a glare changes the levels by
    one scale and one offset, so the channel keeps its depth below the paper."""
    box = load_puzzles()
    pack = load_enigma_pack()
    for surface, seed in (("cloth", 0), ("wood", 1)):
        card, frame = _right_frame("conduit", surface, "strong", seed)
        result = check_puzzle_frame("conduit", frame, pack, card=card, box=box)
        assert result["verdict"] == "solved", (surface, seed, result["reason"])


def test_paper_where_a_cast_clips_one_channel_is_seen_white_in_a_hand_s_shadow() -> None:
    """Fragment wood/strong seed 1: a strong cast and the lamp clipped red and green on all
    the paper in view, the markers' too, so their gains were too high; the paper in a hand's
    shadow (not clipped) looked pink, was no bare card, and read as black pieces ('not
    solved' for a right solution). The gains are measured on the unclipped paper."""
    from vision.enigma.puzzles.card_find import chroma
    from vision.enigma.puzzles.fragment import printed_silhouette

    pack = load_enigma_pack()
    card, frame = _right_frame("fragment", "wood", "strong", 1)
    view = view_card(frame, pack)
    inside = cv2.erode(view.inside_card().astype(np.uint8), np.ones((15, 15))) > 0
    printed = printed_silhouette(view, card, pack, inside.shape).astype(np.uint8)
    paper = inside & ~(cv2.dilate(printed, np.ones((31, 31))) > 0)
    assert np.percentile(chroma(view.image)[paper], 90) < 0.2
    assert bare_card(view, greys=True)[paper].mean() > 0.95


def test_weights_where_a_cast_clips_one_channel_are_solved() -> None:
    """wood/strong seed 9: red clipped on the paper, the shadowed cups' paper was no bare
    card, and a weight in them did 'not show whole' ('cannot tell' for a right solution)."""
    card, frame = _right_frame("weight", "wood", "strong", 9)
    result = check_puzzle_frame("weight", frame, load_enigma_pack(), card=card,
                                box=load_puzzles())
    assert result["verdict"] == "solved", result


def test_nearest_colour_is_the_nearest_of_the_named_colours() -> None:
    """One affine transform for all the colours gives, pixel by pixel, the colour nearest in
    :func:`colour_features` (a pass per colour did the same, four times slower)."""
    from vision.enigma.colours import colour_features
    from vision.enigma.puzzles.view import nearest_colour

    rng = np.random.default_rng(26)
    image = rng.integers(0, 256, (60, 80, 3)).astype(np.uint8)
    colours = {f"c{i}": tuple(int(v) for v in rng.integers(0, 256, 3)) for i in range(9)}
    for weight in (1.0, 0.5):
        labels, names = nearest_colour(image, colours, chroma_weight=weight)
        scale = np.array([weight, weight, 1.0], np.float32)
        feats = colour_features(image) * scale
        centres = np.array([colour_features(np.array(colours[n], np.float32)) * scale
                            for n in names])
        dist = ((feats[:, :, None, :] - centres[None, None]) ** 2).sum(axis=-1)
        best = dist.min(axis=-1)
        chosen = np.take_along_axis(dist, labels[..., None], axis=-1)[..., 0]
        assert labels.shape == image.shape[:2] and names == list(colours)
        assert np.allclose(chosen, best, rtol=1e-5, atol=1e-3)


def test_the_card_is_turned_upright_by_its_triangle_not_by_a_shadowed_corner(demo_pack
                                                                            ) -> None:
    """Conduit cloth/strong seed 9: a lamp washed the orientation triangle grey while a
    hand's shadow darkened the opposite corner's paper nearer the ink's colour; the card was
    read upside down and every stub differed. The triangle is the corner darkest against
    the paper just past its edge."""
    from vision.enigma.puzzles.view import upright_turn

    side, at = 400, 100
    image = np.full((600, 600, 3), 90, np.float32)  # the table
    image[at:at + side, at:at + side] = demo_pack.colour("card")
    leg = int(MARK * side)
    triangle = np.array([[at, at], [at + leg, at], [at, at + leg]], np.int32)
    washed = 0.6 * np.array(demo_pack.colour("card"), np.float32) + 0.4 * np.array(
        demo_pack.colour("ink"), np.float32)
    cv2.fillPoly(image, [triangle], tuple(float(v) for v in washed))
    shade = np.ones((600, 600), np.float32)
    shade[at + side // 2:, at + side // 2:] = 0.3  # the hand over the far corner
    shade = cv2.GaussianBlur(shade, (0, 0), 25)
    image = np.clip(image * shade[..., None], 0, 255).astype(np.uint8)
    corners = np.array([[at, at], [at + side, at], [at + side, at + side], [at, at + side]],
                       np.float32)
    assert upright_turn(image, corners) == 0


def test_fragment_pieces_lifted_by_a_lamp_s_glare_are_still_black() -> None:
    """Fragment wood/strong seed 1 (and 5): a glare lifted the covered silhouette's black
    smoothly towards its middle, past the darkest grey nearby, and right solutions were
    'the pieces look grey, not black'. On the pieces the black is their own grey."""
    card, frame = _right_frame("fragment", "wood", "strong", 1)
    result = check_puzzle_frame("fragment", frame, load_enigma_pack(), card=card,
                                box=load_puzzles())
    assert result["verdict"] == "solved", result["reason"]


def test_fragment_pieces_a_glare_lifts_to_the_silhouette_s_grey_are_never_uncovered() -> None:
    """Fragment wood/strong seed 4: past the pieces a glare lifts, its middle lifts them to
    the silhouette's own grey; with the pieces' own black that right solution read 34%
    uncovered ('not solved'). Near pieces a strong glare lifts, a grey silhouette is a
    question; followed up the glare, the pieces are black (solved, or too close to call)."""
    card, frame = _right_frame("fragment", "wood", "strong", 4)
    result = check_puzzle_frame("fragment", frame, load_enigma_pack(), card=card,
                                box=load_puzzles())
    assert result["verdict"] != "not solved", result["reason"]


def test_fragment_pieces_a_glare_lifts_near_the_paper_s_grey_are_not_paper() -> None:
    """Fragment cloth/strong seed 6: a glare lifted the black pieces to within the paper
    test's share of the paper beside them; the light field took them for paper and
    flattened them white, and a right solution was 'the pieces look grey, not black'. The
    light is not measured where the pieces may lie."""
    card, frame = _right_frame("fragment", "cloth", "strong", 6)
    result = check_puzzle_frame("fragment", frame, load_enigma_pack(), card=card,
                                box=load_puzzles())
    assert result["verdict"] == "solved", result["reason"]


def test_an_empty_conduit_cell_under_a_hand_s_shadow_is_empty() -> None:
    """Conduit cloth/strong seed 2: the light field left a hand's shadow darkening an empty
    cell; darker than the pieces but without their hue, it read as a piece with no opening
    and the right solution was 'not seen clearly'."""
    card, frame = _right_frame("conduit", "cloth", "strong", 2)
    result = check_puzzle_frame("conduit", frame, load_enigma_pack(), card=card,
                                box=load_puzzles())
    assert result["verdict"] == "solved", result["reason"]


def test_an_empty_conduit_cell_in_a_hand_s_shadow_without_channel_is_empty() -> None:
    """Conduit wood/strong seed 14: the light field took the pale pieces' faces for paper and
    flattened them to within 3 levels of the card's colour, and a hand's shadow left the
    empty cell [0, 1] a few levels darker: 'towards' the pieces by that hair, it read as a
    piece with no opening and the right solution was 'not seen clearly'. In a shadow a
    piece's channel keeps its contrast: a shadowed cell with no channel is empty."""
    card, frame = _right_frame("conduit", "wood", "strong", 14)
    result = check_puzzle_frame("conduit", frame, load_enigma_pack(), card=card,
                                box=load_puzzles())
    assert result["verdict"] == "solved", result["reason"]


def test_a_conduit_piece_a_glare_washes_is_read_not_missing() -> None:
    """Conduit cloth/strong seed 4: a glare washes the piece on [1, 2], its channel and its
    hue alike; judged by its hue alone it was an empty cell and the right solution 'not
    solved' (a piece unused), and by its colour and channel pixels a question. Its disc and
    arms still stand out of its own face: solved."""
    card, frame = _right_frame("conduit", "cloth", "strong", 4)
    result = check_puzzle_frame("conduit", frame, load_enigma_pack(), card=card,
                                box=load_puzzles())
    assert result["verdict"] == "solved", result["reason"]


def test_a_conduit_piece_a_glare_washes_is_seen_by_its_channel_through_the_centre() -> None:
    """Conduit wood/strong seed 4: a glare washed the face of the elbow on [2, 1] to the
    card's colour and thinned its channel to 30% of the cell's middle, and the right solution
    was 'not seen clearly'. Its channel still runs from the cell's centre to a side, which no
    empty cell shows."""
    card, frame = _right_frame("conduit", "wood", "strong", 4)
    result = check_puzzle_frame("conduit", frame, load_enigma_pack(), card=card,
                                box=load_puzzles())
    assert result["verdict"] == "solved", result["reason"]


def test_a_pale_conduit_piece_in_noise_has_no_channel_specks() -> None:
    """Conduit cloth/strong seed 10: with the sensor's noise the brightest pixel near the
    piece on [0, 1] lay far over its paper, the piece's face read darker than 0.72 of it in
    specks over a quarter of an opening's window, and the right solution was 'not seen
    clearly'. Levels smoothed over a few pixels are compared."""
    card, frame = _right_frame("conduit", "cloth", "strong", 10)
    result = check_puzzle_frame("conduit", frame, load_enigma_pack(), card=card,
                                box=load_puzzles())
    assert result["verdict"] == "solved", result["reason"]


def test_a_conduit_piece_washed_to_the_card_s_colour_is_never_read_missing() -> None:
    """Conduit cloth/strong seed 8: a glare washed the T-pieces on [1, 0] and [1, 1]
    (channel over 16% and 3% of their middles) and the light field flattened every piece's
    face to the card's colour. Taking the pieces' colour as seen to be at least a
    tenth of the pack's contrast from the card's (tried for wood/strong seed 14, reverted)
    read both as empty cells and the right solution 'not solved'. Colour that cannot tell a
    piece from the card leaves the cell a question."""
    card, frame = _right_frame("conduit", "cloth", "strong", 8)
    result = check_puzzle_frame("conduit", frame, load_enigma_pack(), card=card,
                                box=load_puzzles())
    assert result["verdict"] != "not solved", result["reason"]


def test_a_printed_stub_a_glare_washes_pale_is_still_seen() -> None:
    """Conduit wood/strong seed 17: a glare washed the card's printed stub W of [0, 0] to a
    pale orange, neither 0.72 of the paper's level nor deep, seen over 48% of its window,
    and the right solution was 'the card in the frame shows no stub'. Past the grid no
    piece lies: the pieces' colour there is a washed channel."""
    from vision.enigma.puzzles.conduit import read_conduit_grid

    card, frame = _right_frame("conduit", "wood", "strong", 17)
    pack = load_enigma_pack()
    view = view_card(frame, pack)
    _seen, stubs_seen, _unclear, _doubts = read_conduit_grid(view, pack, card)
    assert stubs_seen == set(card.stubs)


def test_a_broad_glare_washes_much_more_of_the_frame_than_a_spot() -> None:
    """The renderer can draw a lamp's broad, flat glare (a glossy card's whole face
    reflecting it), the fragment check's known class without a tuning case; the default
    spot's frames are those the bench has always drawn (the same draws from the seed)."""
    card = next(iter(load_puzzles().fragment.cards.values()))
    pack = load_enigma_pack()
    frames = {glare: render_table_frame("fragment", card, pack, seed=0, glare=glare,
                                        condition=TableCondition("wood", "strong"),
                                        frame_size=(640, 360))
              for glare in ("spot", "broad")}
    lifted = (frames["broad"].astype(np.int16) - frames["spot"]).mean(axis=2)
    assert float((lifted > 40).mean()) > 0.03
    assert float((lifted < -10).mean()) < 0.001


def _stub_image(pack: Any, cell: float, *, stub: bool, wash: float, shade_side: bool,
                slope: float = 0.0) -> np.ndarray:
    """A patch of card round the place of a stub off a cell centred at (0, ``cell``), towards
    E: paper, the stub's print if ``stub``, a glare's white mixed in by
    ``wash``, a shadow over it and the paper on one side if ``shade_side``, and a lamp's light
    falling across the stub by ``slope`` (its share per cell, 1 on the stub's line)."""
    size = int(2 * cell)
    image = np.empty((size, size, 3), np.float32)
    image[:] = pack.colour("card")
    c = size // 2
    if stub:  # from the grid's edge (half a cell) to 0.68 of a cell, 0.22 of a cell wide
        image[int(c - 0.11 * cell):int(c + 0.11 * cell), int(0.5 * cell):int(0.68 * cell)] = \
            pack.colour("channel")
    if shade_side:
        image[:int(c + 0.14 * cell)] *= 0.6  # the stub's place and the paper on one side
    image = image * (1 - wash) + 255 * wash
    across = (np.arange(size, dtype=np.float32) - c) / cell
    image *= (1 + slope * across)[:, None, None]
    return np.clip(image, 0, 255).astype(np.uint8)


def test_a_stub_s_print_is_told_from_paper_by_its_own_contrast() -> None:
    """A printed stub shows its print's contrast against the paper beside it however a
    glare washes it; bare paper shows none, even where a shadow's edge runs beside it (the
    lesser of its two sides). Read on the camera's view: conduit wood/strong seeds 12, 23,
    31 and 44, a stub the camera shows read as none on the light-flattened card."""
    from vision.enigma.puzzles.conduit import STUB_NONE, STUB_SEEN, stub_contrast

    pack = load_enigma_pack()
    cell = 118.0
    for wash in (0.0, 0.5, 0.7):
        printed = _stub_image(pack, cell, stub=True, wash=wash, shade_side=False)
        assert stub_contrast(printed, (0.0, cell), (1, 0), cell, pack) >= STUB_SEEN
    for shade in (False, True):
        bare = _stub_image(pack, cell, stub=False, wash=0.3, shade_side=shade)
        assert stub_contrast(bare, (0.0, cell), (1, 0), cell, pack) <= STUB_NONE


def test_a_stub_under_a_lamp_s_light_falling_across_it_is_seen() -> None:
    """A lamp's light falling steeply across a stub washed by its glare (15% brighter on one
    side, 15% darker on the other): measured against the darker side alone the stub showed
    about 0.06 of its print's contrast and read as none; against the paper under it (the
    sides' mean, or past its end where darker) it is seen, and bare paper under the same
    light still shows none."""
    from vision.enigma.puzzles.conduit import STUB_NONE, STUB_SEEN, stub_contrast

    pack = load_enigma_pack()
    cell = 118.0
    for slope in (0.58, -0.58):
        printed = _stub_image(pack, cell, stub=True, wash=0.75, shade_side=False, slope=slope)
        assert stub_contrast(printed, (0.0, cell), (1, 0), cell, pack) >= STUB_SEEN
        bare = _stub_image(pack, cell, stub=False, wash=0.75, shade_side=False, slope=slope)
        assert stub_contrast(bare, (0.0, cell), (1, 0), cell, pack) <= STUB_NONE


def test_a_stub_a_glare_washes_under_its_slope_is_seen_on_the_table() -> None:
    """Conduit wood/strong seed 17, the near miss: the glare's light falls across the stub
    W of [0, 0], and against the darker side alone it showed 0.08 of its contrast, 'not
    seen clearly'; against the paper under it, 0.15."""
    from pathlib import Path
    from sys import path

    from vision.enigma.puzzles.conduit import read_conduit_grid

    path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    from puzzle_checks import cases

    pack = load_enigma_pack()
    card, todo = cases("conduit", 17, load_puzzles())
    _is_right, solution, extra = todo[1]
    frame = render_table_frame("conduit", card, pack, solution=solution, seed=17,
                               condition=TableCondition("wood", "strong"), **extra)
    _seen, stubs_seen, unclear, _doubts = read_conduit_grid(view_card(frame, pack), pack, card)
    assert not unclear
    assert stubs_seen == set(card.stubs)


def test_a_right_conduit_solution_with_a_stub_under_the_glare_s_slope_is_solved() -> None:
    """Conduit wood/strong seed 65: the glare's light falls across the stub N of [0, 0];
    against the darker side alone it showed 0.05 of its print's contrast and the right
    solution was 'the card in the frame shows no stub at N of [0, 0]'; against the paper
    under it, 0.18."""
    card, frame = _right_frame("conduit", "wood", "strong", 65)
    result = check_puzzle_frame("conduit", frame, load_enigma_pack(), card=card,
                                box=load_puzzles())
    assert result["verdict"] == "solved", result["reason"]


def test_a_conduit_stub_in_a_shadow_s_edge_is_still_seen() -> None:
    """Conduit wood/strong seed 23: where a hand's shadow ends across the card's stub S of
    [1, 2], the light field let the flattened stub fade to a fifth of its window, and the
    right solution was 'the card in the frame shows no stub'."""
    card, frame = _right_frame("conduit", "wood", "strong", 23)
    result = check_puzzle_frame("conduit", frame, load_enigma_pack(), card=card,
                                box=load_puzzles())
    assert result["verdict"] == "solved", result["reason"]


def test_two_weights_in_a_cup_one_washed_by_the_lamp_are_both_counted() -> None:
    """cloth/strong seeds 18 and 33: the second weight of a cup, washed by the lamp's glare,
    was missed by the sieve (or placed off its centre) and its metal read as a weight partly
    under the first: right solutions were 'cannot tell ... one partly under another?'."""
    box = load_puzzles()
    pack = load_enigma_pack()
    for seed in (18, 33):
        card, frame = _right_frame("weight", "cloth", "strong", seed)
        result = check_puzzle_frame("weight", frame, pack, card=card, box=box)
        assert result["verdict"] == "solved", (seed, result)


def test_a_cup_whose_weights_a_glare_washes_past_the_sieve_is_asked_not_read_empty() -> None:
    """cloth/strong 46, wood/strong 75 and 86: the lamp's glare washes the two weights of the
    right cup 2 so far that their likeness to a weight (0.25-0.30) falls under the sieve's;
    nothing was found there and the right solution was 'not solved' (the cup read empty)
    with no question. They are asked about, naming the glare.

    On the Pi floor's numpy and OpenCV the same seeds draw other pixels: there wood 75's
    washed weights are found in part and asked about as not whole. What must hold on any
    pixels is that the right solution is never 'not solved', and a 'cannot tell' says what
    to do."""
    box = load_puzzles()
    pack = load_enigma_pack()
    for surface, seed in (("cloth", 46), ("wood", 75), ("wood", 86)):
        card, frame = _right_frame("weight", surface, "strong", seed)
        result = check_puzzle_frame("weight", frame, pack, card=card, box=box)
        assert result["verdict"] != "not solved", (surface, seed, result)
        if result["verdict"] == "cannot tell":
            remedy = "glare" if SCENES_AS_FOUND else ": "
            assert remedy in result["reason"], (surface, seed, result)


def _piece_image(pack: Any, cell: float, openings: str, *, laid: bool = True,
                 wash: float = 0.0, gains: tuple[float, float, float] = (1.0, 1.0, 1.0)
                 ) -> np.ndarray:
    """A card cell of side ``cell`` centred in a patch of card: a piece with ``openings``
    (its face 0.94 of the cell, channels 0.22 wide and the disc 0.33 across, as the pack's
    pieces) if ``laid``, then a glare's white mixed in by ``wash`` and a cast's ``gains``."""
    size = int(2 * cell)
    image = np.empty((size, size, 3), np.float32)
    image[:] = pack.colour("card")
    c, h, w = size / 2, 0.47 * cell, 0.11 * cell
    if laid:
        image[int(c - h):int(c + h), int(c - h):int(c + h)] = pack.colour("piece")
        for side in openings:
            ux, uy = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[side]
            xs = sorted((c - w if ux == 0 else c, c + w if ux == 0 else c + ux * h))
            ys = sorted((c - w if uy == 0 else c, c + w if uy == 0 else c + uy * h))
            image[int(ys[0]):int(ys[1]), int(xs[0]):int(xs[1])] = pack.colour("channel")
        cv2.circle(image, (int(c), int(c)), int(0.165 * cell), pack.colour("channel"), -1)
    image = (image * (1 - wash) + 255 * wash) * np.array(gains, np.float32)
    return np.clip(image, 0, 255).astype(np.uint8)


def test_a_conduit_piece_s_openings_are_read_between_its_face_and_its_disc() -> None:
    """Each arm of a piece is read by where its colour lies between the piece's own face (at
    its corners) and its own disc (at its centre): a glare's white and a colour cast change
    all three alike, so the openings read the same however washed; a bare cell shows no
    disc."""
    from vision.enigma.puzzles.conduit import read_piece
    from vision.enigma.puzzles.conduit_print import piece_print

    pack = load_enigma_pack()
    cell = 118.0
    for openings in ("N", "ES", "NSW", "NESW"):
        for wash, gains in ((0.0, (1.0, 1.0, 1.0)), (0.75, (1.0, 1.0, 1.0)),
                            (0.6, (0.75, 1.0, 1.25)), (0.0, (1.2, 1.0, 0.7))):
            image = _piece_image(pack, cell, openings, wash=wash, gains=gains)
            centre = (image.shape[1] / 2, image.shape[0] / 2)
            assert read_piece(piece_print(image, centre, cell)) == (True, frozenset(openings))
    for wash in (0.0, 0.75):
        bare = _piece_image(pack, cell, "", laid=False, wash=wash)
        centre = (bare.shape[1] / 2, bare.shape[0] / 2)
        assert read_piece(piece_print(bare, centre, cell)) == (False, frozenset())


def test_conduit_arms_a_glare_washes_from_the_channel_mask_are_still_openings() -> None:
    """Conduit wood/strong seeds 12, 22 and 28: a lamp's glare washed pieces' arms so that
    no pixel (or a sixth) of an opening's window stayed in the channel mask, while the
    camera still shows them plainly between the piece's face and its disc; the openings read
    closed and the right solutions were 'not seen clearly' (an open arm read closed, the
    piece kept from 'not solved' only by a doubt elsewhere)."""
    for seed in (12, 22, 28):
        card, frame = _right_frame("conduit", "wood", "strong", seed)
        result = check_puzzle_frame("conduit", frame, load_enigma_pack(), card=card,
                                    box=load_puzzles())
        assert result["verdict"] == "solved", (seed, result["reason"])
