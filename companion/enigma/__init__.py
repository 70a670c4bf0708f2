"""The enigma rules engine (not yet written)."""
