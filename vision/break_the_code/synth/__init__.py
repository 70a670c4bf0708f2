"""break_the_code/synth"""
