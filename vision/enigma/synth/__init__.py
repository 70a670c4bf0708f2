"""enigma/synth"""
