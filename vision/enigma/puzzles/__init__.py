"""Enigma's camera-verified puzzles: ``view`` (the puzzle mat seen from above), ``cards``
(card geometry), one checker per kind (``weight``, ``fragment``, ``angular``, ``conduit``) and
``check`` (the one entry point)."""
