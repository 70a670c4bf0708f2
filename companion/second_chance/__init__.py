"""The second_chance rules engine (not yet written)."""
