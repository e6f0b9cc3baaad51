"""The scene in play: its notes (what its game changes of it: ``follow_ups.change_scene``)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from gmtools.live import announce
from gmtools.models import ChangeKind, Scene
from gmtools.services.locks import Refused


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
