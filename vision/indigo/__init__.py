"""indigo"""
