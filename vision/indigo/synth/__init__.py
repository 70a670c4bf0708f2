"""indigo/synth"""
