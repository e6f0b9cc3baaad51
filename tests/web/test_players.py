"""The player link: the read-only view on the players' phones, its QR code, and the LAN address.

What players may see is checked here through the page (server side); the live stream is
test_live.py, every URL for every visitor test_access.py, phones in a browser
test_browser_players.py.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest
import segno
from django.test import Client
from django.urls import reverse

from gmtools import lan, serve, services, throttle
from gmtools.models import Campaign, Character, Roll, Scene
from tests.games import Game
from tests.web.helpers import Faces
from tests.web.test_live import roll

pytestmark = pytest.mark.django_db


def page(campaign: Campaign, tv: bool = False) -> str:
    response = Client().get(reverse("player-tv" if tv else "player", args=[campaign.player_token]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def v5(make_character, set_ratings) -> Character:
    character = make_character(Game.V5, name="Bhavna", v5_hunger=2, player="Ana")
    set_ratings(character, strength=3, brawl=1, stamina=2, composure=2, resolve=1)
    return character


def test_the_player_link_is_a_token_not_the_campaign_id(v5):
    token = v5.campaign.player_token
    assert len(token) >= 32 and str(v5.campaign.pk) != token
    other = Campaign.objects.create(name="Other", game=Game.V5, gm=v5.campaign.gm)
    assert other.player_token != token
    assert Client().get(f"/p/{'A' * 32}/").status_code == 404
    assert Client().get(f"/campaigns/{v5.campaign.pk}/").status_code == 302  # the GM's table needs the GM


def test_players_see_the_log_newest_first_with_dice_and_verdicts_and_no_gm_buttons(v5):
    first = roll(v5.campaign, v5, (6, 7, 2, 10))
    second = roll(v5.campaign, v5, (1, 2, 3, 1))
    html = page(v5.campaign)
    assert html.index(f'id="roll-{second.pk}"') < html.index(f'id="roll-{first.pk}"')
    card = html.split(f'id="roll-{second.pk}"', 1)[1].split("</article>", 1)[0]
    assert re.findall(r'title="(\d+)"', card) == ["1", "2", "3", "1"]
    assert "Bestial failure" in card
    assert "hx-post" not in html and "reroll" not in html.lower() and "Reveal" not in html


def test_players_see_where_play_stands_and_whose_turn_it_is(make_character):
    first = make_character(Game.SCIFI, name="Ada")
    campaign = first.campaign
    second = Character.objects.create_with_sheet(campaign=campaign, name="Bo")
    services.start_scene(campaign, title="The jungle", combat=True)
    scene = Scene.objects.current(campaign)
    services.change_turn(scene, 1)
    html = page(campaign)
    assert "Story 1 · Episode 1 · Scene 1 · Turn 2" in html and "The jungle" in html and "Combat" in html
    assert re.search(r'data-testid="whose-turn">\s*1\. Ada', html)
    roll(campaign, first, (2,))  # a short action: one of Ada's two slots, still her turn
    assert re.search(r'data-testid="whose-turn">\s*1\. Ada', page(campaign))
    roll(campaign, first, (2,))  # the second slot: her turn is used up
    assert re.search(r'data-testid="whose-turn">\s*2\. Bo', page(campaign))
    services.reorder(scene, [second.pk, first.pk])
    assert re.search(r'data-testid="whose-turn">\s*1\. Bo', page(campaign))


@pytest.mark.parametrize("game, fields, shown", [
    (Game.V5, {"v5_hunger": 3, "v5_health_superficial": 1}, ["Hunger", ">3<", "box-superficial"]),
    (Game.EXALTED, {"exalted_willpower": 6, "exalted_willpower_temporary": 4, "exalted_motes_max": 12,
                    "exalted_motes": 7}, [">4/6<", ">7/12<"]),
    (Game.FATE, {"fate_points": 2, "fate_stress_2": True, "fate_consequence_mild": "Sprained ankle"},
     ["Fate points", ">2<", "Sprained ankle"]),
    (Game.SCIFI, {"scifi_health": 6, "scifi_health_max": 9}, [">6/9<"]),
])
def test_players_see_the_pcs_public_resources(make_character, game, fields, shown):
    character = make_character(game, name="Hero", **fields)
    Character.objects.create_with_sheet(campaign=character.campaign, name="Villain", kind="npc")
    html = page(character.campaign)
    card = html.split(f'id="character-{character.pk}"', 1)[1].split("</article>", 1)[0]
    for text in shown:
        assert text in card, text
    assert "Villain" not in html  # NPCs are the GM's


def test_players_see_the_running_extended_actions_only(v5):
    services.create_extended(v5.campaign, None, name="Climb the wall", goal=10)
    done = services.create_extended(v5.campaign, None, name="Old chase", goal=3)
    services.stop_extended(done)
    html = page(v5.campaign)
    assert "Climb the wall" in html and 'aria-valuemax="10"' in html and "Old chase" not in html


def test_a_secret_roll_is_nowhere_on_the_players_pages_until_revealed(v5):
    secret = roll(v5.campaign, v5, (6, 7, 2, 10), hidden="on", label="Spot the ambush")
    client = Client()
    token = v5.campaign.player_token
    for url in (reverse("player", args=[token]), reverse("player-tv", args=[token]), reverse("player-log", args=[token]),
                reverse("player-recap", args=[token]) + "?part=campaign"):
        assert "Spot the ambush" not in client.get(url).content.decode(), url
    services.reveal(secret)
    html = page(v5.campaign)
    assert "Spot the ambush" in html and "Revealed" in html


def test_a_secret_difficulty_shows_the_dice_but_not_the_verdict(v5):
    logged = roll(v5.campaign, v5, (6, 7, 2, 10), secret="on", difficulty=4)
    card = page(v5.campaign).split(f'id="roll-{logged.pk}"', 1)[1].split("</article>", 1)[0]
    assert re.findall(r'title="(\d+)"', card) == ["6", "7", "2", "10"]
    assert "The GM keeps the difficulty secret" in card and "margin" not in card and "Win" not in card


def test_the_tv_layout_shows_the_last_rolls_big(v5):
    rolls = [roll(v5.campaign, v5, (6, 7, 2, 10)) for _ in range(9)]
    html = page(v5.campaign, tv=True)
    assert 'class="player tv"' in html
    assert html.count('class="card roll-card') == 7 and f'id="roll-{rolls[-1].pk}"' in html
    assert f'id="roll-{rolls[0].pk}"' not in html


def test_older_rolls_page_in(v5):
    rolls = [roll(v5.campaign, v5, (1, 1, 1, 1)) for _ in range(27)]
    html = page(v5.campaign)
    assert f'id="roll-{rolls[1].pk}"' not in html and "Older rolls" in html
    older = Client().get(reverse("player-log", args=[v5.campaign.player_token]), {"page": 2}).content.decode()
    assert f'id="roll-{rolls[1].pk}"' in older and f'id="roll-{rolls[-1].pk}"' not in older


def test_user_text_is_escaped_on_the_players_page(make_character):
    character = make_character(Game.FATE, name="<script>alert(1)</script>", fate_consequence_mild="<b>hurt</b>")
    roll(character.campaign, character, (1, 0, -1, 1), label="<img src=x onerror=alert(2)>")
    html = page(character.campaign)
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)" in html
    assert "<img src=x" not in html and "<b>hurt</b>" not in html


def test_the_players_view_speaks_spanish(v5):
    roll(v5.campaign, v5, (6, 7, 2, 10))
    html = Client().get(reverse("player", args=[v5.campaign.player_token]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Ansia" in html and "Victoria" in html and "Registro de tiradas" in html


# --- the link on the GM's table ------------------------------------------------------------------

def qr_of(url: str) -> str:
    return str(segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#212529", light="#ffffff", omitsize=True))


def test_the_table_shows_the_link_and_its_qr_code_with_the_lan_address(v5, gm_client, settings):
    settings.PUBLIC_URL = "http://192.168.1.20:8000"
    html = gm_client.get(reverse("table", args=[v5.campaign.pk])).content.decode()
    url = f"http://192.168.1.20:8000/p/{v5.campaign.player_token}/"
    assert f'href="{url}"' in html and qr_of(url) in html
    assert qr_of(f"http://testserver/p/{v5.campaign.player_token}/") not in html
    assert "only works on this computer" not in html


def test_without_a_lan_address_the_table_says_phones_cannot_reach_the_link(v5, gm_client, settings):
    settings.PUBLIC_URL = ""
    html = gm_client.get(reverse("table", args=[v5.campaign.pk]), HTTP_HOST="127.0.0.1:8000").content.decode()
    url = f"http://127.0.0.1:8000/p/{v5.campaign.player_token}/"
    assert qr_of(url) in html and "only works on this computer" in html and "make table" in html


def test_a_new_link_cuts_off_the_old_one(v5, gm_client):
    old = v5.campaign.player_token
    response = gm_client.post(reverse("player-link", args=[v5.campaign.pk]))
    new = Campaign.objects.get(pk=v5.campaign.pk).player_token
    assert response.status_code == 200 and new != old and f"/p/{new}/" in response.content.decode()
    assert Client().get(f"/p/{old}/").status_code == 404 and Client().get(f"/p/{new}/").status_code == 200


def test_the_reveal_view_redraws_the_card_as_revealed(v5, gm_client):
    secret = roll(v5.campaign, v5, (6, 7, 2, 10), hidden="on")
    reroll = services.follow_up(secret, "reroll", Faces(9), dice=[0])
    response = gm_client.post(reverse("reveal", args=[v5.campaign.pk, secret.pk]))
    html = response.content.decode()
    # One card, the reroll on it (issue 23): revealed with its roll.
    assert response.status_code == 200 and html.count("Revealed") == 1 and f'id="follow-up-{reroll.pk}"' in html
    assert not Roll.objects.filter(pk__in=[secret.pk, reroll.pk], revealed_at__isnull=True).exists()
    again = gm_client.post(reverse("reveal", args=[v5.campaign.pk, secret.pk]))
    assert again.status_code == 422 and "not secret" in again.content.decode()


def test_a_secret_roll_cannot_go_into_an_extended_action(v5, gm_client):
    action = services.create_extended(v5.campaign, None, name="Climb", goal=5)
    with pytest.raises(AssertionError, match="secret roll cannot go into an extended action"):
        roll(v5.campaign, v5, (6, 7, 2, 10), hidden="on", extended=action.pk)
    assert not Roll.objects.exists()


# --- the LAN address --------------------------------------------------------------------------

def adapter(name: str, *ips: str | tuple) -> SimpleNamespace:
    return SimpleNamespace(name=name, nice_name=name, ips=[SimpleNamespace(ip=ip) for ip in ips])


def test_the_lan_address_is_the_wifis_private_ipv4():
    adapters = [adapter("lo", "127.0.0.1"), adapter("docker0", "172.17.0.1"),
                adapter("wlan0", ("fe80::1", 0, 2), "192.168.1.20"), adapter("eth0", "10.0.0.5")]
    assert lan.lan_address(adapters) == "192.168.1.20"
    assert lan.lan_address(adapters[:2] + adapters[3:]) == "10.0.0.5"
    assert lan.lan_address([adapter("eth0", "169.254.3.3"), adapter("lo", "127.0.0.1")]) is None


def test_guessing_player_links_is_held_back_for_a_while(v5, monkeypatch):
    """A scanner gets throttle.MISSES wrong tokens; then every player URL answers it 429, its right
    token included (a guess learns nothing), until the window has passed. Other addresses go on."""
    token = v5.campaign.player_token
    scanner = Client(REMOTE_ADDR="198.51.100.7")
    for n in range(throttle.MISSES):
        assert scanner.get(f"/p/{'B' * 31}{n % 10}/").status_code == 404
    for url in (f"/p/{token}/", f"/p/{token}/log/", f"/p/{token}/stream/", f"/p/{token}/poll/", f"/p/{'C' * 32}/"):
        response = scanner.get(url)
        assert response.status_code == 429, url
    assert "too many player links that do not exist" in response.content.decode()
    assert Client(REMOTE_ADDR="192.0.2.1").get(f"/p/{token}/").status_code == 200  # the players at the table
    spanish = scanner.get(f"/p/{token}/", headers={"accept-language": "es"}).content.decode()
    assert "demasiados enlaces de jugador" in spanish


def test_the_hold_on_guessing_expires_with_its_window(v5, monkeypatch):
    monkeypatch.setattr(throttle, "WINDOW", 1)
    scanner = Client(REMOTE_ADDR="198.51.100.8")
    for _ in range(throttle.MISSES):
        scanner.get(f"/p/{'D' * 32}/")
    assert scanner.get(f"/p/{v5.campaign.player_token}/").status_code == 429
    time.sleep(1.2)  # the cache forgets the count when the window has passed
    assert scanner.get(f"/p/{v5.campaign.player_token}/").status_code == 200


def test_serve_lan_listens_on_the_network_with_debug_off_and_the_lan_link(monkeypatch, settings, tmp_path):
    settings.SECRET_KEY = "a-key-of-this-server-" + "x" * 40  # what the LAN start sets up before Django reads it
    calls = []
    monkeypatch.setattr(serve.uvicorn, "run", lambda *a, **k: calls.append(k))
    monkeypatch.setattr(serve, "lan_address", lambda: "192.168.7.9")
    monkeypatch.setattr(serve, "KEY_FILE", tmp_path / ".secret_key")
    for name in ("GMTOOLS_LAN", "GMTOOLS_PUBLIC_URL", "SECRET_KEY"):
        monkeypatch.delenv(name, raising=False)
    assert serve.main(["--port", "8123"]) == 0
    assert calls[-1]["host"] == "127.0.0.1" and calls[-1]["workers"] == 1
    assert serve.main(["--lan", "--port", "8123"]) == 0
    assert calls[-1]["host"] == "0.0.0.0" and calls[-1]["port"] == 8123
    import os
    assert os.environ["GMTOOLS_PUBLIC_URL"] == "http://192.168.7.9:8123" and os.environ["GMTOOLS_LAN"] == "1"
    # The laptop's own key: made once, read by its owner only, the same at the next start.
    key = os.environ["SECRET_KEY"]
    assert len(key) >= 50 and (tmp_path / ".secret_key").stat().st_mode & 0o777 == 0o600
    monkeypatch.delenv("SECRET_KEY")
    assert serve.main(["--lan"]) == 0 and os.environ["SECRET_KEY"] == key
    monkeypatch.setattr(serve, "lan_address", lambda: None)
    assert serve.main(["--lan"]) == 2


def _settings_of(env: dict[str, str]) -> list[str]:
    code = ("import django, os; os.environ['DJANGO_SETTINGS_MODULE']='gmtools.settings'; django.setup(); "
            "from django.conf import settings; print(settings.DEBUG, '192.168.7.9' in settings.ALLOWED_HOSTS)")
    out = subprocess.run([sys.executable, "-c", code], env={"PATH": "/usr/bin:/bin", **env}, capture_output=True,
                         text=True, check=True)
    return out.stdout.split()


def test_the_lan_settings_turn_debug_off_and_allow_the_lan_host():
    lan = {"GMTOOLS_LAN": "1", "GMTOOLS_PUBLIC_URL": "http://192.168.7.9:8000"}
    assert _settings_of(lan) == ["False", "True"]
    assert _settings_of({**lan, "DEBUG": "1"}) == ["False", "True"]  # never DEBUG where the network reaches
    assert _settings_of({"DEBUG": "1"}) == ["True", "False"]  # make run: DEBUG asked for, loopback only
    assert _settings_of({}) == ["False", "False"]  # DEBUG off unless asked for


def test_the_players_recap_of_this_scene_this_episode_or_everything(v5):
    first = roll(v5.campaign, v5, (1, 1, 1, 1), label="Before any scene")
    services.start_scene(v5.campaign, title="Docks")
    second = roll(v5.campaign, v5, (1, 1, 1, 1), label="On the docks")
    services.start_scene(v5.campaign, title="Alley")
    third = roll(v5.campaign, v5, (1, 1, 1, 1), label="In the alley")
    url = reverse("player-recap", args=[v5.campaign.player_token])

    def recap(part: str | None) -> str:
        response = Client().get(url, {"part": part} if part else {})
        assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
        return response.content.decode()

    labels = {r.label for r in (first, second, third)}
    for part, shown in ((None, {"In the alley"}), ("scene", {"In the alley"}), ("episode", {"On the docks", "In the alley"}),
                        ("campaign", labels)):
        text = recap(part)
        assert {label for label in labels if label in text} == shown, part


def test_a_secret_roll_does_not_move_the_players_turn_order(make_character):
    ada = make_character(Game.SCIFI, name="Ada")
    Character.objects.create_with_sheet(campaign=ada.campaign, name="Bo")
    services.start_scene(ada.campaign)
    roll(ada.campaign, ada, (2,), hidden="on", kind="long")  # both of Ada's slots, in secret
    assert re.search(r'data-testid="whose-turn">\s*1\. Ada', page(ada.campaign))  # as if Ada had not acted
    table = Client()
    table.force_login(ada.campaign.gm)
    gm_html = table.get(reverse("table", args=[ada.campaign.pk])).content.decode()
    assert re.search(r'Bo</button><span class="badge text-bg-primary" data-testid="whose-turn"', gm_html)


def test_an_extended_action_finished_in_this_scene_shows_how_it_ended(v5):
    services.start_scene(v5.campaign)
    scene = Scene.objects.current(v5.campaign)
    action = services.create_extended(v5.campaign, scene, name="Cross the river", goal=1)
    logged = roll(v5.campaign, v5, (6, 7, 2, 10), extended=action.pk)
    html = page(v5.campaign)
    block = html.split('data-testid="extended-%d"' % action.pk, 1)[1].split("</div>\n        \n", 1)[0]
    assert "Cross the river" in block and "Done" in block
    assert "Into “Cross the river”: 3 so far" in Client().get(
        reverse("player-recap", args=[v5.campaign.player_token])).content.decode()
    assert logged.result["extended"]["total"] == 3  # 6, 7 and the hunger 10
    services.start_scene(v5.campaign)
    assert f'data-testid="extended-{action.pk}"' not in page(v5.campaign)  # a new scene: only running actions


def test_the_gm_can_export_what_the_players_see(v5, gm_client):
    roll(v5.campaign, v5, (6, 7, 2, 10), hidden="on", label="Spot the ambush")
    roll(v5.campaign, v5, (6, 7, 2, 10), label="Open the door")
    url = reverse("export", args=[v5.campaign.pk])
    full = gm_client.get(url, {"part": "campaign", "format": "md"}).content.decode()
    shared = gm_client.get(url, {"part": "campaign", "format": "md", "players": "on"}).content.decode()
    assert "Spot the ambush" in full and "Open the door" in full
    assert "Spot the ambush" not in shared and "Open the door" in shared
