"""Where the app keeps its data, as the configuration says.

>>> from config.schema import AppConfig, Config
>>> str(default_db_path(Config(app=AppConfig(data_dir="/srv/tc"))))
'/srv/tc/journal.sqlite3'
>>> str(art_pack_folder(Config(app=AppConfig(data_dir="/srv/tc")), "my-tiles"))
'/srv/tc/my-tiles'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import platformdirs

from config.errors import ConfigError
from config.loader import APP_NAME, BUILT_IN, read_toml, show
from config.schema import Config

JOURNAL_FILE = "journal.sqlite3"


def data_dir(config: Config) -> Path:
    """``app.data_dir`` with ``~`` expanded, or the platformdirs user data dir when empty.

    Nothing is created here; whoever writes into it makes the directory.
    """
    if config.app.data_dir:
        return Path(config.app.data_dir).expanduser()
    return platformdirs.user_data_path(APP_NAME)


def art_pack_folder(config: Config, value: str) -> Path | None:
    """The folder of a taught art pack named by a ``pack`` setting: ``None`` for "" (the demo
    pack shipped with the app), ``~`` expanded, and a relative name taken inside the data dir,
    where ``companion teach ... -o NAME`` packs are meant to live."""
    if not value:
        return None
    folder = Path(value).expanduser()
    return folder if folder.is_absolute() else data_dir(config) / folder


def default_db_path(config: Config) -> Path:
    """The journal database: ``<data_dir>/journal.sqlite3``."""
    return data_dir(config) / JOURNAL_FILE


#: the settings that name an art pack folder ("" is the demo pack shipped with the app)
PACK_KEYS = ("vision.pack", "vision.code.pack", "vision.enigma.pack")


def _setting_source(config: Config, dotted: str) -> str:
    """The file that gave ``dotted`` its value: the last merged file that sets it."""
    for source in reversed(config.sources):
        table: object = read_toml(Path(source))
        for part in dotted.split("."):
            table = table.get(part) if isinstance(table, dict) else None
        if table is not None:
            return source
    return BUILT_IN


def check_pack_folders(config: Config) -> None:
    """Raise ConfigError naming the key, its file and the folder when a pack setting names a
    folder that does not exist. ``companion config check`` runs it; other commands report a
    missing pack when they use it (a pack may be set before ``companion teach`` makes it)."""
    for dotted in PACK_KEYS:
        section: Any = config
        for part in dotted.split(".")[:-1]:
            section = getattr(section, part)
        value = str(section.pack)
        folder = art_pack_folder(config, value)
        if folder is None or folder.is_dir():
            continue
        what = "is not a folder" if folder.exists() else "does not exist"
        raise ConfigError(
            f"{_setting_source(config, dotted)}: {dotted} = {show(value)}: the art pack "
            f"folder {folder} {what} (allowed: an art pack folder, or \"\" for the demo pack)"
        )
