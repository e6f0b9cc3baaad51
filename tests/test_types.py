"""The pure core and the games are type-checked strictly (issue 21): ``mypy rules gmtools/games`` under
pyproject's [tool.mypy], with Django's stubs and their plugin."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the repo root, where pyproject.toml configures mypy


def test_rules_and_games_type_check_strictly() -> None:
    """The rules engine and every game (their interface, ``gmtools.games.base``, included) are
    type-checked strictly, issue 21: ``mypy rules gmtools/games`` finds no error."""
    result = subprocess.run([sys.executable, "-m", "mypy", "rules", "gmtools/games"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, f"mypy rules gmtools/games failed:\n{result.stdout}{result.stderr}"
