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


def _module_path(module: str) -> Path | None:
    """The project file that defines ``module`` (a package's ``__init__.py``), if any."""
    base = REPO / module.replace(".", "/")
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function, with ``from a import b``
    counted as ``a`` and, when ``a.b`` is a module of the project, as ``a.b`` too."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names
                         if _module_path(f"{node.module}.{alias.name}") is not None)
    return found


def _kivy_imports_reached_from(package: str) -> list[str]:
    """Each import of Kivy reachable from ``package``'s modules through project imports,
    lazy ones included, with the chain of modules that leads to it."""
    folder = REPO / package.replace(".", "/")
    start = sorted(folder.rglob("*.py")) if folder.is_dir() else [folder.with_suffix(".py")]
    queue = [(str(p.relative_to(REPO).with_suffix("")).replace("/", "."), p, ()) for p in start]
    seen: set[Path] = set()
    found = []
    while queue:
        name, path, chain = queue.pop()
        if path in seen:
            continue
        seen.add(path)
        for module in sorted(_imported_modules(path)):
            if module.split(".")[0] == "kivy":
                found.append(" -> ".join((*chain, name, module)))
            target = _module_path(module)
            if target is not None:
                queue.append((module, target, (*chain, name)))
    return found


def test_the_command_line_never_imports_kivy_not_even_lazily() -> None:
    # `companion read ...` must start fast on a Pi with no display: only `companion app`
    # loads Kivy, and it does so in ui.main, which it execs rather than imports
    assert not _kivy_imports_reached_from("ui.cli")


def test_the_kivy_check_follows_lazy_imports_into_project_modules() -> None:
    assert any(chain.startswith("ui.main -> ") for chain in _kivy_imports_reached_from("ui.main"))
