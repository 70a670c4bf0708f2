"""A second scene generator, written from the documentation alone, for measuring the Break the
Code tile reader and the Second Chance sheet reader on pictures their authors did not draw.

It draws on the pages ``companion print`` writes and photographs them with a camera of its own;
it imports nothing from ``vision`` (the readers and their renderers).
"""

from .code_mat import code_scene, code_scene_with_outline
from .sheet import sheet_scene, sheet_scene_with_outline

__all__ = ["code_scene", "code_scene_with_outline", "sheet_scene", "sheet_scene_with_outline"]
