import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import RequestFactory

from gmtools import demo
from gmtools.models import Aspect, Campaign, Character, Trait
from gmtools.sheets import Game

pytestmark = pytest.mark.django_db


def counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (User, Campaign, Character, Trait, Aspect))


def test_load_demo_is_idempotent(capsys):
    call_command("load_demo")
    first = counts()
    out = capsys.readouterr().out
    assert "gm / gm-demo-2026" in out and "admin / admin-demo-2026" in out
    call_command("load_demo")
    assert counts() == first
    assert "Kept the demo campaign" in capsys.readouterr().out
    assert sorted(Campaign.objects.values_list("game", flat=True)) == sorted(Game.values)


def test_demo_accounts():
    demo.load()
    login = RequestFactory().post("/accounts/login/")  # django-axes counts logins per request
    gm = authenticate(login, username="gm", password="gm-demo-2026")
    assert gm is not None and not gm.is_staff
    admin = authenticate(login, username="admin", password="admin-demo-2026")
    assert admin is not None and admin.is_staff and admin.is_superuser
    assert Campaign.objects.for_gm(gm).count() == 4


def test_the_demo_keeps_what_the_gm_changed():
    demo.load()
    gm = User.objects.get(username="gm")
    gm.set_password("my-own-secret")
    gm.save()
    Character.objects.filter(name="Smith").update(exalted_willpower_temporary=3)
    Character.objects.get(name="Koi").delete()
    demo.load()
    assert authenticate(RequestFactory().post("/accounts/login/"), username="gm", password="my-own-secret") is not None
    assert Character.objects.get(name="Smith").exalted_willpower_temporary == 3
    assert not Character.objects.filter(name="Koi").exists()


def test_a_removed_demo_campaign_comes_back():
    demo.load()
    Campaign.objects.filter(game=Game.FATE).delete()
    result = demo.load()
    assert [c.game for c in result.campaigns_created] == [Game.FATE]


def pool(character: Character, *keys: str) -> int:
    ratings = character.standard_ratings()
    return sum(ratings[key] for key in keys)


def test_demo_characters_reproduce_the_seed_examples():
    demo.load()
    smith, koi = Character.objects.get(name="Smith"), Character.objects.get(name="Koi")
    guard = Character.objects.get(name="Garrison guard")
    assert (smith.player, koi.player) == ("Phyllis", "Rebecca")
    assert pool(smith, "strength", "athletics") == 6
    assert pool(smith, "stamina", "athletics") == 6
    assert pool(smith, "perception", "athletics") == 8
    assert pool(smith, "intelligence", "linguistics") == 5
    assert pool(koi, "dexterity", "athletics") == 6
    assert pool(koi, "dexterity", "stealth") == 6
    assert pool(koi, "intelligence", "linguistics") == 7
    assert pool(guard, "perception", "awareness") == 4

    juans = Character.objects.get(player="Juan")
    johns = Character.objects.get(player="John")
    bhavna = Character.objects.get(name="Bhavna")
    assert pool(juans, "resolve", "investigation") == 6
    assert pool(johns, "intelligence", "occult") == 5 and johns.concept == "Occult researcher"
    assert (bhavna.v5_willpower_boxes, bhavna.v5_willpower_superficial, bhavna.v5_willpower_dice) == (7, 3, 4)

    tracker, fugitive = Character.objects.get(name="Kade Ortiz"), Character.objects.get(name="Lio Sarr")
    assert pool(tracker, "perception", "survival") == 5
    assert pool(fugitive, "agility", "stealth") == 3
    assert not tracker.scifi_off_rol_allowed
    assert Character.objects.get(name="Mara Quell").scifi_off_rol_allowed

    fate = Campaign.objects.get(game=Game.FATE)
    # The demo deck is shuffled at its first draw, never dealt in order (card 0, 1, 2...).
    assert fate.fate_uses_deck and fate.fate_deck == [] and fate.fate_cards_left == 81
    for character in fate.characters.filter(kind="pc"):
        assert set(character.aspects.values_list("kind", flat=True)) == {"high_concept", "trouble", "other"}
