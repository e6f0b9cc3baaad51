"""Aspects and the scene: situation aspects and boosts, the scene's notes."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from gmtools import games
from gmtools.live import announce
from gmtools.models import (
    Aspect,
    ChangeKind,
    Scene,
)
from gmtools.services.locks import Refused


@transaction.atomic
def add_scene_aspect(scene: Scene, text: str, free_invocations: int = 0, boost: bool = False) -> Aspect:
    """Fate: a situation aspect (or a boost: one free invocation, gone once used) on the scene in play."""
    campaign = scene.episode.story.campaign
    if not games.get(campaign.game).play.situation_aspects:
        raise Refused(_("Situation aspects and boosts are Fate's."))
    if not Scene.objects.filter(pk=scene.pk, ended_at__isnull=True).exists():
        raise Refused(_("This scene has ended; start a new one."))
    text = " ".join(text.split())
    if not text:
        raise Refused(_("Name the aspect."))
    aspect = Aspect(scene=scene, text=text, boost=boost, free_invocations=1 if boost else free_invocations)
    try:
        aspect.full_clean()
    except ValidationError as error:
        raise Refused(" ".join(error.messages)) from None
    aspect.save()
    announce(campaign.pk, ChangeKind.TIME)
    return aspect


@transaction.atomic
def remove_scene_aspect(scene: Scene, aspect_id: int) -> None:
    """The GM takes a situation aspect or a boost of the scene off the table."""
    if not Aspect.objects.filter(pk=aspect_id, scene=scene, character__isnull=True).delete()[0]:
        raise Refused(_("That aspect is no longer on the scene."))
    announce(scene.episode.story.campaign_id, ChangeKind.TIME)


@transaction.atomic
def set_scene_notes(scene: Scene, notes: str) -> Scene:
    """The scene's notes (what is on fire, who is hidden), in every game."""
    notes = notes.strip().replace("\r\n", "\n")
    limit = Scene._meta.get_field("notes").max_length
    if len(notes) > limit:
        raise Refused(_("Scene notes hold at most %(n)d characters.") % {"n": limit})
    if not Scene.objects.filter(pk=scene.pk, ended_at__isnull=True).update(notes=notes):
        raise Refused(_("This scene has ended; start a new one."))
    scene.notes = notes
    announce(scene.episode.story.campaign_id, ChangeKind.TIME)
    return scene
