"""The inputs ``make bench`` times are inputs the rules' command line accepts (bench.__main__.SLOWEST).

A bench that stops at a refused input prints nothing after it: the refusal of ``contest v5 --hunger``
(issue 22) once stopped every figure after the slowest inputs, unnoticed until the bench was run.
"""

import contextlib
import io

import pytest

from bench.__main__ import SLOWEST
from rules.cli import main as cli

INPUTS = sorted({argv for trivial, candidates in SLOWEST.values() for argv in (trivial, *candidates)})


@pytest.mark.parametrize("argv", INPUTS)
def test_every_input_the_bench_times_is_accepted(argv: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as errors:
        code = cli(argv.split())
    assert code == 0, errors.getvalue()
