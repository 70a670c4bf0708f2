"""The app's resident memory over an evening of demo play, all four games in turn.

    .venv/bin/python bench/app_memory.py [--minutes M]

Runs the real app as ``companion app --demo`` runs it (``ui.main``, 800x480, a fresh journal,
under Xvfb when there is no display) and plays scripted games, one after another, for M
minutes (default 120), with the demo camera rendering the table as it changes:

- Indigo: the demo table puts a tile down, the screen proposes and confirms it, to the end;
- Break the Code, 3 players: the screen deals, players ask cards, then guess right;
- Second Chance, 3 players: a seeded simulated game, event by event through the app;
- Enigma, 3 players: a seeded random game of 20 tiles, event by event through the app.

It prints ``RSS start N MB, after first game N MB, end N MB`` (the aim is an end of at most
300 MB and no growth after the first game), the high mark between samples, and the median of
the samples taken once each game has been played once (what the evening settles at; one high
sample is whatever frame was being rendered at that moment). Not a test:
the figures depend on the machine and on what else runs.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Iterator
from typing import Any

from app_process import is_child, prepare_child, rss_mb, run_in_child, software_gl_mb
from gc_costs import GcCosts

PLAYERS = ["Ana", "Ben", "Cleo"]
#: seconds between two scripted actions: about a player's pace with the demo camera
STEP_SECONDS = 0.25
SAMPLE_SECONDS = 10.0
#: Break the Code: cards asked before the players guess
ASKS_BEFORE_GUESS = 4


def indigo_game(app: Any, seed: int) -> Iterator[None]:
    app.new_game("indigo", list(PLAYERS), {})
    screen = app.screen("indigo")
    while not screen.state().is_over:
        placement = app.table.play_random(screen.state())
        screen.propose(placement.cell, placement.tile.kind, placement.tile.rotation)
        yield
        screen.confirm()
        yield


def break_the_code_game(app: Any, seed: int) -> Iterator[None]:
    app.new_game("break-the-code", list(PLAYERS), {})
    screen = app.screen("break_the_code")
    screen.rng = random.Random(seed)
    screen.deal()
    yield
    central = app.session.events[0]["central"]
    rng = random.Random(seed)
    asks = 0
    while not screen.state().over:
        state = screen.state()
        if asks < ASKS_BEFORE_GUESS and state.askable_cards:
            from companion.break_the_code.cards import get_card

            card = rng.choice(sorted(state.askable_cards))
            screen.ask(card, rng.choice(get_card(card).choices or (None,)))
            asks += 1
        else:
            app.apply({"type": "guess", "player": state.current_player, "code": central})
        yield


def second_chance_game(app: Any, seed: int) -> Iterator[None]:
    from companion.second_chance.simulate import simulate_game

    record = simulate_game(list(PLAYERS), rng=random.Random(seed))
    app.new_game("second-chance", list(PLAYERS), record.get("options", {}))
    for event in record["events"]:
        app.apply(event)
        yield


def enigma_game(app: Any, seed: int) -> Iterator[None]:
    from vision.enigma.synth.scenes import random_record

    record, _ = random_record(seed, tiles=20, players=len(PLAYERS))
    app.new_game("enigma", list(record["players"]), record.get("options", {}))
    for event in record["events"]:
        app.apply(event)
        yield


GAMES = (indigo_game, break_the_code_game, second_chance_game, enigma_game)


def evening(app: Any) -> Iterator[str]:
    """Every game in turn, again and again; yields after each action, and the game's name
    when one ends."""
    seed = 0
    while True:
        for game in GAMES:
            seed += 1
            yield from game(app, seed)
            app.show("home")
            yield game.__name__


def trace_growth(snapshots: list[Any]) -> None:
    """With ``--trace``: the Python allocations that grew most after the first game."""
    for stat in snapshots[-1].compare_to(snapshots[0], "traceback")[:8]:
        print(f"{stat.size_diff / 1e6:+.1f} MB in {stat.count_diff:+d} blocks")
        for line in stat.traceback.format()[-8:]:
            print("   ", line)


def trace_game(name: str, censuses: dict[str, Any]) -> None:
    """With ``--census``: the RSS after a game (and once the free heap is given back), where
    it is, what the app holds more than after the same game a round before (each game's
    first-time costs are not growth) and, from the third round on, more than after that
    game's second play: what a round leaves for good, not what was in flight at one end."""
    from app_census import census, grown_words, print_growth, where_the_rss_is

    from ui.memory import give_back_free_heap

    rss = rss_mb()
    give_back_free_heap()
    print(f"{name}: RSS {rss:.0f} MB, {rss_mb():.0f} MB once the free heap is given back",
          flush=True)
    print(f"   {where_the_rss_is()}")
    now = census()
    before = censuses.get(name, censuses.pop("start", None))  # the first game: since start
    if before is not None:
        print_growth(before, now)
    second = f"{name}, second play"
    if second in censuses:
        print(f"   grown since its second play: {grown_words(censuses[second], now)}",
              flush=True)
    elif name in censuses:
        censuses[second] = now
    censuses[name] = now


def print_figures(marks: dict[str, float], settled: list[float], gc_summary: str) -> None:
    """The run's figures: the issue's line first, then what explains it."""
    print(f"RSS start {marks['start']:.0f} MB, after first game "
          f"{marks.get('first game', float('nan')):.0f} MB, end {marks['end']:.0f} MB "
          f"(highest sampled {marks.get('high', marks['end']):.0f} MB; aim <= 300 MB; after "
          f"each game once {marks.get('each game once', float('nan')):.0f} MB; "
          f"{marks.get('games', 0):.0f} games)")
    if settled:
        print(f"samples once each game was played: median {statistics.median(settled):.0f} MB, "
              f"highest {max(settled):.0f} MB ({len(settled)} samples every "
              f"{SAMPLE_SECONDS:.0f} s)")
    print(f"of which this machine's software OpenGL (Mesa llvmpipe, not loaded on a Pi): "
          f"{marks['software GL']:.0f} MB")
    print(gc_summary)


def mark_game_end(marks: dict[str, float], snapshots: list[Any] | None) -> None:
    """Counts a game played and takes the marks its end makes: after the first game (and the
    first allocation snapshot, when ``snapshots`` is kept) and once every game has been played."""
    marks["games"] = marks.get("games", 0) + 1
    if "first game" not in marks:
        marks["first game"] = rss_mb()
        if snapshots is not None:
            import tracemalloc

            snapshots.append(tracemalloc.take_snapshot())
    if marks["games"] == len(GAMES):
        marks["each game once"] = rss_mb()


def child(minutes: float, trace: bool, counting: bool) -> int:
    home = prepare_child()
    from kivy.app import App
    from kivy.clock import Clock

    from ui.main import main as app_main

    marks: dict[str, float] = {}
    snapshots: list[Any] = []
    censuses: dict[str, Any] = {}
    #: the samples once each game has been played once: one high sample is a frame being
    #: rendered at that moment, their median what the evening settles at
    settled: list[float] = []
    if trace:
        import tracemalloc

        tracemalloc.start(12)
    steps: dict[str, Iterator[str | None]] = {}
    started = time.monotonic()

    def step(_dt: float) -> None:
        app = App.get_running_app()
        if "start" not in marks:
            marks["start"] = rss_mb()
            marks["software GL"] = software_gl_mb()
            steps["evening"] = evening(app)
            if counting:
                trace_game("start", censuses)
        done = next(steps["evening"])
        if done:
            mark_game_end(marks, snapshots if trace else None)
        if done and counting:  # after the marks: it gives the free heap back
            trace_game(done, censuses)
        if time.monotonic() - started > minutes * 60:
            marks["end"] = rss_mb()
            if trace:
                snapshots.append(tracemalloc.take_snapshot())
            app.stop()

    def sample(_dt: float) -> None:
        rss = rss_mb()
        marks["high"] = max(marks.get("high", 0.0), rss)
        if "each game once" in marks:
            settled.append(rss)

    Clock.schedule_interval(step, STEP_SECONDS)
    Clock.schedule_interval(sample, SAMPLE_SECONDS)
    with GcCosts() as gc_costs:
        status = app_main(["--demo", "--size", "800x480",
                           "--db", os.path.join(home, "journal.sqlite3")])
    if status or "end" not in marks:
        print(f"the app ended early (status {status})", file=sys.stderr)
        return 1
    print_figures(marks, settled, gc_costs.summary(time.monotonic() - started))
    if len(snapshots) == 2:
        trace_growth(snapshots)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--minutes", type=float, default=120.0)
    parser.add_argument("--trace", action="store_true",
                        help="also print the Python allocations that grew after the first game")
    parser.add_argument("--census", action="store_true",
                        help="after each game, print what the app holds more than after the "
                             "same game a round before (live objects by type, arrays, widgets, "
                             "textures)")
    args = parser.parse_args()
    if is_child():
        return child(args.minutes, args.trace, args.census)
    return run_in_child(__file__, ["--minutes", str(args.minutes)] +
                        (["--trace"] if args.trace else []) +
                        (["--census"] if args.census else []))


if __name__ == "__main__":
    sys.exit(main())
