"""Enigma reader, one tile: its structure, ports, links and icon read from the rectified square
(:func:`read_tile`), and the reading order of the squares. See :mod:`vision.enigma.reader`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from companion.enigma.tiles import SIDES, Endpoint, Port, Pos, Tile
from vision.enigma.cells import disc, find_cells
from vision.enigma.colours import ColourModel, colour_features
from vision.enigma.layout import port_point, reading_order
from vision.enigma.networkers import read_networkers
from vision.enigma.pack import EnigmaPack
from vision.enigma.read_types import NetworkerRead, TileRead
from vision.enigma.settings import ReaderSettings
from vision.enigma.skeleton import endpoints, skeletonize

# ---------------------------------------------------------------------------- one tile

#: how far in from the patch's sides (share of a tile) the table and the tile's edge line
#: cannot show: a square placed a little off the tile still has them only outside this
INNER_MARGIN = 0.07


def _inside(p: int, margin: int) -> np.ndarray:
    """A p x p mask, True at least ``margin`` pixels in from every side."""
    mask = np.zeros((p, p), bool)
    mask[margin : p - margin, margin : p - margin] = True
    return mask



def read_tile(
    patch: np.ndarray, at: Pos, pack: EnigmaPack, model: ColourModel, settings: ReaderSettings
) -> tuple[TileRead, list[NetworkerRead]]:
    """Read one tile's conduit side from its straightened patch (north up)."""
    p = patch.shape[0]
    problems: list[str] = []
    conf = 1.0
    # local balance: the tile's own background is the pack's tile colour (light varies)
    px = patch.reshape(-1, 3).astype(np.float32)
    border = np.zeros((p, p), bool)
    b = max(2, p // 10)
    border[b : 2 * b, b : p - b] = border[p - 2 * b : p - b, b : p - b] = True
    border[b : p - b, b : 2 * b] = border[b : p - b, p - 2 * b : p - b] = True
    ring = patch[border].astype(np.float32)
    bright = ring[ring.sum(axis=1) >= np.percentile(ring.sum(axis=1), 40)]
    gains = np.array(pack.colour("tile"), np.float32) / np.maximum(np.median(bright, axis=0), 1)
    balanced = np.clip(px * np.clip(gains, 0.5, 2.0), 0, 255).reshape(patch.shape)
    feats = colour_features(balanced)
    # networkers stand only on cells and are judged there; elsewhere a pixel is tile art
    labels, all_labels = model.labels_with_and_without(feats, ("net",))
    kinds = np.array(model.kinds)
    # the table and the tile's edge line show only at the patch's border: inside it, a pixel
    # of their colours is a thin channel's blurred stroke (its chroma bleeds into the tile
    # around it) or the soft rim of one; brightness alone tells channel from tile art there
    inner = _inside(p, max(3, int(round(INNER_MARGIN * p))))
    misnamed = inner & np.isin(kinds[labels], ("table", "edge"))
    tile_i, channel_i = model.index("tile"), model.index("channel")
    mid = 0.5 * (model.centres[tile_i, 2] + model.centres[channel_i, 2])
    labels = np.where(misnamed, np.where(feats[..., 2] < mid, channel_i, tile_i), labels)
    kind_map = kinds[labels]
    rc = pack.cell_radius * p
    rn = pack.networker_radius * p
    cw = pack.channel_width * p
    # ---- cells, then the networkers standing on them
    cells, cell_problems, cell_conf = find_cells(labels, feats, model, pack)
    cells, net_problems, net_conf = read_networkers(cells, feats, all_labels, model, pack)
    problems += cell_problems + net_problems
    conf = min(conf, cell_conf, net_conf)
    order = reading_order([(c.centre[0] / p, c.centre[1] / p) for c in cells])
    cells = [cells[i] for i in order]
    cell_ids = [chr(ord("a") + i) for i in range(len(cells))]
    # ---- channels: the mask without the cells, then pieces and their contacts
    channel = (kind_map == "channel").astype(np.uint8)
    channel = cv2.morphologyEx(channel, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    # the outermost pixels may show the gap to the next tile or the table: not this tile's
    edge_px = max(2, int(round(0.035 * p)))
    channel[:edge_px, :] = channel[-edge_px:, :] = 0
    channel[:, :edge_px] = channel[:, -edge_px:] = 0
    # darker than midway between tile and channel: a channel's stroke by brightness alone
    dark = feats[..., 2] < 0.5 * (model.centres[model.index("tile"), 2]
                                  + model.centres[model.index("channel"), 2])
    # two cells close together: the short channel between them is judged along the line
    links: list[tuple[Endpoint, Endpoint]] = []
    # whatever is not bare tile art conducts (channel, cells, their outlines)
    conductive = (~np.isin(kind_map, ("tile", "edge", "icon"))).astype(np.uint8)
    for c in cells:  # a pawn hides the cell's middle: the whole cell conducts
        conductive[disc((p, p), c.centre, rc * 0.9)] = 1
    yy, xx = np.mgrid[0:p, 0:p].astype(np.float32)
    doubtful: list[tuple[int, int]] = []  # near cells the corridor did not join
    for i, ci in enumerate(cells):
        for j in range(i + 1, len(cells)):
            cj = cells[j]
            dx, dy = cj.centre[0] - ci.centre[0], cj.centre[1] - ci.centre[1]
            dist = math.hypot(dx, dy)
            if dist > 0.6 * p or dist < 1e-6:
                continue
            # a corridor along the straight line between the two cells
            t = np.clip(((xx - ci.centre[0]) * dx + (yy - ci.centre[1]) * dy) / dist**2, 0, 1)
            off = np.hypot(xx - ci.centre[0] - t * dx, yy - ci.centre[1] - t * dy)
            corridor = (off <= max(3.0, 0.09 * p)).astype(np.uint8)
            _, comp = cv2.connectedComponents(conductive & corridor, connectivity=8)
            la = comp[int(round(ci.centre[1])), int(round(ci.centre[0]))]
            lb = comp[int(round(cj.centre[1])), int(round(cj.centre[0]))]
            if la and la == lb:
                links.append((cell_ids[i], cell_ids[j]))
            else:
                # cells whose outlines nearly touch: a short channel may hide in the blur
                k = 2 * max(2, int(round(0.08 * p))) + 1
                near = cv2.dilate((comp == la).astype(np.uint8), np.ones((k, k), np.uint8))
                if (near.astype(bool) & (comp == lb)).any():
                    doubtful.append((i, j))
    # openings are judged before the cells' surroundings are cut away: a cell near a side
    # leaves its channel only a short stub there
    at_sides = channel.copy()
    for c in cells:
        at_sides[disc((p, p), c.centre, rc * 1.05)] = 0
        channel[disc((p, p), c.centre, rc * 1.3)] = 0
    n, lab, stats, _ = cv2.connectedComponentsWithStats(channel, connectivity=8)
    min_piece = 0.6 * cw * cw
    windows: dict[Port, np.ndarray] = {}
    fr = pack.ports
    depth0, depth1 = max(2, int(round(0.035 * p))), max(4, int(0.13 * p))
    half_w = max(2.0, cw)
    port_fraction: dict[Port, float] = {}
    for side in SIDES:
        for pos in range(3):
            port = Port(side, pos)
            x, y = port_point(port, fr)
            win = np.zeros((p, p), bool)
            u = x * p if side in "NS" else y * p
            ua, ub = int(round(u - half_w)), int(round(u + half_w)) + 1
            if side == "N":
                win[depth0:depth1, ua:ub] = True
            elif side == "S":
                win[p - depth1 : p - depth0, ua:ub] = True
            elif side == "W":
                win[ua:ub, depth0:depth1] = True
            else:
                win[ua:ub, p - depth1 : p - depth0] = True
            windows[port] = win
            port_fraction[port] = float(at_sides[win].mean()) if win.any() else 0.0
    present = {q for q, f in port_fraction.items() if f >= settings.port_min_fraction}
    # a second opinion on each opening from brightness alone: a channel is a dark stroke
    # across the side, whatever its colour looks like after blur and compression
    for q, score in _dark_openings(dark, fr, depth0, depth1, half_w).items():
        if (score >= 0.5) != (q in present) or 0.3 <= score < 0.7:
            problems.append(f"is there an opening at {q.side}{q.position}? the channel there "
                            "is unclear")
            conf = min(conf, 0.5)
    offset = _opening_offset(channel, fr, depth0, depth1, cw)
    for f in port_fraction.values():
        # a fraction near the threshold is a doubtful opening
        margin = abs(f - settings.port_min_fraction) / settings.port_min_fraction
        conf = min(conf, float(np.clip(0.5 + margin, 0.0, 1.0)))
    # openings that are not at one of the three positions
    band = np.zeros((p, p), bool)
    band[depth0:depth1, :] = band[p - depth1 : p - depth0, :] = True
    band[:, depth0:depth1] = band[:, p - depth1 : p - depth0] = True
    stray = channel.astype(bool) & band
    for win in windows.values():
        stray &= ~cv2.dilate(win.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    corner = np.zeros((p, p), bool)
    cc = depth1 + 1
    corner[:cc, :cc] = corner[:cc, -cc:] = corner[-cc:, :cc] = corner[-cc:, -cc:] = True
    stray &= ~corner
    if stray.sum() > cw * (depth1 - depth0) * 0.6:
        problems.append("a channel reaches a side away from the three opening positions")
        conf = min(conf, 0.4)
    contact_ring = [disc((p, p), c.centre, rc * 1.3 + 2.5) for c in cells]
    used_ports: set[Port] = set()
    for k in range(1, n):
        if stats[k, cv2.CC_STAT_AREA] < min_piece:
            continue
        # a sliver thinner than a channel (a neighbour's edge line, a shadow) is no channel
        if min(stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]) < 0.6 * cw:
            continue
        piece = lab == k
        grown = cv2.dilate(piece.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        nodes: list[Endpoint] = [
            cell_ids[i] for i, ring_ in enumerate(contact_ring) if (grown & ring_).any()
        ]
        ports_here = [
            q
            for q in sorted(present, key=lambda q: (SIDES.index(q.side), q.position))
            if (piece & windows[q]).any()
        ]
        nodes.extend(ports_here)
        used_ports.update(ports_here)
        if len(nodes) < 2:
            problems.append("a channel ends without reaching a cell or a side")
            conf = min(conf, 0.4)
            continue
        # a channel is a stroke: a hole in it means something round sits on it (a cell under
        # a networker whose ring was not seen)
        contours, hierarchy = cv2.findContours(piece.astype(np.uint8), cv2.RETR_CCOMP,
                                               cv2.CHAIN_APPROX_SIMPLE)
        if hierarchy is not None and any(
                h[3] >= 0 and cv2.contourArea(c) >= 0.25 * math.pi * rn * rn
                for c, h in zip(contours, hierarchy[0], strict=True)):
            problems.append("something round sits on a channel: a cell under a networker?")
            conf = min(conf, 0.3)
        cell_count = sum(1 for e in nodes if isinstance(e, str))
        if cell_count == 0 and len(nodes) >= 4:
            problems.append("channels cross or join at one point: cannot tell which")
            conf = min(conf, 0.4)
        # skeleton ends must lie at a cell or a side: otherwise a channel ends in nowhere
        ys, xs = np.nonzero(piece)
        y0_, y1_, x0_, x1_ = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
        sk = skeletonize(piece[y0_:y1_, x0_:x1_])
        for ex, ey in endpoints(sk):
            gx, gy = ex + x0_, ey + y0_
            near_side = min(gx, gy, p - 1 - gx, p - 1 - gy) <= depth1 + 2
            near_cell = any(
                math.hypot(gx - c.centre[0], gy - c.centre[1]) <= rc * 1.3 + cw + 3 for c in cells
            )
            if not (near_side or near_cell):
                problems.append("a channel ends in the middle of the tile: a join hidden?")
                conf = min(conf, 0.5)
                break
        for a, b2 in zip(nodes, nodes[1:], strict=False):
            links.append((a, b2))
    for q in sorted(present - used_ports, key=lambda q: (SIDES.index(q.side), q.position)):
        problems.append(f"an opening at {q.side}{q.position} joins nothing")
        conf = min(conf, 0.4)
    # near cells the corridor did not join: settled only when the channel pieces and the
    # brightness along the line between them agree (a continuous dark stroke and a piece
    # joining both; or a bare gap and no piece), else asked
    joined = _joined(links)
    stroke_only = dark & (kind_map != "icon")
    for i, j in doubtful:
        gap = _bright_gap(stroke_only, cells[i].centre, cells[j].centre, rc)
        pieces_join = joined(cell_ids[i]) == joined(cell_ids[j])
        if not ((pieces_join and gap <= 1.5) or (not pieces_join and gap >= 3.0)):
            problems.append("a channel between two cells is broken: joined or not?")
            conf = min(conf, 0.4)
    for c in cells:
        conf = min(conf, c.confidence)
    links = list(dict.fromkeys(links))
    tile = Tile.make({cid: c.colour for cid, c in zip(cell_ids, cells, strict=True)}, links)
    nets = [
        NetworkerRead(at, cid, c.networker, c.net_confidence)
        for cid, c in zip(cell_ids, cells, strict=True)
        if c.networker is not None
    ]
    for cid, c in zip(cell_ids, cells, strict=True):
        if c.net_confidence < settings.min_confidence:
            conf = min(conf, c.net_confidence)
            if c.networker is None:
                # a pawn doubted away is asked about, never dropped without a word
                problems.append(f"cell {cid}: is there a networker on it? (seen empty, "
                                f"confidence {c.net_confidence:.2f})")
    category = read_icon(labels, kind_map, pack, model) if pack.icons else None
    centres = tuple((c.centre[0] / p, c.centre[1] / p) for c in cells)
    return TileRead(at, tile, conf, category, tuple(dict.fromkeys(problems)), centres,
                    offset), nets


# keyed by id(pack) and holding the pack itself: a freed pack's id can be reused by another
_ICONS: dict[tuple[int, int], tuple[EnigmaPack, dict[str, list[np.ndarray]]]] = {}


def _icon_templates(pack: EnigmaPack, side: int) -> dict[str, list[np.ndarray]]:
    """Each category icon as a mask of its icon-coloured pixels, ``side`` square, 4 turns."""
    key = (id(pack), side)
    cached = _ICONS.get(key)
    if cached is not None and cached[0] is pack:
        return cached[1]
    icon_f = colour_features(np.array(pack.colour("icon"), np.float32))
    tile_f = colour_features(np.array(pack.colour("tile"), np.float32))
    out: dict[str, list[np.ndarray]] = {}
    for category, image in pack.icons.items():
        small = cv2.resize(image, (side, side), interpolation=cv2.INTER_AREA)
        f = colour_features(small)
        mask = ((f - icon_f) ** 2).sum(axis=-1) < ((f - tile_f) ** 2).sum(axis=-1)
        out[category] = [np.rot90(mask, k) for k in range(4)]
    if len(_ICONS) >= 8:
        _ICONS.clear()  # packs are few in the app; tests and benches make many
    _ICONS[key] = (pack, out)
    return out


def read_icon(labels: np.ndarray, kind_map: np.ndarray, pack: EnigmaPack,
              model: ColourModel) -> str | None:
    """The category whose icon (in any of 4 turns) best matches the tile's middle, over the
    pixels that channels and cells leave visible; None when too little is seen or two
    categories match about as well."""
    p = labels.shape[0]
    side = max(8, int(round(2.5 * pack.icon_radius * p)))
    a = (p - side) // 2
    kinds = kind_map[a:a + side, a:a + side]
    seen = np.isin(kinds, ("tile", "icon"))
    if seen.mean() < 0.5:
        return None
    icon = kinds == "icon"
    scores = {}
    for category, turns in _icon_templates(pack, side).items():
        best = 0.0
        for t in turns:
            inter = float((icon & t & seen).sum())
            union = float(((icon | t) & seen).sum())
            best = max(best, inter / max(union, 1.0))
        scores[category] = best
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    if ranked[0][1] < 0.45 or ranked[0][1] - ranked[1][1] < 0.15:
        return None
    return ranked[0][0]


def _opening_offset(channel: np.ndarray, fractions: tuple[float, float, float], depth0: int,
                    depth1: int, cw: float) -> tuple[float, float]:
    """Where the channels cross the sides, against the pack's three positions: the median
    shift in x (from the N and S sides) and in y (from E and W). Openings sit at fixed places
    on a tile, so a consistent shift means the square was cut a little off the tile."""
    p = channel.shape[0]
    wanted = [f * p for f in fractions]
    shifts: dict[str, list[float]] = {"x": [], "y": []}
    bands = {"N": channel[depth0:depth1, :].mean(axis=0),
             "S": channel[p - depth1:p - depth0, :].mean(axis=0),
             "W": channel[:, depth0:depth1].mean(axis=1),
             "E": channel[:, p - depth1:p - depth0].mean(axis=1)}
    for side, profile in bands.items():
        on = profile > 0.5
        k = 0
        while k < p:
            if not on[k]:
                k += 1
                continue
            j = k
            while j < p and on[j]:
                j += 1
            width = j - k
            if 0.5 * cw <= width <= 2.5 * cw:
                centre = (k + j - 1) / 2
                near = min(wanted, key=lambda w: abs(w - centre))
                if abs(centre - near) <= 0.11 * p:
                    shifts["x" if side in "NS" else "y"].append(centre - near)
            k = j
    return (float(np.median(shifts["x"])) if shifts["x"] else 0.0,
            float(np.median(shifts["y"])) if shifts["y"] else 0.0)


def _dark_openings(dark: np.ndarray, fractions: tuple[float, float, float], depth0: int,
                   depth1: int, half_w: float) -> dict[Port, float]:
    """Per opening position, how clearly a dark stroke crosses the side there (0 none, 1 a
    channel's full depth): the share of dark pixels across the side's band, at its darkest
    column near the position, above the side's usual share (the gap to the next tile, seen
    when the square is cut a little off the tile, darkens a whole side alike)."""
    p = dark.shape[0]
    bands = {"N": dark[depth0:depth1, :].mean(axis=0),
             "S": dark[p - depth1:p - depth0, :].mean(axis=0),
             "W": dark[:, depth0:depth1].mean(axis=1),
             "E": dark[:, p - depth1:p - depth0].mean(axis=1)}
    out: dict[Port, float] = {}
    for side, profile in bands.items():
        usual = float(np.median(profile[depth1:p - depth1]))
        for pos, f in enumerate(fractions):
            u = f * p
            a, b = max(0, int(round(u - half_w))), min(p, int(round(u + half_w)) + 1)
            out[Port(side, pos)] = float(np.clip(profile[a:b].max() - usual, 0.0, 1.0)) \
                / max(1e-6, 1.0 - usual)
    return out


def _joined(links: list[tuple[Endpoint, Endpoint]]) -> Callable[[Endpoint], Endpoint]:
    """The representative of each endpoint's connected group under ``links``."""
    parent: dict[Endpoint, Endpoint] = {}

    def find(e: Endpoint) -> Endpoint:
        parent.setdefault(e, e)
        while parent[e] != e:
            parent[e] = parent[parent[e]]
            e = parent[e]
        return e

    for a, b in links:
        parent[find(a)] = find(b)
    return find


def _bright_gap(dark: np.ndarray, a: tuple[float, float], b: tuple[float, float],
                rc: float) -> float:
    """The longest stretch (pixels) of the straight line between two cells' rims with no
    dark pixel within 1.5 px across it: a channel between them leaves none."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    dist = math.hypot(dx, dy)
    if dist <= 2 * rc:
        return 0.0
    ux, uy = dx / dist, dy / dist
    p = dark.shape[0]
    run = longest = 0.0
    step = 0.5
    for t in np.arange(rc, dist - rc + 1e-6, step):
        hit = False
        for o in (-1.5, -0.75, 0.0, 0.75, 1.5):
            x = int(round(a[0] + t * ux - o * uy))
            y = int(round(a[1] + t * uy + o * ux))
            if 0 <= x < p and 0 <= y < p and dark[y, x]:
                hit = True
                break
        run = 0.0 if hit else run + step
        longest = max(longest, run)
    return longest
