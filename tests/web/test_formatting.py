"""``gmtools.formatting``: the one place the core and the games format numbers (issue 21)."""

import pytest
from django.template import Context, Template
from django.utils import translation

from gmtools.formatting import grouped, percent, signed


@pytest.mark.parametrize(("language", "p", "text"), [
    ("en", 0.625, "62.5%"), ("es", 0.625, "62,5%"), ("en", 0.5, "50%"), ("en", 0.0, "0%"), ("en", 1.0, "100%"),
    ("en", 0.0004, "<0.1%"), ("es", 0.0004, "<0,1%"), ("en", 0.9996, ">99.9%"), ("en", None, ""),
])
def test_percent(language, p, text):
    with translation.override(language):
        assert percent(p) == text


@pytest.mark.parametrize(("language", "n", "text"), [("en", 1204, "1,204"), ("es", 1204, "1\xa0204"), ("en", 12, "12")])
def test_grouped(language, n, text):
    with translation.override(language):
        assert grouped(n) == text


@pytest.mark.parametrize(("n", "text"), [(2, "+2"), (0, "0"), (-1, "\u22121")])
def test_signed_prints_the_typographic_minus(n, text):
    assert signed(n) == text


def test_the_template_filters_are_these_functions():
    with translation.override("es"):
        shown = Template("{% load table %}{{ p|percent }} {{ n|grouped }} {{ d|signed }}").render(
            Context({"p": 0.625, "n": 1204, "d": -3}))
    assert shown == "62,5% 1\xa0204 \u22123"
