"""Enigma reader, the networkers on one tile: a pawn in a player colour standing on a power
cell (:func:`read_networkers`). See :mod:`vision.enigma_tile`.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.enigma_cells import Cell, disc, margin_conf
from vision.enigma_colours import ColourModel
from vision.enigma_pack import EnigmaPack
from vision.enigma_read_types import PAWN_MIN_AREA


def read_networkers(
    cells: list[Cell],
    feats: np.ndarray,
    all_labels: np.ndarray,
    model: ColourModel,
    pack: EnigmaPack,
) -> tuple[list[Cell], list[str], float]:
    """``cells`` with the networker standing on each (or none), the problems seen and the
    confidence they leave. ``all_labels`` are the patch's colour labels with every class."""
    p = all_labels.shape[0]
    problems: list[str] = []
    conf = 1.0
    rc = pack.cell_radius * p
    rn = pack.networker_radius * p
    names = model.names
    cell_classes = [i for i, k in enumerate(model.kinds) if k == "cell"]
    net_ids = [i for i, k in enumerate(model.kinds) if k == "net"]
    # the networker on a cell: the colour inside the cell's ring
    cells = list(cells)
    for n_, c in enumerate(cells):
        ci = model.index("cell", c.colour)
        inner = disc((p, p), c.centre, max(1.0, rn * 0.55))
        med_in = np.median(feats[inner], axis=0)
        options = [ci, *net_ids]
        din = [float(((model.centres[i] - med_in) ** 2).sum()) for i in options]
        order = np.argsort(din)
        best = options[int(order[0])]
        net_conf = margin_conf(din[int(order[0])], din[int(order[1])])
        net = None if best == ci else str(names[best])
        cells[n_] = Cell(c.centre, c.colour, c.confidence, net, net_conf)
    # ---- pawns: a pawn is a disc of a player colour, smaller than a cell, on a cell. Its
    # rim can hide the cell's ring from the colour labels, so each pawn found is checked:
    # the cell under it is read from the ring around it, and the pawn's colour from its middle
    net_mask = np.isin(all_labels, net_ids)
    candidates: list[tuple[tuple[float, float], bool]] = []  # (centre, a whole pawn?)
    whole_pawns = np.zeros((p, p), np.uint8)
    for first, r_open, min_area in (
        (True, max(1, int(round(rn * 0.5))), 0.35),
        (False, max(1, int(round(rn * 0.3))), PAWN_MIN_AREA),
    ):
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r_open + 1, 2 * r_open + 1))
        pawns = cv2.morphologyEx(net_mask.astype(np.uint8), cv2.MORPH_OPEN, kernel)
        n_p, p_lab, p_stats, p_cents = cv2.connectedComponentsWithStats(pawns, connectivity=8)
        for k in range(1, n_p):
            area = p_stats[k, cv2.CC_STAT_AREA]
            if not min_area * math.pi * rn * rn <= area <= 2.5 * math.pi * rn * rn:
                continue
            if first:
                whole_pawns[p_lab == k] = 1
            elif whole_pawns[p_lab == k].any():
                continue  # already a whole pawn
            candidates.append(((float(p_cents[k][0]), float(p_cents[k][1])), first))
    for centre, whole in candidates:
        ring = disc((p, p), centre, rc * 0.95) & ~disc((p, p), centre, rn * 1.2)
        inner = disc((p, p), centre, max(1.0, rn * 0.5))
        med_ring = np.median(feats[ring], axis=0)
        med_in = np.median(feats[inner], axis=0)
        d_cells = sorted(
            (float(((model.centres[i] - med_ring) ** 2).sum()), i) for i in cell_classes
        )
        d_nets = sorted((float(((model.centres[i] - med_in) ** 2).sum()), i) for i in net_ids)
        pawn_conf = margin_conf(d_nets[0][0], d_nets[1][0])
        # the pawn's middle must be nearer a player colour than the ring's cell colour
        if d_nets[0][0] >= float(((model.centres[d_cells[0][1]] - med_in) ** 2).sum()):
            continue
        near = [
            n
            for n, c in enumerate(cells)
            if math.hypot(centre[0] - c.centre[0], centre[1] - c.centre[1]) < 0.8 * rc
        ]
        colour = str(names[d_nets[0][1]])
        if near:
            c = cells[near[0]]
            if c.networker is None or (whole and c.networker != colour):
                cells[near[0]] = Cell(
                    c.centre,
                    c.colour,
                    c.confidence,
                    colour,
                    min(pawn_conf, c.net_confidence if c.networker else 1.0),
                )
        elif whole:
            # no cell read here: if the ring is not bare tile, a cell hides under the pawn
            # (only a whole pawn says so: a small blob beside no cell is tile art)
            tile_d = min(
                float(((model.centres[i] - med_ring) ** 2).sum())
                for i, kk in enumerate(model.kinds)
                if kk == "tile"
            )
            if d_cells[0][0] < tile_d:
                problems.append("a networker stands where no cell was read: is a cell hidden?")
                conf = min(conf, 0.3)
    return cells, problems, conf
