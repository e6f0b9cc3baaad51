"""No NUL character in any text: the base of every table (``NulFree``).

At the bottom of the project, beside ``gmtools.formatting``: the core's models and each game's tables
(``gmtools.games.base.models``) inherit it, and it imports nothing of gmtools.
"""

from collections.abc import Collection, Iterable

from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.db import models

NO_NUL = ProhibitNullCharactersValidator()  # its message, in Django's words and translations


def holds_nul(value: object) -> bool:
    """A NUL character in a text, or anywhere in a JSON value (its keys included)."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(holds_nul(key) or holds_nul(item) for key, item in value.items())
    if isinstance(value, list | tuple):
        return any(holds_nul(item) for item in value)
    return False


class NulFree(models.Model):
    """The base of every table, the core's and each game's: no text of a row, nor any string in its
    JSON, holds a NUL character.

    PostgreSQL cannot store one (text and jsonb refuse it: a DataError, a 500) where SQLite keeps it,
    so the two would differ. Each way in refuses it with a message first (Django's form fields do,
    the one-click consequence, the imports and the saved rolls too); the row is the last guard: its
    ``full_clean()`` gives the field Django's error, and ``save()`` raises it, so no path that saves a
    row reaches the database with one. (``QuerySet.update()`` and ``bulk_create()`` skip both: they
    carry only values already checked.) Abstract and without fields: the tables do not change.
    """

    class Meta:
        abstract = True

    def nul_errors(self, fields: Iterable[str] | None = None) -> dict[str, list[ValidationError]]:
        """The fields (of ``fields``, else all) that hold a NUL character, each with Django's error."""
        deferred = self.get_deferred_fields()  # not loaded, so not changed: never read (a query each)
        return {
            field.name: [ValidationError(NO_NUL.message, code=NO_NUL.code)]
            for field in self._meta.concrete_fields
            if field.attname not in deferred and (fields is None or field.name in fields or field.attname in fields)
            and holds_nul(field.value_from_object(self))
        }

    def clean_fields(self, exclude: Collection[str] | None = None) -> None:
        errors: dict[str, list[ValidationError]] = {}
        try:
            super().clean_fields(exclude)
        except ValidationError as error:
            errors = error.update_error_dict(errors)
        for name, messages in self.nul_errors().items():
            if name not in (exclude or ()) and name not in errors:
                errors[name] = messages
        if errors:
            raise ValidationError(errors)

    def refuse_nul(self, update_fields: Iterable[str] | None = None) -> None:
        """Django's error for the fields (of ``update_fields``, else all) that hold a NUL character."""
        if errors := self.nul_errors(update_fields):
            raise ValidationError(errors)

    def save(self, *args, **kwargs) -> None:
        self.refuse_nul(kwargs.get("update_fields"))
        super().save(*args, **kwargs)
