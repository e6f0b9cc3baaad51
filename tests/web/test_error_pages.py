"""The error pages a visitor meets with DEBUG off: the site's look, its language, no URL list."""

import pytest
from django.test import Client, RequestFactory
from django.views.defaults import server_error

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language, words", [("en", "Page not found"), ("es", "Página no encontrada")])
def test_a_missing_page_is_styled_in_the_visitors_language(client, language, words):
    response = client.get("/no/such/page/", headers={"accept-language": language})
    html = response.content.decode()
    assert response.status_code == 404
    assert words in html and 'data-testid="error-page"' in html and "bootstrap.min.css" in html
    assert "urlpatterns" not in html and "URLconf" not in html  # DEBUG's list of URLs never shows


def test_a_forbidden_form_post_says_the_page_had_expired(gm):
    client = Client(enforce_csrf_checks=True)
    client.force_login(gm)
    response = client.post("/campaigns/new/", {"name": "x", "game": "v5"}, headers={"accept-language": "es"})
    assert response.status_code == 403
    assert "La página había caducado" in response.content.decode()


@pytest.mark.parametrize("language, words", [("en", "Something went wrong"), ("es", "Algo ha fallado")])
def test_a_server_error_is_styled_without_touching_the_database(language, words, django_assert_num_queries):
    from django.utils import translation

    with translation.override(language), django_assert_num_queries(0):
        response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500 and words in response.content.decode()


@pytest.mark.parametrize("bad", ["host", "fields"])
def test_a_bad_request_is_styled(client, gm, bad):
    """Django's bad_request renders 400.html without the request: the site's look, the brand alone (no
    user, no CSRF token for the menu's forms), never Django's bare "Bad Request (400)"."""
    client.force_login(gm)
    if bad == "host":  # a host not in ALLOWED_HOSTS (DEBUG off: a SuspiciousOperation)
        response = client.get("/", headers={"host": "evil.example"})
    else:  # more fields than DATA_UPLOAD_MAX_NUMBER_FIELDS, read by a view
        body = "&".join(f"f{n}=1" for n in range(1100))
        response = client.post("/campaigns/new/", body, content_type="application/x-www-form-urlencoded")
    html = response.content.decode()
    assert response.status_code == 400
    assert "Bad request" in html and "Nothing was changed: go back and try again." in html
    assert 'data-testid="error-page"' in html and "bootstrap.min.css" in html
    assert "Bad Request (400)" not in html and "<form" not in html and "evil.example" not in html


@pytest.mark.parametrize("language, words", [("en", "This player link does not work"),
                                             ("es", "Este enlace de jugador no funciona")])
def test_a_dead_player_link_says_so_to_a_player_even_with_debug_on(client, settings, language, words):
    """Under ``make run`` (DEBUG on) a wrong or revoked player link showed Django's list of URLs, and
    with DEBUG off a "Your campaigns" button a player has no use for."""
    settings.DEBUG = True
    response = client.get("/p/" + "x" * 22 + "/", headers={"accept-language": language})
    html = response.content.decode()
    assert response.status_code == 404
    assert words in html and 'data-testid="error-page"' in html
    assert "URLconf" not in html and "Your campaigns" not in html and "Tus campañas" not in html


def test_a_gm_lost_on_a_missing_page_is_offered_the_way_back(client, gm):
    client.force_login(gm)
    page = client.get("/no/such/page/").content.decode().split('data-testid="error-page"')[1]
    assert 'href="/">Your campaigns</a>' in page


def _offers_log_in(html: str) -> bool:
    return 'href="/accounts/login/"' in html or "Log in" in html or "Iniciar sesión" in html


@pytest.mark.parametrize("language", ["en", "es"])
def test_no_page_a_player_meets_through_their_link_offers_to_log_in(client, gm, language):
    """A player has no account: a dead link, a cut one (404), a form that expired (403) and a phone
    held back for wrong links (429), all under the player addresses, offer no "Log in"."""
    from gmtools import throttle
    from tests.web.test_player_rolls import roll_url, table

    _campaign, ana, _guard = table(gm)
    headers = {"accept-language": language}
    dead = client.get("/p/" + "x" * 22 + "/", headers=headers)
    cut = client.get("/p/short/", headers=headers)  # not a token's shape: no view, Django's own 404
    expired = Client(enforce_csrf_checks=True).post(roll_url(ana), {}, headers=headers)
    assert (dead.status_code, cut.status_code, expired.status_code) == (404, 404, 403)
    for _ in range(throttle.MISSES):
        throttle.missed(dead.wsgi_request)
    held = client.get("/p/" + "y" * 22 + "/", headers=headers)
    assert held.status_code == 429
    for response in (dead, cut, expired, held):
        assert 'data-testid="error-page"' in (html := response.content.decode()) or "held-back" in html
        assert not _offers_log_in(html), response.wsgi_request.path


def test_a_visitor_on_a_gms_page_is_still_offered_to_log_in(client):
    assert _offers_log_in(client.get("/no/such/page/").content.decode())
    assert _offers_log_in(client.get("/p-not-a-player-link/").content.decode())
