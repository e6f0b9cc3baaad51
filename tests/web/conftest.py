import pytest
from django.contrib.auth.models import User
from django.test import Client

from gmtools.models import Campaign, Character
from gmtools.sheets import Game


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
        return Character.objects.create_with_sheet(campaign=campaign, name=fields.pop("name", "Ana"), **fields)

    return make


@pytest.fixture
def set_ratings():
    """Set standard traits' ratings directly, as a finished sheet would have them."""

    def set_(character: Character, **ratings: int) -> None:
        for key, rating in ratings.items():
            assert character.traits.filter(key=key).update(rating=rating) == 1, key

    return set_


@pytest.fixture(autouse=True)
def fast_password_hashing(settings) -> None:
    # The real hasher is slow on purpose; these tests only need passwords to match.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
