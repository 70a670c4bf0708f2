"""Second Chance in the player's words: the sheet reader's questions, the rules' problems with
a read and the reader's refusals, worded for the screen (the reader's and the engine's own
lines are English, for the log)."""

from __future__ import annotations

from typing import Any

from ui.i18n import _


def asked_first(questions: Any, new_cells: Any) -> list[Any]:
    """The sheet reader's questions, those about the new drawing first (they decide what is
    entered), then the rest in the reader's order."""
    new = {tuple(c) for c in new_cells}
    return sorted(questions, key=lambda q: not new & {tuple(c) for c in getattr(q, "cells", ())})


def question_text(question: Any) -> str:
    """A sheet reader's question (:class:`ui.reading.SheetQuestion`) in the player's words and
    language: what to check, and where (rows and columns counted from 1 at the top left)."""
    kind = getattr(question, "kind", "")
    cells = sorted(tuple(c) for c in getattr(question, "cells", ()))
    square = getattr(question, "square", None)
    if kind == "cell" and square is not None:
        return _("Is the square at row {row}, column {col} filled?").format(
            row=square[0] + 1, col=square[1] + 1)
    if kind == "cell" and cells:
        return _("Are the marked squares that look empty really empty?")
    if kind == "bonus" and len(cells) == 1:
        return _("Is there a handwritten 1 at row {row}, column {col}?").format(
            row=cells[0][0] + 1, col=cells[0][1] + 1)
    if kind == "bonus" and cells:
        return _("Which marked square has the handwritten 1?")
    if kind == "orientation":
        return _("Which side of the sheet is up? The title is not clear")
    if kind == "full":
        return _("Every square reads filled, the marked ones not clearly: is the sheet "
                 "really full?")
    if not cells:
        return _("Please check the marked squares")
    row, col = cells[0][0] + 1, cells[0][1] + 1
    if kind == "split":
        return _("Near row {row}, column {col}: is there an outline between the marked "
                 "squares?").format(row=row, col=col)
    if kind == "outline":
        return _("Near row {row}, column {col}: an outline does not close. One shape or "
                 "several?").format(row=row, col=col)
    return _("Near row {row}, column {col}: please check the marked squares").format(
        row=row, col=col)


def problem_text(problem: Any) -> str:
    """A problem of the rules' check of a sheet read (:class:`ui.reading.SheetProblemSeen`) in
    the player's words and language: what is wrong, and near which square (rows and columns
    counted from 1 at the top left)."""
    from companion.second_chance import CENTRE

    code = getattr(problem, "code", "")
    cells = sorted(tuple(c) for c in getattr(problem, "cells", ()))
    if code == "centre-empty":
        return _("The start card must cover the centre square (the circle)")
    if code == "outside":
        return _("Squares filled outside the grid")
    if code == "bonus":
        return (_("The 1 is on the centre, where the start card must be") if cells == [CENTRE]
                else _("The 1 is off the grid"))
    if not cells:
        return _("Please check the marked squares")
    what = {
        "start-size": _("the start card drawn has the wrong shape"),
        "illegal-shape": _("the marked squares are not the shape of a card"),
        "not-in-deck": _("no card has the shape of the marked squares"),
        "too-many-copies": _("this shape is drawn more often than the deck has it"),
        "unsegmented": _("touching cards with no outline between them"),
        "shape-cell-empty": _("an outline encloses squares that look empty"),
        "overlap": _("squares inside two outlines at once"),
        "unassigned": _("filled squares outside every outline"),
    }.get(code, _("please check the marked squares"))
    return _("Near row {row}, column {col}: {problem}").format(
        row=cells[0][0] + 1, col=cells[0][1] + 1, problem=what)


def refusal_text(reason: str) -> str | None:
    """Why the sheet reader would not read a picture, in the player's words, by the reader's
    tag of the refusal (its own line is English, for the log); None for a tag not worded."""
    return {
        "overexposed": _("the picture is too bright: less light on the sheet, and no lamp "
                         "reflected in it"),
        "too-dark": _("the picture is too dark: more light on the sheet"),
        "low-contrast": _("the picture is too flat: more even light on the sheet, and a "
                          "clean lens"),
        "noisy": _("the picture is too grainy, as in a dim room: more light on the sheet"),
        "no-colour": _("the camera gives no colour"),
        "blurred": _("the sheet is out of focus: refocus, or hold the camera still"),
        "no-grid": _("the sheet's corner marks are seen but not its grid: show the whole "
                     "sheet, flat"),
    }.get(reason)
