"""second_chance/synth"""
