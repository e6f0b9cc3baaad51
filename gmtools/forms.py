"""Forms of the table that more than one view (or the live streams) build."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.core.validators import MaxLengthValidator
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from gmtools.models import Campaign, Episode, ExtendedAction, Roll, Scene
from rules.extended import TieBreak


class LogFilter(forms.Form):
    """Filter the log by where play stood: a story, an episode, a scene, a turn."""

    # Each labelled (visually hidden on the table): a screen reader names the list, not only its first option.
    story = forms.ModelChoiceField(queryset=None, required=False, label=_("Story"), empty_label=_("All stories"))
    episode = forms.ModelChoiceField(queryset=None, required=False, label=_("Episode"), empty_label=_("All episodes"))
    scene = forms.ModelChoiceField(queryset=None, required=False, label=_("Scene"), empty_label=_("All scenes"))
    turn = forms.IntegerField(min_value=1, required=False, label=_("Turn"),
                              widget=forms.NumberInput(attrs={"placeholder": _("Turn")}))

    def __init__(self, campaign: Campaign, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["story"].queryset = campaign.stories.all()
        self.fields["episode"].queryset = Episode.objects.filter(story__campaign=campaign).select_related("story")
        self.fields["scene"].queryset = Scene.objects.filter(episode__story__campaign=campaign).select_related("episode__story")
        for field in self.fields.values():
            field.widget.attrs["class"] = "form-select form-select-sm" if isinstance(field.widget, forms.Select) else "form-control form-control-sm"

    def rolls(self, campaign: Campaign) -> QuerySet[Roll]:
        rolls = Roll.objects.filter(campaign=campaign)
        if not self.is_valid():
            return rolls
        data = self.cleaned_data
        if data["story"]:
            rolls = rolls.filter(scene__episode__story=data["story"])
        if data["episode"]:
            rolls = rolls.filter(scene__episode=data["episode"])
        if data["scene"]:
            rolls = rolls.filter(scene=data["scene"])
        if data["turn"]:
            rolls = rolls.filter(turn=data["turn"])
        return rolls


class SceneForm(forms.Form):
    title = forms.CharField(max_length=120, required=False, label=_("Title"))
    downtime = forms.BooleanField(required=False, label=_("Downtime"))
    combat = forms.BooleanField(required=False, label=_("Combat"))
    calm = forms.BooleanField(required=False, label=_("Calm (no stress)"))


class ExtendedForm(forms.ModelForm):
    class Meta:
        model = ExtendedAction
        fields = ["name", "character", "traits", "kind", "goal", "pool", "interval", "difficulty", "botch", "limit",
                  "opponent", "opponent_pool", "tie_break"]

    def __init__(self, *args, campaign: Campaign, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["character"].queryset = campaign.characters.all()
        self.fields["tie_break"].required = False  # left out: a dead heat is a tie, as before there was a choice

    def clean_tie_break(self) -> str:
        return self.cleaned_data["tie_break"] or TieBreak.TIE


class LoginForm(AuthenticationForm):
    """Django's login form, with the username's length checked.

    Django sets the field's max_length after making it, so no validator checks it, and django-axes
    records each failed username in a 255-character column: PostgreSQL refused a longer one (a 500).
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].validators.append(MaxLengthValidator(self.fields["username"].max_length))
