"""Enigma in the player's words: categories, where a tile goes, power cells by colour, the
networker choices, and why a table read gave no tile.

A tile may hold two power cells of one colour where a networker is allowed: the board then
marks them 1, 2 and the sentences name the mark (:func:`same_colour_marks`).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ui.i18n import _, ngettext

log = logging.getLogger(__name__)

#: "Put a networker on the red cell", one sentence a colour: the colour agrees with the noun
#: ("la celda roja", "червону комірку")
_PUT_ON: dict[str, Callable[[], str]] = {
    "red": lambda: _("Put a networker on the red cell"),
    "blue": lambda: _("Put a networker on the blue cell"),
    "yellow": lambda: _("Put a networker on the yellow cell"),
    "green": lambda: _("Put a networker on the green cell"),
}
#: the same, for one of two cells of that colour, told apart by the mark drawn on it
_PUT_ON_MARKED: dict[str, Callable[[], str]] = {
    "red": lambda: _("Put a networker on the red cell marked {mark}"),
    "blue": lambda: _("Put a networker on the blue cell marked {mark}"),
    "yellow": lambda: _("Put a networker on the yellow cell marked {mark}"),
    "green": lambda: _("Put a networker on the green cell marked {mark}"),
}


def networker_sentence(colour: str, mark: str | None = None) -> str:
    """What the button that puts a networker on a cell of ``colour`` says. A colour the app
    has no word for (a catalogue of other colours) keeps the data's name, after the noun."""
    if mark is not None:
        worded = _PUT_ON_MARKED.get(colour)
        text = worded() if worded else _("Put a networker on the {colour} cell marked {mark}")
        return text.format(colour=colour, mark=mark)
    plain = _PUT_ON.get(colour)
    return plain() if plain else _("Put a networker on the {colour} cell").format(
        colour=colour)


def same_colour_marks(cells: Sequence[str], colours: Mapping[str, str]) -> dict[str, str]:
    """Cell id -> "1", "2"... for the offered cells that share their colour with another
    offered cell (only those need telling apart)."""
    shared = Counter(colours.get(c, "") for c in cells)
    marks: dict[str, str] = {}
    seen: Counter[str] = Counter()
    for cell in cells:
        colour = colours.get(cell, "")
        if shared[colour] > 1:
            seen[colour] += 1
            marks[cell] = str(seen[colour])
    return marks


def category_name(category: str) -> str:
    return {"weight": _("Weight"), "conduit": _("Conduit"), "fragment": _("Fragment"),
            "angular": _("Angular")}.get(category, category)



def placement_words(at: tuple[int, int], rotation: int) -> tuple[str, str]:
    """Where a tile goes, counted in squares from the start tile, and how it is turned
    (the board's x grows to the right and y downwards; turns are clockwise quarters)."""
    dx, dy = at
    steps = []
    if dx:
        steps.append((ngettext("{n} square right", "{n} squares right", dx) if dx > 0 else
                      ngettext("{n} square left", "{n} squares left", -dx)).format(n=abs(dx)))
    if dy:
        steps.append((ngettext("{n} square down", "{n} squares down", dy) if dy > 0 else
                      ngettext("{n} square up", "{n} squares up", -dy)).format(n=abs(dy)))
    turns = (_("not turned"), _("a quarter turn clockwise"), _("a half turn"),
             _("a quarter turn anticlockwise"))
    return ", ".join(steps), turns[rotation % 4]


def placement_text(at: tuple[int, int], rotation: int) -> str:
    """A placement as a sentence (for the messages under the board)."""
    where, turn = placement_words(at, rotation)
    return _("From the start tile: {where}; {turn}").format(where=where, turn=turn)



def networkers_text(count: int) -> str:
    return ngettext("{n} networker on the board", "{n} networkers on the board",
                    count).format(n=count)


def colour_name(colour: str) -> str:
    """A power cell's colour (the game data's English name) in the player's language; a colour
    the app has no word for (a catalogue of other colours) keeps the data's name."""
    return {"red": _("red"), "blue": _("blue"), "yellow": _("yellow"),
            "green": _("green")}.get(colour, colour)


#: a count of power cells of one colour, each colour its own plural text: the colour agrees
#: with the noun and the number ("2 червоні комірки", "5 червоних комірок", "1 celda roja")
_CELLS_OF_COLOUR: dict[str, Callable[[int], str]] = {
    "red": lambda n: ngettext("{n} red cell", "{n} red cells", n),
    "blue": lambda n: ngettext("{n} blue cell", "{n} blue cells", n),
    "yellow": lambda n: ngettext("{n} yellow cell", "{n} yellow cells", n),
    "green": lambda n: ngettext("{n} green cell", "{n} green cells", n),
}


def cells_text(colour: str, count: int) -> str:
    """"2 red cells" of a closed system. A colour without a word of its own keeps the data's
    name, which the translations put after the noun, where it needs no agreement ("3 celdas
    violet")."""
    worded = _CELLS_OF_COLOUR.get(colour)
    if worded is not None:
        return worded(count).format(n=count)
    return ngettext("{n} {colour} cell", "{n} {colour} cells", count).format(
        n=count, colour=colour)


def enigma_problem_text(problem: str, seen: int = 0) -> str:
    """Why the table read gives no tile (:class:`ui.reading.EnigmaReading`'s ``problem``)."""
    if problem == "several-new":
        return ngettext("{n} new tile seen", "{n} new tiles seen", seen).format(n=seen)
    return {"no-new": _("no new tile seen"),
            "not-in-catalogue": _("the tile seen is not in the catalogue"),
            "several-match": _("several catalogue tiles look like this one"),
            }.get(problem, _("the camera could not tell"))


def enigma_refusal_text(error: BaseException) -> str:
    """Why the table reader would not read a picture: a picture it cannot use (its check of
    exposure, noise, colour and focus) is worded by the refusal's reason, the others by
    :func:`ui.refusals.table_refusal_words`; the reader's own line (English) is logged."""
    worded = {
        "overexposed": _("the picture of the table is too bright: less light or a shorter "
                         "exposure, no lamp reflected in the tiles"),
        "too-dark": _("the picture of the table is too dark: more light"),
        "low-contrast": _("the picture of the table is too flat: more even light and a "
                          "clean lens"),
        "noisy": _("the picture of the table is too noisy: more light"),
        "no-colour": _("the picture of the table has no colour, and the cells and "
                       "networkers are told apart by it: use a colour camera"),
        "blurred": _("the picture of the table is blurred: refocus, or hold the camera "
                     "still"),
    }.get(str(getattr(error, "reason", "")))
    if worded is None:
        from ui.refusals import table_refusal_words

        return table_refusal_words(error)
    log.info("the table reader refused a picture: %s", error)
    return worded


def enigma_questions_text(questions: Any) -> str:
    """What to check on a tile read (:class:`ui.reading.ReadingQuestion` codes), in order;
    the table reader's own questions (English) are one plain "check" together."""
    texts: list[str] = []
    for question in questions:
        if question.code == "pack":
            texts.append(_("these tiles do not look like the ones the camera was taught: "
                           "teach it your tiles (Settings, or companion teach enigma)"))
        elif question.code == "unsure" and question.cells:
            # the square counted from the start tile, as a placement is told: no coordinates
            where, _turn = placement_words(tuple(question.cells[0]), 0)
            texts.append(_("unsure of the tile {where} from the start tile").format(
                where=where) if where else _("unsure of the start tile"))
        else:
            text = _("the tile and the squares around it")
            if text not in texts:
                texts.append(text)
    return "; ".join(texts)


def table_edges_text(edges: Any) -> str:
    """Where the table nears the end of what the camera reads (the reader's (kind, side)
    pairs), as one sentence per kind, sides told on the board as the screen draws it (the
    record's north at the top); "" when it nears none."""
    sides = {"north": _("at the top"), "east": _("on the right"), "south": _("at the bottom"),
             "west": _("on the left")}
    order = ("north", "east", "south", "west")
    texts = []
    for kind, sentence in (
            ("view", _("The table reaches the edge of the camera's picture {sides}: move the "
                       "camera so it sees the whole table.")),
            ("markers", _("The table grows past the markers {sides}: move those markers out, "
                          "so the whole table lies between them."))):
        found = [sides[side] for side in order if (kind, side) in set(edges)]
        if found:
            texts.append(sentence.format(sides=", ".join(found)))
    return " ".join(texts)
