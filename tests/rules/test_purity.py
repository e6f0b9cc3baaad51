"""rules/ is a functional core: standard library only, never Django or a third-party package."""

import ast
import sys
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "rules"
MODULES = sorted(RULES.rglob("*.py"))


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_the_package_has_its_modules():
    names = {p.stem for p in MODULES}
    assert {"dice", "dist", "extended", "luck", "fairness", "exalted", "scifi", "v5", "fate", "cli"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_module_imports_only_the_standard_library(path):
    foreign = {r for r in imported_roots(path) if r != "rules" and r not in sys.stdlib_module_names}
    assert not foreign, f"{path.name} imports {sorted(foreign)}"


def test_the_check_catches_a_third_party_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import django\nfrom icepool import d10\n")
    assert imported_roots(bad) - set(sys.stdlib_module_names) == {"django", "icepool"}
