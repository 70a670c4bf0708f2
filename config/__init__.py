"""The typed configuration: ``default.toml`` plus override files, validated at load.

>>> cfg = config_from_dict({"timer": {"duration_s": 45}})
>>> cfg.timer.duration_s, cfg.display.width
(45, 800)

``load_config(path)`` merges, highest precedence first: ``path`` (``--config FILE``),
``$COMPANION_CONFIG``, ``/etc/tabletop-companion/config.toml``, the user config dir's
``config.toml``, and ``config/default.toml``. Any problem raises :class:`ConfigError` with one
line naming the file, the key and what is allowed. See ``docs/config.md``.
"""

from config.errors import ConfigError
from config.loader import (
    DEFAULT_TOML,
    ENV_VAR,
    SYSTEM_CONFIG,
    config_files,
    config_from_dict,
    load_config,
    to_toml,
    user_config_path,
)
from config.paths import art_pack_folder, data_dir, default_db_path
from config.schema import (
    AppConfig,
    CameraConfig,
    Config,
    DisplayConfig,
    GpioConfig,
    IndigoBoardConfig,
    TimerConfig,
    VisionConfig,
)

__all__ = [
    "DEFAULT_TOML",
    "ENV_VAR",
    "SYSTEM_CONFIG",
    "AppConfig",
    "CameraConfig",
    "Config",
    "ConfigError",
    "DisplayConfig",
    "GpioConfig",
    "IndigoBoardConfig",
    "TimerConfig",
    "VisionConfig",
    "config_files",
    "config_from_dict",
    "art_pack_folder",
    "data_dir",
    "default_db_path",
    "load_config",
    "to_toml",
    "user_config_path",
]
