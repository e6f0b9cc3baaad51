"""The import contracts of ``[tool.importlinter]`` in pyproject.toml hold (issue 21).

import-linter builds the import graph of gmtools and rules (every import but those under
``TYPE_CHECKING``, which make no dependency at run time) and checks each contract: the rules engine imports neither Django nor
gmtools; formatting is the bottom of the core; the page's parts run one way. A change that
imports against them fails here with the chain of imports that broke the contract.
"""

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_are_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_the_games_are_fenced_off_from_every_module_of_the_core():
    """The contracts that fence the games off (and their interface) name the core module by module: a
    module added to the core and missing there would be open to the games."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    core = {f"gmtools.{path.stem}" for path in (ROOT / "gmtools").iterdir()
            if (path.suffix == ".py" or (path / "__init__.py").exists()) and path.stem != "__init__"}
    core -= {"gmtools.games", "gmtools.formatting", "gmtools.nulfree"}  # the games' own, and the bottom
    fences = [c for c in contracts if c["type"] == "forbidden" and any(s.startswith("gmtools.games") for s in c["source_modules"])]
    assert len(fences) == 2
    for fence in fences:
        assert core <= set(fence["forbidden_modules"]), sorted(core - set(fence["forbidden_modules"]))
