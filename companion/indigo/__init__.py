"""The indigo rules engine (not yet written)."""
