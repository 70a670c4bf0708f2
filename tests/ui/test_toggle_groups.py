"""A toggle group is the toggles of one row: a tap releases its row's other toggles, and never a
toggle of a panel rebuilt since, alive or already collected."""

from __future__ import annotations

from typing import Any


def _row(group: str, count: int) -> tuple[Any, list[Any]]:
    from kivy.uix.boxlayout import BoxLayout

    from ui.widgets.buttons import TouchToggle

    row = BoxLayout()
    toggles = [TouchToggle(text=str(i), group=group) for i in range(count)]
    for toggle in toggles:
        row.add_widget(toggle)
    return row, toggles


def _press(toggle: Any) -> None:
    toggle._do_press()


def test_a_press_releases_the_other_toggles_of_its_row(make_driver: Any) -> None:
    make_driver(start_camera=False)
    _row_widget, toggles = _row("toggle-test-row", 3)
    _press(toggles[0])
    _press(toggles[2])
    assert [t.state for t in toggles] == ["normal", "normal", "down"]


def test_a_rebuilt_panel_leaves_the_old_rows_toggles_alone(make_driver: Any) -> None:
    make_driver(start_camera=False)
    _old_row, old = _row("toggle-test-rebuilt", 2)
    _press(old[1])
    _new_row, new = _row("toggle-test-rebuilt", 2)  # same group name, as a rebuilt panel has
    _press(new[0])
    assert [t.state for t in new] == ["down", "normal"]
    assert [t.state for t in old] == ["normal", "down"]  # not touched by a tap on the new row


def test_a_collected_toggle_in_the_group_does_not_break_a_tap(make_driver: Any) -> None:
    from kivy.uix.behaviors.togglebutton import ToggleButtonBehavior

    make_driver(start_camera=False)
    _row_widget, toggles = _row("toggle-test-dead", 2)
    # the state Kivy's own loop tripped on (CI, the Enigma category toggles): a member whose
    # widget was collected while its weak reference is still listed
    groups = ToggleButtonBehavior._ToggleButtonBehavior__groups
    groups["toggle-test-dead"].append(lambda: None)
    _press(toggles[1])
    assert [t.state for t in toggles] == ["normal", "down"]
