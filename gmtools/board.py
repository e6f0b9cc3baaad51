"""What the table shows, read from the database: the queries behind the GM's fragments and the
player view, shared by the views and the live streams so that both draw the same thing."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cached_property

from django.db import models
from django.db.models import Max, Prefetch, QuerySet, prefetch_related_objects
from django.utils.functional import SimpleLazyObject

from gmtools import games
from gmtools.composer import Cast, RollInto
from gmtools.forms import ExtendedForm, SceneForm
from gmtools.models import (
    Campaign,
    Change,
    ChangeKind,
    Character,
    CharacterKind,
    Roll,
    Scene,
    SceneParticipant,
    Trait,
    TurnDeclaration,
)
from gmtools import undo
from gmtools.odds import extended_panel


def card_prefetch(game: str) -> tuple[Prefetch | str, ...]:
    """What a character's card shows besides the row: its traits, its game's own rows (Fate's
    aspects, by their related name: ``SheetRows.name``) and its saved rolls."""
    own = (Prefetch(rows.name, queryset=rows.model._default_manager.order_by("id")) for rows in games.get(game).sheet.rows)
    return (Prefetch("traits", queryset=Trait.objects.order_by("id")), *own, "saved_rolls")


def characters(campaign: Campaign) -> QuerySet[Character]:
    return campaign.characters.in_table_order().with_resources(campaign.game).prefetch_related(*card_prefetch(campaign.game))


def annotate_turn(cast: list[Character], scene: Scene | None) -> None:
    """Each character's rolls and declared actions this turn, and whether it is in the scene's turn
    order (3 queries for all of them)."""
    rolls: dict[int, list[Roll]] = {}
    declared: dict[int, int] = {}
    taking_part: set[int] = set()
    if scene is not None:
        # A voided roll used up nothing of the turn (nor does it say who has acted).
        for r in Roll.objects.filter(scene=scene, turn=scene.turn, kind="roll", voided_at__isnull=True).order_by("id"):
            rolls.setdefault(r.character_id, []).append(r)
        declared = dict(TurnDeclaration.objects.filter(scene=scene, turn=scene.turn).values_list("character_id", "actions"))
        taking_part = set(scene.participants.values_list("character_id", flat=True))
    for c in cast:
        play = games.get(c.game).play
        c.turn_rolls = rolls.get(c.pk, [])
        c.turn_declared = declared.get(c.pk, 1)
        c.turn_actions = sum(r.action != "reflexive" for r in c.turn_rolls)
        c.turn_slots = play.turn_slots(c.turn_rolls)
        c.turn_next_penalty = (c.turn_declared + c.turn_actions) if c.turn_declared > 1 else 0
        c.in_scene = c.pk in taking_part  # outside the turn order, no action budget to show


def participants(scene: Scene | None) -> list[SceneParticipant]:
    """The scene's turn order as stored, with each character (one query; none without a scene)."""
    return list(scene.participants.select_related("character")) if scene is not None else []


def turn_order(rows: list[SceneParticipant], cast: list[Character], player: bool = False) -> list[SceneParticipant]:
    """The turn order (``rows``: ``participants``) as an audience sees it; whose turn it is: the first
    in the order who has not used up its turn.

    ``cast`` must be annotated (``annotate_turn``) so that nothing more is queried. For the
    players, a secret roll not yet revealed is no sign of having acted: the turn order must not
    tell them the GM rolled for someone. ``rows`` are copied, not changed: the GM's and the
    players' turn orders are drawn from the same read.
    """
    acted = {c.pk for c in cast if _turn_done(c, player)}
    order = [copy.copy(p) for p in rows]
    current = next((p for p in order if p.character_id not in acted), None)
    for p in order:
        p.acted = p.character_id in acted
        p.current = p is current
    return order


def _turn_done(c: Character, player: bool) -> bool:
    """Has this character used up its turn? As its game says (Exalted: its declared actions;
    scifi: its action slots), else with one roll."""
    rolls = [r for r in c.turn_rolls if not (player and r.private)]
    return games.get(c.game).play.turn_done(c, rolls)


class PlayersCopy:
    """The characters' cards and the scene's rows (Fate's aspects) as the players see them while
    secret rolls are not revealed: the ``Ledger`` those rolls and their follow-ups are given back to,
    newest first, as voiding them would give them back (``BasePlay.give_back``), but in copies, so the
    players see no trace of what they spent or gained while every other change still shows. The GM's
    drawing of the same reads (``Table``) keeps the originals. A copy is made of what a secret entry
    touches only: with no secret roll standing, the players' cards are the GM's rows.

    Only rows already read are found (a card's prefetched rows of the game's, the scene's): a card
    not drawn needs no copy.
    """

    def __init__(self, game: str, cast: list[Character], scene: Scene | None, scene_rows: list[models.Model]) -> None:
        self.originals = {c.pk: c for c in cast}
        self.copies: dict[int, Character] = {}
        self.scene = scene
        self.scene_rows = scene_rows
        self._scene_copied = False
        # A game's own rows of a character, by model: their related name, as the cards prefetch them.
        self.owned = {rows.model: rows.name for rows in games.get(game).sheet.rows}

    def seen(self, characters: list[Character]) -> list[Character]:
        return [self.copies.get(c.pk, c) for c in characters]

    # --- the Ledger ---

    def character(self, pk: int | None) -> Character | None:
        if pk in self.copies:
            return self.copies[pk]
        original = self.originals.get(pk)
        if original is None:
            return None  # deleted since
        copied = self.copies[pk] = copy.copy(original)
        resources = original.resources
        if resources is not None:  # its own copy, to change as the entries are given back
            setattr(copied, resources._meta.app_label, copy.copy(resources))
        cache = _cache(original)
        # Its own lists of copies of its rows, to change as the entries are given back.
        copied._prefetched_objects_cache = {**cache, **{
            name: _prefetched(model, [copy.copy(r) for r in cache[name]]) for model, name in self.owned.items() if name in cache}}
        return copied

    def update(self, character: Character, **fields: object) -> None:
        for name, value in fields.items():
            setattr(character.resources, name, value)

    def row[M: models.Model](self, model: type[M], pk: int | None) -> M | None:
        if pk is None:
            return None
        if any(type(r) is model and r.pk == pk for r in self.scene_rows):
            rows = self._scene_list()
        else:
            name = self.owned.get(model)
            owner = next((c.pk for c in self.originals.values() if any(r.pk == pk for r in _cache(c).get(name, ()))),
                         None) if name else None
            if name is None or owner is None:
                return None  # gone, or on no card drawn
            rows = self._rows_of(self.character(owner), name)
        return next((r for r in rows if type(r) is model and r.pk == pk), None)

    def update_row(self, row: models.Model, **fields: object) -> None:
        for name, value in fields.items():
            setattr(row, name, value)

    def delete_row(self, row: models.Model) -> None:
        name = self.owned.get(type(row))
        owner = self.copies.get(row.character_id) if name and getattr(row, "character_id", None) else None
        rows = self._rows_of(owner, name) if owner is not None and name else self._scene_list()
        if row in rows:
            rows.remove(row)

    def make_row(self, model: type[models.Model], **fields: object) -> None:
        row = model(**fields)
        name = self.owned.get(model)
        if name and getattr(row, "character_id", None) is not None:
            owner = self.character(row.character_id)
            if owner is not None and name in _cache(owner):
                self._rows_of(owner, name).append(row)
        elif self.scene_open(getattr(row, "scene_id", None)):
            self._scene_list().append(row)

    def scene_open(self, pk: int | None) -> bool:
        return pk is not None and self.scene is not None and pk == self.scene.pk

    def _scene_list(self) -> list[models.Model]:
        if not self._scene_copied:
            self.scene_rows, self._scene_copied = [copy.copy(r) for r in self.scene_rows], True
        return self.scene_rows

    @staticmethod
    def _rows_of(character: Character | None, name: str) -> list[models.Model]:
        return _cache(character)[name]._result_cache


def _cache(character: Character | None) -> dict[str, QuerySet]:
    return getattr(character, "_prefetched_objects_cache", {})


def _prefetched(model: type[models.Model], rows: list[models.Model]) -> QuerySet:
    """These rows as a character's prefetched rows (what ``character.aspects.all`` gives for Fate's)."""
    cached = model._default_manager.none()
    cached._result_cache, cached._prefetch_done = rows, True
    return cached


@dataclass
class Table:
    """The reads behind the time bar, the turn order and the cast, drawn for either audience
    (``context``): a change's GM answer and its players' drawing share them (``Redraw``)."""

    campaign: Campaign
    scene: Scene | None
    cast: list[Character]
    order: list[SceneParticipant]
    scene_rows: list[models.Model] | None  # None: the game has none (``BasePlay.scene_rows``), or no scene is in play

    @classmethod
    def read(cls, campaign: Campaign, cards: bool = True) -> Table:
        """``cards=False`` when no character's card is drawn (the cast then comes without what only a
        card shows: see ``card_prefetch``)."""
        scene = Scene.objects.current(campaign)
        cast = list(characters(campaign) if cards else campaign.characters.in_table_order().with_resources(campaign.game))
        annotate_turn(cast, scene)
        # The game's own rows of the scene (Fate's situation aspects and boosts), shown in the time bar.
        rows = games.get(campaign.game).play.scene_rows(scene) if scene is not None else None
        return cls(campaign, scene, cast, participants(scene), list(rows) if rows is not None else None)

    @cached_property
    def undo_offer(self) -> undo.Offer | None:
        """What the GM's Undo button offers (read once for every GM drawing of these reads)."""
        return undo.offer(self.campaign)

    @cached_property
    def players_copy(self) -> PlayersCopy:
        """The table as the players see it (``PlayersCopy``): one query, for the secret entries standing.

        Read once for every players' drawing of these reads, after the cards drawn have their rows
        (``Redraw.context``)."""
        held = PlayersCopy(self.campaign.game, self.cast, self.scene, self.scene_rows or [])
        secrets = (Roll.objects.filter(campaign=self.campaign, voided_at__isnull=True).kept_from_players()
                   .only("system", "kind", "character_id", "parent_id", "spends", "result").order_by("-id"))
        for entry in secrets:
            games.get(entry.system).play.give_back(entry, held)
        return held

    def context(self, player: bool = False) -> dict:
        cast, scene_rows = self.cast, self.scene_rows
        if player:
            # The players' copy is read when a card (or a scene's row, which a secret roll may have
            # touched) is drawn: a turn order's or an extended action's drawing does without it.
            cast = SimpleLazyObject(lambda: self.players_copy.seen(self.cast))
            if scene_rows is not None:
                scene_rows = SimpleLazyObject(lambda: self.players_copy.scene_rows)
        return {"campaign": self.campaign, "scene": self.scene, "characters": cast, "scene_form": SceneForm(),
                "scene_rows": scene_rows, "participants": turn_order(self.order, self.cast, player),
                "undo": None if player else self.undo_offer}


def time_context(campaign: Campaign, player: bool = False, cards: bool = True) -> dict:
    """The time bar, the turn order and the cast (``Table``), for the GM or the players."""
    return Table.read(campaign, cards).context(player)


def extended_context(campaign: Campaign) -> dict:
    actions = list(campaign.extended_actions.select_related("character", "first__character", "second__character")[:20])
    for action in actions:
        action.panel = extended_panel(action, campaign.game)
    return {"campaign": campaign, "extended_actions": actions,
            "extended_form": ExtendedForm(campaign=campaign, auto_id="extended_%s")}


def cursor(campaign: Campaign) -> int:
    """The newest change at the table; read before the page, so the stream resumes from here."""
    return Change.objects.filter(campaign=campaign).aggregate(n=Max("id"))["n"] or 0


def roll_into(campaign: Campaign, chosen: object = None, oob: bool = False) -> str:
    """The composer's "Roll into extended action" list as it stands: the running actions only
    (empty for a game whose composer has no such list); ``oob`` to swap it into an htmx answer."""
    if not games.get(campaign.game).extended_actions:
        return ""
    return RollInto(campaign, initial={"extended": chosen})["extended"].as_widget(attrs={"hx-swap-oob": "true"} if oob else None)


# Which parts of the page each kind of change redraws.
PARTS: dict[str, frozenset[str]] = {
    ChangeKind.ROLL: frozenset({"cards", "character", "order", "extended", "time", "undo"}),
    # A revealed roll may show who has acted, and what it spent or gained shows on the players' cards
    # and the scene's rows (``PlayersCopy``): on any character's (a Fate aspect invoked, an advantage made).
    ChangeKind.REVEAL: frozenset({"cards", "order", "characters", "time"}),
    ChangeKind.CHARACTER: frozenset({"character", "undo"}),  # undo: the GM's Undo button (what it would undo)
    ChangeKind.TIME: frozenset({"time", "order", "characters", "extended", "undo"}),
    ChangeKind.ORDER: frozenset({"order"}),
    ChangeKind.EXTENDED: frozenset({"extended"}),
    ChangeKind.SWITCH: frozenset({"time"}),
    ChangeKind.LINK: frozenset({"link"}),
}


class Redraw:
    """What a change redraws, read once and drawn for either audience (``context``, the context of
    a ``live-change`` partial, the GM's or the players').

    The live streams draw each change with it, and the GM's own click gets the same parts in its
    answer (``oob``: each swapped out of band), so the table that made a change and the tables
    that hear of it show the same thing. The click's answer to a roll and the streams' versions of
    it come from one ``Redraw`` (gmtools.live.WritersDrawing): the same reads, drawn for each.
    """

    def __init__(self, campaign: Campaign, kind: str, roll: Roll | None = None, character_id: int | None = None) -> None:
        parts = PARTS[kind]
        # A character change without a character is the cast changing (one made, edited, copied in or
        # deleted, gmtools.characters, or in the admin): the whole list of cards, the turn order, the
        # composer's list (the GM's page then asks the rest of its composer again: static/live.js) and
        # the extended actions, which name their characters and offer them to a new one.
        self.cast = kind == ChangeKind.CHARACTER and character_id is None and roll is None
        if self.cast:
            parts = parts - {"character"} | {"order", "cast"}
            if games.get(campaign.game).extended_actions:
                parts |= {"extended"}
        self.kind, self.parts, self.roll = kind, parts, roll
        self.every_card = "characters" in parts or self.cast  # the cast's list draws every card too
        self.table = Table.read(campaign, cards=self.every_card)
        if "characters" in parts:
            wanted = {c.pk for c in self.table.cast}
        elif "character" in parts:
            wanted = {character_id or (roll.character_id if roll else None)} - {None}
        else:
            wanted = set()
        self.shown = [c for c in self.table.cast if c.pk in wanted]
        # The card of the roll's chain (its first roll's, which draws its follow-ups): a follow-up
        # changes the card it is on, never makes one.
        self.cards = (list(Roll.objects.for_log().filter(campaign=campaign, pk__in=roll.family()))
                      if "cards" in parts and roll is not None else [])
        # One character's change (a one-click spend, an undo): its newest roll's card too, whose
        # follow-ups offer what the character can pay or take (an Exalted stunt reward into pools
        # no longer full). For the GM's streams only: the players' cards offer nothing, and the tab
        # that clicked gets it with its echo (static/live.js places it over the card it shows).
        self.offers = (list(Roll.objects.for_log().filter(campaign=campaign, character_id=character_id,
                                                          voided_at__isnull=True)[:1])
                       if kind == ChangeKind.CHARACTER and character_id is not None
                       and games.get(campaign.game).play.follow_ups else [])
        self.extended = "extended" in parts and not (kind == ChangeKind.ROLL and roll is not None and not roll.extended_id)
        self.extended_context = extended_context(campaign) if self.extended else {}

    @property
    def main_card(self) -> Roll | None:
        """A roll's change: the card the roll (or follow-up) is on, which the GM's click gets as its
        answer, redrawn in place, and the other parts out of band (gmtools.live.render_drawn)."""
        if self.kind != ChangeKind.ROLL or self.roll is None:
            return None
        return self.cards[0] if self.cards else None

    def context(self, player: bool = False, oob: bool = False) -> dict:
        campaign, parts = self.table.campaign, self.parts
        shown = [c for c in self.shown if not player or c.kind == CharacterKind.PC]
        if not self.every_card:
            # One card: not the whole cast's traits. Before the players' copies are made of it.
            prefetch_related_objects(shown, *card_prefetch(campaign.game))
        context = self.table.context(player) | self.extended_context
        if player and shown:
            shown = self.table.players_copy.seen(shown)
        cards = self.cards if oob or player else self.cards + self.offers
        if player and cards:
            seen = set(Roll.objects.filter(pk__in=[r.pk for r in cards]).for_players().values_list("pk", flat=True))
            cards = [r for r in cards if r.pk in seen]
        if self.extended and not player and campaign.extended_actions.exists():
            # Still chosen after a roll into it, until it ends (then it is no longer on offer).
            chosen = self.roll.extended_id if self.roll else None
            context["roll_into"] = roll_into(campaign, chosen=chosen, oob=oob)
        context.update(cards=cards, shown=shown, player=player, oob=oob, show_time="time" in parts,
                       show_order=bool({"order", "time"} & parts), show_extended=self.extended,
                       show_link="link" in parts, show_undo="undo" in parts and not player, show_cast=self.cast)
        if self.cast and not player:
            context["composer_character"] = Cast(campaign)["character"]
        return context


def redraw(campaign: Campaign, kind: str, roll: Roll | None = None, character_id: int | None = None,
           oob: bool = False) -> dict:
    """What a change redraws for the GM (``Redraw``)."""
    return Redraw(campaign, kind, roll, character_id).context(oob=oob)
