"""The picture check's focus measure (vision.picture._focus) takes the Laplacian only at the
pixels it keeps when a large board is sampled (a scan's: one pixel in nine), and gives what the
Laplacian of the whole half-size board, then sampled, gave: to the last bit, on seeded frames
of every reader, on pictures the readers refuse, and on boards of every size and parity."""

from __future__ import annotations

import math
import random

import cv2
import numpy as np
import pytest

import vision.picture as picture
from companion.enigma.puzzles import load_puzzles
from companion.indigo.state import all_legal_placements, new_game, play
from companion.record import parse_record
from companion.second_chance.simulate import simulate_game
from vision.enigma.pack import load_enigma_pack
from vision.enigma.synth.puzzle_table import TableCondition, render_table_frame
from vision.indigo.pack import load_indigo_pack
from vision.indigo.synth.render import render_frame
from vision.picture import SAMPLED_PIXELS, laplacian_every_step, measure_picture
from vision.second_chance.synth.hands import render_hand_sheet
from vision.second_chance.synth.sheet import content_from_record
from vision.synth.conditions import apply_condition


def _plain_focus(gray: np.ndarray, contrast: float) -> float:
    """The focus as it was measured before the sampled Laplacian (the reference)."""
    half = cv2.resize(gray, (max(1, gray.shape[1] // 2), max(1, gray.shape[0] // 2)),
                      interpolation=cv2.INTER_AREA)
    detail = np.abs(cv2.Laplacian(half.astype(np.float32), cv2.CV_32F))
    step = max(1, int(math.ceil(math.sqrt(detail.size / SAMPLED_PIXELS))))
    wholes = detail[::step, ::step].astype(np.int32).ravel()
    return float(np.float32(picture.whole_percentiles(wholes, (99.0,))[0]) / max(contrast, 1.0))


def _sheet_scan(seed: int) -> np.ndarray:
    record = parse_record(simulate_game(["Ana", "Ben"], rng=random.Random(seed)))
    return render_hand_sheet(content_from_record(record, "Ana"), style="pencil",
                             condition="scan", seed=seed)


def _indigo_frame(seed: int) -> np.ndarray:
    before = new_game(2)
    after = play(before, all_legal_placements(before)[seed])[0]
    return render_frame(after, load_indigo_pack(), seed=seed, frame_size=(1920, 1080)).image


def _enigma_frame(seed: int) -> np.ndarray:
    card = next(iter(load_puzzles().angular.cards.values()))
    return render_table_frame("angular", card, load_enigma_pack(), seed=seed,
                              frame_size=(1920, 1080), condition=TableCondition("wood", "mild"))


@pytest.fixture(scope="module")
def frames() -> dict[str, np.ndarray]:
    """A frame of each reader, and pictures the readers refuse (no colour, burnt out, dark,
    blurred)."""
    shown = {"sheet scan": _sheet_scan(3), "indigo": _indigo_frame(1),
             "enigma": _enigma_frame(2)}
    indigo = shown["indigo"]
    shown["indigo grayscale"] = apply_condition(indigo, "grayscale", 1.0, np.random.default_rng(5))
    shown["indigo overexposed"] = np.clip(indigo.astype(np.int16) * 3, 0, 255).astype(np.uint8)
    shown["indigo dark"] = (indigo // 12).astype(np.uint8)
    shown["enigma blurred"] = cv2.GaussianBlur(shown["enigma"], (0, 0), 6.0)
    return shown


def test_the_focus_of_every_reader_s_frames_is_the_plain_one(
        frames: dict[str, np.ndarray]) -> None:
    steps = set()
    for name, frame in frames.items():
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        # the whole frame, its odd-sized inner part, and a board a third of it
        h, w = gray.shape
        for part in (gray, gray[1:h - 2, 3:w - 4], gray[h // 3: 2 * h // 3, w // 3: 2 * w // 3]):
            half = (part.shape[0] // 2) * (part.shape[1] // 2)
            steps.add(max(1, int(math.ceil(math.sqrt(half / SAMPLED_PIXELS)))))
            for contrast in (0.0, 37.0, 180.0):
                assert picture._focus(part, contrast) == _plain_focus(part, contrast), name
    assert steps >= {1, 2}  # both the whole Laplacian and the sampled one were compared


def test_the_measures_of_every_reader_s_frames_are_the_plain_ones(
        frames: dict[str, np.ndarray], monkeypatch: pytest.MonkeyPatch) -> None:
    fast = {name: measure_picture(frame) for name, frame in frames.items()}
    monkeypatch.setattr(picture, "_focus", _plain_focus)
    plain = {name: measure_picture(frame) for name, frame in frames.items()}
    assert fast == plain


@pytest.mark.parametrize("seed", range(6))
def test_the_sampled_laplacian_is_opencv_s_on_seeded_boards(seed: int) -> None:
    rng = np.random.default_rng(seed)
    rows, cols = (int(n) for n in rng.integers(1, 900, 2))
    gray = rng.integers(0, 256, (rows, cols), dtype=np.uint8)
    if seed % 2:  # whole runs of the extremes: the Laplacian at its largest, +-1020
        gray[:, ::2] = 0
        gray[::2, :] = 255
    for step in (1, 2, 3, 7):
        whole = np.abs(cv2.Laplacian(gray.astype(np.float32), cv2.CV_32F))
        expected = whole[::step, ::step].astype(np.int32).ravel()
        assert np.array_equal(laplacian_every_step(gray, step), expected), (rows, cols, step)
