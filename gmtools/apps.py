from django.apps import AppConfig
from django.db.models import fields
from django.utils.translation import gettext_lazy as _


class GmtoolsConfig(AppConfig):
    name = "gmtools"
    verbose_name = "gmtools"

    def ready(self) -> None:
        # Django 6.1's blank choice of a select, which its own Spanish catalog does not translate
        # yet; Django documents replacing it here. Ours is translated (locale/es).
        fields.BLANK_CHOICE_LABEL = _("- Select an option -")
