"""The app's one door to the other layers: config, journal and session, hardware, camera.

Each function here adapts one piece (``config``, ``companion.journal``/``session``,
``hardware``, ``vision``) to what the screens need, so the screens never import those packages
themselves. Heavy imports stay inside the functions.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

CONFIG_ENV = "COMPANION_CONFIG"
SETTINGS_FILE = "settings.json"
SETTINGS_MODE = 0o600


# --- config ---------------------------------------------------------------------------------

def load_app_config(path: str | None) -> Any:
    """The validated config: ``path``, else ``$COMPANION_CONFIG``, else the defaults."""
    import config

    return config.load_config(path or os.environ.get(CONFIG_ENV) or None)


def apply_settings(cfg: Any, overrides: dict[str, dict[str, Any]]) -> Any:
    """``cfg`` with the settings screen's choices (section -> key -> value) laid over it.

    The settings screen offers only values the schema allows, so no re-validation is needed;
    unknown keys (from an older version) are skipped.
    """
    for section_name, values in overrides.items():
        section = getattr(cfg, section_name, None)
        if section is None or not dataclasses.is_dataclass(section):
            continue
        updated = _laid_over(section, values)
        if updated is not section:
            cfg = dataclasses.replace(cfg, **{section_name: updated})
    return cfg


def _laid_over(section: Any, values: dict[str, Any]) -> Any:
    """``section`` (a config dataclass) with ``values`` laid over it; a table inside it (the
    teach screen's ``vision.code.pack``) is a dict laid over the section's own table."""
    known = {f.name for f in dataclasses.fields(section)}
    changes = {}
    for key, value in values.items():
        if key not in known:
            continue
        if isinstance(value, dict):
            inner = getattr(section, key)
            if dataclasses.is_dataclass(inner):
                changes[key] = _laid_over(inner, value)
            continue
        changes[key] = tuple(value) if isinstance(value, list) else value
    return dataclasses.replace(section, **changes) if changes else section


def load_settings(db_path: Path) -> dict[str, dict[str, Any]]:
    path = db_path.with_name(SETTINGS_FILE)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_settings(db_path: Path, overrides: dict[str, dict[str, Any]]) -> None:
    path = db_path.with_name(SETTINGS_FILE)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    # owner only (0600), whatever the umask: the settings sit beside the journal and say where
    # its packs and camera are; os.open's mode passes through the umask, fchmod does not
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, SETTINGS_MODE)
    os.fchmod(fd, SETTINGS_MODE)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(overrides, indent=1, sort_keys=True))
    tmp.replace(path)


# --- journal and session ----------------------------------------------------------------------

def open_journal(path: Path) -> Any:
    from companion.journal import Journal

    path.parent.mkdir(parents=True, exist_ok=True)
    opener = getattr(Journal, "open", None)
    return opener(path) if callable(opener) else Journal(path)


def start_session(journal: Any, game: str, players: list[str], options: dict[str, Any]) -> Any:
    return _session_class().start(journal, game, players, options)


def resume_session(journal: Any, game_id: Any) -> Any:
    return _session_class().resume(journal, game_id)


#: the journal meta key of the time a game's screen was last shown (UTC, ISO 8601)
IN_USE_KEY = "in-use"


def mark_in_use(journal: Any, session: Any) -> None:
    """Note that ``session``'s game is the one on screen now: a restart comes back to it."""
    from datetime import UTC, datetime

    set_meta(journal, session, IN_USE_KEY, datetime.now(UTC).isoformat())


def unfinished_in_use(journal: Any) -> Any:
    """The id of the unfinished game last on screen, or None.

    Not the most recently started one: players go back to an older game (from History or
    Home), and a restart must bring back the game they were playing. A game never marked
    (journaled before the mark existed) counts as in use when it was started.
    """
    games = list(journal.games(finished=False))
    if not games:
        return None

    def last_used(game: Any) -> tuple[str, int]:
        meta = getattr(game, "meta", None) or {}
        stamp = meta.get(IN_USE_KEY) or game.started.isoformat()
        return str(stamp), int(game.id)

    return max(games, key=last_used).id


def game_summaries(journal: Any) -> list[dict[str, Any]]:
    """Past and current games as plain dicts: id, game, players, started, over."""
    out = []
    for item in journal.games():
        if isinstance(item, dict):
            out.append(dict(item))
        else:
            out.append({
                "id": getattr(item, "game_id", getattr(item, "id", None)),
                "game": getattr(item, "game", ""),
                "players": list(getattr(item, "players", ())),
                "started": str(getattr(item, "started", getattr(item, "created", ""))),
                "over": bool(getattr(item, "finished", getattr(item, "over", False))),
            })
    return out


def end_unfinished(journal: Any, game_id: Any) -> None:
    """Close an unfinished game with its result as it stands (the players stopped playing):
    it becomes history."""
    session = resume_session(journal, game_id)
    session.finish()
    set_meta(journal, session, "ended", "by the players")


def delete_unfinished(journal: Any, game_id: Any) -> None:
    """Remove an unfinished game and its moves from the journal."""
    journal.delete_unfinished(game_id)


def session_game_id(session: Any) -> Any:
    return getattr(session, "game_id", getattr(session, "id", None))


def set_meta(journal: Any, session: Any, key: str, value: str) -> None:
    try:
        journal.set_meta(session_game_id(session), key, value)
    except Exception:  # a meta write must never cost a game; the events are what matter
        log.exception("could not store %s in the journal", key)


def get_meta(journal: Any, game_id: Any, key: str) -> str | None:
    try:
        value = journal.get_meta(game_id, key)
    except Exception:
        log.exception("could not read %s from the journal", key)
        return None
    return None if value is None else str(value)


def replay_events(game: str, players: list[str], options: dict[str, Any],
                  events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The replay result after each prefix of ``events`` (for the score-over-time plot)."""
    from companion.engine import load_rules

    rules = load_rules(game)
    state = rules.new_game(players, options)
    results = [rules.result(state, complete=True)]
    for index, event in enumerate(events, start=1):
        state = rules.apply_event(state, event, index=index)
        results.append(rules.result(state, complete=True))
    return results


def _session_class() -> Any:
    from companion.session import Session

    return Session
