"""The review screenshot script (scripts/ui_screenshots.py) imports only names that exist.

It imports the layout test's helpers inside ``main()``, so a rename in the tests breaks it only
when someone runs it to look at the screens; this walks its imports without running it. Names
from the test folder are looked up in the files' own top level (a test run holds several
``conftest`` modules, and only the last one loaded answers to that name).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "ui_screenshots.py"
UI_TESTS = ROOT / "tests" / "ui"


def _imported_names() -> list[tuple[str, str]]:
    tree = ast.parse(SCRIPT.read_text(encoding="utf-8"))
    return [(node.module, alias.name)
            for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
            for alias in node.names]


def _top_level_names(source: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def _defines(module: str, name: str) -> bool:
    source = UI_TESTS / f"{module}.py"
    if source.is_file():
        return name in _top_level_names(source)
    return hasattr(importlib.import_module(module), name)


def test_every_name_the_screenshot_script_imports_exists() -> None:
    imported = _imported_names()
    assert ("conftest", "Driver") in imported, "the walk no longer sees the script's imports"
    assert [f"{m}.{n}" for m, n in imported if not _defines(m, n)] == []
