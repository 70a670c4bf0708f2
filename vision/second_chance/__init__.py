"""second_chance"""
