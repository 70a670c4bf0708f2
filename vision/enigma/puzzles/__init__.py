"""enigma/puzzles"""
