"""Luck and fair dice over many rolls (issue 14): what a campaign's dice did, against their exact odds.

Everything is read in one query of the campaign's log (``FIELDS``, through ``values_list``: no
model instances) and one of its one-click spends, whatever the number of rolls, and each row's
JSON is gone through once, in log order. What the numbers mean is ``rules.fairness``'s:

- **Luck** of the rolls in scope (the filters: a story, an episode, a scene, a character): how
  many threw dice (those with a stored ``luck``, ``gmtools.luck``), their mean percentile against
  the 1/2 of fair dice (``mean_percentile``), the histogram of their percentiles, each special
  result of the game seen against the number its priors expect (``tally``; an opposed roll's are
  left out, ``gmtools.luck.specials``: its contest judges it, not the difficulty they were priced
  against), the longest runs of successes and failures (``streaks``: each roll's last word, a
  Willpower reroll or a Fate invocation after it included; rouse checks and automatic successes
  are no runs, and a tie ends a run), and the resources spent (``BasePlay.spent``: the rolls' spends and the one-click spends, those placed
  in the chosen scene, episode or story by when they were made).
- **Fair dice**: every face thrown in scope, each kind of die apart (``BasePlay.dice`` and
  ``thrown``), tested with ``fair_dice``; a deck of cards by its draws in order (``fair_deck``).
  A voided roll's dice count here (they were thrown: voiding must not hide a loaded die) but not
  in its luck (it did not count at the table). A draw left out (another scene, a secret roll)
  still marks where the deck was reshuffled, so the draws in scope keep their cycles.

The players' version leaves out every roll with something still secret (a secret roll, a secret
difficulty) until the GM reveals it, and counts the one-click spends of the players' characters
only. A game without luck or dice (``BasePlay`` defaults) has an empty page, never an error.

``drawn`` draws the page's body once per change at the table (``live.render_page``): reading it
again costs a cursor and a cache look-up, not the aggregation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django import forms
from django.db.models import Count, QuerySet
from django.template.loader import render_to_string
from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from gmtools import board, games, live
from gmtools.formatting import grouped
from gmtools.forms import LogFilter
from gmtools.games.base import ROLL, BaseGame, BasePlay, Die
from gmtools.luck import special_words, specials
from gmtools.models import (
    FAILED_OUTCOMES, Campaign, Character, CharacterKind, Episode, ResourceChange, Roll, Scene, Story,
)
from rules.dice import RulesError
from rules.fairness import Fit, MeanPercentile, Streaks, Tally, fair_deck, fair_dice, mean_percentile, streaks, tally

FIELDS = ("id", "parent_id", "kind", "character_id", "scene_id", "outcome", "luck", "result", "spends", "voided_at",
          "hidden", "secret", "revealed_at")
DECILES = 10
TIE = "tie"  # a roll's outcome that is neither a success nor a failure (Fate's tie)

# A p-value's verdict (``rules.fairness.verdict``) in words.
VERDICTS: dict[str, Promise] = {
    "too_few": pgettext_lazy("fair dice", "too few to tell"),
    "nothing_unusual": pgettext_lazy("fair dice", "nothing unusual"),
    "unusual": pgettext_lazy("fair dice", "unusual"),
    "very_unusual": pgettext_lazy("fair dice", "very unusual"),
    "impossible": pgettext_lazy("fair dice", "impossible with a fair deck"),
}


SMALLEST_P = 0.001  # below, a p-value reads "p < 0.001"


def p_text(p: float) -> str:
    """A p-value as the active language writes it: 0.43 or 0,43 (three decimals below 0.01)."""
    return number_format(max(p, SMALLEST_P), 2 if p >= 0.01 else 3)


def verdict_text(verdict: str, p_value: float | None) -> str:
    """"nothing unusual, p = 0.43"; "too few to tell" without a p-value."""
    words = str(VERDICTS.get(verdict, verdict))
    if p_value is None:
        return words
    if p_value < SMALLEST_P:
        return gettext("%(verdict)s, p < %(p)s") % {"verdict": words, "p": p_text(SMALLEST_P)}
    return gettext("%(verdict)s, p = %(p)s") % {"verdict": words, "p": p_text(p_value)}


# --- which rolls -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scope:
    """Which rolls the numbers are about, and for whom."""

    scenes: frozenset[int] | None = None  # the chosen story's, episode's or scene's; None: all, outside scenes too
    character: int | None = None
    player: bool = False  # the players' view: nothing still secret
    since: datetime | None = None  # when the chosen scene (episode, story) started: for the one-click spends
    until: datetime | None = None  # ... and ended (None: still going)

    def shows(self, scene: int | None, character: int | None, hidden: bool, secret: bool, revealed: object) -> bool:
        if self.scenes is not None and scene not in self.scenes:
            return False
        if self.character is not None and character != self.character:
            return False
        return not (self.player and (hidden or secret) and revealed is None)


# --- the numbers -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bar:
    """One bar of a chart, its geometry in the chart's units (never localized: SVG reads a dot)."""

    label: str
    value: float
    x: float
    width: float
    y: float
    height: float
    expected: float | None = None
    expected_y: float | None = None

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def middle(self) -> float:
        return self.x + self.width / 2


@dataclass(frozen=True)
class Chart:
    bars: tuple[Bar, ...]
    width: int
    height: int


def columns(values: Sequence[tuple[str, float, float | None]], width: int = 320, height: int = 90) -> Chart:
    """Vertical bars for (label, value, expected or None), scaled to the largest of them."""
    top = max([v for _, v, _ in values] + [e for _, _, e in values if e is not None] + [1e-9])
    step = width / max(1, len(values))
    bars = []
    for i, (label, value, expected) in enumerate(values):
        h = height * value / top
        bars.append(Bar(label, value, x=i * step + 1, width=max(1.0, step - 2), y=height - h, height=h,
                        expected=expected, expected_y=None if expected is None else height - height * expected / top))
    return Chart(tuple(bars), width, height)


@dataclass(frozen=True)
class Seen:
    """A special result of the game seen against the number its priors expect."""

    code: str
    words: Promise | str
    tally: Tally
    seen_width: float  # the bars' lengths, out of 100: the larger of seen and expected over every special
    expected_width: float

    @property
    def verdict(self) -> str:
        return verdict_text(self.tally.verdict, self.tally.p_value)


@dataclass(frozen=True)
class DiceFit:
    """One kind of die's goodness of fit, and its chart of faces (or card groups) against fair play."""

    die: Die
    fit: Fit
    chart: Chart
    # Where the dice came from, when the scope has physical dice (issue 24): "physical" (thrown at the
    # table, their faces entered) or "drawn" (by the server), tested apart; "" when all were drawn.
    source: str = ""

    @property
    def sentence(self) -> str:
        """"1,204 d10s: nothing unusual, p = 0.43", "Physical dice, 340 d10s: nothing unusual, p = 0.21"."""
        dice = self.die.name % {"count": self.fit.dice, "dice": grouped(self.fit.dice)}
        if self.source:
            dice = (gettext("Physical dice, %(dice)s") if self.source == PHYSICAL
                    else gettext("Drawn by the server, %(dice)s")) % {"dice": dice}
        return gettext("%(dice)s: %(verdict)s") % {"dice": dice, "verdict": verdict_text(self.fit.verdict, self.fit.p_value)}


@dataclass(frozen=True)
class Stats:
    rolls: int  # rolls in scope that threw dice (with a luck), not voided
    mean: MeanPercentile
    histogram: Chart
    specials: tuple[Seen, ...]
    streaks: Streaks
    spent: tuple[tuple[Promise | str, int], ...]
    dice: tuple[DiceFit, ...]
    voided_thrown: int  # voided rolls whose dice count in ``dice`` (not in the luck)

    @property
    def empty(self) -> bool:
        """Nothing to show: no dice thrown, nothing spent."""
        return not self.rolls and not self.dice and not any(count for _, count in self.spent)

    @property
    def mean_verdict(self) -> str:
        return verdict_text(self.mean.verdict, self.mean.p_value)

    @property
    def physical_apart(self) -> bool:
        """Physical dice are in scope: each kind of die is tested twice, physical and drawn (issue 24)."""
        return any(fit.source for fit in self.dice)

    @property
    def dice_sentence(self) -> str:
        """Every kind of die in one sentence (the recap's line)."""
        return "; ".join(fit.sentence for fit in self.dice if fit.fit.dice)


@dataclass
class _Tallies:
    """What one pass over the log gathers."""

    lucks: list[tuple[float, float]] = field(default_factory=list)
    histogram: list[int] = field(default_factory=lambda: [0] * DECILES)
    priors: dict[str, list[float]] = field(default_factory=dict)
    seen: Counter = field(default_factory=Counter)
    finals: dict[int, bool | None] = field(default_factory=dict)  # each roll's last word: succeeded? (None: a tie)
    spends: Counter = field(default_factory=Counter)
    faces: dict[tuple[str, bool], Counter] = field(default_factory=dict)  # by (die code, physical)
    draws: dict[str, list[tuple[int, bool]]] = field(default_factory=dict)
    voided_thrown: int = 0  # voided rolls in scope whose dice were counted


def _thrown(play: BasePlay, dice: Mapping[str, Die], gathered: _Tallies, carried: dict[str, bool], kind: str,
            result: Mapping[str, Any], shown: bool) -> bool:
    """Count the faces an entry threw (whether it threw any in scope); a deck's draw left out passes
    on its reshuffle to the next draw."""
    counted = False
    physical = _physical_faces(play, kind, result) if shown else {}
    for code, faces in play.thrown(kind, result):
        die = dice.get(code)
        if die is None:
            continue
        if die.faces:
            if shown:
                thrown = Counter(faces)
                real = physical.get(code, Counter()) & thrown
                physical[code] = physical.get(code, Counter()) - real
                gathered.faces.setdefault((code, True), Counter()).update(real)
                gathered.faces.setdefault((code, False), Counter()).update(thrown - real)
                counted = counted or bool(faces)
            continue
        for card, reshuffled in faces:
            if shown:
                gathered.draws.setdefault(code, []).append((card, reshuffled or carried.get(code, False)))
                carried[code] = False
                counted = True
            elif reshuffled:
                carried[code] = True
    return counted


PHYSICAL, DRAWN = "physical", "drawn"
# What of a roll's result holds dice that are not the acting side's: drawn even when it was physical.
_OTHER_SIDES = ("opponent", "team")


def _physical_faces(play: BasePlay, kind: str, result: Mapping[str, Any]) -> dict[str, Counter]:
    """The faces of an entry entered from physical dice, by die code: the acting side's of a roll
    made with "I rolled real dice" (``result["physical"]``); the opposition and helpers are drawn."""
    if not result.get("physical"):
        return {}
    own = {key: value for key, value in result.items() if key not in _OTHER_SIDES}
    faces: dict[str, Counter] = {}
    for code, thrown in play.thrown(kind, own):
        faces.setdefault(code, Counter()).update(thrown)
    return faces


def _final(outcome: str) -> bool | None:
    """A roll's last word for the runs (``rules.fairness.streaks``): a success, a failure, or a tie
    (Fate's), which is neither and ends either run (issue 23: ties lengthened the runs of successes)."""
    return None if outcome == TIE else outcome not in FAILED_OUTCOMES


def gather(rows: Iterable[Sequence[Any]], play: BasePlay, scope: Scope) -> _Tallies:
    """One pass over the log's rows (``FIELDS``, oldest first)."""
    gathered, roots, carried = _Tallies(), {}, {}
    dice = {die.code: die for die in play.dice}
    for pk, parent, kind, character, scene, outcome, luck, result, spends, voided, hidden, secret, revealed in rows:
        root = roots.get(parent, parent) if parent is not None else pk
        roots[pk] = root
        shown = scope.shows(scene, character, hidden, secret, revealed)
        if _thrown(play, dice, gathered, carried, kind, result or {}, shown):
            gathered.voided_thrown += voided is not None
        if not shown or voided is not None:
            continue
        gathered.spends.update(spend.get("what") for spend in spends or ())
        gathered.spends.update(play.used(kind, result or {}))
        if root == pk:
            if kind == ROLL and luck is not None:
                gathered.finals[pk] = _final(outcome)
        elif root in gathered.finals and (result or {}).get("main"):
            gathered.finals[root] = _final(outcome)  # a reroll's or an invocation's last word
        if luck is None:
            continue
        percentile = luck["percentile"]
        gathered.lucks.append((percentile, luck["variance"]))
        gathered.histogram[min(DECILES - 1, int(percentile * DECILES))] += 1
        for special in specials(luck, result or {}):
            gathered.priors.setdefault(special["code"], []).append(special["prior"])
            gathered.seen[special["code"]] += bool(special["happened"])
    return gathered


def _fits(play: BasePlay, gathered: _Tallies) -> tuple[DiceFit, ...]:
    fits = []
    # Physical dice are the ones a GM wants to test: when the scope has any, each source apart.
    split = any(sum(counts.values()) for (_, real), counts in gathered.faces.items() if real)
    for die in play.dice:
        for source in ((PHYSICAL, DRAWN) if split and die.faces else ("",)):
            try:
                if die.faces:
                    counts = gathered.faces.get((die.code, source == PHYSICAL), Counter())
                    fit = fair_dice({face: n for face, n in counts.items() if face in die.faces}, die.faces)
                else:
                    fit = fair_deck(gathered.draws.get(die.code, ()))
            except RulesError:  # pragma: no cover - the log holds only faces the engine threw
                continue
            if not fit.dice:
                continue
            labels = _labels([face for face, _ in fit.counts], pooled=not die.faces)
            chart = columns([(label, n, expected) for label, (_, n), (_, expected) in zip(labels, fit.counts, fit.expected)])
            fits.append(DiceFit(die, fit, chart, source))
    return tuple(fits)


def _labels(faces: list[int], pooled: bool) -> list[str]:
    """Faces as the chart names them: 1 to 10, or signed (Fate's −1, 0, +1); a deck's card groups
    are sums, the first and last pooled (≤ −2, ≥ +2)."""
    if min(faces) > 0:
        return [str(face) for face in faces]
    labels = [f"{face:+d}".replace("-", "−") if face else "0" for face in faces]
    if pooled:
        labels[0], labels[-1] = "≤" + labels[0], "≥" + labels[-1]
    return labels


def _seen(system: BaseGame, gathered: _Tallies) -> tuple[Seen, ...]:
    tallies = [(code, tally(priors, gathered.seen[code])) for code, priors in gathered.priors.items()]
    top = max([max(t.seen, t.expected) for _, t in tallies] + [1e-9])
    return tuple(Seen(code, special_words(system.id, code), t, 100 * t.seen / top, 100 * t.expected / top)
                 for code, t in tallies)


def _histogram(counts: Sequence[int]) -> Chart:
    step = 100 // DECILES
    return columns([(f"{i * step}–{(i + 1) * step}", n, None) for i, n in enumerate(counts)])


def aggregate(rows: Iterable[Sequence[Any]], system: BaseGame, scope: Scope, clicks: Mapping[str, int] | None = None) -> Stats:
    """The numbers of the rows in scope (``FIELDS``, oldest first); ``clicks``: the one-click
    changes made in scope, by action (``one_click_spends``)."""
    play = system.play
    gathered = gather(rows, play, scope)
    clicks = clicks or {}
    spent = tuple((resource.label, sum(gathered.spends[what] for what in resource.spends)
                   + sum(clicks.get(action, 0) for action in resource.adjustments)) for resource in play.spent)
    return Stats(rolls=len(gathered.lucks), mean=mean_percentile(gathered.lucks), histogram=_histogram(gathered.histogram),
                 specials=_seen(system, gathered), streaks=streaks(gathered.finals.values()), spent=spent,
                 dice=_fits(play, gathered), voided_thrown=gathered.voided_thrown)


def one_click_spends(campaign: Campaign, play: BasePlay, scope: Scope) -> dict[str, int]:
    """The one-click changes that spend a resource (``Spent.adjustments``), not undone, in scope:
    one query (none for a game without them)."""
    actions = {action for resource in play.spent for action in resource.adjustments}
    if not actions:
        return {}
    changes = ResourceChange.objects.filter(campaign=campaign, undone_at__isnull=True, action__in=actions)
    if scope.character is not None:
        changes = changes.filter(character_id=scope.character)
    if scope.player:
        changes = changes.filter(character__kind=CharacterKind.PC)
    if scope.since is not None:
        changes = changes.filter(created_at__gte=scope.since)
    if scope.until is not None:
        changes = changes.filter(created_at__lt=scope.until)
    return dict(changes.order_by().values_list("action").annotate(n=Count("id")).values_list("action", "n"))


def of_rolls(rolls: QuerySet[Roll], campaign: Campaign, scope: Scope) -> Stats:
    """The numbers of a campaign's log (two queries, whatever its length)."""
    system = games.get(campaign.game)
    rows = rolls.filter(campaign=campaign).order_by("id").values_list(*FIELDS)
    return aggregate(rows.iterator(chunk_size=2000), system, scope, one_click_spends(campaign, system.play, scope))


# --- the page ----------------------------------------------------------------------------------


class StatsFilter(LogFilter):
    """The page's filters: a story, an episode, a scene, a character (for the players, one of theirs)."""

    turn = None  # the log's turn filter: a turn's few rolls tell nothing
    character = forms.ModelChoiceField(queryset=None, required=False, empty_label=_("All characters"))

    def __init__(self, campaign: Campaign, *args: Any, player: bool = False, **kwargs: Any) -> None:
        super().__init__(campaign, *args, **kwargs)
        self.campaign, self.player = campaign, player
        cast = campaign.characters.in_table_order()
        self.fields["character"].queryset = cast.filter(kind=CharacterKind.PC) if player else cast
        self.fields["character"].widget.attrs["class"] = "form-select form-select-sm"
        for name, model in (("story", Story), ("episode", Episode), ("scene", Scene), ("character", Character)):
            self.fields[name].widget.attrs["aria-label"] = model._meta.verbose_name

    def chosen(self) -> dict[str, Any]:
        return {name: value for name, value in self.cleaned_data.items() if value} if self.is_bound else {}

    def key(self) -> tuple[int | None, ...]:
        """What the page drawn for these filters is cached by."""
        chosen = self.chosen()
        return tuple(getattr(chosen.get(name), "pk", None) for name in ("story", "episode", "scene", "character"))

    def scope(self) -> Scope:
        """The rolls these filters keep (one query for a story, an episode or a scene's scenes)."""
        chosen = self.chosen()
        times = [chosen[name] for name in ("story", "episode", "scene") if name in chosen]
        scenes = since = until = None
        if times:
            kept = Scene.objects.filter(episode__story__campaign=self.campaign)
            for name, lookup in (("story", "episode__story"), ("episode", "episode"), ("scene", "pk")):
                if name in chosen:
                    kept = kept.filter(**{lookup: chosen[name].pk})
            scenes = frozenset(kept.values_list("pk", flat=True))
            since = max(part.started_at for part in times)
            until = min((part.ended_at for part in times if part.ended_at is not None), default=None)
        character = chosen.get("character")
        return Scope(scenes, character.pk if character else None, self.player, since, until)



def drawn(campaign: Campaign, form: Any, viewer: live.Viewer, urls: Mapping[str, str]) -> str:
    """The statistics page's body for the filters of ``form`` (``forms.StatsFilter``), drawn once
    per change at the table, viewer and filter (``live.render_page``). An invalid filter reads as none."""
    if form.is_bound and not form.is_valid():
        form = type(form)(campaign, player=form.player)
    cursor = board.cursor(campaign)

    def draw() -> str:
        numbers = of_rolls(Roll.objects.all(), campaign, form.scope())
        return render_to_string("stats.html#body", {"campaign": campaign, "stats": numbers, "form": form,
                                                    "player": form.player, "urls": urls})
    return live.render_page(f"stats:{form.key()}", campaign, cursor, viewer, draw)
