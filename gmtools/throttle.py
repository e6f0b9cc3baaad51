"""Limits per address: guessing the player link, and exporting the roll log; per character link: rolling.

Guessing: a token is 192 random bits (``models.new_player_token``), so guessing one is hopeless;
the limit keeps a scanner from costing the server anything. An address that tries too many wrong
tokens is held back: every player URL answers it 429, a right token included, so a guess learns
nothing either way.

Exporting: a whole campaign's log in Markdown or CSV takes seconds to write on a long campaign
(20,000 rolls: 4-10 s), and six loops of them from one player link slowed another GM's table from
0.03 s to 1.35 s a page. Each export is drawn once per change at the table (gmtools.recap), and each
address, and each campaign's player link whatever addresses share it, may ask for a few a minute;
past that it is answered 429 until its minute is over.

Rolling: a player's rolls from their character's link are counted per character, a few a minute
(``player_roll_refused``); past that a roll is refused inline and nothing is rolled or spent. Only
what is recorded counts (a roll, a follow-up taken): a refused one is given back
(``player_roll_given_back``), so a player fixing a typo in the faces is never locked out, and a stuck
button posting the same roll again is refused by its one-click key before it is counted. Every post
from the link, refused or not, counts toward a higher limit (``player_post_refused``): each is read
and judged, so a script posting nonsense in a loop is stopped too, far above a player's fumbles.

The counts live in the "default" cache (Redis when ``REDIS_URL`` is set, so every worker shares them;
else each process counts its own). Each count's window starts at its first use.
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

MISSES = 20  # wrong tokens an address may try in a window
WINDOW = 10 * 60  # seconds, counted from its first wrong token

# A GM exports a scene, an episode or the campaign in two formats now and then, and a table's phones
# read the recap at a scene's end: a few a minute each; the link's share is the table's.
EXPORTS_PER_ADDRESS = 10
EXPORTS_PER_LINK = 30
EXPORT_WINDOW = 60  # seconds, counted from the first export

# A player's rolls from their character's link (gmtools.player_rolls): far above a player's pace at a
# table (a combat round is a roll or two each), low enough that a stuck button cannot flood the log.
PLAYER_ROLLS = 10
PLAYER_ROLL_WINDOW = 60  # seconds, counted from the first roll
# Every roll and follow-up posted from a character's link, refused or not: six times the rolls, room for
# a refusal or five before each roll (a face mistyped, a count short, the turn's budget spent).
PLAYER_POSTS = 60


def _address(request: HttpRequest) -> str:
    return request.META.get("REMOTE_ADDR", "")


def _count(key: str, window: int) -> int:
    """One more use of ``key`` in its window (started now if none is running); the uses so far."""
    if cache.add(key, 1, window):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, window)
        return 1


def _key(request: HttpRequest) -> str:
    return f"player-link-misses:{_address(request)}"


def held_back(request: HttpRequest) -> bool:
    return cache.get(_key(request), 0) >= MISSES


def missed(request: HttpRequest) -> None:
    """Count one wrong token from the request's address."""
    _count(_key(request), WINDOW)


def held_back_page(request: HttpRequest) -> HttpResponse:
    return render(request, "too_many_guesses.html", {"minutes": WINDOW // 60}, status=429)


def export_refused(request: HttpRequest, link: int | None = None) -> bool:
    """Count one export for the request's address, and for the player link of campaign ``link`` when
    it came through one; True when either has had its share of this window (the export is refused).

    An address over its share spends nothing of the link's, so one phone in a loop cannot use up
    the rest of the table's recaps."""
    if _count(f"exports:address:{_address(request)}", EXPORT_WINDOW) > EXPORTS_PER_ADDRESS:
        return True
    return link is not None and _count(f"exports:link:{link}", EXPORT_WINDOW) > EXPORTS_PER_LINK


def export_refused_page(request: HttpRequest) -> HttpResponse:
    response = render(request, "too_many_exports.html", {"minutes": max(1, EXPORT_WINDOW // 60)}, status=429)
    response["Retry-After"] = str(EXPORT_WINDOW)
    return response


def player_roll_refused(character_id: int) -> bool:
    """Count one roll (or follow-up) from a character's player link, about to be recorded; True past
    its share of this minute (a stuck button, a script): that roll is refused, nothing rolled or
    spent, and the player told to wait. One the service then refuses is given back
    (``player_roll_given_back``): only what is recorded counts."""
    return _count(_rolls_key(character_id), PLAYER_ROLL_WINDOW) > PLAYER_ROLLS


def player_roll_given_back(character_id: int) -> None:
    """Take back the count of a roll ``player_roll_refused`` let through and the service refused."""
    try:
        cache.decr(_rolls_key(character_id))
    except ValueError:  # its window is over: nothing left to take back
        pass


def player_post_refused(character_id: int) -> bool:
    """Count one post (a roll, a follow-up) from a character's player link, whatever comes of it; True
    past ``PLAYER_POSTS`` this minute: refused before it is read."""
    return _count(f"player-posts:{character_id}", PLAYER_ROLL_WINDOW) > PLAYER_POSTS


def _rolls_key(character_id: int) -> str:
    return f"player-rolls:{character_id}"
