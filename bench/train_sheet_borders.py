"""Train the sheet reader's border model (vision/sheet_borders.json) on rendered sheets.

Run: ``.venv/bin/python bench/train_sheet_borders.py [--sheets N] [--missing N] [--cache DIR]
[--jobs N] [--out PATH]``. Deterministic: the sheets are the bench's sheets of seeds
``TRAIN_FIRST`` on (100000 and up, disjoint from every bench range: 0-299 tuning, 5000-5299
checking, 9000-9299 final), ``--sheets`` with every outline drawn and ``--missing`` more (from
``TRAIN_FIRST + 50000``) with each tile's outline left out with probability 0.3; the network's
start and the split into training and held-out sheets are seeded.

Every border between two cells the reader took as filled (both filled in the truth too) gives
one row of :data:`vision.sheet_borders.FEATURES`, labelled 0 inside a tile and 1 between two
tiles with an outline drawn along the border; borders between two tiles neither of which has
an outline are left out (nothing is drawn there; the reader asks about such tiles).

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
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.sheet_reader import sheet_case, sheet_frame  # noqa: E402
from vision.sheet_borders import FEATURES, MODEL_PATH, BorderModel  # noqa: E402
from vision.sheet_reader import read_sheet  # noqa: E402

TRAIN_FIRST = 100000
MISSING_FIRST = TRAIN_FIRST + 50000
HIDDEN = 16
STEPS = 3000
#: the sure thresholds keep this far from the nearest wrong border (in log-odds)
MARGIN_LOGIT = 0.5


def sheet_rows(seed: int, cache: Path | None, outline_probability: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """(features, labels) of one rendered sheet's borders (see the module's docstring)."""
    content, _, _ = sheet_case(seed)
    frame, no_outline = sheet_frame(seed, cache, outline_probability)
    try:
        reading = read_sheet(frame)
    except Exception:  # a refused frame gives no borders
        return np.zeros((0, len(FEATURES))), np.zeros(0)
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
    if not rows:
        return np.zeros((0, len(FEATURES))), np.zeros(0)
    return np.asarray(rows), np.asarray(labels)


def collect(seeds: list[int], cache: Path | None, outline_probability: float, jobs: int
            ) -> list[tuple[np.ndarray, np.ndarray]]:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sheets", type=int, default=1200,
                        help="sheets with every outline (default 1200)")
    parser.add_argument("--missing", type=int, default=600,
                        help="sheets with missing outlines (default 600)")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/sc-train"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--reuse", action="store_true",
                        help="train on the borders a previous run saved in the cache")
    args = parser.parse_args()
    data = args.cache / "borders.npz"
    if args.reuse and data.exists():
        saved = np.load(data)
        sheet_of = saved["sheet"]
        sheets = [(saved["x"][sheet_of == i], saved["y"][sheet_of == i])
                  for i in range(int(sheet_of.max()) + 1)]
    else:
        sheets = collect(list(range(TRAIN_FIRST, TRAIN_FIRST + args.sheets)), args.cache, 1.0,
                         args.jobs)
        sheets += collect(list(range(MISSING_FIRST, MISSING_FIRST + args.missing)),
                          args.cache, 0.7, args.jobs)
        # the rows, to look at and to train again with --reuse (sheet index per row)
        np.savez_compressed(data, x=np.concatenate([s[0] for s in sheets]),
                            y=np.concatenate([s[1] for s in sheets]),
                            sheet=np.concatenate([np.full(len(s[1]), i)
                                                  for i, s in enumerate(sheets)]))
    rng = np.random.default_rng(11)
    held = rng.random(len(sheets)) < 0.25
    x_train = np.concatenate([s[0] for s, h in zip(sheets, held, strict=True) if not h])
    y_train = np.concatenate([s[1] for s, h in zip(sheets, held, strict=True) if not h])
    x_held = np.concatenate([s[0] for s, h in zip(sheets, held, strict=True) if h])
    y_held = np.concatenate([s[1] for s, h in zip(sheets, held, strict=True) if h])
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
    model = BorderModel(model.mean, model.scale, model.hidden_weights, model.hidden_bias,
                        model.out_weights, model.out_bias, cut_above, join_below)
    wrong = ((p_held > 0.5) != (y_held > 0.5)).mean()
    print(f"held-out error at 0.5: {wrong:.3%}")
    print(f"cut above {cut_above:.6f}: held-out outlines the score did not cut, cut "
          f"{int((p_held[not_cut & (y_held == 1)] >= cut_above).sum())} of "
          f"{int((not_cut & (y_held == 1)).sum())}")
    print(f"join below {join_below:.6f}: held-out insides the score left undecided, joined "
          f"{int((p_held[undecided & (y_held == 0)] <= join_below).sum())} of "
          f"{int((undecided & (y_held == 0)).sum())}")
    args.out.write_text(json.dumps(model.to_json(), indent=None) + "\n")
    print(f"written {args.out}")


if __name__ == "__main__":
    main()
