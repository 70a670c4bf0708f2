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

    def has_screen(self, name: str) -> bool:
        return name in self._known or bool(super().has_screen(name))
