"""Enigma vision: read the table of conduit tiles from one camera frame, and check puzzles.

Reader side: ``settings`` (typed settings), ``pack`` (art packs), ``geometry`` and ``layout``
(table and tile geometry), ``squares`` -> ``tile`` (``patch_labels``, ``cells``, ``colours``,
``networkers``, ``openings``, ``channel_pieces``, ``near_cells``, ``skeleton``, ``icon``,
``tile_doubts``) -> ``reader``; ``rules_check`` (the rules' second opinion), ``teach``, ``mat``,
``digits`` and ``puzzles`` (camera-verified puzzles). Scene drawing is in ``synth``, which no
reader module imports.
"""
