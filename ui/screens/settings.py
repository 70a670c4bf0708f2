"""Settings screen (work in progress)."""

from __future__ import annotations

from ui.i18n import _
from ui.screens.base import BaseScreen


class SettingsScreen(BaseScreen):
    def title(self) -> str:
        return _("Settings")
