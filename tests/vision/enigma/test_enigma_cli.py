"""The Enigma camera commands' exit codes and error lines: what is written, what is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ui.cli import main

DATA = Path(__file__).resolve().parents[2] / "data"
GAME = DATA / "enigma" / "seed-example.json"
START_PNG = Path(__file__).resolve().parents[3] / "vision" / "packs" / "enigma-demo" / "start.png"


@pytest.fixture(scope="module")
def frame(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("enigma-cli") / "frame.jpg"
    assert main(["render", "enigma", str(GAME), "-o", str(out), "--seed", "1"]) == 0
    assert out.stat().st_size > 10_000
    return out


def _only_error_line(capfd: pytest.CaptureFixture[str], *needles: str) -> str:
    out, err = capfd.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err  # one clear line: no OpenCV or libjpeg warnings
    assert lines[0].startswith("companion: error: ")
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def test_render_into_a_missing_folder_fails_and_writes_nothing(tmp_path, capfd) -> None:
    target = tmp_path / "nonexist" / "x.png"
    assert main(["render", "enigma", str(GAME), "-o", str(target)]) == 1
    _only_error_line(capfd, str(target), "does not exist")
    assert not target.exists()


def test_render_to_an_unknown_extension_is_one_clear_line(tmp_path, capfd) -> None:
    assert main(["render", "enigma", str(GAME), "-o", str(tmp_path / "x.txt")]) == 2
    _only_error_line(capfd, "x.txt", "cannot write a .txt file")
    assert main(["render", "puzzle", "weight", "weight-demo-0", "-o",
                 str(tmp_path / "p.txt")]) == 2
    _only_error_line(capfd, "p.txt")


def test_render_of_an_illegal_record_exits_3_and_a_malformed_one_2(tmp_path, capfd) -> None:
    out = str(tmp_path / "x.png")
    assert main(["render", "enigma", str(DATA / "enigma" / "edge-mismatch.json"), "-o",
                 out]) == 3
    _only_error_line(capfd, "edge-mismatch.json", "edge matching")
    assert main(["render", "enigma", str(DATA / "enigma" / "unknown-event.json"), "-o",
                 out]) == 2
    _only_error_line(capfd, "unknown-event.json", "pass")
    assert not Path(out).exists()


def test_a_binary_file_as_record_or_card_is_one_clear_line(tmp_path, frame, capfd) -> None:
    assert main(["render", "enigma", str(START_PNG), "-o", str(tmp_path / "x.png")]) == 2
    _only_error_line(capfd, str(START_PNG), "not a JSON text file")
    assert main(["check", "puzzle", "weight", str(frame), "--card", str(START_PNG)]) == 2
    _only_error_line(capfd, str(START_PNG), "not a JSON text file")


def test_missing_truncated_and_damaged_frames_exit_2_without_warnings(tmp_path, frame,
                                                                    capfd) -> None:
    data = frame.read_bytes()
    cases = {
        "missing.jpg": None,
        "truncated.jpg": data[: len(data) // 2],
        # the end marker is there but the middle is gone: libjpeg only warns on stderr
        "damaged.jpg": data[: len(data) // 2] + b"\xff\xd9",
    }
    for name, content in cases.items():
        path = tmp_path / name
        if content is not None:
            path.write_bytes(content)
        assert main(["read", "enigma", str(path)]) == 2, name
        _only_error_line(capfd, str(path))


@pytest.mark.parametrize("after,needle", [
    ({}, 'no "game": "enigma"'),
    ({"game": "enigma"}, '"events"'),
    ([], "JSON object"),
])
def test_read_after_something_that_is_no_enigma_state_exits_2(after, needle, tmp_path, frame,
                                                              capfd) -> None:
    path = tmp_path / "after.json"
    path.write_text(json.dumps(after))
    assert main(["read", "enigma", str(frame), "--after", str(path)]) == 2
    _only_error_line(capfd, "--after", str(path), needle)


def test_read_after_an_indigo_record_says_it_is_not_an_enigma_record(frame, capfd) -> None:
    indigo = DATA / "indigo" / "full_2p_seed1.json"
    assert main(["read", "enigma", str(frame), "--after", str(indigo)]) == 2
    _only_error_line(capfd, "not an Enigma record", '"indigo"')


def test_read_after_the_record_itself_is_a_read_with_changes(frame, capfd) -> None:
    assert main(["read", "enigma", str(frame), "--after", str(GAME)]) == 0
    out = json.loads(capfd.readouterr().out)
    assert out["game"] == "enigma" and out["tiles"] and "changes" in out
