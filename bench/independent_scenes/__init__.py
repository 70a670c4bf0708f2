"""A second scene generator, written from the documentation alone, for measuring the Break the
Code tile reader, the Second Chance sheet reader, the Indigo board reader, the Enigma table
reader and the four camera-verified Enigma puzzle checks (``puzzle_*``) on pictures their
authors did not draw.

It draws on the pages ``companion print`` writes (and, for Indigo, on a board of its own with
the demo pack's pictures or the publisher's scans) and photographs them with a camera of its
own; it imports nothing from ``vision`` but the readers' public read and pack functions, which
the comparison calls.
"""

from .code_mat import code_scene, code_scene_with_outline
from .indigo_scene import indigo_scene
from .sheet import sheet_scene, sheet_scene_with_outline

__all__ = ["code_scene", "code_scene_with_outline", "indigo_scene", "sheet_scene",
           "sheet_scene_with_outline"]
