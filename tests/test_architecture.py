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


#: modules whose job is drawing scenes: the desktop demo's camera and the `companion render`
#: verbs, one module per game beside that game's read verbs
SCENE_DRAWERS = {"ui/demo.py", "ui/cli/code_render_cmd.py", "ui/cli/enigma_render_cmd.py",
                 "ui/cli/indigo_render_cmd.py", "ui/cli/sheet_render_cmd.py",
                 "ui/puzzle_cards.py"}
PROJECT = ("companion", "vision", "hardware", "ui", "config")


def _is_synth(module: str) -> bool:
    return "synth" in module.split(".")


def test_every_scene_drawer_named_exists() -> None:
    assert all((REPO / where).is_file() for where in SCENE_DRAWERS)


def test_no_reader_stage_or_checker_imports_scene_drawing() -> None:
    # a reader that needed the renderer would only ever be tested on what the renderer draws
    bad = []
    for package in PROJECT:
        for path in _python_files(package):
            where = str(path.relative_to(REPO))
            if "synth" in path.parts or where in SCENE_DRAWERS:
                continue
            bad += [f"{where} imports {m}" for m in sorted(_imported_modules(path))
                    if m.split(".")[0] in PROJECT and _is_synth(m)]
    assert not bad, "\n".join(bad)


def _private_imports(tree: ast.AST) -> list[str]:
    """``from project.module import _name`` (dunders and gettext's ``_`` are public)."""
    return [f"{node.lineno}: from {node.module} import {alias.name}"
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
            and node.module.split(".")[0] in PROJECT
            for alias in node.names
            if alias.name.startswith("_") and alias.name != "_"
            and not (alias.name.startswith("__") and alias.name.endswith("__"))]


def test_no_module_imports_another_modules_private_name() -> None:
    bad = []
    for package in (*PROJECT, "bench", "scripts", "tests"):
        for path in _python_files(package):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            bad += [f"{path.relative_to(REPO)}:{line}" for line in _private_imports(tree)]
    assert not bad, "\n".join(bad)


def test_the_private_import_check_sees_one() -> None:
    tree = ast.parse("from vision.markers import _corners, __version__\nfrom ui.i18n import _\n")
    assert _private_imports(tree) == ["1: from vision.markers import _corners"]


def test_all_lists_public_names_only() -> None:
    bad = []
    for package in PROJECT:
        for path in _python_files(package):
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if (isinstance(node, ast.Assign) and any(
                        isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
                        and isinstance(node.value, (ast.List, ast.Tuple))):
                    bad += [f"{path.relative_to(REPO)}: {e.value}" for e in node.value.elts
                            if isinstance(e, ast.Constant) and str(e.value).startswith("_")]
    assert not bad, "\n".join(bad)
