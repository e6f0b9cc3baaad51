"""The import contracts of ``[tool.importlinter]`` in pyproject.toml hold (issue 21).

import-linter builds the import graph of gmtools and rules (every import, those under
``TYPE_CHECKING`` too) and checks each contract: the rules engine imports neither Django nor
gmtools; formatting is the bottom of the core; the page's parts run one way. A change that
imports against them fails here with the chain of imports that broke the contract.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_are_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout
