"""Enigma scene drawing: tile art (``art``), the table renderer (``render``), puzzle scenes
(``puzzles``), seeded random games (``scenes``), scoring against the truth (``truth``) and the
demo pack generator (``demo_pack``), for tests, the bench and the demo."""
