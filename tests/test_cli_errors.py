"""The command line's own contract: ``--debug`` anywhere, every group has a help line."""

from __future__ import annotations

import pytest

from ui.cli import GROUP_HELP, build_command_line, debug_first, main


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (["replay", "x.json"], ["replay", "x.json"]),
        (["--debug", "replay", "x.json"], ["--debug", "replay", "x.json"]),
        (["replay", "x.json", "--debug"], ["--debug", "replay", "x.json"]),
        (["replay", "--", "--debug"], ["replay", "--", "--debug"]),
    ],
)
def test_debug_is_moved_before_the_command(given: list[str], expected: list[str]) -> None:
    assert debug_first(given) == expected


def test_debug_after_the_command_shows_the_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["code", "answer", "--rack", "0b 1w 5g 5g 9b", "--card", "Q99"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Q99" in err and "Traceback" not in err
    with pytest.raises(ValueError, match="Q99"):
        main([*args, "--debug"])


def test_every_command_group_has_a_help_line() -> None:
    cli = build_command_line()
    groups = {path[0] for path in cli._parsers if len(path) == 2}
    assert groups <= set(GROUP_HELP), groups - set(GROUP_HELP)
