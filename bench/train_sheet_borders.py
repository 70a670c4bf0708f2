"""Train the sheet reader's border model (vision/second_chance/sheet_borders.json) on rendered
sheets.

Run: ``.venv/bin/python bench/train_sheet_borders.py [--sheets N] [--missing N] [--cache DIR]
[--jobs N] [--out PATH]``. Deterministic: the sheets are the bench's sheets of seeds
``TRAIN_FIRST`` on (100000 and up, disjoint from every bench range: 0-299 tuning, 5000-5299
checking, 9000-9299 final), ``--sheets`` with every outline drawn and ``--missing`` more (from
``TRAIN_FIRST + 50000``) with each tile's outline left out with probability 0.3; the network's
start and the split into training and held-out sheets are seeded.

Every border between two cells the reader took as filled (both filled in the truth too) gives
one row of :data:`vision.second_chance.borders.FEATURES`, labelled 0 inside a tile and 1 between two
tiles with an outline drawn along the border; borders between two tiles neither of which has
an outline are left out (nothing is drawn there; the reader asks about such tiles).

The side model (vision/second_chance/sheet_border_sides.json) learns from the sides of tiles on
empty cells
(the empty cell empty in the truth too, not the bonus 1): 1 for a tile drawn with its outline,
0 for one drawn without; its ``cut_above`` (surely drawn) is above every held-out bare side,
and at least ``SIDE_SURE_FLOOR``; its ``join_below`` (surely bare) below every held-out drawn
side, and at most ``SIDE_BARE_CEILING``.

The sure thresholds saved with the weights come from the held-out quarter of the sheets (by
sheet, seeded), on the borders where the reader lets the model decide: ``cut_above`` is above
the probability of every inside border the outline score did not cut, ``join_below`` below that
of every outline the score left undecided, each ``MARGIN_LOGIT`` further out. ``--reuse``
trains again on the borders a previous run saved in the cache (``borders.npz``), without
reading the sheets again. About 10 minutes on 2 cores from nothing, 5 with ``--reuse``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.sheet_reader import sheet_case, sheet_frame  # noqa: E402
from vision.errors import FrameRefusedError  # noqa: E402
from vision.second_chance.borders import (  # noqa: E402
    FEATURES,
    MODEL_PATH,
    SIDE_FEATURES,
    SIDE_MODEL_PATH,
    BorderModel,
)
from vision.second_chance.reader import read_sheet  # noqa: E402

TRAIN_FIRST = 100000
MISSING_FIRST = TRAIN_FIRST + 50000
HIDDEN = 16
STEPS = 3000
#: the sure thresholds keep this far from the nearest wrong held-out border (in log-odds): with
#: 0.5 the cut was at 0.92 (held-out insides up to 0.876), and an inside border of a fresh
#: bench sheet (9104, coloured pencil) scored 0.936 and was cut without a question
MARGIN_LOGIT = 2.0
#: a side is surely drawn from no lower probability than this, however far below it the bare
#: sides stay (few bare sides to learn from: 4000 on 600 sheets)
SIDE_SURE_FLOOR = 0.9
#: ... and surely bare (the side model's ``join_below``) at no higher probability than this
SIDE_BARE_CEILING = 0.01


Rows = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def sheet_rows(seed: int, cache: Path | None, outline_probability: float) -> Rows:
    """(border features, labels, side features, labels) of one rendered sheet (see the
    module's docstring)."""
    content, _, _ = sheet_case(seed)
    frame, no_outline = sheet_frame(seed, cache, outline_probability)
    nothing = (np.zeros((0, len(FEATURES))), np.zeros(0),
               np.zeros((0, len(SIDE_FEATURES))), np.zeros(0))
    try:
        reading = read_sheet(frame)
    except FrameRefusedError:
        return nothing
    tile_of = {cell: i for i, tile in enumerate(content.tiles) for cell in tile}
    bare = set(no_outline)
    rows, labels = [], []
    for (a, b), features in reading.debug["border_features"].items():
        if a not in tile_of or b not in tile_of:
            continue
        ta, tb = tile_of[a], tile_of[b]
        if ta != tb and ta in bare and tb in bare:
            continue  # two tiles, no outline between them: not an outline, not an inside
        rows.append(features)
        labels.append(float(ta != tb))
    side_rows, side_labels = [], []
    for (cell, other), features in reading.debug["side_features"].items():
        if cell not in tile_of or other in tile_of or other == content.bonus:
            continue
        side_rows.append(features)
        side_labels.append(float(tile_of[cell] not in bare))
    return (np.asarray(rows).reshape(-1, len(FEATURES)), np.asarray(labels),
            np.asarray(side_rows).reshape(-1, len(SIDE_FEATURES)), np.asarray(side_labels))


def collect(seeds: list[int], cache: Path | None, outline_probability: float, jobs: int
            ) -> list[Rows]:
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(sheet_rows, seeds, [cache] * len(seeds),
                             [outline_probability] * len(seeds), chunksize=8))


def train(x: np.ndarray, y: np.ndarray, seed: int) -> BorderModel:
    """A one-hidden-layer network by full-batch Adam on the cross-entropy, weight decay."""
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    scale = np.maximum(x.std(axis=0), 1e-6)
    z = (x - mean) / scale
    params = [rng.normal(0, 1 / np.sqrt(z.shape[1]), (z.shape[1], HIDDEN)), np.zeros(HIDDEN),
              rng.normal(0, 1 / np.sqrt(HIDDEN), HIDDEN), np.zeros(1)]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    decay, rate = 1e-4, 0.01
    for step in range(1, STEPS + 1):
        w1, b1, w2, b2 = params
        h = np.tanh(z @ w1 + b1)
        p = 1 / (1 + np.exp(-np.clip(h @ w2 + b2[0], -30, 30)))
        d_out = (p - y) / len(y)
        g_w2 = h.T @ d_out + decay * w2
        g_b2 = np.array([d_out.sum()])
        d_h = np.outer(d_out, w2) * (1 - h ** 2)
        g_w1 = z.T @ d_h + decay * w1
        g_b1 = d_h.sum(axis=0)
        for i, g in enumerate((g_w1, g_b1, g_w2, g_b2)):
            moments[i] = 0.9 * moments[i] + 0.1 * g
            squares[i] = 0.999 * squares[i] + 0.001 * g ** 2
            m_hat = moments[i] / (1 - 0.9 ** step)
            v_hat = squares[i] / (1 - 0.999 ** step)
            params[i] = params[i] - rate * m_hat / (np.sqrt(v_hat) + 1e-8)
    w1, b1, w2, b2 = params
    return BorderModel(mean, scale, w1, b1, w2, float(b2[0]), 1.0, 0.0)


def logit(p: float) -> float:
    p = min(max(p, 1e-12), 1 - 1e-12)
    return float(np.log(p / (1 - p)))


def sigmoid(v: float) -> float:
    return float(1 / (1 + np.exp(-v)))


def load_or_collect(args: argparse.Namespace) -> list[Rows]:
    """The border rows of every training sheet: read again, or saved by an earlier run."""
    data = args.cache / "borders.npz"
    if args.reuse and data.exists():
        saved = np.load(data)
        return [
            (saved["x"][saved["sheet"] == i], saved["y"][saved["sheet"] == i],
             saved["side_x"][saved["side_sheet"] == i], saved["side_y"][saved["side_sheet"] == i])
            for i in range(int(saved["count"]))]
    sheets = collect(list(range(TRAIN_FIRST, TRAIN_FIRST + args.sheets)), args.cache, 1.0,
                     args.jobs)
    sheets += collect(list(range(MISSING_FIRST, MISSING_FIRST + args.missing)),
                      args.cache, 0.7, args.jobs)
    # the rows, to look at and to train again with --reuse (sheet index per row)
    np.savez_compressed(
        data, count=len(sheets),
        x=np.concatenate([s[0] for s in sheets]), y=np.concatenate([s[1] for s in sheets]),
        sheet=np.concatenate([np.full(len(s[1]), i) for i, s in enumerate(sheets)]),
        side_x=np.concatenate([s[2] for s in sheets]),
        side_y=np.concatenate([s[3] for s in sheets]),
        side_sheet=np.concatenate([np.full(len(s[3]), i) for i, s in enumerate(sheets)]))
    return sheets


def fit_border_model(part: Callable[[int, bool], np.ndarray], out: Path) -> None:
    """The model of borders between two filled cells: drawn outline or a tile's inside."""
    x_train, y_train, x_held, y_held = part(0, False), part(1, False), part(0, True), part(1, True)
    print(f"borders: {len(y_train)} training ({int(y_train.sum())} outlines), "
          f"{len(y_held)} held out ({int(y_held.sum())} outlines)")
    model = train(x_train, y_train, seed=7)
    p_held = model.probabilities(x_held)
    # sure thresholds from the held-out sheets, on the borders where the model decides: it
    # cuts only borders the score did not cut (lean <= 1: at most the sheet's cut), and joins
    # only borders the score left undecided (|lean| <= 1)
    lean = x_held[:, FEATURES.index("lean")]
    not_cut = lean <= 1.0
    undecided = np.abs(lean) <= 1.0
    inside_max = float(p_held[not_cut & (y_held == 0)].max())
    outline_min = float(p_held[undecided & (y_held == 1)].min())
    cut_above = sigmoid(logit(inside_max) + MARGIN_LOGIT)
    join_below = sigmoid(logit(outline_min) - MARGIN_LOGIT)
    print(f"held out, not cut by the score: insides up to p {inside_max:.5f}; undecided by "
          f"it: outlines from p {outline_min:.5f}")
    model = replace(model, cut_above=cut_above, join_below=join_below)
    print(f"held-out error at 0.5: {((p_held > 0.5) != (y_held > 0.5)).mean():.3%}")
    print(f"cut above {cut_above:.6f}: held-out outlines the score did not cut, cut "
          f"{int((p_held[not_cut & (y_held == 1)] >= cut_above).sum())} of "
          f"{int((not_cut & (y_held == 1)).sum())}")
    print(f"join below {join_below:.6f}: held-out insides the score left undecided, joined "
          f"{int((p_held[undecided & (y_held == 0)] <= join_below).sum())} of "
          f"{int((undecided & (y_held == 0)).sum())}")
    out.write_text(json.dumps(model.to_json()) + "\n")
    print(f"written {out}")


def fit_side_model(part: Callable[[int, bool], np.ndarray], out: Path) -> None:
    """The model of a tile's sides on empty cells: is its outline drawn there?"""
    x_train, y_train, x_held, y_held = part(2, False), part(3, False), part(2, True), part(3, True)
    print(f"sides: {len(y_train)} training ({int((y_train == 0).sum())} bare), "
          f"{len(y_held)} held out ({int((y_held == 0).sum())} bare)")
    side_model = replace(train(x_train, y_train, seed=8), features=SIDE_FEATURES)
    p_held = side_model.probabilities(x_held)
    bare_max = float(p_held[y_held == 0].max())
    drawn_above = max(sigmoid(logit(bare_max) + MARGIN_LOGIT), SIDE_SURE_FLOOR)
    drawn_min = float(p_held[y_held == 1].min())
    bare_below = min(sigmoid(logit(drawn_min) - MARGIN_LOGIT), SIDE_BARE_CEILING)
    side_model = replace(side_model, cut_above=drawn_above, join_below=bare_below)
    print(f"held-out error at 0.5: {((p_held > 0.5) != (y_held > 0.5)).mean():.3%}; bare sides "
          f"up to p {bare_max:.5f}; surely drawn from {drawn_above:.6f}: "
          f"{int((p_held[y_held == 1] >= drawn_above).sum())} of {int(y_held.sum())} drawn; "
          f"drawn sides from p {drawn_min:.5f}; surely bare up to {bare_below:.6f}: "
          f"{int((p_held[y_held == 0] <= bare_below).sum())} of {int((y_held == 0).sum())} bare")
    out.write_text(json.dumps(side_model.to_json()) + "\n")
    print(f"written {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sheets", type=int, default=1200,
                        help="sheets with every outline (default 1200)")
    parser.add_argument("--missing", type=int, default=600,
                        help="sheets with missing outlines (default 600)")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/sc-train"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--side-out", type=Path, default=SIDE_MODEL_PATH)
    parser.add_argument("--reuse", action="store_true",
                        help="train on the borders a previous run saved in the cache")
    args = parser.parse_args()
    sheets = load_or_collect(args)
    held = np.random.default_rng(11).random(len(sheets)) < 0.25

    def part(index: int, held_out: bool) -> np.ndarray:
        return np.concatenate([s[index] for s, h in zip(sheets, held, strict=True)
                               if h == held_out])

    fit_border_model(part, args.out)
    fit_side_model(part, args.side_out)


if __name__ == "__main__":
    main()
