"""Random Enigma conduit tiles of our own: their graph and where their parts lie.

From the rules digest and ``shared/records.md`` only: a square tile with openings at three
positions per side (records.md positions 0..2, clockwise), up to three power cells of the
three colours, channels from openings to cells, between cells, through the tile from opening
to opening, branching, and lone cells. The tile layouts of the real game are unknown, so
ours put cells anywhere on the tile and bend channels as they must; the sizes are the pack's
(``sizes`` in the pack manifest: cell, channel and pawn as shares of the tile side, the
openings' positions).

A layout is drawn once per tile graph; channels of different networks keep a gap between
them (on a printed tile, channels that touch are one channel), so what the picture shows is
exactly the networks the record says.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

SIDES = "NESW"
INWARD = {"N": (0.0, 1.0), "E": (-1.0, 0.0), "S": (0.0, -1.0), "W": (1.0, 0.0)}
COLOURS = ("red", "blue", "yellow")
OPENINGS_ON_A_FREE_SIDE = (0.35, 0.45, 0.15, 0.05)   # chance of 0, 1, 2, 3 openings
CELLS_ON_A_TILE = (0.12, 0.38, 0.32, 0.18)           # chance of 0, 1, 2, 3 cells
MOST_OPENINGS = 7                  # more than this on free sides is redrawn: unreadably busy
SEPARATE_NETWORK = 0.45            # chance that a cell starts a network of its own
GAP_MM = 3.0                       # least gap between channels of different networks
EDGE_CLEARANCE_MM = 3.5            # a channel stays this far from any side but its own
STUB_MM = (5.0, 10.0)              # straight run of a channel in from its opening
LAYOUT_TRIES = 60
MERGE_ROUNDS = 8
MASK_PX_PER_MM = 2.0


@dataclass(frozen=True)
class Sizes:
    """The pack's sizes in mm: the tile side, the cell, channel and pawn sizes."""

    tile: float
    cell_radius: float
    channel: float
    pawn_radius: float
    ports: tuple[float, float, float]

    @classmethod
    def of_manifest(cls, manifest: dict) -> Sizes:
        sizes = manifest["sizes"]
        tile = float(sizes["tile_mm"])
        return cls(tile, sizes["cell"] * tile, sizes["channel"] * tile,
                   sizes["networker"] * tile, tuple(sizes["ports"]))


def port_point(port: str, sizes: Sizes) -> np.ndarray:
    """Where an opening lies on the tile (mm from its north-west corner, y south)."""
    side, share = port[0], sizes.ports[int(port[1])]
    along = share * sizes.tile
    return np.array({"N": (along, 0.0), "E": (sizes.tile, along),
                     "S": (sizes.tile - along, sizes.tile),
                     "W": (0.0, sizes.tile - along)}[side])


@dataclass
class TileGraph:
    """One tile as it lies: cell colours, and its networks (each a set of cells and ports)."""

    cells: dict[str, str]
    networks: list[tuple[list[str], list[str]]]      # (cell ids, ports like "N0")

    def ports(self) -> list[str]:
        return [port for _, ports in self.networks for port in ports]


def _openings(required: dict[str, set[int]], rng: np.random.Generator) -> list[str]:
    """Every opening: the sides a neighbour settles as it says, the free sides at random."""
    while True:
        ports = [f"{side}{p}" for side, positions in required.items() for p in positions]
        free = [side for side in SIDES if side not in required]
        drawn = []
        for side in free:
            count = int(rng.choice(4, p=OPENINGS_ON_A_FREE_SIDE))
            drawn += [f"{side}{p}" for p in sorted(rng.choice(3, size=count, replace=False))]
        if len(drawn) <= MOST_OPENINGS and (ports or drawn or rng.random() < 0.1):
            return sorted(ports + drawn)


def random_graph(required: dict[str, set[int]], rng: np.random.Generator) -> TileGraph:
    """A tile whose openings on the ``required`` sides are exactly those positions."""
    ports = _openings(required, rng)
    count = max(int(rng.choice(4, p=CELLS_ON_A_TILE)), 0 if ports else 1)
    cells = {"abc"[i]: COLOURS[int(rng.integers(3))] for i in range(count)}
    networks: list[tuple[list[str], list[str]]] = []
    for cell in cells:
        if not networks or rng.random() < SEPARATE_NETWORK:
            networks.append(([cell], []))
        else:
            networks[int(rng.integers(len(networks)))][0].append(cell)
    for port in rng.permutation(ports):
        choice = int(rng.integers(len(networks) + 1))
        if choice == len(networks):
            networks.append(([], [str(port)]))
        else:
            networks[choice][1].append(str(port))
    # an opening alone in a network would be a channel to nowhere: join it to another
    lonely = [n for n in networks if not n[0] and len(n[1]) == 1]
    for network in lonely:
        networks.remove(network)
        if networks:
            networks[int(rng.integers(len(networks)))][1].extend(network[1])
        else:
            networks.append(([], network[1]))
    networks = [n for n in networks if n[0] or n[1]]
    if any(not cells and len(ports) == 1 for cells, ports in networks):
        return random_graph(required, rng)
    return TileGraph(cells, networks)


@dataclass
class Layout:
    """Where a tile's parts lie (mm on the tile) and the record's links drawn that way."""

    cells: dict[str, np.ndarray]
    channels: list[np.ndarray] = field(default_factory=list)   # polylines
    links: list[tuple[str, str]] = field(default_factory=list)
    icon: np.ndarray | None = None


def _bezier(points: list[np.ndarray], samples: int = 24) -> np.ndarray:
    a, b, c, d = points
    t = np.linspace(0, 1, samples)[:, None]
    return ((1 - t) ** 3) * a + 3 * ((1 - t) ** 2) * t * b + 3 * (1 - t) * t * t * c + t ** 3 * d


def _from_port(port: str, target: np.ndarray, sizes: Sizes, rng) -> np.ndarray:
    """A channel from an opening straight in for a little, then bending to ``target``."""
    start = port_point(port, sizes)
    inward = np.array(INWARD[port[0]])
    stub = start + inward * rng.uniform(*STUB_MM)
    bend = stub + inward * rng.uniform(3.0, 10.0)
    curve = _bezier([stub, bend, (bend + target) / 2, target])
    return np.vstack([start - inward * 1.5, curve])


def _between_ports(a: str, b: str, sizes: Sizes, rng) -> np.ndarray:
    start, end = port_point(a, sizes), port_point(b, sizes)
    in_a, in_b = np.array(INWARD[a[0]]), np.array(INWARD[b[0]])
    stub_a = start + in_a * rng.uniform(*STUB_MM)
    stub_b = end + in_b * rng.uniform(*STUB_MM)
    reach = rng.uniform(8.0, 16.0)
    curve = _bezier([stub_a, stub_a + in_a * reach, stub_b + in_b * reach, stub_b])
    return np.vstack([start - in_a * 1.5, curve, end - in_b * 1.5])


def _cell_places(cell_ids: list[str], sizes: Sizes, rng, keep_clear: list[np.ndarray],
                 ) -> dict[str, np.ndarray] | None:
    margin = sizes.cell_radius + 5.0
    places: dict[str, np.ndarray] = {}
    for cell in cell_ids:
        for _ in range(40):
            spot = rng.uniform(margin, sizes.tile - margin, 2)
            if all(np.linalg.norm(spot - other) > 3.2 * sizes.cell_radius
                   for other in [*places.values(), *keep_clear]):
                places[cell] = spot
                break
        else:
            return None
    return places


def _network_paths(cells: list[str], ports: list[str], places: dict[str, np.ndarray],
                   sizes: Sizes, rng) -> tuple[list[np.ndarray], list[tuple[str, str]]]:
    """Channels and links joining one network: cells in a chain or tree, each opening to a
    cell of the network, or, with no cell, openings in pairs or to a hidden junction."""
    paths, links = [], []
    for i, cell in enumerate(cells[1:], 1):
        other = cells[int(rng.integers(i))]
        paths.append(np.vstack([places[other], places[cell]]))
        links.append((other, cell))
    if cells:
        for port in ports:
            cell = cells[int(rng.integers(len(cells)))]
            paths.append(_from_port(port, places[cell], sizes, rng))
            links.append((port, cell))
    elif len(ports) == 2:
        paths.append(_between_ports(ports[0], ports[1], sizes, rng))
        links.append((ports[0], ports[1]))
    else:
        inward = [port_point(p, sizes) + 14 * np.array(INWARD[p[0]]) for p in ports]
        junction = np.mean(inward, axis=0) + rng.uniform(-5, 5, 2)
        junction = np.clip(junction, 14, sizes.tile - 14)
        for port in ports:
            paths.append(_from_port(port, junction, sizes, rng))
        links += [(ports[0], port) for port in ports[1:]]
    return paths, links


def _mask(paths: list[np.ndarray], circles: list[np.ndarray], sizes: Sizes,
          grow_mm: float) -> np.ndarray:
    n = int(sizes.tile * MASK_PX_PER_MM)
    mask = np.zeros((n, n), np.uint8)
    width = max(1, int(round((sizes.channel + grow_mm) * MASK_PX_PER_MM)))
    for path in paths:
        points = np.round(path * MASK_PX_PER_MM * 16).astype(np.int32)
        cv2.polylines(mask, [points], False, 1, width, cv2.LINE_8, shift=4)
    for centre in circles:
        cv2.circle(mask, tuple(np.round(centre * MASK_PX_PER_MM * 16).astype(int)),
                   int(round((sizes.cell_radius + grow_mm / 2) * MASK_PX_PER_MM * 16)), 1, -1,
                   cv2.LINE_8, shift=4)
    return mask


def _clear_of_sides(path: np.ndarray, ports: set[str], sizes: Sizes) -> bool:
    """No channel comes near a side except at an opening it belongs to."""
    near = EDGE_CLEARANCE_MM + sizes.channel / 2
    points = path[2:-2] if len(path) > 4 else path
    for p in points:
        close = [side for side, hit in zip(SIDES, (p[1] < near, p[0] > sizes.tile - near,
                                                   p[1] > sizes.tile - near, p[0] < near),
                                           strict=True) if hit]
        for side in close:
            if not any(np.linalg.norm(p - port_point(port, sizes)) < STUB_MM[1] + 4
                       for port in ports if port[0] == side):
                return False
    return True


def _try_layout(graph: TileGraph, sizes: Sizes, rng, icon: bool) -> Layout | None:
    centre = np.full(2, sizes.tile / 2)
    places = _cell_places(list(graph.cells), sizes, rng, [centre] if icon else [])
    if places is None:
        return None
    layout = Layout(places, icon=centre if icon else None)
    masks = []
    for cells, ports in graph.networks:
        paths, links = _network_paths(cells, ports, places, sizes, rng)
        if not all(_clear_of_sides(p, set(ports), sizes) for p in paths):
            return None
        layout.channels += paths
        layout.links += links
        masks.append(_mask(paths, [places[c] for c in cells], sizes, GAP_MM / 2 + 1.0))
    if icon:
        masks.append(_mask([], [centre], sizes, GAP_MM + 2.0))
    total = np.sum(masks, axis=0) if masks else np.zeros(1)
    return layout if total.max(initial=0) <= 1 else None


def lay_out(graph: TileGraph, sizes: Sizes, rng: np.random.Generator,
            icon: bool) -> tuple[TileGraph, Layout]:
    """A layout of ``graph`` whose networks keep apart; when none is found, networks are
    merged (what touches is then one network, and the graph says so) and the icon dropped;
    raises ``LayoutError`` when even that fails."""
    for _ in range(MERGE_ROUNDS):
        for _ in range(LAYOUT_TRIES):
            layout = _try_layout(graph, sizes, rng, icon)
            if layout is not None:
                return graph, layout
        if icon:
            icon = False
            continue
        if len(graph.networks) <= 1:
            graph = TileGraph(graph.cells, [(list(graph.cells), sorted(graph.ports()))])
            # a single network that still does not fit: drop a cell
            if graph.cells and not _fits_alone(graph, sizes, rng):
                last = sorted(graph.cells)[-1]
                cells = {k: v for k, v in graph.cells.items() if k != last}
                graph = TileGraph(cells, [(list(cells), sorted(graph.ports()))])
            continue
        first, second = graph.networks[0], graph.networks[1]
        merged = (first[0] + second[0], first[1] + second[1])
        graph = TileGraph(graph.cells, [merged, *graph.networks[2:]])
    raise LayoutError(f"no layout for openings {sorted(graph.ports())}")


class LayoutError(RuntimeError):
    """No drawable layout: the caller draws another graph."""


def _fits_alone(graph: TileGraph, sizes: Sizes, rng) -> bool:
    return any(_try_layout(graph, sizes, rng, False) is not None for _ in range(LAYOUT_TRIES))


def record_tile(graph: TileGraph, layout: Layout) -> dict:
    """The tile as records.md writes it, from the links the layout drew."""
    return {"cells": dict(graph.cells), "links": [list(link) for link in layout.links]}
