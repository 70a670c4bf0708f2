"""Everything that owns a resource has ``close()`` and is a context manager (design.md, 3.7).

:class:`Closing` gives a class with a ``close()`` method the ``with`` statement, once, for the
journal, the GPIO devices, the cameras and the workers alike.

>>> class Door(Closing):
...     is_open = True
...     def close(self) -> None:
...         self.is_open = False
>>> with Door() as door:
...     pass
>>> door.is_open
False
"""

from __future__ import annotations

from types import TracebackType
from typing import Self


class Closing:
    """Mixin: ``with obj:`` returns ``obj`` and calls ``obj.close()`` on the way out."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
