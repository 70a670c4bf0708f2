"""The layers of design.md section 2: dependencies point one way, and Pi-only modules are
never imported at module top level."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PI_ONLY = {"picamera2", "lgpio", "RPi", "rpi_ws281x", "neopixel", "pi5neo", "board", "spidev"}
FORBIDDEN = {
    "companion": {"cv2", "kivy", "gpiozero", "picamera2", "numpy", "vision", "hardware", "ui"},
    "vision": {"ui", "kivy", "hardware"},
    "hardware": {"ui", "kivy", "vision", "cv2"},
    "config": {"ui", "kivy", "vision", "hardware", "cv2", "gpiozero"},
}


def _python_files(package: str) -> list[Path]:
    return sorted((REPO / package).rglob("*.py"))


def _imports(tree: ast.AST) -> list[tuple[str, int, bool]]:
    """(top-level module name, line, imported at module level?) for every import."""
    found: list[tuple[str, int, bool]] = []
    top_level = set()
    for node in getattr(tree, "body", []):
        top_level.add(id(node))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append((alias.name.split(".")[0], node.lineno, id(node) in top_level))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module.split(".")[0], node.lineno, id(node) in top_level))
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layers_import_only_downward(package: str) -> None:
    bad = []
    for path in _python_files(package):
        for name, line, _ in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if name in FORBIDDEN[package]:
                bad.append(f"{path.relative_to(REPO)}:{line} imports {name}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("package", ["companion", "vision", "hardware", "ui", "config"])
def test_pi_only_modules_are_imported_lazily(package: str) -> None:
    bad = []
    for path in _python_files(package):
        for name, line, at_top in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if name in PI_ONLY and at_top:
                bad.append(f"{path.relative_to(REPO)}:{line} imports {name} at top level")
    assert not bad, "\n".join(bad)


def test_the_checker_sees_a_forbidden_import() -> None:
    tree = ast.parse("import os\nfrom cv2 import aruco\ndef f():\n    import picamera2\n")
    names = {(n, top) for n, _, top in _imports(tree)}
    assert ("cv2", True) in names and ("picamera2", False) in names
