"""The Kivy app and the ``companion`` command line: the composition root.

Importing this package imports nothing heavy; Kivy is loaded only when the app starts.
"""
