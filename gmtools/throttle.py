"""Guessing the player link: an address that tries too many wrong tokens waits before it tries more.

A token is 192 random bits (``models.new_player_token``), so guessing one is hopeless; the limit
keeps a scanner from costing the server anything. While an address is held back, every player URL
answers it 429, a right token included: a guess learns nothing either way. The count lives in the
cache (Redis when ``REDIS_URL`` is set, so every worker shares it; else each process counts its own).
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

MISSES = 20  # wrong tokens an address may try in a window
WINDOW = 10 * 60  # seconds, counted from its first wrong token


def _key(request: HttpRequest) -> str:
    return f"player-link-misses:{request.META.get('REMOTE_ADDR', '')}"


def held_back(request: HttpRequest) -> bool:
    return cache.get(_key(request), 0) >= MISSES


def missed(request: HttpRequest) -> None:
    """Count one wrong token from the request's address."""
    key = _key(request)
    if not cache.add(key, 1, WINDOW):
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, WINDOW)


def held_back_page(request: HttpRequest) -> HttpResponse:
    return render(request, "too_many_guesses.html", {"minutes": WINDOW // 60}, status=429)
