"""Abuse (issue 13): hostile input thrown by hypothesis at every form and POST endpoint.

Every POST endpoint of the access walk (``ACCESS`` in tests/web/test_access.py, which holds every URL
pattern of the project) is fuzzed as the owning GM (a player's roll as its player, through the
character's own link: issue 24), a campaign's endpoints in each of the four games, from the valid request the walk makes: one to three of its fields replaced by a payload
(markup and script, template syntax, unicode with NUL bytes, RTL marks, emoji and combining marks,
huge and negative numbers, numbers Python reads oddly, ids of the other GM's rows), dropped or
repeated; unknown fields added; or a raw body of any bytes. The imports (the table's character
import, the admin's campaign import) get files: the export with one place of it damaged, random
JSON, random bytes; the character import also gets each other tool's file of
tests/web/fixtures/imports/ damaged the same way (issue 25). The forms read by a GET (the composer, the odds, the log's filter, the export,
the polls) get the same.

Every answer must be accepted (2xx, or a redirect within this site) or refused with a message (an
error page, the table's 422 refusal with its text, a form with its errors), and never a server
error: the test client re-raises a view's exception (a 500 in production), and hypothesis shrinks
the input that caused it. No answer may hold a payload's markup unescaped; after the fuzz of an
endpoint neither may the pages that show what it stored (the GM's table, with its log, and the
player page); the other GM's campaign is untouched.

The world of the walk is built once per test, not per example: what the examples store accumulates,
which a later example must survive too. Each request runs in a savepoint, so one that raises
leaves the test's transaction usable while hypothesis shrinks it.

Nothing is left out, on either database: a POST without a single field gets its form's errors
like any other, and a NUL byte, which PostgreSQL cannot store (SQLite would), is refused wherever it
comes in, every row refusing one as the last guard (``gmtools.models.NulFree``).

The number of inputs tried is printed at the end of the run ("fuzz: N inputs ..."); the last test
checks that a full run of this file tries at least ``GOAL``.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from html import escape, unescape
from typing import Any
from urllib.parse import quote_from_bytes, urlencode, urlsplit

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmtools import backup, games, importers, services, throttle
from gmtools.composer import ComposerForm
from gmtools.models import Campaign, Character, Roll, Scene, Trait
from gmtools.views import TIME_ACTIONS
from tests.games import Game
from tests.web.test_access import (
    ACCESS,
    CAMPAIGN,
    GAMES,
    PLAYER,
    POST_NAMES,
    SITE,
    WALKED,
    World,
    _nothing,
    build_world,
    changed,
    composer_data,
    snapshot,
    url_of,
)

# In `make test` (SQLite); `make test-postgres` leaves it out (`-m 'not fuzz and not browser'`): CI runs
# most of the suite on both databases, and the fuzz costs about 1.5 times as long on PostgreSQL (10,932 inputs:
# 1 min 40 s on SQLite and 2 min 35 s on PostgreSQL on an idle machine, up to 4.5 and 8 min on a busy
# one). What only PostgreSQL refuses (a NUL byte) the models' own tests check on both (test_models.py).
# `pytest -m fuzz tests/web/test_fuzz.py` runs it alone.
pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

# --- the payloads -----------------------------------------------------------------------------------

SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
QUOTE = "' autofocus onfocus='alert(1)"
TEMPLATE = "{{ 7*7 }} {% debug %}"
MARKUP = (SCRIPT, IMG, QUOTE, TEMPLATE, "{{ 7*7 }}", "{% debug %}", "</textarea><script>alert(1)</script>",
          "javascript:alert(1)", "<!--", "]]>", "%(name)s %s {0}")
# A payload's markup as it must never reach a page: each is harmless once escaped (&lt;, &quot;, &#x27;).
UNESCAPED = ("<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "onfocus='alert(1)")

# Lone surrogates cannot travel in an HTTP request (UTF-8 has no encoding for them); the rest can.
UNICODE = (
    "\x00", "a\x00b", "\u202eevil", "\u200fright-to-left\u200e", "\u200b", "\ufeff", "🐉🎲", "👩🏽‍🚀",
    "e\u0301\u0301\u0301\u0301", "Z̴̡̧͖a̵l̷g̶o̴", "ǅ", "ß", "İ", "\r\n", "\t", " ", "", "\x7f", "\x1b[31m",
    "' OR 1=1 --", "NaN", "null", "None", "true", "[]", "{}",
)
# Numbers at and past every bound, and strings Python reads as numbers, or nearly: "²".isdigit() is
# True but int("²") fails, int("٣") is 3, float("1e309") is inf, int() refuses 5000 digits.
NUMBERS = (
    "0", "-1", "-0", "+5", "1e309", "-1e309", "nan", "inf", "3.5", "1_000", "0x10", " 7 ", "--1",
    str(2**31), str(2**63), str(-(2**63) - 1), str(10**30), "9" * 5000, "²", "٣", "３", "①",
)
# Where a redirect must never lead (the login's and the language switch's ``next``).
ELSEWHERE = ("//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", "\\\\evil.example")

text_payloads = st.one_of(
    st.sampled_from(MARKUP),
    st.sampled_from(UNICODE),
    st.builds(lambda before, markup, after: before + markup + after,
              st.text(max_size=5), st.sampled_from(MARKUP), st.text(max_size=5)),
    st.text(max_size=30),  # any code point but surrogates
    st.builds(lambda before, after: f"{before}\x00{after}", st.text(max_size=8), st.text(max_size=8)),
    st.sampled_from((121, 201, 2001, 70_000)).map(lambda n: "é" * n),  # past every max_length
)
number_payloads = st.one_of(st.sampled_from(NUMBERS), st.integers().map(str), st.floats().map(str))
payloads = st.one_of(text_payloads, number_payloads, st.sampled_from(ELSEWHERE))

# Field names a request may add: those of other forms (a mass assignment), and any.
INTRUDERS = (
    "pk", "id", "campaign", "campaign_id", "gm", "gm_id", "game", "hidden", "player_token", "is_staff", "character",
    "value", "order", "next", "name", "csrfmiddlewaretoken", "sheet-campaign", "sheet-kind", "page", "after",
)
field_names = st.one_of(st.sampled_from(INTRUDERS), st.text(min_size=1, max_size=12))

def adjustments(game: str) -> list[str]:
    """Every one-click change of a game's characters, the text ones (Fate's consequences) included."""
    play = games.get(game).play
    return [*play.adjustments, *play.text_adjustments]


# --- what a request may send --------------------------------------------------------------------------

Value = str | int | SimpleUploadedFile | list


def upload(content: bytes, name: str = "campaign.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="application/json")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10) | payloads,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
odd_numbers = st.sampled_from((2**63, -(2**63), 10**100, -1, 0, 1.5, True))


def _paths(value: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*path, index))


def damaged(document: Any) -> st.SearchStrategy[Any]:
    """The document with one place of it replaced, dropped, or given an unknown key or item."""
    places = st.sampled_from(list(_paths(document)))
    ops = st.sampled_from(("replace", "replace", "drop", "add"))

    @st.composite
    def draw_damaged(draw: st.DrawFn) -> Any:
        path = draw(places)
        if not path:
            return draw(json_values)
        copy = json.loads(json.dumps(document))
        parent = copy
        for step in path[:-1]:
            parent = parent[step]
        last, op = path[-1], draw(ops)
        if op == "replace":
            parent[last] = draw(st.one_of(json_values, odd_numbers))
        elif op == "drop":
            del parent[last]
        elif isinstance(parent, dict):
            parent[draw(field_names)] = draw(json_values)
        else:
            parent.append(draw(json_values))
        return copy

    return draw_damaged()


def as_json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode()


def uploads(document: Any) -> st.SearchStrategy[SimpleUploadedFile]:
    """Campaign files: mostly the export damaged in one place, else any JSON, any bytes, known traps."""
    broken = damaged(document).map(as_json)
    return st.one_of(
        broken, broken, broken,
        json_values.map(as_json),
        st.binary(max_size=200),
        st.sampled_from((
            b"", b"[" * 100_000, b"1" * 5000, b'{"format": "gmtools-campaign", "version": ' + b"9" * 5000 + b"}",
            b"NaN", b'"\\ud800"', b"\xff\xfe{\x00}\x00", "\ufeff".encode() + as_json(document),
            json.dumps(document).encode("utf-16"),
        )),
    ).map(upload)


def fresh(value: Value) -> Value:
    """A file is read once: each request sends its own copy."""
    if isinstance(value, SimpleUploadedFile):
        value.seek(0)
        return upload(value.read(), value.name)
    return value


# Raw bodies: bytes that are not UTF-8, broken %-escapes, more fields than DATA_UPLOAD_MAX_NUMBER_FIELDS.
raw_tails = st.one_of(
    st.binary(max_size=80),
    st.binary(max_size=80).map(lambda raw: b"name=" + quote_from_bytes(raw).encode()),
    st.just(b"&".join(b"f%d=1" % n for n in range(1100))),
)
extras = st.dictionaries(field_names, payloads, max_size=2)
ops = st.sampled_from(("replace", "replace", "drop", "repeat"))


def hostile(valids: list[dict[str, Value]], choices: dict[str, tuple[str, ...]] | None = None,
            foreign: tuple[str, ...] = (), document: Any = None) -> st.SearchStrategy[dict[str, Value] | bytes]:
    """One of the valid requests with one to three fields replaced, dropped or repeated, and unknown
    fields added; once in twenty, a raw body instead.

    ``choices``: fields the endpoint also reads, with values that mean something there; ``foreign``:
    the other GM's ids, offered to every field; ``document``: the export a file field gets damaged.
    """
    choices = choices or {}
    fields = sorted({key for valid in valids for key in valid} | set(choices))
    values: dict[str, st.SearchStrategy] = {}
    for key in fields:
        known = choices.get(key, ()) + foreign
        values[key] = (st.one_of(uploads(document), uploads(document), payloads) if key == "file" and document
                       else st.one_of(st.sampled_from(known), payloads) if known else payloads)
    repeats = {key: st.lists(value, min_size=2, max_size=4) for key, value in values.items()}
    picks = st.lists(st.sampled_from(fields), max_size=3, unique=True) if fields else st.just([])
    bases = st.sampled_from(valids)

    @st.composite
    def requests(draw: st.DrawFn) -> dict[str, Value] | bytes:
        data: dict[str, Value] = {key: fresh(value) for key, value in draw(bases).items()}
        for key in draw(picks):
            op = draw(ops)
            if op == "replace":
                data[key] = draw(values[key])
            elif op == "drop":
                data.pop(key, None)
            else:
                data[key] = draw(repeats[key])
        for key, value in draw(extras).items():
            data.setdefault(key, value)
        if draw(st.integers(0, 19)) == 0:
            texts = {key: value for key, value in data.items() if isinstance(value, str | list)}
            return urlencode(texts, doseq=True).encode() + b"&" + draw(raw_tails)
        return data

    return requests()


def is_a_query(data: dict[str, Value] | bytes) -> bool:
    return isinstance(data, dict)  # a GET sends no raw body


# --- sending, and judging the answer ----------------------------------------------------------------

TRIED: Counter[str] = Counter()  # inputs sent, by endpoint
RUNS: set[str] = set()  # the fuzz runs that ended
CLOCK: list[float] = []  # the seconds each took


def send(client: Client, method: str, url: str, data: dict[str, Value] | bytes, name: str,
         **headers: str) -> HttpResponse:
    TRIED[name] += 1
    try:
        with transaction.atomic():  # a savepoint: an exception leaves the test's transaction usable
            if isinstance(data, bytes):
                return client.post(url, data, content_type="application/x-www-form-urlencoded", headers=headers)
            return getattr(client, method)(url, data, headers=headers)
    except Exception as error:  # the test client re-raises a view's exception: a 500 in production
        raise AssertionError(f"a server error: {method.upper()} {url} with {data!r} {headers or ''}") from error


REFUSAL = re.compile(r'data-testid="refusal">(.*?)<button', re.DOTALL)
# Where a form's errors are: crispy's invalid-feedback and alert-danger, Django's errorlist and errornote.
FORM_ERRORS = re.compile(
    r'class="[^"]*\b(?:invalid-feedback|errorlist|errornote|alert-danger)\b[^"]*"[^>]*>(.*?)</(?!strong|li)',
    re.DOTALL)


def visible(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]*>", " ", html)).split())


def shown(response: HttpResponse) -> str:
    """What a browser draws of an answer: its HTML, or the HTML fragments of a poll's JSON."""
    kind = response.get("Content-Type", "")
    if kind.startswith("text/html"):
        return response.content.decode()
    if kind.startswith("application/json"):
        return "\n".join(event["html"] for event in json.loads(response.content).get("events", ()))
    return ""  # a download (Markdown, CSV), a 204


def unescaped(html: str) -> list[str]:
    return [markup for markup in UNESCAPED if markup in html]


def judge(response: HttpResponse, where: str, refuses_with_200: bool = False) -> None:
    """Accepted, or refused with a message; a redirect stays on this site; no markup unescaped.

    ``refuses_with_200``: Django's own views (the login, the admin) accept with a redirect and
    refuse with a 200 that shows the form's errors.
    """
    status = response.status_code
    assert status < 500, (where, status)
    assert unescaped(shown(response)) == [], (where, "payload markup shown unescaped")
    if status in (301, 302, 303):
        # A path, or an address relative to this one; browsers read "\" as "/" ("/\evil" is "//evil").
        location = urlsplit(response["Location"].replace("\\", "/"))
        assert not location.scheme and not location.netloc, (where, response["Location"])
        return
    text = response.content.decode(errors="replace")
    errors = [visible(found) for found in FORM_ERRORS.findall(text)]
    if status < 400:
        if refuses_with_200:
            assert any(errors), (where, "a form refused without a message")
        return
    assert status in (400, 404, 405, 413, 422, 429), (where, status)
    refusal = REFUSAL.search(text)
    if refusal:
        assert visible(refusal.group(1)), (where, "a refusal without a message")
    elif status == 422:
        assert any(errors), (where, "a form refused without a message", text[:300])  # a panel's form
    else:
        # An error page: a 400 for a body Django will not parse (too many fields) is templates/400.html.
        assert visible(text), (where, status, "an empty error page")


FUZZ = settings(deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def fuzz(examples: int, client: Client, method: str, url: str, name: str, where: str,
         requests: st.SearchStrategy, refuses_with_200: bool = False, headers: st.SearchStrategy | None = None,
         before: Callable[[], None] | None = None) -> None:
    """Send ``examples`` requests drawn from ``requests`` and judge each answer (``before`` each)."""
    started = time.perf_counter()

    @settings(FUZZ, max_examples=examples)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        request = data.draw(requests, label="data")
        extra = data.draw(headers, label="headers") if headers is not None else {}
        if before is not None:
            before()
        judge(send(client, method, url, request, name, **extra), where, refuses_with_200)

    run()
    CLOCK.append(time.perf_counter() - started)
    RUNS.add(where)


# A client loads the middleware on its first request, WhiteNoise's scan of the static files
# included (~50 ms): the clients of this file share one handler, loaded once.
HANDLER = Client().handler


def visitor() -> Client:
    client = Client()  # raise_request_exception: a view's exception reaches the test
    client.handler = HANDLER
    return client


def logged_in(user: User) -> Client:
    client = visitor()
    client.force_login(user)
    return client


# --- the campaign's POST endpoints ------------------------------------------------------------------

# The endpoints that take a POST besides POST_NAMES: the home page ignores one (and must survive it).
ALSO_POSTED = ("home",)
SITE_POSTS = [name for name in (*POST_NAMES, *ALSO_POSTED) if ACCESS[name].scope == SITE]
CAMPAIGN_POSTS = [name for name in POST_NAMES if ACCESS[name].scope == CAMPAIGN]
# A player's roll of their character (issue 24): through the character's own link, fuzzed below.
PLAYER_POSTS = [name for name in POST_NAMES if ACCESS[name].scope == PLAYER]

# Examples per endpoint and game. The budget goes where the fields are, and the cost sets how much:
# a refusal takes ~10 ms, an accepted roll or scene change redraws parts of the table (~30 ms), a
# character sheet ~250 ms. An endpoint that reads no field gets only unknown fields and raw bodies.
EXAMPLES = 40
MORE = {"adjust": 200, "follow-up": 300, "undo": 200, "turn-order": 200, "scene-change": 200,
        "time": 200, "declare": 100, "extended-create": 100}
FEWER = {"character-import": 25, "npc-quick": 15, "character-duplicate": 15, "character-copy": 10,
         "npc-template": 10, "character-new": 4, "character-edit": 4}


def choices_for(name: str, world: World) -> dict[str, tuple[str, ...]]:
    """Fields an endpoint reads besides the walk's valid ones, and values that mean something there."""
    game = world.campaign.game
    characters = tuple(str(pk) for pk in world.campaign.characters.values_list("pk", flat=True))
    traits = tuple(str(pk) for pk in Trait.objects.filter(character=world.pc).values_list("pk", flat=True)[:6])
    if name in ("roll", "saved-roll-create", "odds", "composer", "composer-field", "player-roll", "player-odds"):
        form = ComposerForm(world.campaign, scene=Scene.objects.current(world.campaign))
        fields = {field: () for field in form.fields} | {"character": characters, "first": traits, "second": traits}
        if name == "roll":  # "I rolled real dice" (gmtools.physical, issue 24): faces as typed, right and wrong
            fields |= {"physical": ("on",), "faces": ("7 8 2 0", "0 0 0 0 0", "- 0 + +", "11", "7,8"),
                       "hunger_faces": ("1 0", "12", "")}
        return fields
    return {
        # Fate's consequence names whoever inflicted it among the campaign's characters.
        "adjust": {"action": tuple(adjustments(game)), "value": (), "by": ("", *characters)},
        "time": {"do": TIME_ACTIONS, "title": (), "downtime": ("on",), "combat": ("on",), "calm": ("on",)},
        "turn-order": {"verb": ("join", "leave", "up", "down"), "character": characters,
                       "order": (",".join(characters), ",".join(reversed(characters)))},
        # Each game's follow-up (test_access.FOLLOW_UP): Fate's invocation, Exalted's reward, V5's reroll.
        "follow-up": {"mode": ("bonus", "reroll"), "choice": ("motes", "willpower"), "dice": ("0", "1", "2", "99")},
        "player-follow-up": {"mode": ("bonus", "reroll"), "choice": ("motes", "willpower"), "dice": ("0", "1", "2", "99")},
        "declare": {"actions": ("1", "10", "11")},
        "scene-change": {"boost": ("on",), "aspect": ("1", "0", "-1")},
        "character-duplicate": {"count": ("1", "20", "21")},
        "character-import": {"name": ("Ana", "ana", "")},
        "login": {"next": ELSEWHERE},
        "set_language": {"language": ("en", "es", "zz"), "next": ELSEWHERE},
        "log": {"story": (), "episode": (), "scene": (), "turn": ()},
        "luck": {"story": (), "episode": (), "scene": (), "character": characters},
        "player-luck": {"story": (), "episode": (), "scene": (), "character": characters},
        "export": {"players": ("on",), "part": ("campaign", f"scene-{world.scene.pk}",
                                               f"episode-{world.scene.episode_id}")},
    }.get(name, {})


def variants_for(name: str, world: World, valid: dict[str, Value]) -> list[dict[str, Value]]:
    """The walk's valid request and, for a form of several actions, one valid request per action: the
    fuzz changes a field or three of one of them, so it reaches every action's own checks."""
    game, npc = world.campaign.game, str(world.npc.pk)
    if name == "adjust":
        return [{"action": action, "value": "Bruised ribs"} for action in adjustments(game)]
    if name == "time":
        return [{"do": action, "title": "Dawn at the docks"} for action in TIME_ACTIONS]
    if name == "turn-order":
        order = ",".join(str(pk) for pk in world.campaign.characters.values_list("pk", flat=True))
        return [{"verb": verb, "character": npc} for verb in ("join", "leave", "up", "down")] + [{"order": order}]
    if name == "follow-up" and game == Game.FATE:
        return [{**valid, "mode": mode} for mode in ("bonus", "reroll")]
    if name == "follow-up" and game == Game.EXALTED:
        return [{"choice": choice} for choice in ("motes", "willpower")]
    return [valid]


def foreign_ids(world: World) -> tuple[str, ...]:
    """The other GM's campaign, characters and traits: ids the owner's forms must refuse."""
    theirs = world.theirs
    return (str(theirs.pk), *(str(pk) for pk in theirs.characters.values_list("pk", flat=True)),
            *(str(pk) for pk in Trait.objects.filter(character__campaign=theirs).values_list("pk", flat=True)[:3]))


def gm_pages(world: World) -> dict[str, str]:
    """The GM's table (its log included) and the player page, as they are now."""
    answers = {
        "the table": logged_in(world.campaign.gm).get(reverse("table", kwargs={"pk": world.campaign.pk})),
        "the player page": visitor().get(reverse("player", kwargs={"token": world.token})),
    }
    for what, response in answers.items():
        assert response.status_code == 200, (what, response.status_code)
    return {what: response.content.decode() for what, response in answers.items()}


def assert_nothing_unescaped(pages: dict[str, str]) -> None:
    found = {what: unescaped(html) for what, html in pages.items() if unescaped(html)}
    assert found == {}, f"payload markup shown unescaped: {found}"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", CAMPAIGN_POSTS)
def test_campaign_posts_survive_hostile_input(name: str, game: str, gm: User, other_gm: User) -> None:
    world = build_world(gm, other_gm, game)
    url, valid = url_of(name, world), ACCESS[name].data(world)
    document = json.loads(valid["file"].read()) if "file" in valid else None
    theirs = snapshot(world.theirs)
    requests = hostile(variants_for(name, world, valid), choices_for(name, world), foreign_ids(world), document)
    examples = MORE.get(name) or FEWER.get(name) or EXAMPLES
    fuzz(examples, logged_in(gm), "post", url, name, f"{name} ({game})", requests)
    assert_nothing_unescaped(gm_pages(world))
    assert changed(theirs, snapshot(world.theirs)) == [], "the other GM's campaign changed"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", PLAYER_POSTS + ["player-odds"])
def test_a_players_roll_survives_hostile_input(name: str, game: str, gm: User, other_gm: User,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the character's own link, with rolling on: the composer's every field (the GM's too, the
    campaign's other characters and the other GM's ids offered to each); only the character's own
    rolls are ever logged, and the other GM's campaign is untouched."""
    monkeypatch.setattr(throttle, "PLAYER_ROLLS", 10**6)  # the fuzz is no stuck button: every input is judged
    world = build_world(gm, other_gm, game)
    services.set_players_roll(world.campaign, True)
    services.set_character_link(world.pc, True)
    token = Character.objects.get(pk=world.pc.pk).player_token
    url, valid = url_of(name, world, token=token), ACCESS[name].data(world)
    if name == "player-follow-up":  # on the player's own roll from the phone: the fuzz reaches the form and the service
        assert visitor().post(url_of("player-roll", world, token=token), composer_data(world.pc)).status_code == 200
        own = Roll.objects.filter(character=world.pc).exclude(rolled_by="").get()
        url = reverse(name, kwargs={**ACCESS[name].kwargs(world), "token": token, "roll_pk": own.pk})
    theirs = snapshot(world.theirs)
    requests = hostile([valid], choices_for(name, world), foreign_ids(world))
    if ACCESS[name].method == "get":
        requests = requests.filter(is_a_query)
    fuzz(EXAMPLES, visitor(), ACCESS[name].method, url, name, f"{name} ({game})", requests)
    assert not Roll.objects.filter(campaign=world.campaign, rolled_by__gt="").exclude(character=world.pc).exists()
    assert_nothing_unescaped(gm_pages(world))
    assert changed(theirs, snapshot(world.theirs)) == [], "the other GM's campaign changed"


# --- the forms read by a GET ---------------------------------------------------------------------------

GET_FORMS = [name for name in WALKED if ACCESS[name].method == "get" and ACCESS[name].data is not _nothing
             and ACCESS[name].scope in (CAMPAIGN, PLAYER)]
POLLS = {"poll", "player-poll"}  # they also read the browser's Last-Event-ID header
GET_EXAMPLES = 40
GET_FEWER = {"composer": 10, "composer-field": 30}  # the composer is drawn whole (~80 ms)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", GET_FORMS)
def test_forms_read_by_a_get_survive_hostile_input(name: str, game: str, gm: User, other_gm: User) -> None:
    world = build_world(gm, other_gm, game)
    url, valid = url_of(name, world), ACCESS[name].data(world)
    client = logged_in(gm) if ACCESS[name].scope == CAMPAIGN else visitor()
    requests = hostile([valid], choices_for(name, world), foreign_ids(world)).filter(is_a_query)
    headers = st.fixed_dictionaries({}, optional={"Last-Event-ID": number_payloads}) if name in POLLS else None
    fuzz(GET_FEWER.get(name, GET_EXAMPLES), client, "get", url, name, f"{name} ({game})", requests, headers=headers)


# --- the site: campaigns, the login, the language ----------------------------------------------------


@pytest.mark.parametrize("name", SITE_POSTS)
def test_site_posts_survive_hostile_input(name: str, gm: User, other_gm: User) -> None:
    world = build_world(gm, other_gm, ACCESS[name].game)
    url, valid = url_of(name, world), (ACCESS[name].post_data or ACCESS[name].data)(world)
    client = visitor()
    # Logging in needs a visitor; the rest a GM, logged in again before each request (logout ends it).
    log_in = None if name == "login" else (lambda: client.force_login(gm))
    fuzz(100, client, "post", url, name, name, hostile([valid], choices_for(name, world)),
         refuses_with_200=name == "login", before=log_in)
    home = logged_in(gm).get(reverse("home"))
    assert_nothing_unescaped({"the home page": home.content.decode()})


# --- characters from other tools (issue 25) -----------------------------------------------------------

IMPORT_FIXTURES = sorted((Path(__file__).parent / "fixtures" / "imports").glob("*.json"))


@pytest.mark.parametrize("path", IMPORT_FIXTURES, ids=lambda path: path.name.split("_")[0])
def test_the_character_import_survives_damaged_files_of_other_tools(path: Path, gm: User, other_gm: User) -> None:
    """Each tool's file (tests/web/fixtures/imports/), damaged in one place as the campaign file is,
    in a campaign of its game: a preview or a refusal, never a server error."""
    document = json.loads(path.read_text())
    world = build_world(gm, other_gm, importers.read(document).game)
    theirs = snapshot(world.theirs)
    requests = hostile([{"file": upload(as_json(document), path.name), "name": ""}],
                       choices_for("character-import", world), foreign_ids(world), document)
    fuzz(FEWER["character-import"], logged_in(gm), "post", url_of("character-import", world), "character-import",
         f"character-import ({path.name.split('_')[0]})", requests)
    assert_nothing_unescaped(gm_pages(world))
    assert changed(theirs, snapshot(world.theirs)) == [], "the other GM's campaign changed"


# --- the admin's campaign import -------------------------------------------------------------------


def test_the_admin_campaign_import_survives_hostile_files(gm: User, other_gm: User, staff: User) -> None:
    world = build_world(gm, other_gm, GAMES[0])
    document = backup.export_campaign(world.campaign)
    valid = {"file": upload(as_json(document)), "gm": str(gm.pk), "name": ""}
    choices = {"gm": (str(staff.pk), str(other_gm.pk), "0")}
    url = reverse("admin:gmtools_campaign_import")
    fuzz(100, logged_in(staff), "post", url, "admin campaign import", "admin campaign import",
         hostile([valid], choices, document=document), refuses_with_200=True)
    staff_client = logged_in(staff)
    pages = {"the admin's campaigns": staff_client.get(reverse("admin:gmtools_campaign_changelist")).content.decode()}
    for campaign in Campaign.objects.exclude(pk__in=[world.campaign.pk, world.theirs.pk]).order_by("-pk")[:3]:
        pages[f"the table of {campaign.pk}"] = staff_client.get(reverse("table", args=[campaign.pk])).content.decode()
    assert_nothing_unescaped(pages)


# --- the checks are not blind -------------------------------------------------------------------------


def test_every_endpoint_that_takes_a_post_is_fuzzed(gm: User, other_gm: User) -> None:
    """An endpoint that does not answer a POST with 405 takes one, and must be in the fuzz (and the
    reverse), so a new view, or a GET page that starts taking a POST, cannot slip past it."""
    world = build_world(gm, other_gm, GAMES[1])
    client = logged_in(gm)
    takes_a_post = [name for name in WALKED
                    if send(client, "post", url_of(name, world), {}, "probe").status_code != 405]
    assert sorted(takes_a_post) == sorted([*SITE_POSTS, *CAMPAIGN_POSTS, *PLAYER_POSTS])


@pytest.mark.parametrize("game", GAMES)
def test_payloads_stored_through_the_forms_are_shown_escaped(game: str, gm: User, other_gm: User) -> None:
    """Markup stored through each text field of the table reaches every page escaped, and only so:
    what the fuzz's check of the pages looks for does reach them."""
    world = build_world(gm, other_gm, game)
    client = logged_in(gm)
    pk = world.campaign.pk
    stored = [
        ("time", {"do": "start-scene", "title": f"Scene {SCRIPT}"}),
        ("scene-notes", {"notes": f"Notes {IMG} {TEMPLATE}"}),
        ("npc-quick", {"name": f"NPC {QUOTE}", "pool": 2}),
        ("roll", composer_data(world.pc, label=f"Label {SCRIPT}")),
        ("saved-roll-create", {**composer_data(world.pc), "saved_name": f"Saved {IMG}"}),
    ]
    if game == "fate":
        stored += [("scene-change", {"text": f"Aspect {SCRIPT}", "free_invocations": 0}),
                   ("adjust", {"action": "consequence-mild", "value": f"Hurt {IMG}"})]
    else:
        stored += [("extended-create", {**ACCESS["extended-create"].data(world), "name": f"Task {QUOTE}"})]
    for name, data in stored:
        response = send(client, "post", url_of(name, world), data, "escaped")
        assert response.status_code == 200, (name, response.status_code, response.content[:300])
        judge(response, name)
    token = world.token
    npc = Character.objects.get(campaign=world.campaign, name__startswith="NPC ")
    pages = {
        "table": client.get(reverse("table", args=[pk])),
        "log": client.get(reverse("log", args=[pk])),
        "extended": client.get(reverse("extended-list", args=[pk])),
        "panel": client.get(reverse("character-edit", args=[pk, npc.pk])),
        "poll": client.get(reverse("poll", args=[pk]), {"after": 0}),
        "player": visitor().get(reverse("player", args=[token])),
        "player-tv": visitor().get(reverse("player-tv", args=[token])),
        "player-log": visitor().get(reverse("player-log", args=[token])),
        "player-poll": visitor().get(reverse("player-poll", args=[token]), {"after": 0}),
    }
    html = {what: shown(response) for what, response in pages.items()}
    assert_nothing_unescaped(html)
    for what in ("table", "player", "player-poll"):
        assert escape(SCRIPT) in html[what] and escape(IMG) in html[what], what
    assert escape(QUOTE) in html["table"] and escape(QUOTE) in html["panel"]
    assert TEMPLATE in html["table"] and TEMPLATE in html["player"]  # shown as text, never run as a template


# --- how many inputs --------------------------------------------------------------------------------

GOAL = 10_000
FUZZ_RUNS = ({f"{name} ({game})" for name in (*CAMPAIGN_POSTS, *GET_FORMS) for game in GAMES}
             | set(SITE_POSTS) | {"admin campaign import"})
NOT_FUZZ = ("probe", "escaped")  # requests of the tests above, counted apart


def fuzzed() -> Counter[str]:
    return Counter({name: n for name, n in TRIED.items() if name not in NOT_FUZZ})


class CountReport:
    """Prints the count at the end of the run, whatever part of this file ran."""

    @staticmethod
    def pytest_terminal_summary(terminalreporter) -> None:
        if fuzzed():
            terminalreporter.write_line(f"fuzz: {fuzzed().total()} inputs to {len(fuzzed())} endpoints "
                                        f"in {len(RUNS)} runs, {sum(CLOCK):.0f} s")


@pytest.fixture(scope="module", autouse=True)
def count_report(request: pytest.FixtureRequest) -> None:
    if not request.config.pluginmanager.has_plugin("gmtools-fuzz-count"):
        request.config.pluginmanager.register(CountReport(), "gmtools-fuzz-count")


def test_a_full_run_tries_enough_inputs() -> None:
    if RUNS != FUZZ_RUNS:
        pytest.skip(f"a partial run: {len(RUNS)} of {len(FUZZ_RUNS)} fuzz runs")
    assert fuzzed().total() >= GOAL
