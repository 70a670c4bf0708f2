"""Indigo vision: read an Indigo board from one camera frame.

Reader side: ``settings`` (the typed settings), ``pack`` (art packs), ``board`` (board units,
marker frame, calibration geometry), ``view`` (what is visible, and its read-format JSON),
``model`` and ``pieces`` (the reader's stages), ``read_types`` (its results), ``reader`` (the
pipeline, ``read_indigo``), ``after`` (the rules' check of a read), ``calibrate``, ``teach`` and
``records``. Scene drawing (art, renderer, teach-page photos) is in ``synth``, which the reader
side never imports.
"""
