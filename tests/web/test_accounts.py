import pytest
from django.urls import reverse

from gmtools.models import Campaign
from gmtools.sheets import Game

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
