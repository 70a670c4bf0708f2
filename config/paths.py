"""Where the app keeps its data, as the configuration says.

>>> from config.schema import AppConfig, Config
>>> str(default_db_path(Config(app=AppConfig(data_dir="/srv/tc"))))
'/srv/tc/journal.sqlite3'
>>> str(art_pack_folder(Config(app=AppConfig(data_dir="/srv/tc")), "my-tiles"))
'/srv/tc/my-tiles'
"""

from __future__ import annotations

from pathlib import Path

import platformdirs

from config.loader import APP_NAME
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
