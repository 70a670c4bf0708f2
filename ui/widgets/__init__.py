"""Reusable widgets: touch buttons, the banner, the virtual panel, boards, timer, plots."""
