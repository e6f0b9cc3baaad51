"""The pure core is type-checked strictly (issue 21): ``mypy rules`` under pyproject's [tool.mypy]."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the repo root, where pyproject.toml configures mypy


def test_rules_type_check_strictly() -> None:
    """The pure core is type-checked strictly, issue 21: ``mypy rules`` finds no error."""
    result = subprocess.run([sys.executable, "-m", "mypy", "rules"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, f"mypy rules failed:\n{result.stdout}{result.stderr}"
