"""Second Chance vision: read a hand-drawn sheet and a revealed puzzle card.

Sheet reader: ``layout`` (the printed sheet), ``geometry`` (find and straighten the grid),
``cells``, ``outlines``, ``borders`` (the learned border model), ``profiles`` -> ``reader``;
``printing`` writes the sheets; its settings are ``config.schema.SheetReaderSettings``
(``settings.DEFAULT_SETTINGS``). Card reader: ``card_style`` and ``card_reader``. Scene drawing
is in ``synth``, which no reader module imports.
"""
