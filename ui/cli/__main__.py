from ui.cli import run

run()
