"""Per-frame look at what the readers answered on the independent scenes (camera as drawn).

    PYTHONPATH=.:bench .venv/bin/python -m independent_scenes {code,code-taught,sheet,enigma,indigo,
        puzzles} [--first SEED] [--frames N] [--save DIR] [--conditions clean,harsh]
        [--tiles 10,22] [--look demo|scans] [--condition mild|harsh]
        [--kinds weight,fragment,angular,conduit]

One line per seed: the truth, what the app's read path returned, and the outcome, so a silent
wrong read in bench/silent_reads.py can be found and looked at (``--save`` writes the frames).
``enigma`` reads each table photographed clean and harsh (``--conditions``) the way
``companion read enigma`` does and ends with the figures per condition: tiles exact, asked and
silently wrong, networkers exact per table, and the read time. ``puzzles`` draws, per kind and
condition (``--conditions mild,moderate,harsh``), ``--frames`` seeds from ``--first``, each a
right and a wrong build on a demo card (the cards in turn), checks each the way
``companion check puzzle KIND IMAGE --card ID`` does, and ends with the figures: right builds
solved, wrong builds solved (must be 0), the "cannot tell" sentences and the check time.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2

from .code_mat import code_scene_with_outline
from .sheet import latest_drawing, sheet_scene


def look_at_code(seed: int, save: Path | None, taught: bool = False) -> str:
    from silent_cases.independent_code import TAUGHT_BOX, taught_config

    from companion.break_the_code import Code
    from companion.break_the_code.tiles import Tile
    from ui.reading import read_code_frame

    frame, tiles, _ = code_scene_with_outline(seed, box_seed=TAUGHT_BOX if taught else None)
    if save:
        cv2.imwrite(str(save / f"code-{seed}.jpg"), frame)
    truth = Code.of(Tile.parse(text) for text in tiles)
    reading = read_code_frame(frame, expected=len(tiles), cfg=taught_config() if taught else None)
    verdict = "nothing stored" if reading.code is None else \
        ("right" if reading.code == truth else f"WRONG: stored {reading.code}")
    return (f"{seed} truth {truth}  {verdict}  problem={reading.problem!r} "
            f"confidence={reading.confidence:.2f} reason={getattr(reading, 'reason', '')!r}")


def look_at_sheet(seed: int, save: Path | None) -> str:
    from ui.reading import read_sheet_frame
    from vision.errors import FrameRefusedError

    frame, filled, tiles = sheet_scene(seed)
    if save:
        cv2.imwrite(str(save / f"sheet-{seed}.jpg"), frame)
    try:
        reading = read_sheet_frame(frame, set())
    except FrameRefusedError as exc:
        return f"{seed} refused: {exc}"
    latest = latest_drawing(filled, tiles)
    in_play = read_sheet_frame(frame, filled - latest)
    lines = []
    for name, read, truth in (("all new", reading, filled), ("latest", in_play, latest)):
        new = {tuple(cell) for cell in read.new_cells}
        asked = bool(read.questions or read.doubtful or read.problems or read.missing)
        verdict = "asked" if asked else ("right" if new == truth else "SILENT WRONG")
        lines.append(f"{seed} {name}: {verdict}; {len(tiles)} tiles, {len(truth)} cells; "
                     f"wrong {sorted(new ^ truth)}; doubtful {len(read.doubtful)}; "
                     f"problems {[p.code for p in read.problems]}; missing {read.missing}; "
                     f"questions {[q.message[:60] for q in read.questions][:3]}")
    return "\n".join(lines)


def look_at_enigma(first: int, frames: int, conditions: list[str], save: Path | None,
                   tiles: tuple[int, int]) -> None:
    from .enigma_judge import read_and_judge, summary
    from .enigma_table import enigma_scene, truth_of

    scores: dict[str, list] = {condition: [] for condition in conditions}
    for seed in range(first, first + frames):
        for condition in conditions:
            frame, table = enigma_scene(seed, condition, tiles)
            if save:
                cv2.imwrite(str(save / f"enigma-{seed}-{condition}.jpg"), frame)
            score = read_and_judge(frame, *truth_of(table))
            scores[condition].append(score)
            print(f"{seed} {condition}{' (icons)' if table.icons else ''}: "
                  f"{score.refused or ''}{score.tiles} tiles, exact "
                  f"{score.exact}, asked {score.asked}, silent wrong {score.silent_wrong}; "
                  f"networkers {'exact' if score.networkers_exact else 'WRONG'}; "
                  f"{score.cpu_ms:.0f} ms CPU", flush=True)
            for wrong in score.wrong:
                print(f"    silent wrong {wrong}", flush=True)
    for condition in conditions:
        print("\n".join(summary(condition, scores[condition])))


def look_at_indigo(seed: int, save: Path | None, look: str, condition: str) -> str:
    from .indigo_compare import judge, min_confidence, read_frame
    from .indigo_scene import indigo_scene

    scene = indigo_scene(seed, look, condition)
    if save:
        cv2.imwrite(str(save / f"indigo-{look}-{condition}-{seed}.jpg"), scene.frame)
    out, cpu_ms = read_frame(scene.frame, scene.look.pack)
    j = judge(scene.truth, out, cpu_ms, min_confidence(scene.look.pack))
    if j.refused:
        return f"{seed} refused: {j.refused}"
    verdict = "SILENT WRONG" if j.frame_silent_wrong else \
        ("asked" if j.any_question else "right")
    questions = out["questions"] if isinstance(out, dict) else []
    return (f"{seed} {verdict}; {len(scene.truth.tiles)} tiles, {j.gems} gems; cells wrong "
            f"{j.cells_wrong_asked} asked / {j.cells_wrong_silent} silent; gems wrong "
            f"{j.gems_wrong_asked} / {j.gems_wrong_silent}; chips wrong {j.chips_wrong_asked} / "
            f"{j.chips_wrong_silent}; centre exact {j.centre_exact}; fingertip "
            f"{scene.truth.covered}; {'; '.join(j.wrong_notes)}; "
            f"questions {[q[:60] for q in questions][:4]}")


def look_at_puzzles(first: int, frames: int, kinds: list[str], conditions: list[str],
                    save: Path | None) -> None:
    from .puzzle_judge import Tally, Verdict, check_frame, summary
    from .puzzle_scene import puzzle_scene, scene_cards

    tallies: dict[tuple[str, str], Tally] = {}
    for kind in kinds:
        cards = scene_cards(kind)
        for condition in conditions:
            tally = tallies.setdefault((kind, condition), Tally())
            for seed in range(first, first + frames):
                card_id = cards[seed % len(cards)]
                for right in (True, False):
                    scene = puzzle_scene(kind, card_id, right, seed, condition)
                    if save:
                        cv2.imwrite(str(save / f"puzzle-{kind}-{condition}-{seed}-"
                                    f"{'right' if right else 'wrong'}.jpg"), scene.frame)
                    verdict, reason, cpu_ms = check_frame(scene.frame, kind, card_id)
                    v = Verdict(kind, condition, seed, card_id, right, verdict, reason, cpu_ms,
                                scene.build.mistake, scene.surface)
                    tally.add(v)
                    flag = "  <-- WRONG CALLED SOLVED" if not right and verdict == "solved" \
                        else ""
                    print(f"{seed} {kind} {condition} {card_id} "
                          f"{'right' if right else 'wrong (' + v.mistake + ')'} on "
                          f"{scene.surface}: {verdict}: {reason} [{cpu_ms:.0f} ms]{flag}",
                          flush=True)
    print("\n".join(summary(tallies)), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("code", "code-taught", "sheet", "enigma", "indigo",
                                         "puzzles"))
    parser.add_argument("--first", type=int, default=70000)
    parser.add_argument("--frames", type=int, default=12)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--conditions", default=None,
                        help="enigma: camera conditions (clean,harsh); puzzles: "
                             "mild,moderate,harsh")
    parser.add_argument("--kinds", default="weight,fragment,angular,conduit", help="puzzles")
    parser.add_argument("--tiles", default="10,22", help="enigma: least,most tiles a table")
    parser.add_argument("--look", choices=("demo", "scans"), default="demo", help="indigo")
    parser.add_argument("--condition", choices=("mild", "harsh"), default="harsh",
                        help="indigo: camera condition")
    args = parser.parse_args()
    if args.what == "enigma":
        least, most = (int(n) for n in args.tiles.split(","))
        look_at_enigma(args.first, args.frames, (args.conditions or "clean,harsh").split(","),
                       args.save, (least, most))
        return
    if args.what == "puzzles":
        look_at_puzzles(args.first, args.frames, args.kinds.split(","),
                        (args.conditions or "mild,moderate,harsh").split(","), args.save)
        return
    for seed in range(args.first, args.first + args.frames):
        if args.what == "indigo":
            print(look_at_indigo(seed, args.save, args.look, args.condition), flush=True)
        elif args.what == "sheet":
            print(look_at_sheet(seed, args.save), flush=True)
        else:
            print(look_at_code(seed, args.save, taught=args.what == "code-taught"), flush=True)


if __name__ == "__main__":
    main()
