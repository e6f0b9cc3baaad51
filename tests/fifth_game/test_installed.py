"""The fifth game is installed by its folder and one line of settings (issue 21): nothing of the project
outside ``tests/fifth_game`` names it, and its settings are the shipped ones with its app added."""

from pathlib import Path

from django.conf import settings

from gmtools import settings as shipped

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def naming(*tops: str) -> list[str]:
    """The files under ``tops`` (outside this folder) that name the game or its folder."""
    named = []
    for top in tops:
        for path in sorted((ROOT / top).rglob("*")) if (ROOT / top).is_dir() else [ROOT / top]:
            if path.is_file() and HERE not in path.parents and "__pycache__" not in path.parts:
                text = path.read_bytes()
                if path.suffix == ".po":  # its reference comments say where a msgid was seen, not what it is
                    text = b"\n".join(line for line in text.splitlines() if not line.startswith(b"#:"))
                if any(word in text for word in (b"d6pool", b"D6 pool", b"fifth_game")):
                    named.append(str(path.relative_to(ROOT)))
    return named


def test_nothing_the_project_ships_names_it():
    assert naming("gmtools", "rules", "templates", "static", "locale", "manage.py", "pyproject.toml") == []


def test_only_the_test_runner_names_its_folder():
    """Its tests are collected with its settings (tests/conftest.py) and run by ``make test``."""
    assert naming("tests", "bench", "Makefile", ".ci") == ["tests/conftest.py", "Makefile"]


def test_its_settings_are_the_shipped_ones_with_its_app():
    from tests.fifth_game import settings as its

    names = sorted({name for name in (*dir(shipped), *dir(its)) if name.isupper()})
    assert [name for name in names if getattr(its, name, None) != getattr(shipped, name, None)] == ["INSTALLED_APPS"]
    assert its.INSTALLED_APPS == [*shipped.INSTALLED_APPS, "tests.fifth_game"] == settings.INSTALLED_APPS
