import threading
import time
from datetime import timedelta

import pytest
from axes.backends import AxesStandaloneBackend
from axes.exceptions import AxesBackendPermissionDenied
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.hashers import get_hasher
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from gmtools.accounts import ADDRESS_FAILURE_LIMIT, PASSWORD_CHECKS, LoginBackend

from gmtools.models import Campaign
from tests.games import Game

pytestmark = pytest.mark.django_db


def test_login_page_renders(client):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="username"' in html and 'name="password"' in html and "btn btn-primary" in html


def test_login_page_renders_in_spanish(client):
    response = client.get(reverse("login"), headers={"accept-language": "es"})
    assert "Iniciar sesión" in response.content.decode()


def test_login_and_logout(client, gm):
    response = client.post(reverse("login"), {"username": "gm1", "password": "table-secret-1"})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    home = client.get(reverse("home")).content.decode()
    assert "gm1" in home and "Log out" in home
    assert client.get(reverse("logout")).status_code == 405  # logging out takes a POST (CSRF)
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "Log in" in client.get(reverse("home")).content.decode()
    assert not client.session.get("_auth_user_id")


def test_login_refuses_a_wrong_password(client, gm):
    response = client.post(reverse("login"), {"username": "gm1", "password": "wrong"})
    assert response.status_code == 200
    assert response.context["form"].errors
    assert "_auth_user_id" not in client.session


def test_a_username_longer_than_any_is_refused_before_it_is_counted(client):
    # Django's login form does not check the length, and django-axes stored the failed name in a
    # 255-character column, which PostgreSQL refused: a 500 (the fuzz, issue 13).
    response = client.post(reverse("login"), {"username": "u" * 256, "password": "x"})
    assert response.status_code == 200 and "at most 150 characters" in response.content.decode()
    assert not AccessAttempt.objects.exists()


def test_login_goes_on_to_next(client, gm):
    response = client.post(
        reverse("login") + "?next=/admin/", {"username": "gm1", "password": "table-secret-1", "next": "/admin/"}
    )
    assert response["Location"] == "/admin/"


def test_a_gm_sees_only_their_own_campaigns(gm_client, gm, other_gm):
    Campaign.objects.create(name="Nights in <Madrid>", game=Game.V5, gm=gm)
    Campaign.objects.create(name="Somebody else's game", game=Game.FATE, gm=other_gm)
    html = gm_client.get(reverse("home")).content.decode()
    assert "Nights in &lt;Madrid&gt;" in html  # escaped, and listed
    assert "Somebody else" not in html


def test_staff_see_the_admin_link(staff_client, gm_client):
    assert reverse("admin:index") in staff_client.get(reverse("home")).content.decode()
    assert reverse("admin:index") not in gm_client.get(reverse("home")).content.decode()


def test_wrong_passwords_lock_the_login_out_for_a_while(client, gm):
    """Found by the security probe: 50 wrong passwords, then the right one, logged in."""
    url = reverse("login")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert client.post(url, {"username": "gm1", "password": "wrong"}).status_code == 200  # the form again
    locked = client.post(url, {"username": "gm1", "password": "wrong"})
    assert locked.status_code == 429
    assert "cannot log in from here for 15 minutes" in locked.content.decode()
    # The right password opens nothing during the lockout.
    right = client.post(url, {"username": "gm1", "password": "table-secret-1"})
    assert right.status_code == 429 and "_auth_user_id" not in client.session
    # The lockout expires: a quarter of an hour later the right password logs in.
    AccessAttempt.objects.update(attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1))
    assert client.post(url, {"username": "gm1", "password": "table-secret-1"}).status_code == 302
    assert "_auth_user_id" in client.session


def test_a_stranger_cannot_lock_the_gm_out_from_elsewhere(client, gm):
    url = reverse("login")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(url, {"username": "gm1", "password": "wrong"}, REMOTE_ADDR="203.0.113.9")
    assert client.post(url, {"username": "gm1", "password": "table-secret-1"}, REMOTE_ADDR="127.0.0.1").status_code == 302


def test_the_lockout_speaks_spanish(client, gm):
    url = reverse("login")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = client.post(url, {"username": "gm1", "password": "wrong"}, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 429 and "Demasiados" in response.content.decode()


# --- a flood of wrong logins (issue 28) ----------------------------------------------------------

@pytest.fixture
def hashes(monkeypatch) -> list[str]:
    """The passwords hashed from now on (each costs ~0.4 s of CPU with Django's PBKDF2; the tests' hasher is faster)."""
    hashed: list[str] = []
    hasher = type(get_hasher())
    encode = hasher.encode

    def counted(self, password, salt, *args):
        hashed.append(password)
        return encode(self, password, salt, *args)

    monkeypatch.setattr(hasher, "encode", counted)
    return hashed


def test_an_address_that_tries_many_usernames_is_locked_out(client, gm, hashes):
    """The probe: 4 passwords on each of 12 usernames from one address, never locked out."""
    url, address = reverse("login"), "203.0.113.7"
    guesses = [(f"user{n}", f"guess{p}") for n in range(12) for p in range(4)]
    for username, password in guesses[:ADDRESS_FAILURE_LIMIT - 1]:
        assert client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address).status_code == 200
    assert client.post(url, dict(zip(("username", "password"), guesses[19])), REMOTE_ADDR=address).status_code == 429
    assert len(hashes) == ADDRESS_FAILURE_LIMIT
    # Locked out: the rest is refused before any password is hashed, the right one included.
    for username, password in [*guesses[20:], ("gm1", "table-secret-1")]:
        assert client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address).status_code == 429
    assert len(hashes) == ADDRESS_FAILURE_LIMIT
    # Another address, the GM's, is not held back by it.
    assert client.post(url, {"username": "gm1", "password": "table-secret-1"}, REMOTE_ADDR="127.0.0.1").status_code == 302


def test_fewer_failures_than_the_address_limit_lock_out_only_their_username(client, gm):
    url, address = reverse("login"), "203.0.113.8"
    for n in range(ADDRESS_FAILURE_LIMIT - settings.AXES_FAILURE_LIMIT):
        client.post(url, {"username": f"someone{n}", "password": "x"}, REMOTE_ADDR=address)
    assert client.post(url, {"username": "gm1", "password": "table-secret-1"}, REMOTE_ADDR=address).status_code == 302


def test_password_checks_run_one_at_a_time_and_look_at_the_lockout_in_their_turn(monkeypatch):
    """20 logins at once hashed 20 passwords at once: both cores, every other request ~20x slower.
    Here the first check locks the address out; the others, waiting meanwhile, hash nothing."""
    running, most, checked = [0], [0], []
    lock = threading.Lock()
    locked_out = threading.Event()

    def lockout_check(self, request, username=None, password=None, **kwargs):
        if locked_out.is_set():
            raise AxesBackendPermissionDenied("locked out")

    def password_check(self, request, username=None, password=None, **kwargs):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05)
        checked.append(username)
        locked_out.set()  # this failure reached the limit
        with lock:
            running[0] -= 1

    monkeypatch.setattr(AxesStandaloneBackend, "authenticate", lockout_check)
    monkeypatch.setattr(ModelBackend, "authenticate", password_check)
    refused: list[str] = []

    def log_in(n: int) -> None:
        try:
            LoginBackend().authenticate(RequestFactory().post("/accounts/login/"), username=f"user{n}", password="x")
        except AxesBackendPermissionDenied:
            refused.append(f"user{n}")

    threads = [threading.Thread(target=log_in, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert most[0] == PASSWORD_CHECKS == 1
    assert len(checked) == 1 and len(refused) == 7
