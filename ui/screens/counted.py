"""Texts with a count that several screens show, each in the plural form of its number."""

from __future__ import annotations

from ui.i18n import ngettext


def points_text(points: int) -> str:
    return ngettext("{n} point", "{n} points", points).format(n=points)


def winners_text(winners: list[str]) -> str:
    """"Winner: Ana"; a tie: "Winners: Ana, Ben"."""
    return ngettext("Winner: {names}", "Winners: {names}", max(1, len(winners))).format(
        names=", ".join(winners))
