"""Live push (gmtools.live): every write announces one change, drawn per audience, streamed in order.

The streams are async generators; these tests drive them in an event loop of their own
(``asyncio.run``) against the file-backed test database, writing from other threads as the
server's views would. Two server processes on PostgreSQL are in test_multiprocess.py, browsers
in test_browser_players.py.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.core.cache import caches
from django.db import connections
from django.test import AsyncClient, Client
from django.urls import reverse
from django.utils import translation

from gmtools import characters as character_workflows, live, services
from gmtools.models import Campaign, Change, ChangeKind, Character, Roll, Scene
from tests.games import Game
from tests.web.helpers import Faces, compose_and_roll
from tests.web.helpers import POOL_TRAITS
from tests.web.test_admin import form_data
from tests.web.test_table import form_data as table_form


def roll(campaign: Campaign, character: Character | None, faces: tuple[int, ...], **data) -> Roll:
    """A roll of the game's usual traits (V5 fixture: Strength 2 + Brawl 1 at Hunger 1: two dice and a hunger die)."""
    return compose_and_roll(campaign, character, faces, **data)


def changes(campaign: Campaign) -> list[tuple[str, bool]]:
    return list(Change.objects.filter(campaign=campaign).order_by("id").values_list("kind", "public"))


@pytest.fixture
def v5(make_character, set_ratings) -> Character:
    character = make_character(Game.V5, name="Bhavna", v5_hunger=1)
    set_ratings(character, strength=2, brawl=1, composure=2, resolve=2)
    return character


# --- announcing -----------------------------------------------------------------------------

@pytest.mark.django_db
def test_each_kind_of_write_announces_one_change(v5):
    campaign = v5.campaign
    services.start_scene(campaign, title="Docks")
    assert changes(campaign)[-1] == (ChangeKind.TIME, True)
    before = Change.objects.count()
    steps = [
        (lambda: roll(campaign, v5, (6, 2, 9)), ChangeKind.ROLL),
        (lambda: services.check(v5, "rouse", Faces(7)), ChangeKind.ROLL),
        (lambda: services.adjust(v5, "hunger-up"), ChangeKind.CHARACTER),
        (lambda: services.change_turn(Scene.objects.current(campaign), 1), ChangeKind.TIME),
        (lambda: services.leave_scene(Scene.objects.current(campaign), v5), ChangeKind.ORDER),
        (lambda: services.join_scene(Scene.objects.current(campaign), v5), ChangeKind.ORDER),
        (lambda: services.create_extended(campaign, None, name="Climb", goal=5), ChangeKind.EXTENDED),
        (lambda: services.stop_extended(campaign.extended_actions.get()), ChangeKind.EXTENDED),
        (lambda: services.regenerate_player_link(campaign), ChangeKind.LINK),
        (lambda: services.end_scene(Scene.objects.current(campaign)), ChangeKind.TIME),
    ]
    for step, kind in steps:
        step()
        assert Change.objects.count() == before + 1, kind
        assert changes(campaign)[-1][0] == kind
        before += 1


@pytest.mark.django_db
def test_a_follow_up_and_a_reveal_announce_a_change_each(v5):
    logged = roll(v5.campaign, v5, (6, 2, 9), hidden="on")
    assert changes(v5.campaign) == [(ChangeKind.ROLL, False)]
    services.follow_up(logged, "reroll", Faces(8), dice=[1])
    assert changes(v5.campaign)[-1] == (ChangeKind.ROLL, False)  # as secret as the roll it follows
    services.reveal(logged)
    assert changes(v5.campaign)[-1] == (ChangeKind.REVEAL, True)
    assert Roll.objects.filter(campaign=v5.campaign, revealed_at__isnull=False).count() == 2


@pytest.mark.django_db
def test_a_refused_write_announces_nothing(make_character):
    character = make_character(Game.EXALTED, name="Koi", exalted_willpower=3, exalted_willpower_temporary=0)
    with pytest.raises(services.Refused):
        services.adjust(character, "willpower-spend")
    with pytest.raises(services.Refused):
        services.reveal(roll(character.campaign, character, (7,)))
    assert changes(character.campaign) == [(ChangeKind.ROLL, True)]


@pytest.mark.django_db
def test_the_flip_switch_announces_a_change(make_character):
    character = make_character(Game.FATE, name="Zird")
    services.flip(character.campaign)
    assert changes(character.campaign) == [(ChangeKind.SWITCH, True)]
    assert Campaign.objects.get(pk=character.campaign.pk).state.uses_deck


# --- drawing a change --------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_roll_is_drawn_for_players_without_the_gms_buttons(v5):
    services.start_scene(v5.campaign)
    logged = roll(v5.campaign, v5, (6, 2, 10))
    change = Change.objects.get(roll=logged)
    gm, player = live.render_change(change.pk, live.Viewer("gm", "en")), live.render_change(change.pk, live.Viewer("player", "en"))
    for html in (gm, player):
        assert f'id="roll-{logged.pk}"' in html and f'id="character-{v5.pk}"' in html and 'id="turn-order"' in html
    assert "Willpower: reroll up to 3" in gm and "hx-post" in gm
    assert "hx-post" not in player and "reroll" not in player


@pytest.mark.django_db
def test_a_secret_roll_is_drawn_for_nobody_but_the_gm_until_revealed(v5):
    logged = roll(v5.campaign, v5, (6, 2, 9), hidden="on")
    change = Change.objects.get(roll=logged, kind=ChangeKind.ROLL)
    assert "Secret roll" in live.render_change(change.pk, live.Viewer("gm", "en"))
    assert live.render_change(change.pk, live.Viewer("player", "en")) == ""
    services.reveal(logged)
    revealed = live.render_change(Change.objects.get(kind=ChangeKind.REVEAL).pk, live.Viewer("player", "en"))
    assert f'id="roll-{logged.pk}"' in revealed and "Revealed" in revealed and "Bhavna" in revealed


@pytest.mark.django_db
def test_a_secret_difficulty_keeps_the_verdict_and_margin_from_players(v5):
    logged = roll(v5.campaign, v5, (6, 2, 9), secret="on", difficulty=3)
    change = Change.objects.get(roll=logged)
    player, gm = live.render_change(change.pk, live.Viewer("player", "en")), live.render_change(change.pk, live.Viewer("gm", "en"))
    assert "The GM keeps the difficulty secret" in player and "margin" not in player and "Failure" not in player
    assert "margin" in gm and "Secret difficulty" in gm
    services.reveal(logged)
    live._cache.clear()
    assert "margin" in live.render_change(Change.objects.get(kind=ChangeKind.REVEAL).pk, live.Viewer("player", "en"))


@pytest.mark.django_db
def test_a_change_is_drawn_in_the_viewers_language(v5):
    change = Change.objects.get(roll=roll(v5.campaign, v5, (6, 2, 9)))
    assert "Win" in live.render_change(change.pk, live.Viewer("player", "en"))
    assert "Victoria" in live.render_change(change.pk, live.Viewer("player", "es"))


@pytest.mark.django_db
def test_a_follow_up_redraws_the_card_it_follows(v5):
    logged = roll(v5.campaign, v5, (6, 2, 9))
    reroll = services.follow_up(logged, "reroll", Faces(8), dice=[1])
    html = live.render_change(Change.objects.get(roll=reroll).pk, live.Viewer("gm", "en"))
    # The parent's card comes back, the reroll a line on it (issue 23: no card of its own), without
    # its reroll form: a second reroll is not on offer.
    parent_card = html.split(f'id="roll-{logged.pk}"', 1)[1].split("</article>", 1)[0]
    assert f'id="follow-up-{reroll.pk}"' in parent_card and f'id="roll-{reroll.pk}"' not in html
    assert "reroll-form" not in parent_card


@pytest.mark.django_db
def test_an_npc_change_draws_nothing_on_the_players_party(make_character):
    npc = make_character(Game.EXALTED, name="Guard", kind="npc", exalted_willpower=3, exalted_willpower_temporary=3)
    services.adjust(npc, "willpower-spend")
    change = Change.objects.get(character=npc)
    assert f'id="character-{npc.pk}"' in live.render_change(change.pk, live.Viewer("gm", "en"))
    assert f'id="character-{npc.pk}"' not in live.render_change(change.pk, live.Viewer("player", "en"))


# --- drawn once for every process -------------------------------------------------------------

def drawn_by_streams(change_id: int, viewer: live.Viewer) -> str:
    """What a stream of this process sends for a change (``live._drawn``), in an event loop of its own."""
    return asyncio.run(live._drawn(change_id, viewer))


@pytest.fixture
def shared(settings):
    """The "live" cache as the workers of make serve share it (Redis there; here in this process's memory)."""
    settings.CACHES = {**settings.CACHES, "live": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                                   "LOCATION": "live-tests"}}
    caches["live"].clear()
    yield caches["live"]
    caches["live"].clear()


@pytest.mark.django_db(transaction=True)
def test_a_process_that_finds_a_change_claimed_reads_the_other_processs_drawing(v5, shared, monkeypatch):
    """make serve's workers, woken by one NOTIFY, share Django's cache (Redis): the first to claim a
    change draws it, the others wait for that drawing instead of drawing it again."""
    logged = roll(v5.campaign, v5, (6, 2, 9))
    change = Change.objects.get(roll=logged).pk
    viewer = live.Viewer("player", "en")
    drawn = live.render_change(change, viewer)  # as the other process draws it...
    live._cache.clear()
    key = f"gmtools:drawn:{change}:player:en:"
    shared.add(f"{key}:claimed", True, 5)  # ...having claimed it first
    monkeypatch.setattr(live.drawing, "_draw", lambda *args: pytest.fail("drawn twice"))
    timer = threading.Timer(0.1, lambda: shared.set(key, drawn))  # its drawing arrives while this one waits
    timer.start()
    try:
        assert drawn_by_streams(change, viewer) == drawn
    finally:
        timer.join()
    assert live.cached(change, viewer) == drawn  # and stays in this process's memory


@pytest.mark.django_db(transaction=True)
def test_a_claim_whose_drawing_never_comes_is_drawn_here_after_the_wait(v5, shared, monkeypatch):
    monkeypatch.setattr(live.reads, "SHARED_WAIT", 0.05)
    logged = roll(v5.campaign, v5, (6, 2, 9))
    change = Change.objects.get(roll=logged).pk
    shared.add(f"gmtools:drawn:{change}:player:en::claimed", True, 5)  # a process that died drawing it
    html = drawn_by_streams(change, live.Viewer("player", "en"))
    assert f'id="roll-{logged.pk}"' in html
    assert shared.get(f"gmtools:drawn:{change}:player:en:") == html  # for the other processes


@pytest.mark.django_db(transaction=True)
def test_one_process_keeps_no_drawing_in_the_cache_it_shares_with_nobody(v5):
    """Without REDIS_URL the "live" cache keeps nothing: the drawings stay out of the in-memory
    cache, where they would crowd out the odds and the count of wrong player links."""
    logged = roll(v5.campaign, v5, (6, 2, 9))
    change = Change.objects.get(roll=logged).pk
    assert f'id="roll-{logged.pk}"' in drawn_by_streams(change, live.Viewer("player", "en"))
    assert caches["live"].get(f"gmtools:drawn:{change}:player:en:") is None
    assert live.cached(change, live.Viewer("player", "en"))  # this process keeps it in its own memory


def drawn_change(response) -> int:
    """The change a roll's answer made."""
    return Change.objects.get(roll_id=int(re.search(r'id="roll-(\d+)"', response.content.decode()).group(1))).pk


def shared_key(change: int, viewer: live.Viewer) -> str:
    return f"gmtools:drawn:{change}:{viewer.audience}:{viewer.language}:{viewer.base}"


# The streams of a GM's table and of its phones, as the test client's requests make them.
STREAMS = (live.Viewer("player", "en"), live.Viewer("gm", "en", "http://testserver"))


@pytest.mark.parametrize("game", list(Game))
@pytest.mark.django_db(transaction=True)
def test_the_roll_request_draws_for_the_streams_what_they_would_draw(game, make_character, set_ratings,
                                                                    gm_client, shared, monkeypatch):
    """The request that rolls draws its roll for the live streams (the players', the GM's) from the
    reads of its own answer (gmtools.live.WritersDrawing): exactly what a stream would draw from
    the database, which no stream of any process then draws again."""
    hero = make_character(game, name="Hero")
    set_ratings(hero, **{key: 2 for key in POOL_TRAITS[game] if key})
    services.start_scene(hero.campaign, title="Docks")
    answer = gm_client.post(reverse("roll", args=[hero.campaign_id]), table_form(hero))
    assert answer.status_code == 200, answer.content[:500]
    change = drawn_change(answer)
    predrawn = {viewer: shared.get(shared_key(change, viewer)) for viewer in STREAMS}
    assert all(predrawn.values()) and all(live.cached(change, viewer) == predrawn[viewer] for viewer in STREAMS)
    live._cache.clear()
    for viewer in STREAMS:
        with translation.override("en"):
            assert predrawn[viewer] == live._draw(change, viewer)  # as a stream draws it
    monkeypatch.setattr(live.drawing, "_draw", lambda *args: pytest.fail("drawn again"))
    for viewer in STREAMS:
        assert drawn_by_streams(change, viewer) == predrawn[viewer]
    # The GM's answer is the GM's streams' drawing, and the composer's key for its next roll (its own).
    drawing, key = answer.content.decode().rsplit('<input type="hidden" name="once" ', 1)
    assert drawing == predrawn[STREAMS[1]] and 'hx-swap-oob="true"' in key


@pytest.mark.django_db(transaction=True)
def test_the_roll_is_drawn_in_the_gms_language_and_a_secret_one_for_the_gm_alone(v5, gm_client, shared):
    url = reverse("roll", args=[v5.campaign_id])
    change = drawn_change(gm_client.post(url, table_form(v5), HTTP_ACCEPT_LANGUAGE="es"))
    spanish = live.Viewer("player", "es")
    for language in ("es", "en"):
        with translation.override(language):
            drawn = live._draw(change, live.Viewer("player", language))
        assert (shared.get(shared_key(change, spanish)) == drawn) == (language == "es")
    assert shared.get(shared_key(change, STREAMS[0])) is None  # the English phones draw their own
    translation.deactivate()
    change = drawn_change(gm_client.post(url, table_form(v5, hidden="on")))
    player, gm = STREAMS
    assert shared.get(shared_key(change, player)) is None and shared.get(f"{shared_key(change, player)}:claimed") is None
    assert f'id="roll-' in shared.get(shared_key(change, gm))


@pytest.mark.django_db(transaction=True)
def test_a_claim_the_request_does_not_draw_is_released_for_the_streams(v5, shared, rf):
    """A roll claimed but drawn by no one (another roll's drawing stored, or the drawing failed)
    is released at once: the streams draw it themselves without waiting for the claim to lapse."""
    streams = live.WritersDrawing.of(rf.get("/"))
    logged = roll(v5.campaign, v5, (6, 2, 9), streams=streams)
    claims = [f"{shared_key(Change.objects.get(roll=logged).pk, viewer)}:claimed" for viewer in STREAMS]
    assert [shared.get(claim) for claim in claims] == [True, True]
    streams.store(Roll(pk=logged.pk + 1000), lambda viewer: pytest.fail("drawn for a roll it did not claim"))
    assert [shared.get(claim) for claim in claims] == [None, None]
    streams = live.WritersDrawing.of(rf.get("/"))
    logged = roll(v5.campaign, v5, (6, 2, 9), streams=streams)
    claims = [f"{shared_key(Change.objects.get(roll=logged).pk, viewer)}:claimed" for viewer in STREAMS]

    def broken(viewer: live.Viewer) -> str:
        raise RuntimeError("the template failed")
    with pytest.raises(RuntimeError):
        streams.store(logged, broken)
    assert [shared.get(claim) for claim in claims] == [None, None]


@pytest.mark.django_db(transaction=True)
def test_without_a_shared_cache_the_rolling_request_draws_nothing_for_the_streams(v5, gm_client, monkeypatch,
                                                                                  settings):
    """One process, or several without Redis: no claim holds a stream back, so the streams draw the
    roll themselves as soon as they wake, and a drawing by the request would be work done twice."""
    settings.CACHES = {**settings.CACHES, "live": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    drawn_for = []
    render_drawn = live.render_drawn
    monkeypatch.setattr(live, "render_drawn", lambda drawn, viewer: drawn_for.append(viewer) or render_drawn(drawn, viewer))
    answer = gm_client.post(reverse("roll", args=[v5.campaign_id]), table_form(v5))
    assert answer.status_code == 200 and f'id="roll-{Roll.objects.get().pk}"' in answer.content.decode()
    assert drawn_for == [STREAMS[1]]  # the answer alone, not the players' version


# --- the stream -------------------------------------------------------------------------------

def events(text: str) -> list[dict]:
    """Parse server-sent events: name, id and the data lines joined."""
    found = []
    for block in text.split("\n\n"):
        fields: dict = {"data": []}
        for line in block.splitlines():
            key, _, value = line.partition(": ")
            if key == "data":
                fields["data"].append(value)
            elif key in ("event", "id"):
                fields[key] = value
        if "event" in fields:
            found.append({**fields, "data": "\n".join(fields["data"])})
    return found


def read(campaign_id: int, cursor: int, audience: str, token: str = "", until: int = 1, write=None,
         timeout: float = 10.0) -> tuple[list[dict], float]:
    """Run a stream until ``until`` events came (``write`` runs in a thread once it is open)."""
    writers: list[threading.Thread] = []

    async def consume() -> tuple[list[dict], float]:
        got: list[dict] = []
        started = time.monotonic()
        stream = live.stream(campaign_id, cursor, live.Viewer(audience, "en"), token)
        try:
            async with asyncio.timeout(timeout):
                async for chunk in stream:
                    if chunk.startswith("retry") and write is not None:
                        writers.append(threading.Thread(target=write))
                        writers[-1].start()
                    got += events(chunk)
                    if len(got) >= until:
                        break
        finally:
            await stream.aclose()
        return got, time.monotonic() - started
    try:
        return asyncio.run(consume())
    finally:
        for writer in writers:
            writer.join(timeout)


def in_thread(function):
    """A write made by another request: its own thread and database connection."""
    def run():
        from django.db import connection
        try:
            function()
        finally:
            connection.close()
    return run


@pytest.mark.django_db(transaction=True)
def test_a_stream_replays_after_the_cursor_then_pushes_each_new_change_at_once(v5):
    first, second = roll(v5.campaign, v5, (6, 2, 9)), roll(v5.campaign, v5, (1, 1, 1))
    cursor = Change.objects.get(roll=first).pk
    got, _ = read(v5.campaign_id, cursor, "player", v5.campaign.player_token, until=1)
    assert [e["id"] for e in got] == [str(Change.objects.get(roll=second).pk)]
    assert f'id="roll-{second.pk}"' in got[0]["data"] and f'id="roll-{first.pk}"' not in got[0]["data"]

    live.streaming.KEEPALIVE, keepalive = 30.0, live.streaming.KEEPALIVE  # a wake-up, not the periodic re-read, must bring it
    try:
        cursor = Change.objects.get(roll=second).pk
        got, elapsed = read(v5.campaign_id, cursor, "gm", until=1,
                            write=in_thread(lambda: roll(v5.campaign, v5, (7, 7, 7))))
    finally:
        live.streaming.KEEPALIVE = keepalive
    third = Roll.objects.order_by("-id").first()
    assert got[0]["id"] == str(Change.objects.get(roll=third).pk) and f'id="roll-{third.pk}"' in got[0]["data"]
    assert elapsed < 3


@pytest.mark.django_db(transaction=True)
def test_a_player_stream_never_carries_a_secret_roll(v5):
    token = v5.campaign.player_token
    secret = roll(v5.campaign, v5, (6, 2, 9), hidden="on")
    public = roll(v5.campaign, v5, (1, 2, 3))
    got, _ = read(v5.campaign_id, 0, "player", token, until=1)
    assert len(got) == 1 and f'id="roll-{public.pk}"' in got[0]["data"]
    assert "Secret" not in got[0]["data"] and f"roll-{secret.pk}" not in got[0]["data"]
    got, _ = read(v5.campaign_id, 0, "gm", until=2)
    assert [f'id="roll-{r.pk}"' in e["data"] for r, e in zip((secret, public), got)] == [True, True]


@pytest.mark.django_db(transaction=True)
def test_a_player_stream_ends_when_the_gm_makes_a_new_link(v5):
    token = v5.campaign.player_token
    got, _ = read(v5.campaign_id, 0, "player", token, until=1,
                  write=in_thread(lambda: services.regenerate_player_link(Campaign.objects.get(pk=v5.campaign_id))))
    assert [e["event"] for e in got] == ["gone"]
    got, _ = read(v5.campaign_id, 0, "player", token, until=1)
    assert [e["event"] for e in got] == ["gone"]


@pytest.mark.django_db(transaction=True)
def test_a_characters_stream_ends_when_its_link_is_renewed_cut_or_its_character_deleted(v5):
    """A character's own link (issue 24) streams as the campaign's, and ends as it does: at once."""
    character = Character.objects.get(pk=v5.pk)
    for end in ("renew", "cut", "delete"):
        services.set_character_link(character, True)
        token = Character.objects.get(pk=character.pk).player_token
        got, _ = read(v5.campaign_id, 0, "player", token, until=1, write=in_thread(lambda: roll(v5.campaign, v5, (1, 2, 3))))
        assert [e["event"] for e in got] == ["change"], end
        cursor = Change.objects.filter(campaign_id=v5.campaign_id).latest("id").pk  # nothing to replay
        ending = {"renew": lambda: services.set_character_link(character, True),
                  "cut": lambda: services.set_character_link(character, False),
                  "delete": lambda: character_workflows.delete_character(Character.objects.get(pk=character.pk))}[end]
        # Once the stream is listening (its hub has read the links): the link must end under it.
        got, _ = read(v5.campaign_id, cursor, "player", token, until=1,
                      write=in_thread(lambda: (time.sleep(0.5), ending())))
        assert [e["event"] for e in got] == ["gone"], end
    # The campaign's own link streams on.
    got, _ = read(v5.campaign_id, 0, "player", v5.campaign.player_token, until=1)
    assert [e["event"] for e in got] == ["change"]


@pytest.mark.django_db(transaction=True)
def test_a_new_link_among_the_changes_a_stream_replays_ends_it_before_it_sends_them(v5, monkeypatch):
    """The GM made a new link between the stream's first two reads (the token, then the newest
    change): the stream knows the old token and starts after the link's change; its replay from the
    viewer's cursor then brings that change, with the new token."""
    old = v5.campaign.player_token
    roll(v5.campaign, v5, (6, 2, 9))
    services.regenerate_player_link(Campaign.objects.get(pk=v5.campaign_id))
    newest, _token = live._start(v5.campaign_id)
    monkeypatch.setattr(live.waking, "_start", lambda campaign_id: (newest, frozenset({old})))
    got, _ = read(v5.campaign_id, 0, "player", old, until=1)
    assert [e["event"] for e in got] == ["gone"]


@pytest.mark.django_db(transaction=True)
def test_a_viewer_too_far_behind_reloads_its_page(v5, monkeypatch):
    monkeypatch.setattr(live.waking, "REPLAY_LIMIT", 3)
    monkeypatch.setattr(live.Hub, "KEEP", 2)
    for n in range(5):
        services.adjust(v5, "hunger-up" if n % 2 == 0 else "hunger-down")
    got, _ = read(v5.campaign_id, 0, "gm", until=1)
    assert [e["event"] for e in got] == ["reload"]
    got, _ = read(v5.campaign_id, Change.objects.order_by("id")[2].pk, "gm", until=2)
    assert [e["event"] for e in got] == ["change", "change"]


# --- the views ----------------------------------------------------------------------------------

def test_the_cursor_is_the_later_of_after_and_last_event_id(rf):
    assert live.cursor_of(rf.get("/", {"after": "7"}, HTTP_LAST_EVENT_ID="9")) == 9
    assert live.cursor_of(rf.get("/", {"after": "12"}, HTTP_LAST_EVENT_ID="9")) == 12
    for junk in ("-1", "x", "9" * 40, "1e3", ""):
        assert live.cursor_of(rf.get("/", {"after": junk})) == 0


def test_a_cursor_of_digits_int_cannot_read_is_no_cursor(rf):
    # "²" and "①" are digits to str.isdigit() but not to int(): a poll with one answered 500 (the fuzz).
    for junk in ("²", "①", "٣"):
        assert live.cursor_of(rf.get("/", {"after": junk}, HTTP_LAST_EVENT_ID=junk)) == 0


@pytest.mark.django_db
def test_polling_answers_204_when_nothing_is_new_and_the_cursor_passes_secret_rolls(v5):
    client = Client()
    url = reverse("player-poll", args=[v5.campaign.player_token])
    assert client.get(url).status_code == 204
    secret = roll(v5.campaign, v5, (6, 2, 9), hidden="on")
    answer = client.get(url, {"after": 0}).json()
    assert answer == {"cursor": Change.objects.get(roll=secret).pk, "events": []}
    assert client.get(url, {"after": answer["cursor"]}).status_code == 204
    public = roll(v5.campaign, v5, (1, 2, 3))
    answer = client.get(url, {"after": answer["cursor"]}).json()
    assert [e["id"] for e in answer["events"]] == [Change.objects.get(roll=public).pk]
    assert f'id="roll-{public.pk}"' in answer["events"][0]["html"]


@pytest.mark.django_db
def test_polling_with_an_old_token_is_404(v5):
    old = v5.campaign.player_token
    services.regenerate_player_link(v5.campaign)
    assert Client().get(reverse("player-poll", args=[old])).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_the_stream_view_serves_events_under_asgi_and_resumes_from_last_event_id(v5):
    first, second = roll(v5.campaign, v5, (6, 2, 9)), roll(v5.campaign, v5, (1, 2, 3))
    user = User.objects.create_user("streamer", password="x")
    Campaign.objects.filter(pk=v5.campaign_id).update(gm=user)

    async def first_event(url: str, **headers) -> tuple[int, str, dict]:
        client = AsyncClient()
        await client.aforce_login(user)
        response = await client.get(url, **headers)
        chunks = []
        if response.status_code == 200:
            iterator = aiter(response.streaming_content)
            async with asyncio.timeout(5):
                while not events("".join(chunks)):
                    chunks.append((await anext(iterator)).decode())
            await iterator.aclose()
        # The test client keeps connections open after a request (a server closes them); the view's
        # own, taken in asgiref's shared thread, is closed there.
        await sync_to_async(connections.close_all)()
        return response.status_code, "".join(chunks), dict(response.headers)

    status, text, headers = asyncio.run(first_event(reverse("stream", args=[v5.campaign_id]),
                                                    headers={"Last-Event-ID": str(Change.objects.get(roll=first).pk)}))
    assert status == 200 and headers["Content-Type"] == "text/event-stream" and headers["Cache-Control"] == "no-cache"
    assert events(text)[0]["id"] == str(Change.objects.get(roll=second).pk)
    status, text, _ = asyncio.run(first_event(reverse("player-stream", args=[v5.campaign.player_token])))
    assert status == 200 and events(text)[0]["id"] == str(Change.objects.get(roll=first).pk)
    status, _, _ = asyncio.run(first_event(reverse("player-stream", args=["x" * 32])))
    assert status == 404


@pytest.mark.django_db
def test_under_a_wsgi_server_the_stream_sends_the_page_to_polling(v5, gm_client):
    assert Client().get(reverse("player-stream", args=[v5.campaign.player_token])).status_code == 204


# --- the table page, drawn once per change (live.render_page) -------------------------------------

def _table_page(client: Client, campaign: Campaign, **headers) -> str:
    response = client.get(reverse("table", args=[campaign.pk]), **headers)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_the_table_page_is_drawn_once_until_the_next_change(v5, gm_client, django_assert_max_num_queries):
    first = _table_page(gm_client, v5.campaign).split("<main", 1)[1]
    assert "Bhavna" in first
    with django_assert_max_num_queries(6):  # session, user, campaign, cursor: the body comes drawn
        assert _table_page(gm_client, v5.campaign).split("<main", 1)[1] == first
    # A write nobody announced is not seen (every write at the table announces, see test above)...
    Character.objects.filter(pk=v5.pk).update(name="Bhavna Rao")
    assert "Bhavna Rao" not in _table_page(gm_client, v5.campaign)
    # ...and the next change draws the table as it stands.
    live.announce(v5.campaign.pk, ChangeKind.CHARACTER, character=v5)
    assert "Bhavna Rao" in _table_page(gm_client, v5.campaign)
    logged = roll(v5.campaign, v5, (6, 2, 9))
    assert f'id="roll-{logged.pk}"' in _table_page(gm_client, v5.campaign)


@pytest.mark.django_db
def test_an_edit_of_the_campaign_row_is_a_new_page_without_a_change(v5, gm_client):
    _table_page(gm_client, v5.campaign)
    Campaign.objects.filter(pk=v5.campaign.pk).update(name="The Drowned Court, act II")
    assert "The Drowned Court, act II" in _table_page(gm_client, v5.campaign).split("<main", 1)[1]


@pytest.mark.django_db
def test_the_drawn_page_keeps_each_viewer_their_language_and_csrf_token(v5, gm, gm_client):
    english = _table_page(gm_client, v5.campaign, HTTP_ACCEPT_LANGUAGE="en")
    spanish = _table_page(gm_client, v5.campaign, HTTP_ACCEPT_LANGUAGE="es")
    assert "Roll log" in english and "Registro de tiradas" in spanish and "Roll log" not in spanish
    other = Client()
    other.force_login(gm)
    mine, theirs = (re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
                    for page in (english, _table_page(other, v5.campaign, HTTP_ACCEPT_LANGUAGE="en")))
    assert mine != theirs  # each session's own token: the body that was drawn once carries none
    body = english.split("<main", 1)[1]
    assert "csrfmiddlewaretoken" not in body and mine not in body


@pytest.mark.django_db
def test_a_character_edited_in_the_admin_redraws_the_table(v5, gm_client, staff_client):
    assert "Bhavna" in _table_page(gm_client, v5.campaign)
    page = staff_client.get(reverse("admin:gmtools_character_change", args=[v5.pk]))
    before = Change.objects.filter(campaign=v5.campaign).count()
    response = staff_client.post(reverse("admin:gmtools_character_change", args=[v5.pk]),
                                 {**form_data(page), "name": "Bhavna Rao"})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Change.objects.filter(campaign=v5.campaign).count() == before + 1
    assert "Bhavna Rao" in _table_page(gm_client, v5.campaign)
