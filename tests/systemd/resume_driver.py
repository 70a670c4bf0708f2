"""A child process for the power-loss test: the real app on Xvfb, driven by simulated touches.

    python resume_driver.py play DB N     start an Indigo game, play N turns by touch, then
                                          print "ACK <game id> <events>" and wait to be killed
    python resume_driver.py look DB       start the app on DB and print what it shows as JSON

It drives :class:`ui.app.CompanionApp` exactly as ``companion app`` builds it, through the same
driver the UI tests use (``tests/ui/conftest.py``).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))


def _driver_class():
    spec = importlib.util.spec_from_file_location("ui_driver", REPO / "tests/ui/conftest.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Driver


def _play_turn(driver) -> None:
    from companion.indigo.state import all_legal_placements

    screen = driver.screen("indigo")
    state = screen.state()
    placement = all_legal_placements(state)[len(state.tiles) * 7 % 20]
    screen.ids.board.dispatch("on_cell", placement.cell)  # what a tap on that hexagon sends
    driver.pump(2)
    picker = screen.picker
    choice = next(c for c in picker.choices
                  if placement.tile.same_pattern(type(placement.tile)(c.kind, c.rotation)))
    driver.tap(choice)
    assert driver.wait_for(lambda: picker.parent is None)
    driver.tap(screen.ids.confirm_button)


def play(db: Path, turns: int) -> None:
    driver = _driver_class()(db, start_camera=False)
    driver.tap(driver.screen("home").ids["game_indigo"])
    driver.tap(driver.screen("setup").ids.start_button)
    for _ in range(turns):
        _play_turn(driver)
    session = driver.app.session
    print(f"ACK {session.game_id} {len(session.events)}", flush=True)
    while True:  # keep the app alive until the test kills it with SIGKILL
        driver.pump(1)
        time.sleep(0.02)


def look(db: Path) -> None:
    driver = _driver_class()(db, start_camera=False)
    driver.pump(4)
    session = driver.app.session
    state = driver.screen("indigo").state() if session is not None else None
    print(json.dumps({
        "game_id": session.game_id if session else None,
        "events": len(session.events) if session else 0,
        "screen": driver.screen().name,
        "tiles": sorted(f"{c}:{t}" for c, t in state.tiles.items()) if state else [],
    }), flush=True)
    driver.close()


if __name__ == "__main__":
    if sys.argv[1] == "play":
        play(Path(sys.argv[2]), int(sys.argv[3]))
    else:
        look(Path(sys.argv[2]))
