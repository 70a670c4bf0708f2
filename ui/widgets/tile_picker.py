"""A visual list of the 15 Indigo tile patterns (type and rotation), to correct or enter a tile."""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Mesh, Rectangle
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from ui import theme
from ui.i18n import _
from ui.touch import fit_width, min_target_px
from ui.widgets.buttons import TouchButton
from ui.widgets.curves import path_curve


class TileChoice(ButtonBehavior, Widget):
    """One oriented tile pattern, drawn as its three paths."""

    def __init__(self, kind: int, rotation: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kind = kind
        self.rotation = rotation
        self.bind(size=self.redraw, pos=self.redraw, state=self.redraw)

    def redraw(self, *args: Any) -> None:
        from companion.indigo.geometry import edge_midpoint
        from companion.indigo.tiles import paths_of

        self.canvas.clear()
        r = min(self.width / 1.8, self.height / 2.0) * 0.95
        cx, cy = self.center
        from companion.indigo.geometry import hex_corners

        corners = [(cx + x, cy - y) for x, y in hex_corners((0, 0), r)]
        with self.canvas:
            Color(0.16, 0.17, 0.18, 1)
            Rectangle(pos=self.pos, size=self.size)
            Color(0.35, 0.3, 0.25, 1) if self.state == "normal" else Color(0.6, 0.5, 0.2, 1)
            Mesh(vertices=[v for x, y in corners for v in (x, y, 0, 0)],
                 indices=list(range(6)), mode="triangle_fan")
            Color(0.95, 0.9, 0.8, 1)
            for a, b in paths_of(self.kind, self.rotation):
                pa = edge_midpoint((0, 0), a, r)
                pb = edge_midpoint((0, 0), b, r)
                bend = 0.0 if (b - a) % 6 == 3 else 0.6
                mid = ((pa[0] + pb[0]) / 2 * (1 - bend), (pa[1] + pb[1]) / 2 * (1 - bend))
                path_curve([cx + pa[0], cy - pa[1], cx + mid[0], cy - mid[1],
                            cx + pb[0], cy - pb[1]], width=2)


class TilePicker(ModalView):
    """Choose one of the 15 distinct oriented patterns; calls ``on_choice(kind, rotation)``.

    A header says what to pick and has a Cancel button: the popup covers nearly the whole
    screen, so a tap outside it (the only way out before) meant aiming at a 20 px margin."""

    def __init__(self, on_choice: Any, *, portrait: bool = False, **kwargs: Any) -> None:
        super().__init__(size_hint=(0.95, 0.9), auto_dismiss=True, **kwargs)
        from companion.indigo.tiles import all_patterns

        size = min_target_px() * 1.3
        box = BoxLayout(orientation="vertical", spacing=theme.GAP,
                        padding=(theme.GAP_REGION, theme.GAP_REGION, theme.GAP_REGION, 0))
        header = BoxLayout(size_hint_y=None, height=min_target_px(), spacing=theme.GAP_REGION)
        title = Label(text=_("Which pattern is on the tile?"), halign="left", valign="middle",
                      shorten=True)
        title.bind(size=lambda w, s: setattr(w, "text_size", s))
        cancel = TouchButton(text=_("Cancel"), size_hint_x=None,
                             width=fit_width(_("Cancel"), theme.FONT_BODY,
                                             minimum=min_target_px() * 2))
        cancel.bind(on_press=lambda *_a: self.dismiss())
        self.cancel_button = cancel
        header.add_widget(title)
        header.add_widget(cancel)
        box.add_widget(header)
        grid = GridLayout(cols=3 if portrait else 5, spacing=theme.GAP_REGION,
                          padding=(0, 0, 0, theme.GAP_REGION))
        self.choices: list[TileChoice] = []
        for tile in all_patterns():
            choice = TileChoice(tile.kind, tile.rotation, size_hint_min=(size, size))
            choice.bind(on_press=lambda c: self._choose(c, on_choice))
            grid.add_widget(choice)
            self.choices.append(choice)
        box.add_widget(grid)
        self.add_widget(box)

    def _choose(self, choice: TileChoice, on_choice: Any) -> None:
        self.dismiss()
        on_choice(choice.kind, choice.rotation)
