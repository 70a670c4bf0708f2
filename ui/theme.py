"""The app's look in one place: its colours, its type scale and its spacing.

The kv rules of the common widgets (app.kv: labels, headings, status and refusal lines,
panels, button rows, banners) and every screen read these names; no screen or kv file holds
a colour, a font size or a spacing of its own (tests/ui/test_theme.py). The colours of the
pieces drawn on the boards (gems, tiles, sheets) are the games' own and stay with the
widgets that draw them.

Colours are RGBA with channels in 0..1; font sizes are Kivy ``sp`` strings; spacings are
pixels.
"""

from __future__ import annotations

Rgba = tuple[float, float, float, float]

# --- colours: the screen --------------------------------------------------------------------
#: the app's background, behind every screen
BACKGROUND: Rgba = (0.06, 0.07, 0.08, 1)
#: the top bar (Home, the title, Undo, Settings)
BAR: Rgba = (0.12, 0.16, 0.22, 1)
#: a filled panel drawn under pictures (the light bar, a plot)
PANEL: Rgba = (0.1, 0.1, 0.1, 1)
#: nothing: a fill that is not drawn
CLEAR: Rgba = (0, 0, 0, 0)
#: what is behind a picture shown on the whole window
SCRIM: Rgba = (0, 0, 0, 0.95)
#: a thin edge that keeps a dark piece apart from the dark background
EDGE: Rgba = (0.5, 0.5, 0.52, 1)

# --- colours: text ----------------------------------------------------------------------------
#: body text on the dark background
INK: Rgba = (1, 1, 1, 1)
#: text on a light face (ink_on picks it or INK)
BLACK_INK: Rgba = (0, 0, 0, 1)
#: text that says nothing is going on (the quiet buzzer)
INK_QUIET: Rgba = (0.6, 0.6, 0.6, 1)
#: a hint under a prompt (where a tile would go)
INK_HINT: Rgba = (0.85, 0.85, 0.7, 1)
#: a refusal or a "why not" line under a prompt
REFUSAL: Rgba = (1, 0.7, 0.5, 1)
#: a warning the player should act on before going on (a sheet to check)
CAUTION: Rgba = (1, 0.8, 0.4, 1)
#: something done that the player wanted (a rack stored)
SUCCESS: Rgba = (0.6, 1, 0.6, 1)
#: a sound being played (the buzzer's word)
SOUND: Rgba = (1, 0.4, 0.3, 1)

# --- colours: bars and buttons ----------------------------------------------------------------
#: the banner of an error (fill)
ALERT_FILL: Rgba = (0.75, 0.15, 0.12, 1)
#: the notice of something done that is no error (fill)
NOTICE_FILL: Rgba = (0.13, 0.33, 0.55, 1)
#: the tint of a button that does what cannot be taken back (end, delete)
DANGER: Rgba = (1, 0.45, 0.35, 1)
#: a puzzle check's verdict headline, by verdict
VERDICT_COLOURS: dict[str, Rgba] = {"solved": (0.35, 0.9, 0.45, 1),
                                    "not solved": (1.0, 0.45, 0.4, 1),
                                    "cannot tell": (1.0, 0.78, 0.3, 1)}
#: the frame of a chosen piece
PICKED: Rgba = (1, 0.84, 0.1, 1)

#: a lamp of the light bar, off and at full brightness (a level between is a mix of the two)
LAMP_OFF: Rgba = (0.25, 0.2, 0.1, 1)
LAMP_ON: Rgba = (1, 0.8, 0.1, 1)


def lamp(level: float) -> Rgba:
    """A lamp's colour at ``level`` (0..1)."""
    r, g, b, a = (off + (on - off) * level for off, on in zip(LAMP_OFF, LAMP_ON, strict=True))
    return (r, g, b, a)


# --- colours: the camera's marks --------------------------------------------------------------
#: a marker the camera found (calibration)
MARKER_FOUND: Rgba = (0.2, 1, 0.3, 1)
#: a cell the reader was not sure of
QUESTION_MARK: Rgba = (1, 0.3, 0.2, 1)
#: what the reader marked on the camera picture, by kind
OVERLAY: dict[str, Rgba] = {
    "tile": (0.3, 1.0, 0.4, 0.9),
    "question": (1.0, 0.25, 0.2, 1.0),
    "amber": (1.0, 0.78, 0.1, 1),
    "emerald": (0.1, 0.85, 0.3, 1),
    "sapphire": (0.2, 0.45, 1.0, 1),
}

# --- colours: players and pieces --------------------------------------------------------------
#: ownership-chip colours of the rules chart, in seat order, then two spares
PLAYER_COLOURS: dict[str, Rgba] = {
    "red": (0.85, 0.2, 0.2, 1),
    "turquoise": (0.1, 0.7, 0.7, 1),
    "white": (0.92, 0.92, 0.92, 1),
    "purple": (0.6, 0.3, 0.75, 1),
    "orange": (0.95, 0.55, 0.1, 1),
    "green": (0.3, 0.7, 0.25, 1),
}
#: a player colour the app does not know
UNKNOWN_PLAYER: Rgba = (0.7, 0.7, 0.7, 1)
#: a Break the Code tile's colour letter -> (face, number) colours, as the tiles in the box
CODE_TILE_FACES: dict[str, tuple[Rgba, Rgba]] = {
    "b": ((0.08, 0.08, 0.09, 1), (1, 1, 1, 1)),
    "w": ((0.93, 0.92, 0.88, 1), (0.05, 0.05, 0.05, 1)),
    "g": ((0.16, 0.55, 0.3, 1), (1, 1, 1, 1)),
}

# --- type scale ---------------------------------------------------------------------------------
#: two lines of a sentence on one touch target (a question card, a layout's toggle)
FONT_TIGHT = "13sp"
#: a button holding two lines of FONT_TIGHT is this many touch targets high
TWO_LINE_ROWS = 1.4
#: a card's shape drawn on a button, to tap: this many touch targets high
SHAPE_ROWS = 1.2
#: a row of choices that must fit many words on one line (history's games, a settings row)
FONT_SMALL = "14sp"
#: a button in a row of several, a strip of controls beside a picture
FONT_COMPACT = "15sp"
#: a step's explanation beside a picture
FONT_EXPLAIN = "16sp"
#: body text: read at arm's length (every Label's size)
FONT_BODY = "17sp"
#: a name the players type
FONT_NAME = "18sp"
#: a number on a piece, a big action (Start)
FONT_LARGE = "20sp"
#: a heading (a game's name on Home, "Game over")
FONT_HEADING = "22sp"
#: a puzzle check's verdict over its picture ("Solved!")
FONT_VERDICT = "26sp"
#: a piece shown large for a player to check
FONT_DISPLAY = "34sp"
#: a countdown read across the table
FONT_COUNTDOWN = "96sp"

# --- spacing ------------------------------------------------------------------------------------
#: between the controls of a row or a column
GAP = 4
#: between a screen's regions (a picture and its controls); a screen's padding
GAP_REGION = 6
#: around a screen of few large controls (Home), and inside a question box
GAP_LOOSE = 8
#: the room beside a button's words when its width is fitted to them (both sides together)
BUTTON_TEXT_ROOM = 12
#: a text's margin inside its label, each side (text_size is the width less twice this)
TEXT_MARGIN = 4
