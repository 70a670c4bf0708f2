"""systemd's notify protocol in a few lines of standard library, for ``Type=notify`` units.

``READY=1`` goes out once the first screen is drawn; ``WATCHDOG=1`` pings come from the Kivy
clock on the main thread at half of ``WATCHDOG_USEC``, so a frozen UI stops pinging and systemd
restarts it. Without ``NOTIFY_SOCKET`` (a desktop, a test) every call is a silent no-op.

>>> Notifier(environ={}).notify("READY=1")
False
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


class Notifier:
    """Sends datagrams to ``$NOTIFY_SOCKET``; a no-op when the variable is unset."""

    def __init__(self, *, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self.address = env.get("NOTIFY_SOCKET", "")
        self.watchdog_usec = _positive_int(env.get("WATCHDOG_USEC"))
        watchdog_pid = _positive_int(env.get("WATCHDOG_PID"))
        # systemd sets WATCHDOG_PID to the main process; a child must not ping for it.
        if watchdog_pid is not None and watchdog_pid != os.getpid():
            self.watchdog_usec = None

    @property
    def is_enabled(self) -> bool:
        return bool(self.address)

    @property
    def watchdog_interval(self) -> float | None:
        """Seconds between pings (half the watchdog timeout), or None without a watchdog."""
        if not self.is_enabled or self.watchdog_usec is None:
            return None
        return self.watchdog_usec / 2_000_000

    def notify(self, state: str) -> bool:
        """Send one state line such as ``READY=1``; True when it was sent."""
        if not self.address:
            return False
        address = self.address
        if address.startswith("@"):  # abstract namespace socket
            address = "\0" + address[1:]
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.connect(address)
                sock.sendall(state.encode("utf-8"))
        except OSError:
            return False
        return True

    def ready(self) -> bool:
        return self.notify("READY=1")

    def ping(self) -> bool:
        return self.notify("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")


def _positive_int(text: str | None) -> int | None:
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        return None
    return value if value > 0 else None
