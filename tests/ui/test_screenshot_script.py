"""The review screenshot script (scripts/ui_screenshots.py) imports only names that exist.

It imports the layout test's helpers inside ``main()``, so a rename in the tests breaks it only
when someone runs it to look at the screens; this walks its imports without running it.
"""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "ui_screenshots.py"


def _imported_names() -> list[tuple[str, str]]:
    tree = ast.parse(SCRIPT.read_text(encoding="utf-8"))
    return [(node.module, alias.name)
            for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
            for alias in node.names]


def test_every_name_the_screenshot_script_imports_exists() -> None:
    sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "ui")]
    try:
        missing = [f"{module}.{name}" for module, name in _imported_names()
                   if not hasattr(importlib.import_module(module), name)]
    finally:
        del sys.path[:2]
    assert _imported_names(), "the script imports nothing: the walk found no import"
    assert missing == []
