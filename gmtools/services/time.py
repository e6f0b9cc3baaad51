"""Time at the table: stories, episodes, scenes, turns, the turn order and extended actions."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from gmtools import games
from gmtools.live import announce
from gmtools.models import (
    Campaign,
    ChangeKind,
    Character,
    Episode,
    ExtendedAction,
    Roll,
    Scene,
    SceneParticipant,
    Story,
    TurnDeclaration,
)
from gmtools.services.locks import Refused, lock_character


def _lock_campaign(campaign: Campaign) -> Campaign:
    """Serialise the time workflows of one campaign, so two clicks never make two scene 3s."""
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


def _open_story(campaign: Campaign) -> Story | None:
    return campaign.stories.filter(ended_at__isnull=True).order_by("-number").first()


def _open_episode(campaign: Campaign) -> Episode | None:
    return Episode.objects.filter(story__campaign=campaign, ended_at__isnull=True).order_by("-id").first()


def _end(rows) -> int:
    return rows.filter(ended_at__isnull=True).update(ended_at=timezone.now())


def _end_scenes(campaign: Campaign, scenes) -> None:
    """End these scenes (those still open), and clear what the game clears when a scene ends."""
    system = games.get(campaign.game)
    system.play.scenes_ending(scenes.filter(ended_at__isnull=True))
    # What the game resets on its characters (games.get(...).scene_clears: Fate's stress boxes).
    # Exalted's and scifi's per-turn budgets (declared actions, Willpower once a turn, action
    # slots, an extended action carried into the next turn) belong to the scene they were taken
    # in, so a new scene starts without them.
    if _end(scenes) and (clears := system.scene_clears):
        system.resources.model._default_manager.filter(character__campaign=campaign).update(**clears)


@transaction.atomic
def start_story(campaign: Campaign, title: str = "") -> Story:
    """A new story (ending the one in play, its episode and scene)."""
    _lock_campaign(campaign)
    _end_scenes(campaign, Scene.objects.filter(episode__story__campaign=campaign))
    _end(Episode.objects.filter(story__campaign=campaign))
    _end(campaign.stories.all())
    number = (campaign.stories.aggregate(n=Max("number"))["n"] or 0) + 1
    announce(campaign.pk, ChangeKind.TIME)
    return Story.objects.create(campaign=campaign, number=number, title=title)


@transaction.atomic
def start_episode(campaign: Campaign, title: str = "") -> Episode:
    """A new episode of the story in play (a first story is started if there is none)."""
    _lock_campaign(campaign)
    story = _open_story(campaign) or start_story(campaign)
    _end_scenes(campaign, Scene.objects.filter(episode__story=story))
    _end(story.episodes.all())
    number = (story.episodes.aggregate(n=Max("number"))["n"] or 0) + 1
    announce(campaign.pk, ChangeKind.TIME)
    return Episode.objects.create(story=story, number=number, title=title)


@transaction.atomic
def start_scene(campaign: Campaign, title: str = "", downtime: bool = False, combat: bool = False,
                calm: bool = False, characters: list[Character] | None = None) -> Scene:
    """A new scene of the episode in play, at turn 1, with the player characters (or those given)."""
    if combat and calm:
        raise Refused(_("A combat scene is never calm."))
    _lock_campaign(campaign)
    episode = _open_episode(campaign) or start_episode(campaign)
    _end_scenes(campaign, episode.scenes.all())
    number = (episode.scenes.aggregate(n=Max("number"))["n"] or 0) + 1
    scene = Scene.objects.create(episode=episode, number=number, title=title, downtime=downtime, combat=combat, calm=calm)
    if characters is None:
        characters = list(campaign.characters.filter(kind="pc").order_by("name"))
    SceneParticipant.objects.bulk_create(
        SceneParticipant(scene=scene, character=c, position=i) for i, c in enumerate(characters)
    )
    announce(campaign.pk, ChangeKind.TIME)
    return scene


@transaction.atomic
def end_scene(scene: Scene) -> None:
    campaign = scene.episode.story.campaign
    _end_scenes(campaign, Scene.objects.filter(pk=scene.pk))
    announce(campaign.pk, ChangeKind.TIME)


@transaction.atomic
def end_episode(campaign: Campaign) -> None:
    _lock_campaign(campaign)
    _end_scenes(campaign, Scene.objects.filter(episode__story__campaign=campaign))
    _end(Episode.objects.filter(story__campaign=campaign))
    announce(campaign.pk, ChangeKind.TIME)


@transaction.atomic
def change_turn(scene: Scene, step: int) -> Scene:
    """Next (+1) or previous (−1) turn, atomically in the database (never below turn 1)."""
    if Scene.objects.filter(pk=scene.pk, ended_at__isnull=False).exists():
        raise Refused(_("This scene has ended."))
    rows = Scene.objects.filter(pk=scene.pk, ended_at__isnull=True)
    if step < 0:
        rows = rows.filter(turn__gt=1)
    if not rows.update(turn=F("turn") + step):
        raise Refused(_("Already at the first turn.") if step < 0 else _("This scene has ended."))
    scene = Scene.objects.select_related("episode__story").get(pk=scene.pk)
    announce(scene.episode.story.campaign_id, ChangeKind.TIME)
    return scene


@transaction.atomic
def reorder(scene: Scene, character_ids: list[int]) -> None:
    """Set the turn order; the list must name exactly the scene's characters."""
    participants = {p.character_id: p for p in scene.participants.select_for_update()}
    if sorted(character_ids) != sorted(participants):
        raise Refused(_("The turn order must list each character of the scene once."))
    for position, character_id in enumerate(character_ids):
        participants[character_id].position = position
    SceneParticipant.objects.bulk_update(participants.values(), ["position"])
    announce(scene.episode.story.campaign_id, ChangeKind.ORDER)


@transaction.atomic
def join_scene(scene: Scene, character: Character) -> None:
    if character.campaign_id != scene.episode.story.campaign_id:
        raise Refused(_("That character is not in this campaign."))
    last = scene.participants.aggregate(n=Max("position"))["n"]
    _participant, created = SceneParticipant.objects.get_or_create(
        scene=scene, character=character, defaults={"position": 0 if last is None else last + 1})
    if not created:
        raise Refused(_("%(name)s is already in the scene.") % {"name": character.name})
    announce(character.campaign_id, ChangeKind.ORDER)


@transaction.atomic
def leave_scene(scene: Scene, character: Character) -> None:
    if not scene.participants.filter(character=character).delete()[0]:
        raise Refused(_("%(name)s is not in the scene.") % {"name": character.name})
    announce(character.campaign_id, ChangeKind.ORDER)


def declare_actions(scene: Scene, character: Character, actions: int) -> TurnDeclaration:
    """Exalted: declare N actions for the current turn (before the first roll of the turn)."""
    if not 1 <= actions <= 10:
        raise Refused(_("Declare from 1 to 10 actions."))
    with transaction.atomic():
        lock_character(character.pk)
        if Roll.objects.this_turn(scene, character).exists():
            raise Refused(_("%(name)s has already acted this turn; declare actions before the first roll.")
                          % {"name": character.name})
        declaration, _created = TurnDeclaration.objects.update_or_create(
            scene=scene, turn=scene.turn, character=character, defaults={"actions": actions})
        announce(character.campaign_id, ChangeKind.CHARACTER, character=character)
    return declaration


@transaction.atomic
def stop_extended(action: ExtendedAction) -> None:
    """The GM ends an extended action before its goal (the character stops concentrating on it)."""
    if not ExtendedAction.objects.filter(pk=action.pk, stopped=False, ruined=False).update(stopped=True):
        raise Refused(_("“%(name)s” is already over.") % {"name": action.name})
    announce(action.campaign_id, ChangeKind.EXTENDED)


@transaction.atomic
def create_extended(campaign: Campaign, scene: Scene | None, **fields: Any) -> ExtendedAction:
    game = games.get(campaign.game)
    if not game.extended_actions:
        raise Refused(game.play.extended_refusal)
    action = ExtendedAction(campaign=campaign, scene=scene, **fields)
    action.first, action.second = action.named_traits()
    action.full_clean()
    action.save()
    announce(campaign.pk, ChangeKind.EXTENDED)
    return action


@transaction.atomic
def flip(campaign: Campaign) -> None:
    """Flip the campaign's table switch: draw from the Fate deck, or open/close the scifi adventure."""
    campaign.flip()
    announce(campaign.pk, ChangeKind.SWITCH)


@transaction.atomic
def move_in_order(scene: Scene, character: Character, by: int) -> None:
    """Move a character one place up (−1) or down (+1) in the turn order: the keyboard's drag and drop."""
    order = list(scene.participants.select_for_update().values_list("character_id", flat=True))
    if character.pk not in order:
        raise Refused(_("%(name)s is not in the scene.") % {"name": character.name})
    i = order.index(character.pk)
    j = max(0, min(len(order) - 1, i + by))
    order[i], order[j] = order[j], order[i]
    reorder(scene, order)
