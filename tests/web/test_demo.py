import importlib
import re

import pytest
from django.apps import apps as django_apps
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client, RequestFactory

from gmtools import demo, games
from gmtools.games.fate.models import Aspect
from gmtools.models import Campaign, Character, Trait
from tests.games import Game

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
    games.get(Game.EXALTED).resources.model.objects.filter(character__name="Smith").update(willpower_temporary=3)
    Character.objects.get(name="Koi").delete()
    demo.load()
    assert authenticate(RequestFactory().post("/accounts/login/"), username="gm", password="my-own-secret") is not None
    assert Character.objects.get(name="Smith").resources.willpower_temporary == 3
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
    assert (bhavna.resources.willpower_boxes, bhavna.resources.willpower_superficial,
            bhavna.resources.willpower_dice) == (7, 3, 4)

    tracker, fugitive = Character.objects.get(name="Kade Ortiz"), Character.objects.get(name="Lio Sarr")
    assert pool(tracker, "perception", "survival") == 5
    assert pool(fugitive, "agility", "stealth") == 3
    assert not tracker.resources.off_rol_allowed
    assert Character.objects.get(name="Mara Quell").resources.off_rol_allowed

    fate = Campaign.objects.get(game=Game.FATE)
    # The demo deck is shuffled at its first draw, never dealt in order (card 0, 1, 2...).
    assert fate.state.uses_deck and fate.state.deck == [] and fate.state.cards_left == 81
    for character in fate.characters.filter(kind="pc"):
        assert set(character.aspects.values_list("kind", flat=True)) == {"high_concept", "trouble", "other"}


# --- the local network (make table): no password of the README (issue 28) -----------------------

def printed_password(out: str, username: str) -> str:
    """The password ``load_demo`` printed for an account ("... as gm / <password>")."""
    [password] = re.findall(rf" as {username} / (\S+)$", out, re.MULTILINE)
    return password


def logs_in(username: str, password: str) -> bool:
    return authenticate(RequestFactory().post("/accounts/login/"), username=username, password=password) is not None


def test_the_lan_demo_generates_its_passwords_and_prints_them_once(capsys):
    call_command("load_demo", "--lan")
    out = capsys.readouterr().out
    gm, admin = printed_password(out, "gm"), printed_password(out, "admin")
    assert len({gm, admin, *demo.KNOWN_PASSWORDS}) == 4 and min(len(gm), len(admin)) >= 16
    assert logs_in("gm", gm) and logs_in("admin", admin)
    assert not logs_in("gm", demo.GM_PASSWORD) and not logs_in("admin", demo.ADMIN_PASSWORD)
    assert demo.users_with_known_passwords() == []
    call_command("load_demo", "--lan")  # the next start: nothing to renew, nothing printed again
    again = capsys.readouterr().out
    assert gm not in again and "password unchanged" in again and logs_in("gm", gm)


def test_the_lan_demo_renews_every_password_of_the_readme():
    """A db.sqlite3 made by ``make run`` (the README's logins), then served by ``make table``."""
    demo.load()
    User.objects.create_user("ana", password="her-own-secret-1")
    User.objects.create_user("copycat", password=demo.GM_PASSWORD, is_active=False)  # inactive today, not tomorrow
    assert sorted(u.username for u in demo.users_with_known_passwords()) == ["admin", "copycat", "gm"]
    result = demo.load(lan=True)
    renewed = {account.username: account.password for account in result.accounts if account.outcome == "renewed"}
    assert sorted(renewed) == ["admin", "copycat", "gm"]
    assert logs_in("gm", renewed["gm"]) and logs_in("admin", renewed["admin"])
    assert not logs_in("gm", demo.GM_PASSWORD) and not logs_in("admin", demo.ADMIN_PASSWORD)
    assert logs_in("ana", "her-own-secret-1")  # an account of the GM's own is left alone
    assert demo.users_with_known_passwords() == []
    assert Campaign.objects.count() == 4  # and the campaigns as they were


def test_the_lan_demo_renews_a_password_and_logs_its_sessions_out():
    demo.load()
    phone = Client()
    login = phone.post("/accounts/login/", {"username": "gm", "password": demo.GM_PASSWORD})
    assert login.status_code == 302  # a player who read the README
    assert phone.get("/").context["user"].is_authenticated
    demo.load(lan=True)
    assert not phone.get("/").context["user"].is_authenticated


# --- the demo campaigns are known by their game, not their name (issue 28) ------------------------

def test_a_renamed_demo_campaign_is_not_loaded_again():
    demo.load()
    Campaign.objects.filter(game=Game.V5).update(name="Our Tuesday chronicle")
    result = demo.load()
    assert result.campaigns_created == [] and Campaign.objects.count() == 4
    assert "Our Tuesday chronicle" in result.campaigns_kept


def test_a_demo_name_taken_by_a_campaign_of_the_gms_own_is_left_out(capsys):
    demo.load()
    fate = Campaign.objects.get(game=Game.FATE)
    name = fate.name
    fate.delete()
    Campaign.objects.create(name=name, game=Game.FATE, gm=User.objects.get(username="gm"))  # not the demo
    call_command("load_demo")
    assert f"Left out the demo campaign “{name}”" in capsys.readouterr().out
    assert Campaign.objects.filter(game=Game.FATE, demo__isnull=True).count() == 1
    assert not Campaign.objects.filter(game=Game.FATE, demo=Game.FATE).exists()


def test_the_migration_marks_the_demo_campaigns_loaded_before_it():
    """Campaigns loaded by the demo before ``Campaign.demo`` existed are known by their names then."""
    demo.load()
    Campaign.objects.update(demo=None)  # as 0013 found them
    own = Campaign.objects.create(name="Demo · mine", game=Game.V5, gm=User.objects.create_user("ana"))
    migration = importlib.import_module("gmtools.migrations.0013_campaign_demo")
    migration.mark_the_demo(django_apps, None)
    assert sorted(Campaign.objects.exclude(pk=own.pk).values_list("demo", flat=True)) == sorted(Game.values)
    own.refresh_from_db()
    assert own.demo is None
    assert demo.load().campaigns_created == []
