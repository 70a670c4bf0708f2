"""enigma"""
