"""break_the_code"""
