"""The demo camera's Enigma frame is render_frame's image to the bit, drawn without what only
tests and benches read: the camera effects, the high of the render, no longer run beside the
scene's pieces' mask (read by the clutter effect alone, which the demo does not use)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from config import Config
from tests.traced_memory import traced_peak
from ui.demo import FRAME_SIZE, DemoTable
from vision.enigma.settings import TableSettings
from vision.enigma.synth.render import TableView, render_camera_image, render_frame
from vision.enigma.synth.scenes import random_record
from vision.synth.effects import ALL_EFFECTS, DEFAULT_EFFECTS, apply_effects

#: (record seed, tiles on the table): a near-empty table to a full one
TABLES = [(1, 4), (4, 34)]


def _demo(seed: int, tiles: int) -> tuple[DemoTable, Any, Any]:
    """A demo table whose packs are loaded, the game state of the record and its view."""
    cfg = Config()
    table = DemoTable(SimpleNamespace(session=None, cfg=cfg), seed=seed)
    _record, state = random_record(seed, tiles=tiles)
    table.render_enigma(state)  # loads the packs, once, as the app's first frame does
    view = TableView.of_state(state, table.packs["enigma"],
                              catalogue=table.packs["enigma-catalogue"])
    return table, state, view


def _old_path(table: DemoTable, view: Any) -> Any:
    """The frame as the demo drew it before: render_frame with the demo's arguments."""
    return render_frame(view, table.packs["enigma"], table=TableSettings.from_config(Config()),
                        seed=table.seed, frame_size=FRAME_SIZE)


@pytest.mark.parametrize("seed, tiles", TABLES)
def test_the_demo_frame_is_render_frames_image_to_the_bit(seed: int, tiles: int) -> None:
    table, state, view = _demo(seed, tiles)
    frame = table.render_enigma(state)  # draws with the next seed, as every frame does
    assert np.array_equal(frame, _old_path(table, view).image)


@pytest.mark.parametrize("effects", [DEFAULT_EFFECTS, ALL_EFFECTS])
def test_the_camera_image_is_render_frames_image_with_clutter_too(effects: Any) -> None:
    """With clutter the pieces' mask is drawn and kept clear of the clutter, as before."""
    table, _state, view = _demo(2, 12)
    pack = table.packs["enigma"]
    image = render_camera_image(view, pack, seed=11, effects=effects, frame_size=FRAME_SIZE)
    frame = render_frame(view, pack, seed=11, effects=effects, frame_size=FRAME_SIZE)
    assert np.array_equal(image, frame.image)


@pytest.mark.parametrize("seed, tiles", TABLES)
def test_a_demo_frame_holds_at_its_high_the_scene_and_the_camera_effects_alone(
        seed: int, tiles: int) -> None:
    """The render's high is the camera effects on the scene: a demo frame takes no more
    than the scene and what the effects take on it. Before, the pieces' mask (a third of the
    scene's bytes) lived beside them: 29.8 MB at 1280x720 against 28.4 now."""
    table, state, view = _demo(seed, tiles)
    scene = _old_path(table, view).scene.image
    mask_bytes = scene.shape[0] * scene.shape[1]
    effects_rng = np.random.default_rng(table.seed + 7919)
    floor = scene.nbytes + traced_peak(lambda: apply_effects(
        scene, effects_rng, DEFAULT_EFFECTS, frame_size=FRAME_SIZE, max_tilt_deg=25.0))
    scene = None
    table.seed -= 1  # the frame is drawn with the seed of the scene above
    peak = traced_peak(lambda: table.render_enigma(state))
    assert peak <= floor + mask_bytes // 2, (peak / 1e6, floor / 1e6, mask_bytes / 1e6)
