"""The drawings a process keeps (gmtools.live.Kept): bounded by their size in memory, least recently
used dropped first, and each drawn once however many threads ask for it at the same moment."""

from __future__ import annotations

import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from gmtools import live
from gmtools.models import Campaign



def page(size: int, mark: str = "x") -> str:
    """A page of about ``size`` bytes in memory, two bytes a character, as a page with a "—" is."""
    return "—" + mark * (size // 2)


def test_a_table_of_big_pages_keeps_no_more_bytes_than_the_limit(gm):
    """Each change at the table is a new page: 600 pages of 256 KB are 150 MB, which 512 entries
    would keep nearly whole; the cache keeps its limit's worth, the newest."""
    campaign = Campaign.objects.create(name="Crowded", game="v5", gm=gm)
    viewer = live.Viewer("gm", "en")
    big = page(256 * 1024)
    drawn = []

    def draw(cursor: int) -> str:
        drawn.append(cursor)
        return big[:-1] + str(cursor % 10)  # a string of its own per page, as each drawing is

    for cursor in range(600):
        live.render_page("table", campaign, cursor, viewer, lambda cursor=cursor: draw(cursor))
    drawn.clear()
    for cursor in reversed(range(600)):  # newest first: the kept ones are found before any is drawn again
        live.render_page("table", campaign, cursor, viewer, lambda cursor=cursor: draw(cursor))
    kept = 600 - len(drawn)
    assert 0 < kept * sys.getsizeof(big) <= live.Kept.LIMIT
    assert min(drawn) == 0 and max(drawn) == 599 - kept  # the oldest were dropped, the newest kept


def test_the_least_recently_used_goes_first_and_the_size_is_counted_both_ways():
    cache = live.Kept(limit=3 * live.Kept.cost(page(1000)))
    for key in "abc":
        cache.keep((key,), page(1000, key))
    assert cache.get(("a",)) is not None  # used: now the most recent
    cache.keep(("d",), page(1000, "d"))
    assert [cache.get((key,)) is not None for key in "abcd"] == [True, False, True, True]
    assert cache.size == 3 * live.Kept.cost(page(1000)) and len(cache) == 3
    cache.keep(("a",), page(1000, "A"))  # drawn again: replaces, not added
    assert cache.size == 3 * live.Kept.cost(page(1000)) and cache.get(("a",)) == page(1000, "A")
    cache.clear()
    assert cache.size == 0 and len(cache) == 0


def test_a_drawing_bigger_than_the_whole_limit_is_not_kept():
    cache = live.Kept(limit=live.Kept.cost(page(1000)))
    cache.keep(("small",), page(1000))
    cache.keep(("huge",), page(5000))
    assert cache.get(("huge",)) is None and cache.get(("small",)) == page(1000)


def test_threads_asking_for_one_drawing_at_the_same_moment_draw_it_once():
    cache = live.Kept()
    started, release, calls = threading.Event(), threading.Event(), []

    def draw() -> str:
        calls.append(1)
        started.set()
        release.wait(10)
        return "drawn"

    with ThreadPoolExecutor(6) as pool:
        first = pool.submit(cache.once, ("export",), draw)
        assert started.wait(10)
        others = [pool.submit(cache.once, ("export",), draw) for _ in range(5)]
        release.set()
        assert [f.result(10) for f in [first, *others]] == ["drawn"] * 6
    assert len(calls) == 1


def test_a_failed_drawing_lets_a_waiting_thread_draw_it():
    cache = live.Kept()
    started, release = threading.Event(), threading.Event()

    def fail() -> str:
        started.set()
        release.wait(10)
        raise RuntimeError("the database went away")

    with ThreadPoolExecutor(2) as pool:
        failing = pool.submit(cache.once, ("page",), fail)
        assert started.wait(10)
        waiting = pool.submit(cache.once, ("page",), lambda: "drawn")
        release.set()
        with pytest.raises(RuntimeError):
            failing.result(10)
        assert waiting.result(10) == "drawn"
    assert cache.get(("page",)) == "drawn"
