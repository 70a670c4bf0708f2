"""The config package's one error."""

from __future__ import annotations


class ConfigError(ValueError):
    """A config file is unreadable, not TOML, or holds an unknown key or a bad value.

    The message is one line that names the file, the key and what is allowed, e.g.
    ``/etc/tabletop-companion/config.toml: timer.duration_s = -3 is out of range
    (allowed 5..600)``; start-up shows it as it is.
    """
