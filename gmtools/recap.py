"""The roll log exported: a Markdown session recap (reads well pasted into Discord or a wiki) and CSV.

Both come from the stored rolls, oldest first, in the viewer's language. The Markdown ends with
the part's luck in three lines (``luck_lines``, from ``gmtools.stats``): its rolls and their mean
percentile, its special results seen against expected, and the fairness of its dice. The GM's export has
every roll, secret ones marked; the players' recap holds only what the player link may see (no
secret roll until it is revealed, and a secret difficulty's verdict stays hidden).

User text (names, labels, titles) is escaped for Markdown, so a character called ``**@everyone**``
neither formats nor pings anybody, and neutralised for spreadsheets in CSV (a cell that starts
with ``=``, ``+``, ``-`` or ``@``, in any width and after any leading space or line break, gets a
leading apostrophe, so it is never run as a formula).
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.http import HttpResponse
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.text import slugify
from django.utils import translation
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from gmtools import board, games, live, notes, stats
from gmtools.formatting import grouped
from gmtools.luck import band_words
from gmtools.models import Campaign, Episode, Roll, Scene
from gmtools.verdicts import headline, notes_shown
from rules.luck import band as luck_band

FORMATS = [("md", "Markdown"), ("csv", "CSV")]


class ExportForm(forms.Form):
    """Which part of the log: ``campaign``, ``episode-<id>`` or ``scene-<id>`` of this campaign."""

    part = forms.ChoiceField(label=_("What to export"))
    format = forms.ChoiceField(choices=FORMATS, initial="md", label=_("Format"))
    players = forms.BooleanField(required=False, label=_("As the players see it (no secrets), to share with them"))

    def __init__(self, campaign: Campaign, *args: Any, inline: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.inline = inline  # shown in the browser (the players' recap), not downloaded
        episodes = Episode.objects.filter(story__campaign=campaign).select_related("story").order_by("-id")
        scenes = Scene.objects.filter(episode__story__campaign=campaign).select_related("episode__story").order_by("-id")
        self.episodes = {f"episode-{e.pk}": e for e in episodes}
        self.scenes = {f"scene-{s.pk}": s for s in scenes}
        self.fields["part"].choices = [
            ("campaign", _("The whole campaign")),
            (_("Scenes"), [(key, _scene_title(s)) for key, s in self.scenes.items()]),
            (_("Episodes"), [(key, _episode_title(e)) for key, e in self.episodes.items()]),
        ]
        current = next(iter(self.scenes), "campaign")
        self.fields["part"].initial = current
        self.fields["part"].widget.attrs["class"] = "form-select form-select-sm"

    def rolls(self, rolls: QuerySet[Roll]) -> QuerySet[Roll]:
        part = self.cleaned_data["part"]
        if part in self.scenes:
            return rolls.filter(scene=self.scenes[part])
        if part in self.episodes:
            return rolls.filter(scene__episode=self.episodes[part])
        return rolls

    def scope(self, player: bool) -> stats.Scope:
        """The rolls of the part, for the luck at the recap's end (a query for an episode's scenes)."""
        part = self.cleaned_data["part"]
        if part in self.scenes:
            return stats.Scope(frozenset({self.scenes[part].pk}), player=player)
        if part in self.episodes:
            scenes = Scene.objects.filter(episode=self.episodes[part]).values_list("pk", flat=True)
            return stats.Scope(frozenset(scenes), player=player)
        return stats.Scope(player=player)

    def title(self) -> str:
        part = self.cleaned_data["part"]
        if part in self.scenes:
            return _scene_title(self.scenes[part])
        if part in self.episodes:
            return _episode_title(self.episodes[part])
        return gettext("The whole campaign")


def _numbered(story: int, episode: int, scene: int | None = None) -> str:
    """"Story 1 · Episode 2 · Scene 3", in the words that name each on its own.

    Those are the words of ``Story``, ``Episode`` and ``Scene``'s ``__str__``, which the catalog
    translates, so a recap's headings are in the viewer's language (a joined phrase of its own
    would be one more string for the catalog to miss).
    """
    parts = [gettext("Story %(n)d") % {"n": story}, gettext("Episode %(n)d") % {"n": episode}]
    if scene is not None:
        parts.append(gettext("Scene %(n)d") % {"n": scene})
    return " · ".join(parts)


def _scene_title(scene: Scene) -> str:
    where = _numbered(scene.episode.story.number, scene.episode.number, scene.number)
    return f"{where}: {scene.title}" if scene.title else where


def _episode_title(episode: Episode) -> str:
    where = _numbered(episode.story.number, episode.number)
    return f"{where}: {episode.title}" if episode.title else where


def rolls_for(campaign: Campaign, form: ExportForm, player: bool) -> QuerySet[Roll]:
    rolls = Roll.objects.filter(campaign=campaign)
    if player:
        rolls = rolls.for_players()
    return form.rolls(rolls).select_related("scene__episode__story", "voided_by").order_by("id")


def download(campaign: Campaign, form: ExportForm, player: bool) -> HttpResponse:
    """The GM's file to download, named after the campaign and the part exported; the players'
    recap is shown as plain text instead, which a phone can select and paste into Discord."""
    fmt = "md" if form.inline else form.cleaned_data["format"]  # the players' link only ever reads Markdown
    player = player or form.cleaned_data.get("players", False)
    name = slugify(f"{campaign.name} {form.title()}")[:80] or "log"
    text = written(campaign, form, fmt, player)
    if fmt == "csv":
        response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    else:
        response = HttpResponse(markdown_heading(campaign, form.title()) + text,
                                content_type="text/plain; charset=utf-8" if form.inline else "text/markdown; charset=utf-8")
    response["Content-Disposition"] = ("inline" if form.inline else "attachment") + f'; filename="{name}.{fmt}"'
    return response


def written(campaign: Campaign, form: ExportForm, fmt: str, player: bool) -> str:
    """The part's rolls in ``fmt`` (the Markdown without its heading, which says when it was asked for),
    in the viewer's language, written once per change at the table (``live.render_page``).

    A whole campaign of 20,000 rolls takes seconds to write and a player link can ask for it in a
    loop: the log at a change cursor never changes (every write a viewer sees announces one), so the
    text written for it serves every later request until the next change, in this process and,
    through the shared cache (Redis), in the others.
    """
    cursor = board.cursor(campaign)  # first: the text holds at least the rolls of this change

    def draw() -> str:
        rolls = rolls_for(campaign, form, player)
        if fmt == "csv":
            return to_csv(rolls, player)
        return to_markdown(rolls, player, luck_lines(stats.of_rolls(Roll.objects.all(), campaign, form.scope(player))))
    viewer = live.Viewer("player" if player else "gm", translation.get_language())
    return live.render_page(f"export:{form.cleaned_data['part']}:{fmt}", campaign, cursor, viewer, draw, shared=True)


# --- what a roll says, in words -------------------------------------------------------------

def dice_text(roll: Roll) -> str:
    """The faces as a player reads them off the card: ``7 3 10 1 | hunger 10 6 → 10 8``."""
    return faces_text(roll.system, roll.main)


def faces_text(system: str, main: dict[str, Any]) -> str:
    """One side's dice (a roll's, or its opponent's), as its game writes them."""
    return games.get(system).play.dice_text(main)


def result_text(roll: Roll, player: bool) -> str:
    """The verdict and the count beside it, as the card shows them (gmtools/verdicts.py)."""
    if said := roll.follow_up_verdict:
        return said
    line = headline(roll, player)
    return f"{line.text} ({line.count})"


def extras(roll: Roll, player: bool, last: Roll | None = None) -> list[str]:
    """The lines under the verdict: the opposition, teamwork, the Fate effect, notes, spends; the
    opposition, the effect and the notes as ``last`` (the card's standing entry) has them."""
    result, lines = roll.result, []
    last = last or roll
    if last.result.get("opposed"):
        other = last.result.get("opponent", {})
        faces = faces_text(roll.system, other)
        versus, them = gettext("vs"), other.get("name") or gettext("the opposition")
        lines.append(f"{versus} {them}: {faces}")
    if result.get("team"):
        helpers = ", ".join(f"{h['name']} " + ngettext("%(n)s success", "%(n)s successes", h["successes"]) % {"n": h["successes"]}
                            for h in result["team"])
        helped = gettext("Helpers")
        lines.append(f"{helped}: {helpers}")
    if result.get("extended"):
        extended = result["extended"]
        if extended.get("rolled", {}).get("roll_off"):
            lines.append(gettext("Roll-off of the dead heat in “%(name)s”") % {"name": extended.get("name", "")})
        else:
            lines.append(gettext("Into “%(name)s”: %(total)s so far") % {"name": extended.get("name", ""),
                                                                        "total": extended.get("total", 0)})
    if result.get("helpers") and not result.get("team"):
        lines.append(gettext("Helped by") + " " + ", ".join(result["helpers"]))
    if last.result.get("effect"):
        lines.append(notes.effect_text(last.result["effect"]))
    lines += [notes.note_text(n) for n in notes_shown(last, player)]
    spent = games.get(roll.system).play.spends_text(roll.spends)
    if spent:
        lines.append(gettext("Spent") + ": " + ", ".join(spent))
    return lines


def voided_text(roll: Roll, player: bool) -> str:
    """"Voided by gm1 at 21:04"; the players read "by the GM" (never the GM's login)."""
    when = f"{timezone.localtime(roll.voided_at):%H:%M}"
    if player or roll.voided_by is None:
        return gettext("Voided by the GM at %(when)s") % {"when": when}
    return gettext("Voided by %(who)s at %(when)s") % {"who": roll.voided_by.get_username(), "when": when}


# --- Markdown ------------------------------------------------------------------------------

# What Discord and common Markdown act on in the middle of a line (user text never starts one):
# emphasis, code, strikethrough, spoilers, links, HTML and mentions.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|~@])")


def md(text: Any) -> str:
    """User text as literal Markdown: no formatting, links, headings or @mentions."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def _where(roll: Roll) -> str:
    return _scene_title(roll.scene) if roll.scene_id else gettext("Outside any scene")


def luck_lines(numbers: stats.Stats) -> list[str]:
    """The part's luck in three lines: its rolls and mean percentile with its word, each special
    result seen against expected, and its dice's fairness. None without a roll that threw dice."""
    if not numbers.rolls:
        return []
    mean = numbers.mean.mean
    rolled = ngettext("%(count)s roll, mean percentile %(mean)s (%(band)s); fair dice: %(verdict)s",
                      "%(count)s rolls, mean percentile %(mean)s (%(band)s); fair dice: %(verdict)s", numbers.rolls) % {
        "count": grouped(numbers.rolls), "mean": number_format(round(100 * mean, 1), 1) + "%",
        "band": str(band_words(luck_band(mean))).lower(), "verdict": numbers.mean_verdict}
    # A count of one takes the singular where the language has one ("1 visto", not "1 vistos").
    specials = "; ".join(f"{special.words}: " + ngettext("%(seen)s seen, %(expected)s expected",
                                                         "%(seen)s seen, %(expected)s expected", special.tally.seen) % {
        "seen": special.tally.seen, "expected": number_format(round(special.tally.expected, 1), 1)}
        for special in numbers.specials) or gettext("none")
    dice = numbers.dice_sentence or gettext("none")
    if numbers.voided_thrown:  # they were thrown: a loaded die must not hide behind a void (gmtools.stats)
        dice += " " + ngettext("(with the dice of %(count)s voided roll)", "(with the dice of %(count)s voided rolls)",
                               numbers.voided_thrown) % {"count": numbers.voided_thrown}
    # Each label a gettext call of its own (makemessages reads no call inside an f-string).
    labels = gettext("Luck"), gettext("Special results"), gettext("Dice")
    return [f"**{labels[0]}**: {md(rolled)}  ", f"**{labels[1]}**: {md(specials)}  ", f"**{labels[2]}**: {md(dice)}"]


def _clock(moment: datetime) -> str:
    """A roll's time in the recap; its date too when it was not rolled today (a log that spans
    sessions, as the cards say it)."""
    local = timezone.localtime(moment)
    return f"{local:%H:%M}" if local.date() == timezone.localdate() else f"{local:%Y-%m-%d %H:%M}"


def markdown_heading(campaign: Campaign, title: str) -> str:
    when = f"{timezone.localtime():%Y-%m-%d %H:%M}"
    return "\n".join([f"# {md(campaign.name)} — {md(title)}", "",
                      f"_{campaign.get_game_display()} · " + gettext("exported %(when)s") % {"when": when} + "_"]) + "\n"


def _cards(rolls: Iterable[Roll]) -> list[tuple[Roll, list[Roll]]]:
    """The rolls as the log's cards: each roll with its follow-ups (oldest first), which its line
    carries; a follow-up whose roll is not exported (another part) stands on its own."""
    cards: dict[int, tuple[Roll, list[Roll]]] = {}
    card_of: dict[int, int] = {}
    for roll in rolls:
        root = card_of.get(roll.parent_id) if roll.parent_id else None
        if root is None:
            cards[roll.pk] = (roll, [])
            card_of[roll.pk] = roll.pk
        else:
            cards[root][1].append(roll)
            card_of[roll.pk] = root
    return list(cards.values())


def _standing(roll: Roll, follow_ups: list[Roll]) -> Roll:
    """The entry whose dice and verdict the card shows (``Roll.standing``, from the exported rows)."""
    if roll.voided_at is not None:
        return roll
    return next((e for e in reversed(follow_ups) if e.voided_at is None and not e.follow_up_verdict), roll)


def _follow_up_line(entry: Roll, player: bool) -> str:
    """A follow-up under its roll: what it is, the dice it threw, the total it made, what it spent."""
    said = entry.follow_up_verdict
    faces = dice_text(entry) if entry.luck is not None and not said else ""
    line = f"{_clock(entry.created_at)} {entry.kind_label}: " + (f"`{faces}` → " if faces else "")
    line += f"**{md(result_text(entry, player))}**"
    spent = games.get(entry.system).play.spends_text(entry.spends)
    if spent:
        line += " · " + md(gettext("Spent") + ": " + ", ".join(spent))
    if entry.voided_at:
        line = f"~~{line}~~ _{md(voided_text(entry, player))}_"
    return line


def to_markdown(rolls: Iterable[Roll], player: bool, luck: Iterable[str] = ()) -> str:
    """The log under the heading (``markdown_heading``): a section per scene, a line per roll (its
    card: the total its last standing follow-up made, each follow-up a line under it), the luck."""
    lines, heading, count = [], None, 0
    for roll, follow_ups in _cards(rolls):
        where = _where(roll)
        if where != heading:
            heading = where
            lines += ["", f"## {md(where)}", ""]
        count += 1
        mark = ""
        if roll.hidden and not player:
            mark = " " + (gettext("(revealed)") if roll.revealed_at else gettext("(secret roll)"))
        elif roll.revealed_at:
            mark = " " + gettext("(revealed)")
        if roll.result.get("physical"):
            mark += " " + gettext("(physical dice)")
        label = md(roll.display_label) + (f" · {roll.kind_label}" if roll.parent_id else "")
        last = _standing(roll, follow_ups)
        faces = dice_text(last)
        turn = (gettext("turn %(n)d") % {"n": roll.turn} + " · ") if roll.turn else ""
        entry = (f"{turn}{_clock(roll.created_at)} **{md(roll.actor)}** — {label}: "
                 + (f"`{faces}` → " if faces else "") + f"**{md(result_text(last, player))}**{mark}")
        if roll.voided_at:  # struck through, kept in the log
            entry = f"~~{entry}~~ _{md(voided_text(roll, player))}_"
        lines.append(f"- {entry}")
        lines += [f"  - {md(line)}" for line in extras(roll, player, last)]
        lines += [f"  - {_follow_up_line(e, player)}" for e in follow_ups]
    if not count:
        lines += ["", gettext("No rolls.")]
    elif luck := list(luck):
        lines += ["", "---", *luck]
    return "\n".join(lines) + "\n"


# --- CSV ---------------------------------------------------------------------------------------

# What starts a formula in a spreadsheet: these four, in their ASCII, fullwidth (＝＋－＠) or small
# forms, which NFKC folds into ASCII (East Asian spreadsheets read "＝" as "="), even after the spaces
# and line breaks a spreadsheet trims from a cell's start.
_FORMULA_STARTS = frozenset("=+-@")


def _cell(value: Any) -> Any:
    """A value as a spreadsheet may open it: user text that could start a formula gets a leading
    apostrophe, which makes the cell plain text (OWASP's "CSV injection" advice). A tab or a carriage
    return first (which hide what follows) gets one too."""
    if not isinstance(value, str):
        return value
    first = value.lstrip()[:1]
    if value[:1] in ("\t", "\r") or unicodedata.normalize("NFKC", first)[:1] in _FORMULA_STARTS:
        return "'" + value
    return value


def thrown_text(roll: Roll) -> str:
    """How the dice of an entry came, as data: "physical" (entered from real dice), "drawn", or ""
    when it threw none (a stunt reward, taking half)."""
    if not dice_text(roll):
        return ""
    return "physical" if roll.result.get("physical") else "drawn"


def to_csv(rolls: Iterable[Roll], player: bool) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    # The header is read by machines (a spreadsheet's formulas, a script's column names), so it stays
    # English in every language, and a new column goes at the end: the positions of those before it
    # never move under a spreadsheet already built on them ("thrown", then "rolled_by": issue 24).
    writer.writerow(["id", "when", "story", "episode", "scene", "turn", "who", "what", "kind", "dice", "result",
                     "successes", "margin", "details", "secret", "revealed", "voided", "thrown", "rolled_by"])
    for roll in rolls:
        scene = roll.scene
        line = headline(roll, player)
        writer.writerow([_cell(v) for v in (
            roll.pk, timezone.localtime(roll.created_at).isoformat(),  # the campaign's zone, its offset said
            scene.episode.story.number if scene else "", scene.episode.number if scene else "",
            scene.number if scene else "", roll.turn or "", roll.actor, roll.display_label, roll.kind_label,
            dice_text(roll), result_text(roll, player),
            "" if line.successes is None else line.successes, "" if line.margin is None else line.margin,
            " / ".join(extras(roll, player)),
            "secret roll" if roll.hidden else "secret difficulty" if roll.secret else "",
            timezone.localtime(roll.revealed_at).isoformat() if roll.revealed_at else "",
            voided_text(roll, player) if roll.voided_at else "",
            thrown_text(roll),
            roll.rolled_by,  # who rolled it from the phone; empty for the GM's own
        )])
    return out.getvalue()
