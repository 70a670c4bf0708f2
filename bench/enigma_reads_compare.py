"""Every Enigma read of a base tree against this tree's: a speed change must read alike.

    python bench/enigma_reads_compare.py frames DIR        # draw the frames once
    PYTHONHASHSEED=0 PYTHONPATH=TREE:TREE/bench python bench/enigma_reads_compare.py \\
        dump DIR OUT.pkl                                    # every read, per tree
    python bench/enigma_reads_compare.py compare BASE.pkl MINE.pkl

The frames: the independent scenes' tables 0-19 clean and harsh (``python -m
independent_scenes enigma --first 0 --frames 20``), the project's own renders (demo and
``ink`` packs, 8 tables of 25 tiles each), the speed figures' 45-tile tables 5000-5004 (read
whole, after a placement, and reusing the last read's memory) and tables of random tiles
(``enigma_any_tile``, 0-5 clean and harsh). A dump keeps every tile read whole (links, cells,
centres, pawns, doubts, confidences), the networkers, the questions, the fit and the edges;
the comparison names the reads that differ and shows the first tiles that do. Run both dumps
with one ``PYTHONHASHSEED``: sets of strings iterate in the hash's order.
"""

from __future__ import annotations

import pickle
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np


def draw_frames(out: Path) -> None:
    from independent_scenes.enigma_table import enigma_scene

    from vision.enigma.pack import load_enigma_pack
    from vision.enigma.synth.any_tiles import random_catalogue
    from vision.enigma.synth.art import draw_pack
    from vision.enigma.synth.render import TableView, render_frame
    from vision.enigma.synth.scenes import categories_of, random_record
    from vision.synth.effects import ALL_EFFECTS

    out.mkdir(parents=True, exist_ok=True)
    demo = load_enigma_pack()
    for seed in range(20):
        for condition in ("clean", "harsh"):
            frame, _ = enigma_scene(seed, condition)
            np.savez_compressed(out / f"indep-{seed}-{condition}.npz", image=frame, pack="indep")
    for name in ("demo", "ink"):
        pack = demo if name == "demo" else draw_pack("ink")
        for seed in range(8):
            record, state = random_record(1000 + seed, tiles=25)
            view = TableView.of_state(state, pack, categories=categories_of(record))
            image = render_frame(view, pack, seed=seed, frame_size=(1920, 1080)).image
            np.savez_compressed(out / f"own{name}-{seed}.npz", image=image, pack=name)
    for seed in range(5000, 5005):
        drawn = []
        for tiles in (45, 44):
            record, state = random_record(seed, tiles=tiles, bounds=(8, 7))
            view = TableView.of_state(state, demo, categories=categories_of(record))
            drawn.append((render_frame(view, demo, seed=seed, frame_size=(2304, 1296)).image,
                          state))
        np.savez_compressed(out / f"speed-{seed}.npz", image=drawn[0][0], last=drawn[1][0],
                            pack="demo", placed=np.array(sorted(drawn[1][1].board.tiles)))
    for seed in range(6):
        catalogue = random_catalogue(seed, demo)
        record, state = random_record(seed, tiles=20, catalogue=catalogue)
        view = TableView.of_state(state, demo, categories=categories_of(record, catalogue))
        for condition, effects in (("clean", ()), ("harsh", ALL_EFFECTS)):
            image = render_frame(view, demo, seed=seed, effects=effects,
                                 frame_size=(1920, 1080)).image
            np.savez_compressed(out / f"any-{seed}-{condition}.npz", image=image, pack="demo")


def _whole(read: Any) -> Any:
    if isinstance(read, str):
        return read
    return (sorted(read.tiles.items()), list(read.networkers), list(read.questions),
            repr(read.fit), read.pack_fits, repr(read.extra), read.table_edges,
            None if read.looked_at is None else sorted(read.looked_at))


def dump_reads(frames: Path, out: Path) -> None:
    from config import Config, art_pack_folder
    from vision.enigma.pack import load_enigma_pack
    from vision.enigma.reader import read_enigma
    from vision.enigma.settings import ReaderSettings
    from vision.enigma.synth.art import draw_pack
    from vision.errors import FrameRefusedError

    cfg = Config()
    packs = {"demo": load_enigma_pack(), "ink": draw_pack("ink"),
             "indep": load_enigma_pack(art_pack_folder(cfg, cfg.vision.enigma.pack))}
    settings = ReaderSettings.from_config(cfg)
    reads: dict[str, Any] = {}
    cpu = time.process_time()
    for path in sorted(frames.glob("*.npz")):
        z = np.load(path)
        kind = str(z["pack"])
        extra: dict[str, Any] = {"settings": settings} if kind == "indep" else {}

        def read(image: np.ndarray, **kw: Any) -> Any:
            try:
                return read_enigma(image, packs[kind], **extra, **kw)  # noqa: B023
            except FrameRefusedError as exc:
                return str(exc)

        reads[path.stem] = _whole(read(z["image"]))
        if "placed" in z.files:
            placed = {(int(a), int(b)) for a, b in z["placed"]}
            reads[path.stem + ":new"] = _whole(read(z["image"], placed=placed))
            last = read(z["last"], placed=placed)
            reads[path.stem + ":warm"] = _whole(read(z["image"], placed=placed,
                                                     previous=last.memory))
    out.write_bytes(pickle.dumps(reads))
    print(f"{len(reads)} reads; {time.process_time() - cpu:.1f} s CPU")


def compare(base_file: Path, mine_file: Path) -> int:
    base, mine = pickle.loads(base_file.read_bytes()), pickle.loads(mine_file.read_bytes())
    differ = [k for k in base if base[k] != mine.get(k)]
    print(f"reads compared {len(base)} (missing {len(set(base) ^ set(mine))}); "
          f"differing {len(differ)}{': ' + ', '.join(differ[:10]) if differ else ''}")
    for key in differ[:3]:
        b, m = base[key], mine.get(key)
        if isinstance(b, tuple) and isinstance(m, tuple):
            b_tiles, m_tiles = dict(b[0]), dict(m[0])
            for at in [at for at in b_tiles if b_tiles[at] != m_tiles.get(at)][:2]:
                print(f"  {key} {at}\n    base {b_tiles[at]!r}\n    mine {m_tiles.get(at)!r}")
            for i, (x, y) in enumerate(zip(b[1:], m[1:], strict=True), start=1):
                if x != y:
                    print(f"  {key} part {i}\n    base {str(x)[:300]}\n    mine {str(y)[:300]}")
        else:
            print(f"  {key}\n    base {b}\n    mine {m}")
    return 1 if differ or set(base) ^ set(mine) else 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["frames"] and len(args) == 2:
        draw_frames(Path(args[1]))
        return 0
    if args[:1] == ["dump"] and len(args) == 3:
        dump_reads(Path(args[1]), Path(args[2]))
        return 0
    if args[:1] == ["compare"] and len(args) == 3:
        return compare(Path(args[1]), Path(args[2]))
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
