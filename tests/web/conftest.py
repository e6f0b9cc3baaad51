import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from gmtools.models import Campaign, Character
from tests.games import Game
from tests.web.helpers import set_resources


@pytest.fixture
def gm(db) -> User:
    return User.objects.create_user("gm1", password="table-secret-1")


@pytest.fixture
def other_gm(db) -> User:
    return User.objects.create_user("gm2", password="table-secret-2")


@pytest.fixture
def staff(db) -> User:
    return User.objects.create_superuser("boss", password="admin-secret-1")


@pytest.fixture
def staff_client(staff: User) -> Client:
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def gm_client(gm: User) -> Client:
    client = Client()
    client.force_login(gm)
    return client


@pytest.fixture
def make_character(gm: User):
    """A character with its game's standard sheet, in a fresh campaign of that game."""

    def make(game: str = Game.V5, **fields) -> Character:
        campaign = Campaign.objects.create(name=f"{game} campaign {Campaign.objects.count()}", game=game, gm=gm)
        resources = {name: fields.pop(name) for name in list(fields) if name.startswith(f"{game}_")}
        character = Character.objects.create_with_sheet(campaign=campaign, name=fields.pop("name", "Ana"), **fields)
        set_resources(character, **resources)
        return character

    return make


@pytest.fixture
def set_ratings():
    """Set standard traits' ratings directly, as a finished sheet would have them."""

    def set_(character: Character, **ratings: int) -> None:
        for key, rating in ratings.items():
            assert character.traits.filter(key=key).update(rating=rating) == 1, key

    return set_


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in the default language: a Spanish request through the test client leaves its
    language active in this thread (LocaleMiddleware activates it and nothing deactivates it)."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_cache():
    """The cache outlives a test (odds, the player link's count of wrong tokens): each starts empty."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings) -> None:
    # The real hasher is slow on purpose; these tests only need passwords to match.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


class ScriptedDice:
    """A random source returning the faces given, in order; it fails the test if asked for more."""

    def __init__(self) -> None:
        self.faces: list[int] = []

    def __call__(self, *faces: int) -> "ScriptedDice":
        self.faces = list(faces)
        return self

    def randint(self, a: int, b: int) -> int:
        assert self.faces, "the roll asked for more dice than scripted"
        face = self.faces.pop(0)
        assert a <= face <= b, (face, a, b)
        return face


@pytest.fixture
def scripted_dice(monkeypatch) -> ScriptedDice:
    """Replace the system's random source everywhere ``rules`` draws dice (views pass no rng).

    ``scripted_dice(7, 1, 10)`` sets the faces the next draws return, in order.
    """
    import rules.dice
    import rules.fate
    import rules.scifi

    source = ScriptedDice()
    for module in (rules.dice, rules.fate, rules.scifi):
        monkeypatch.setattr(module, "system_random", lambda: source)
    return source


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory) -> None:
    """A file, not memory, for the SQLite test database: threads then share it with real locking.

    The in-memory database is shared between threads in SQLite's shared-cache mode, where a
    second writer fails at once with "database table is locked" instead of waiting. On a file,
    the settings' IMMEDIATE transactions make it wait, as in production (test_concurrency.py).
    """
    from django.conf import settings

    default = settings.DATABASES["default"]
    if default["ENGINE"] == "django.db.backends.sqlite3":
        default.setdefault("TEST", {})["NAME"] = str(tmp_path_factory.mktemp("sqlite") / "test.sqlite3")


@pytest.fixture(autouse=True)
def fresh_live_cache():
    """Change ids come back after a test's rollback (SQLite), so no drawing outlives its test."""
    from gmtools import live

    live._cache.clear()
    yield
    live._cache.clear()
