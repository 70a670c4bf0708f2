"""Where the app keeps its data, as the configuration says.

>>> from config.schema import AppConfig, Config
>>> str(default_db_path(Config(app=AppConfig(data_dir="/srv/tc"))))
'/srv/tc/journal.sqlite3'
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


def default_db_path(config: Config) -> Path:
    """The journal database: ``<data_dir>/journal.sqlite3``."""
    return data_dir(config) / JOURNAL_FILE
