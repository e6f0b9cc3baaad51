"""A player rolls their own character from the phone (issue 24): the GM's composer, for that character only.

The campaign lets players roll (``Campaign.players_roll``) and the GM hands a player the character's
own link (``Character.player_token``). Its page (``gmtools.player_views``) shows, above the log, the
composer of the character's game for that character alone (``PlayerComposerForm``), its exact odds as
the player chooses, and Roll, which records through the GM's own service (``services.record_roll``):
the same refusals, spends, turn budgets and one-click keys, into the same log, scene and turn.

What the player's composer leaves out is the GM's: another character (the opposition, teamwork, a
Fate aspect put on another), the extended actions, and whatever keeps a roll from the players (a
secret roll, V5's secret difficulty). The difficulty is the game's default until the player picks
the one the GM announces, unless the GM asked the phone for one (``Character.asked_difficulty``,
``services.ask_difficulty``): then it is the GM's, whatever is posted, kept secret when asked so.

Under the composer, the follow-ups the player may take (``open_follow_ups``): those their game lets a
player take (``FollowUp.by_players``: V5's Willpower reroll, a Fate invocation after the roll) on the
character's latest roll made from the phone, standing and public, and on the entries that followed it
(as the GM's card offers them). The live cards are every phone's, so the forms are drawn here, on the
player's own page, never on the cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext as _

from gmtools.composer import ComposerForm, initial_values
from gmtools import games
from gmtools.games.base import FollowUp
from gmtools.models import Campaign, Character, Roll, Scene
from gmtools.services import Refused
from gmtools.odds import odds_panel
from gmtools.physical import as_priced, entry_of


class PlayerComposerForm(ComposerForm):
    """The composer of the campaign's game for one character, as its player sees it on the phone.

    The character is fixed: the list offers that one alone, so a request for another (a forged
    POST) is refused as "not one of the choices", nothing rolled; no character at all is refused
    too (an unnamed NPC's roll is the GM's)."""

    # The GM's alone: what involves another character, the extended actions, what hides a roll, and
    # the rulings that skip the dice (RULES.md): Exalted's Calm, V5's How (an automatic win, taking half).
    GM_ONLY = ComposerForm.OPPOSED_FIELDS + ("team", "extended", "hidden", "secret", "handicap", "calm", "shortcut")

    def __init__(self, campaign: Campaign, character: Character, *args: Any, **kwargs: Any) -> None:
        asked = character.asked_difficulty
        if not args and "initial" not in kwargs:
            kwargs["initial"] = {"character": character, **({"difficulty": asked} if asked else {})}
        # Whether the GM's difficulty stood in for the one posted, and that one (the player's own pick,
        # for the composer after the roll: ``kept_after_roll``).
        self.overridden, self.own_difficulty = False, ""
        if asked and args and args[0] is not None:
            self.overridden = True
            # The difficulty the GM asked (``services.ask_difficulty``), whatever the phone posts: a forged one too.
            data = args[0].copy()
            self.own_difficulty = str(data.get("difficulty") or "")
            data["difficulty"] = asked
            data["secret"] = "on" if character.asked_secret else ""
            args = (data, *args[1:])
        self.character = character  # before the form's own setup, which asks ``_chosen_character``
        super().__init__(campaign, *args, **kwargs)
        for name in self.GM_ONLY:
            if not (name == "secret" and character.asked_secret):  # the GM's, kept as asked
                self.fields.pop(name, None)
        own = campaign.characters.filter(pk=character.pk)
        chosen = self.fields["character"]
        assert isinstance(chosen, forms.ModelChoiceField)
        chosen.queryset, chosen.required, chosen.empty_label = own, True, None
        where = self.fields.get("advantage_on")  # Fate: a created aspect goes on the scene or on the character
        if isinstance(where, forms.ModelChoiceField):
            where.queryset = own

    def _chosen_character(self, name: str = "character") -> Character | None:
        # Whatever was posted, the traits and the aspects offered are this character's: a forged
        # request asking for another's (an NPC's aspects, which the players' page never shows) reads nothing of it.
        return self.character if name == "character" else super()._chosen_character(name)

    def kept_after_roll(self) -> dict[str, Any]:
        """As the GM's (``ComposerForm.kept_after_roll``), but a difficulty the GM asked is not kept: the
        ask is spent, and the next composer shows the player's own pick, never the GM's (kept secret)."""
        kept = super().kept_after_roll()
        if self.overridden:
            kept.pop("secret", None)
            kept.pop("difficulty", None)
            if self.own_difficulty:
                kept["difficulty"] = self.own_difficulty
        return kept

    @property
    def asked_text(self) -> str:
        """The difficulty the GM asked of this roll, in words ("" when the player picks it)."""
        asked = self.character.asked_difficulty
        if not asked:
            return ""
        if self.character.asked_secret:
            return _("Difficulty: set by the GM, kept secret.")
        return _("Difficulty: %(difficulty)s, set by the GM.") % {"difficulty": self.difficulty_said(asked)}

    @property
    def extras_summary(self) -> str:
        return str(self.fields["label"].label)  # the fold holds the note alone


def composer_context(campaign: Campaign, character: Character, token: str, scene: Scene | None,
                     kept: Mapping[str, Any] | None = None, physical: bool = False) -> dict[str, Any]:
    """What the player page draws of the character's composer: none while the campaign keeps the
    dice to the GM; else a fresh composer, with the odds of its initial values (as the GM's). After a
    roll, ``kept``: what the player chose that outlives it (``ComposerForm.kept_after_roll``), as the
    GM's composer keeps it, what is on offer read again (a Willpower spent this turn); ``physical``: "I
    rolled real dice" stays ticked, and the odds are the dice's (Fate's deck draws no card for them)."""
    context: dict[str, Any] = {"roller": character, "player_token": token}
    if not campaign.players_roll:
        return {**context, "closed": closed_text()}
    form = PlayerComposerForm(campaign, character, initial={**(kept or {}), "character": character}, scene=scene)
    bound = PlayerComposerForm(campaign, character, initial_values(form) | ({"physical": "on"} if physical else {}),
                               scene=scene)
    return {**context, "form": form, **odds_context(bound), **follow_ups_context(campaign, character, token)}


def follow_ups_context(campaign: Campaign, character: Character, token: str) -> dict[str, Any]:
    """What ``player.html#player-follow-ups`` draws: the follow-ups open to the player now, or that
    the GM voided the character's latest roll from the phone (said beside the composer, where the
    player looks: the struck card is down the log)."""
    latest = (Roll.objects.filter(character=character, parent__isnull=True, hidden=False).exclude(rolled_by="")
              .only("voided_at", "label", "label_parts", "system", "kind").order_by("-id").first())
    return {"campaign": campaign, "roller": character, "player_token": token,
            "follow_ups_open": open_follow_ups(character),
            "voided_last": latest if latest is not None and latest.voided_at is not None else None}


def open_roll(character: Character) -> Roll | None:
    """The roll whose follow-ups the player may take: the character's latest one rolled from the phone
    (``rolled_by``) that stands (not voided) and that the players see (not a secret roll), with its
    chain (``for_log``); None when there is none. A roll the GM made for the character is the GM's."""
    return (Roll.objects.filter(character=character, voided_at__isnull=True, hidden=False).exclude(rolled_by="")
            .for_log().first())


def _chain(character: Character) -> list[Roll]:
    """The open roll and each follow-up of it still standing: the entries its card offers follow-ups on."""
    roll = open_roll(character)
    return [] if roll is None else [roll, *(entry for entry in roll.follow_ups_in_order if entry.voided_at is None)]


def open_follow_ups(character: Character) -> list[tuple[Roll, FollowUp]]:
    """What the player may take now, as (the entry it follows, the follow-up): what the GM's card
    offers on the open roll's chain (``Roll.offers``) that a player takes (``FollowUp.by_players``)."""
    return [(entry, offer) for entry in _chain(character) for offer in entry.offers() if offer.by_players]


def followed_by_player(character: Character, roll_pk: int, kind: str) -> Roll:
    """The entry a player's follow-up of that kind follows, or ``Refused``: the open roll or a standing
    entry of it (another character's roll, the GM's, a voided or secret one, an older one are not the
    player's), and a kind their game lets a player take. The service judges the rest (once per roll,
    what it spends)."""
    entry = next((entry for entry in _chain(character) if entry.pk == roll_pk), None)
    if entry is None:
        raise Refused(_("Only your character's last roll from this phone, still standing, can be followed up here."))
    offer = games.get(entry.system).play.follow_up(kind)
    if offer is not None and not offer.by_players:
        raise Refused(_("That is the GM's to give on this roll."))
    return entry


def odds_context(form: PlayerComposerForm) -> dict[str, Any]:
    """The odds panel of a bound composer (``player.html#odds``), or why it cannot be rolled, with the
    dice a physical roll of it reads (``gmtools.physical``: the entry's count)."""
    composition = as_priced(form.cleaned_data["composition"], form.data) if form.is_valid() else None
    entry = entry_of(composition) if composition else None
    # What the GM asked is said with the odds, which follow the table live (player.html).
    asked = {"asked_text": form.asked_text, "disabled_fields": form.disabled_fields}
    if composition is not None and form.character.asked_secret:
        # The chances against a secret difficulty would tell it: the GM's alone, as on the card.
        return {"odds": None, "odds_errors": [], "odds_secret": True, "physical_entry": entry, **asked}
    return {"odds": odds_panel(composition) if composition else None, "odds_errors": form.messages(),
            "physical_entry": entry, **asked}


def closed_text() -> str:
    return _("The GM rolls for now: rolling from the phone is off at this table.")
