"""Time at the table: stories, episodes, scenes, the turn order in a scene, the actions declared for a turn."""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from gmtools.models.campaigns import Campaign
from gmtools.models.characters import Character
from gmtools.nulfree import NulFree


class Story(NulFree):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="stories", verbose_name=_("campaign"))
    number = models.PositiveSmallIntegerField(_("number"))
    title = models.CharField(_("title"), max_length=120, blank=True)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    class Meta:
        ordering = ["number"]
        verbose_name = _("story")
        verbose_name_plural = _("stories")
        constraints = [models.UniqueConstraint(fields=["campaign", "number"], name="story_number_unique")]

    def __str__(self) -> str:
        return gettext("Story %(n)d") % {"n": self.number} + (f": {self.title}" if self.title else "")


class Episode(NulFree):
    story = models.ForeignKey(Story, on_delete=models.CASCADE, related_name="episodes", verbose_name=_("story"))
    number = models.PositiveSmallIntegerField(_("number"))
    title = models.CharField(_("title"), max_length=120, blank=True)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    class Meta:
        ordering = ["story__number", "number"]
        verbose_name = _("episode")
        verbose_name_plural = _("episodes")
        constraints = [models.UniqueConstraint(fields=["story", "number"], name="episode_number_unique")]

    def __str__(self) -> str:
        return gettext("Episode %(n)d") % {"n": self.number} + (f": {self.title}" if self.title else "")


class SceneQuerySet(models.QuerySet):
    def current(self, campaign: Campaign) -> "Scene | None":
        """The open scene of a campaign (the newest one not ended), with its story and episode."""
        return (
            self.filter(episode__story__campaign=campaign, ended_at__isnull=True)
            .select_related("episode__story")
            .order_by("-id")
            .first()
        )


class Scene(NulFree):
    """A scene of an episode; a downtime scene is the rest, healing and training between scenes.

    ``turn`` counts the turns of the scene (each about 3 seconds of combat, one action's worth).
    ``combat`` rules out automatic successes and second chances; ``calm`` is the GM saying the
    scene is free of stress, which Exalted's automatic success needs.
    """

    episode = models.ForeignKey(Episode, on_delete=models.CASCADE, related_name="scenes", verbose_name=_("episode"))
    number = models.PositiveSmallIntegerField(_("number"))
    title = models.CharField(_("title"), max_length=120, blank=True)
    downtime = models.BooleanField(_("downtime"), default=False)
    combat = models.BooleanField(_("combat"), default=False)
    calm = models.BooleanField(_("calm (no stress)"), default=False)
    notes = models.TextField(_("scene notes"), blank=True, max_length=2000,
                             help_text=_("What is on fire, who is hidden: shown in the time bar."))
    turn = models.PositiveIntegerField(_("turn"), default=1)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    objects = SceneQuerySet.as_manager()

    class Meta:
        ordering = ["episode__story__number", "episode__number", "number"]
        verbose_name = _("scene")
        verbose_name_plural = _("scenes")
        constraints = [
            models.UniqueConstraint(fields=["episode", "number"], name="scene_number_unique"),
            models.CheckConstraint(condition=Q(turn__gte=1), name="scene_turn_from_one"),
            models.CheckConstraint(condition=~Q(combat=True, calm=True), name="scene_not_calm_in_combat",
                                   violation_error_message=_("A combat scene is never calm.")),
        ]

    def __str__(self) -> str:
        return gettext("Scene %(n)d") % {"n": self.number} + (f": {self.title}" if self.title else "")

    @property
    def where(self) -> str:
        """Where play stands: "Story 2 · Episode 5 · Scene 3 · Turn 4"."""
        return gettext("Story %(story)d · Episode %(episode)d · Scene %(scene)d · Turn %(turn)d") % {
            "story": self.episode.story.number, "episode": self.episode.number, "scene": self.number, "turn": self.turn,
        }


class SceneParticipant(NulFree):
    """A character in a scene, at its place in the turn order (0 acts first)."""

    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="participants", verbose_name=_("scene"))
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="+", verbose_name=_("character"))
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        ordering = ["position", "id"]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [models.UniqueConstraint(fields=["scene", "character"], name="participant_once_per_scene")]


class TurnDeclaration(NulFree):
    """Exalted: the number of actions a character declared for one turn of a scene."""

    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="declarations", verbose_name=_("scene"))
    turn = models.PositiveIntegerField(_("turn"))
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="+", verbose_name=_("character"))
    actions = models.PositiveSmallIntegerField(_("actions"), validators=[MinValueValidator(1), MaxValueValidator(10)])

    class Meta:
        verbose_name = _("declared actions")
        verbose_name_plural = _("declared actions")
        constraints = [
            models.UniqueConstraint(fields=["scene", "turn", "character"], name="declaration_once_per_turn"),
            models.CheckConstraint(condition=Q(actions__gte=1, actions__lte=10), name="declaration_actions_range"),
        ]
