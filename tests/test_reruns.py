"""tests/conftest.py: a rerun fails the run unless its test is marked known_flake (issue 22)."""

import subprocess
import sys
from pathlib import Path

import pytest

FLAKY = '''
import pytest

tries = {}

def flake(name):
    tries[name] = tries.get(name, 0) + 1
    if tries[name] == 1:
        raise AssertionError("Timeout 5000ms exceeded")  # what a browser test's wait says

def test_flaky():
    flake("flaky")

@pytest.mark.known_flake("waits for a third-party page")
def test_known():
    flake("known")

def test_steady():
    pass
'''


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "conftest.py").write_text((Path(__file__).parent / "conftest.py").read_text())
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    known_flake(reason): known\n")
    (tmp_path / "test_flaky.py").write_text(FLAKY)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:django",
                           "--reruns", "1", *args], cwd=tmp_path, capture_output=True, text=True, timeout=120)


def test_a_rerun_that_passed_still_fails_the_run(tmp_path):
    result = run(tmp_path)
    assert result.returncode == pytest.ExitCode.TESTS_FAILED, result.stdout
    assert "reruns of tests not marked known_flake" in result.stdout
    assert "test_flaky.py::test_flaky" in result.stdout.split("known_flake (the run fails)")[1]


def test_a_rerun_of_a_test_marked_known_is_only_reported(tmp_path):
    result = run(tmp_path, "-k", "known or steady", "-rR")
    assert result.returncode == pytest.ExitCode.OK, result.stdout
    assert "1 rerun" in result.stdout and "not marked known_flake" not in result.stdout
