"""The break_the_code rules engine (not yet written)."""
