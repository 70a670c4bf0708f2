"""The app's screen manager, which makes each screen the first time it is shown or asked for.

Building all nine screens (their kv rules, their modules, a few hundred widgets) before the
first picture was a third of the app's start; the players see one screen at launch, Home or
the game they were playing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from kivy.uix.screenmanager import Screen, ScreenManager


class LazyScreenManager(ScreenManager):
    """A :class:`ScreenManager` that knows its screens by name and makes each with ``maker``
    when it is first needed (``current = name``, ``get_screen(name)``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._maker: Callable[[str], Screen] | None = None
        self._known: frozenset[str] = frozenset()

    def make_screens_with(self, maker: Callable[[str], Screen], names: Iterable[str]) -> None:
        """From now on ``maker(name)`` makes any of ``names`` not made yet."""
        self._maker = maker
        self._known = frozenset(names)

    def is_made(self, name: str) -> bool:
        return any(screen.name == name for screen in self.screens)

    def get_screen(self, name: str) -> Any:
        if self._maker is not None and name in self._known and not self.is_made(name):
            self.add_widget(self._maker(name))
        return super().get_screen(name)

    def let_go(self, name: str) -> bool:
        """Drop the made screen ``name`` unless it is shown; it is made anew when next needed.
        Returns whether it was dropped."""
        if self._maker is None or name not in self._known or name == self.current:
            return False
        if not self.is_made(name):
            return False
        screen = super().get_screen(name)
        self.remove_widget(screen)
        if self.transition.screen_out is screen:
            # a transition keeps the screen it took out until the next switch (it cannot be
            # told None): a new one lets it go; the old one still finishes its switch, and
            # the screen's on_leave (Enigma's sand timer stops there) still comes
            old = self.transition
            self.transition = type(old)(duration=old.duration)
        return True

    def has_screen(self, name: str) -> bool:
        return name in self._known or bool(super().has_screen(name))
