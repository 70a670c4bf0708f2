"""Indigo reader stage 5, chips: each chip space's colour (its chip's body, not the chip's
own print in the gateway's colour), the nearest of the pack's chips or the empty space,
doubted under glare, when it is empty among chips and off every rules chart. See
:mod:`vision.indigo.reader`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from companion.indigo import CHIPS
from vision.art_pack import BGR
from vision.indigo.board import chip_spaces
from vision.indigo.discs import DOUBTFUL, MIN_SAMPLE_PX, disc_labels, disc_pixels
from vision.indigo.model import (
    PackModel,
    colour_distance,
    colour_features,
    features_of_colours,
    to_canonical,
)
from vision.indigo.pack import IndigoPack
from vision.indigo.read_types import ChipRead

#: radius of the disc sampled on a chip space, as a share of the chip radius
CHIP_SAMPLE = 0.6


#: relative distance margin between the nearest and second chip colour that gives confidence 1
CHIP_MARGIN_FULL = 0.5


#: a chip with more than this share of its sampled disc under glare is asked: a reflection
#: whitens a coloured chip (a turquoise chip read white at 1.00, held-apart demo harsh)
CHIP_GLARE_SHARE = 0.2


#: a chip space whose sampled disc has at least this share of pixels nearer a chip colour
#: than the empty print holds a chip: its colour is that of those pixels, its body. The real
#: board's chips carry a glyph and a rim printed in the gateways' own gold, which filled
#: 33-63% of a red chip's disc and drew its median halfway to the print (tuning boards
#: 2000-2009 mild, scans look: every red chip 0.37-0.67 of its disc nearer a chip colour;
#: 1000-1009 harsh 0.08-1.00; a bare space at most 0.04 of it, under glare and shadow)
CHIP_BODY_SHARE = 0.25


def chip_colours(lab: np.ndarray, pack: IndigoPack, model: PackModel,
                 glare: np.ndarray | None = None) -> np.ndarray:
    """(spaces, 3) the colour features of each chip space, ``chip_spaces()`` order: the
    median of its chip's body where one lies there (:func:`body_colour`; pixels under
    ``glare``, the mask of :func:`glare_mask`, are no body), else of the whole disc."""
    radius = max(MIN_SAMPLE_PX, CHIP_SAMPLE * pack.chip_size * model.cell_px)
    out = []
    for _, _, xy in chip_spaces():
        at = to_canonical(xy, model.cell_px)
        burnt = None if glare is None else disc_pixels(glare, at, radius).astype(bool)
        out.append(body_colour(disc_pixels(lab, at, radius), model, burnt))
    return np.array(out, np.float32)


def body_colour(pixels: np.ndarray, model: PackModel,
                burnt: np.ndarray | None = None) -> np.ndarray:
    """The median colour of a chip space's sampled ``pixels`` (n, 3) over its chip's body
    (:func:`chip_body`, against the pack's chip colours and empty print)."""
    colour: np.ndarray = np.median(pixels[chip_body(pixels, model.chip_lab, burnt)], axis=0)
    return colour


def chip_body(pixels: np.ndarray, chip_lab: np.ndarray,
              burnt: np.ndarray | None = None) -> np.ndarray:
    """(n,) which of a chip's ``pixels`` (n, 3 colour features) give its colour: those nearer
    a chip colour than the empty print (``chip_lab``: the chip colours' features, then the
    print's) when at least :data:`CHIP_BODY_SHARE` of them are, else all. A chip's own print
    in the gateway's colour (its glyph, its rim) is no part of its colour, and a bare space,
    all print, keeps the whole disc. Pixels ``burnt`` by a reflection are no chip's body: a
    lamp's white lies nearer a white chip than the print, and a bare space a quarter under
    glare would be read as one."""
    empty = len(chip_lab) - 1
    nearest = np.argmin(np.stack([colour_distance(pixels, colour) for colour in chip_lab],
                                 axis=1), axis=1)
    is_body: np.ndarray = nearest != empty
    if burnt is not None:
        is_body &= ~burnt
    if not is_body.any() or is_body.sum() < CHIP_BODY_SHARE * len(pixels):
        return np.ones(len(pixels), bool)
    return is_body


def chip_body_colours(faces: Sequence[np.ndarray], chip_space: BGR) -> list[BGR]:
    """Each chip's colour as the reader measures it on the board: the median BGR of its
    body (:func:`chip_body`), from ``faces``, each chip's (n, 3) BGR pixels, and the
    board's empty print ``chip_space``. A real chip's glyph and rim, printed in the
    gateways' gold, are no part of it: a pack taught over them sat between the body the
    reader measures and the print, and the reader found three such chips unlike the pack
    and asked everything (tuning harsh 1005 and 1015, scans-taught)."""
    print_lab = features_of_colours(np.array([chip_space], np.float32))[0]
    features = [colour_features(face) for face in faces]
    chip_lab = np.array([*(_least_like(lab, print_lab) for lab in features), print_lab])
    out = []
    for face, lab in zip(faces, features, strict=True):
        body = np.median(face[chip_body(lab, chip_lab)], axis=0)
        b, g, r = (int(round(float(v))) for v in np.clip(body, 0, 255))
        out.append((b, g, r))
    return out


def _least_like(lab: np.ndarray, print_lab: np.ndarray) -> np.ndarray:
    """The median of the :data:`CHIP_BODY_SHARE` of a chip's pixels (features) farthest
    from the print: its body's colour, whatever its glyph covers, when its body is as large
    as the reader asks of a chip (the whole face's median is the print's own colour once the
    glyph covers half of it, and would claim the glyph as body)."""
    far = colour_distance(lab, print_lab)
    keep = far >= np.quantile(far, 1.0 - CHIP_BODY_SHARE)
    colour: np.ndarray = np.median(lab[keep], axis=0)
    return colour


def read_chips(colours: np.ndarray, pack: IndigoPack, model: PackModel,
               glare: np.ndarray | None = None) -> list[ChipRead]:
    """Each chip space's colour (``colours``, of :func:`chip_colours`), the nearest of the
    pack's chips or the empty space; a chip under ``glare`` (the mask of :func:`glare_mask`)
    is doubtful. On a board in play (most spaces nearest a chip colour) a chip's margin is
    taken against the other chip colours only: every layout fills all twelve spaces, so the
    empty space is no rival there (a red chip whose colour lies near the empty print)."""
    radius = max(MIN_SAMPLE_PX, CHIP_SAMPLE * pack.chip_size * model.cell_px)
    empty = len(model.chip_names)
    d = np.array([colour_distance(model.chip_lab, colour) for colour in colours])
    nearest = np.argmin(d, axis=1)
    rivals = d[:, :empty] if 2 * int(np.sum(nearest != empty)) > len(nearest) else d
    out = []
    for (gate, slot, xy), dist, rival, idx in zip(chip_spaces(), d, rivals, nearest,
                                                   strict=True):
        at = to_canonical(xy, model.cell_px)
        d1 = float(dist[idx])
        d2 = float(np.partition(rival, 1)[1]) if idx != empty else float(np.sort(dist)[1])
        conf = float(np.clip((d2 - d1) / max(d2, 1e-6) / CHIP_MARGIN_FULL, 0.0, 1.0))
        if glare is not None and disc_labels(glare, at, radius).mean() > CHIP_GLARE_SHARE:
            conf = min(conf, DOUBTFUL)
        if idx == empty:
            out.append(ChipRead(gate, slot, None, None, conf))
        else:
            out.append(ChipRead(gate, slot, int(idx), model.chip_names[idx], conf))
    return _doubt_off_chart(_doubt_missing_chips(out))


def settle_by_charts(chips: list[ChipRead], min_confidence: float) -> list[ChipRead]:
    """The chips with each doubtful one the rules charts settle made sure.

    The chips are set out once, by one of the ownership charts, and never move. A doubtful
    chip (``chips`` in ``chip_spaces()`` order) read as a chip colour is settled when every
    chart, at every turn, that puts each sure chip (at ``min_confidence`` or more) where it
    lies puts the same chip on its space, and that chip is the one read (the nearest of the
    pack's colours to the colour seen there): the camera agrees with the rules. It is then as
    sure as the least sure chip the charts were matched on. A chip whose colour lies near
    another's (a small margin), under glare or unlike the pack's colours is still the chip
    its chart puts there, when the camera read it so.

    A space read empty is never settled: its colour is the print's, and a chip knocked off
    its space shows the same print (the camera cannot tell it from a red chip on an orange
    gateway), so it stays asked. A frame whose chips are mostly unlike the pack is not
    settled either: the caller asks every piece there.
    """
    sure = {(c.gate, c.slot): c.player for c in chips
            if c.player is not None and c.confidence >= min_confidence}
    doubtful = [i for i, c in enumerate(chips)
                if c.confidence < min_confidence and c.player is not None]
    if not sure or not doubtful:
        return chips
    fits = [(chart, turn) for chart in CHIPS.values() for turn in range(len(chart))
            if _fits(sure, chart, turn)]
    if not fits:
        return chips
    confidence = min(c.confidence for c in chips if (c.gate, c.slot) in sure)
    out = list(chips)
    for i in doubtful:
        chip = chips[i]
        put = {_charted(chart, turn, chip.gate, chip.slot, sure) for chart, turn in fits}
        if put == {chip.player}:
            out[i] = replace(chip, confidence=confidence)
    return out


def _fits(sure: dict[tuple[int, int], int], chart: tuple[tuple[int, int], ...],
          turn: int) -> bool:
    """Whether ``chart``, seen turned by ``turn`` gateways, allows every sure chip."""
    return not _off_chart(dict(sure), chart, turn) & sure.keys()


def _charted(chart: tuple[tuple[int, int], ...], turn: int, gate: int, slot: int,
             sure: dict[tuple[int, int], int]) -> int | None:
    """The chip ``chart`` (turned by ``turn``) puts on space (gate, slot): the gateway's chip
    the other space's sure chip leaves, or None when the pair's two chips could lie either
    way round."""
    allowed = list(chart[(gate - turn) % len(chart)])
    other = sure.get((gate, 1 - slot))
    if other is not None:
        allowed.remove(other)
        return allowed[0]
    return allowed[0] if allowed[0] == allowed[1] else None


def _doubt_missing_chips(chips: list[ChipRead]) -> list[ChipRead]:
    """An empty chip space among chips seen is doubtful: every layout of the rules fills all
    twelve spaces, so a board with any chip on it has them all (a chip whose colour lies
    near the space's print, a red chip on an orange gateway, is missed, never "no chip")."""
    if all(chip.player is None for chip in chips):
        return chips  # no chips set out at all: a board before the game
    return [replace(chip, confidence=min(chip.confidence, DOUBTFUL)) if chip.player is None
            else chip for chip in chips]


def _doubt_off_chart(chips: list[ChipRead]) -> list[ChipRead]:
    """Chips that no rules chart allows where they lie are doubtful, each by name, with the
    other chip of their gateway: the chips are held against every ownership chart at every
    turn, and those the nearest charts do not allow are asked (a fingertip over a turquoise
    chip read white at 1.00 among red and turquoise chips: the layout matched no chart, but
    no question named the chip)."""
    if any(chip.player is None for chip in chips):
        return chips  # an empty space is doubted already; a chart needs all twelve
    by_space = {(chip.gate, chip.slot): chip.player for chip in chips}
    fewest: list[set[tuple[int, int]]] = []
    for chart in CHIPS.values():
        for turn in range(len(chart)):
            odd = _off_chart(by_space, chart, turn)
            if not fewest or len(odd) < len(fewest[0]):
                fewest = [odd]
            elif len(odd) == len(fewest[0]):
                fewest.append(odd)
    # a gateway's two chips are matched to its pair either way round, so the one named odd
    # is only the one matched second: a pair read (white, white) where the chart puts
    # (turquoise, white) may be wrong in either space (independent tuning seed 1006 harsh,
    # scans: the washed turquoise chip read white at 0.98, its right white partner asked)
    odd_spaces = set().union(*fewest)
    doubted = odd_spaces | {(gate, 1 - slot) for gate, slot in odd_spaces}
    return [replace(chip, confidence=min(chip.confidence, DOUBTFUL))
            if (chip.gate, chip.slot) in doubted else chip for chip in chips]


def _off_chart(by_space: dict[tuple[int, int], int | None], chart: tuple[tuple[int, int], ...],
               turn: int) -> set[tuple[int, int]]:
    """The chip spaces whose chip ``chart``, seen turned by ``turn`` gateways, does not put
    there (a pair's chips in either order)."""
    odd = set()
    for gate, allowed in enumerate(chart):
        seen = (gate + turn) % len(chart)
        left = list(allowed)
        for slot in (0, 1):
            player = by_space.get((seen, slot))
            if player in left:
                left.remove(player)
            else:
                odd.add((seen, slot))
    return odd
