"""Many new rows checked as ``full_clean()`` checks each one, without a query per row, then written.

``full_clean()`` asks the database about every constraint of a row: one query (in its own
savepoint) per check constraint and per unique constraint, and one per foreign key. A Vampire
character has some forty range constraints, so a campaign file of 1,149 characters made hundreds
of thousands of queries (issue 28, item 5). Here each row gets Django's own field validation and
its model's ``clean()``, and the model's constraints are evaluated in Python:

- a check constraint whose condition is made of plain look-ups (``exact``, ``in``, ``lt``,
  ``lte``, ``gt``, ``gte``, ``isnull``, a value or ``F()`` of the same row, AND/OR/NOT) is
  evaluated on the row; any other condition is left to Django (its query, for that row only);
- a unique constraint is checked among the rows given, which is exact for rows whose every unique
  constraint names a parent made by the same write (a new character's traits, a new campaign's
  stories): no row already stored can share it. Its fields, ``F()`` and ``Lower(F())`` are
  understood; any other expression is left to Django.

The foreign keys are not looked up: the caller sets them to rows it has just written (``exclude``).
The database's own constraints stay the last guard: a row that passes here and fails there raises
``IntegrityError`` inside the caller's transaction, which the caller turns into a refusal.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower


class Invalid(Exception):
    """A row refused: where it is (the caller's words) and Django's error."""

    def __init__(self, where: str, error: ValidationError) -> None:
        super().__init__(where, error)
        self.where, self.error = where, error


def validate[M: models.Model](rows: Sequence[tuple[str, M]], exclude: Collection[str] = ()) -> list[M]:
    """The rows (each with where it is) if every one passes; else ``Invalid`` for the first that fails."""
    if not rows:
        return []
    model = type(rows[0][1])
    checks = [c for c in model._meta.constraints if isinstance(c, models.CheckConstraint)]
    uniques = [c for c in model._meta.constraints if isinstance(c, models.UniqueConstraint)]
    seen: dict[str, set[Hashable]] = {constraint.name: set() for constraint in uniques}
    for where, row in rows:
        # As full_clean(): every error is said, and a constraint on a field already in error is skipped.
        errors: dict[str, list[ValidationError]] = {}
        try:
            row.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
        except ValidationError as error:
            error.update_error_dict(errors)
        # (Not the excluded links: they are rows of the same write, which the constraints are checked among.)
        skip = set(errors) - {NON_FIELD_ERRORS}
        for constraint in checks:
            if _names(constraint.condition) & skip:
                continue
            holds = _holds(constraint.condition, row)
            if holds is None:
                _validate_in_database(constraint, row, skip, errors)
            elif not holds:
                _violation(constraint).update_error_dict(errors)
        for constraint in uniques:
            if _unique_names(constraint) & skip:
                continue
            key = _unique_key(constraint, row)
            if key is _UNKNOWN:
                _validate_in_database(constraint, row, skip, errors)
            elif key is not None:
                if key in seen[constraint.name]:
                    _add_unique_error(constraint, _unique_violation(constraint, row), errors)
                seen[constraint.name].add(key)
        if errors:
            raise Invalid(where, ValidationError(errors))
    return [row for _where, row in rows]


def describe(error: ValidationError, names: Mapping[str, str] | None = None) -> str:
    """A validation error in one line: "rating: Must be from 0 to 5.; name: ..."; ``names``: the
    fields as the caller's words name them, where they differ."""
    if not hasattr(error, "error_dict"):
        return " ".join(error.messages)
    names = names or {}
    return "; ".join(
        " ".join(messages) if field == NON_FIELD_ERRORS else f"{names.get(field, field)}: {' '.join(messages)}"
        for field, messages in error.message_dict.items()
    )


# --- check constraints: a condition evaluated on the row -----------------------------------------

_COMPARE = {
    "exact": lambda a, b: a == b,
    "lt": lambda a, b: a < b,
    "lte": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "gte": lambda a, b: a >= b,
    "in": lambda a, b: a in b,
}


def _holds(condition: Q, row: models.Model) -> bool | None:
    """Whether the row meets the condition; None when the condition is more than plain look-ups."""
    if condition.connector not in (Q.AND, Q.OR):
        return None
    found = []
    for child in condition.children:
        holds = _holds(child, row) if isinstance(child, Q) else _lookup(row, *child)
        if holds is None:
            return None
        found.append(holds)
    result = all(found) if condition.connector == Q.AND else any(found)
    return not result if condition.negated else result


def _lookup(row: models.Model, lookup: str, value: Any) -> bool | None:
    name, _sep, kind = lookup.partition("__")
    kind = kind or "exact"
    try:
        mine = _value(row, name)
    except LookupError:
        return None
    if kind == "isnull":
        return (mine is None) == bool(value)
    if isinstance(value, F):
        value = _value(row, value.name)
    elif hasattr(value, "resolve_expression"):
        return None
    if kind not in _COMPARE or mine is None or value is None:
        return None  # SQL's NULL makes a check pass; Django's query knows how
    return _COMPARE[kind](mine, value)


def _value(row: models.Model, name: str) -> Any:
    """A column's value; for a link to a row not written yet (made in the same write), that row itself."""
    field = row._meta.get_field(name)
    value = getattr(row, field.attname)
    if value is None and field.is_relation and field.is_cached(row) and (linked := field.get_cached_value(row)):
        return _New(linked)
    return value


class _New:
    """A row not written yet, equal only to itself (its id is not known)."""

    def __init__(self, row: models.Model) -> None:
        self.row = row

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _New) and other.row is self.row

    def __hash__(self) -> int:
        return id(self.row)


def _violation(constraint: models.BaseConstraint) -> ValidationError:
    return ValidationError(constraint.get_violation_error_message(), code=constraint.violation_error_code)


# --- unique constraints: among the rows written together ------------------------------------------

_UNKNOWN = object()


def _unique_key(constraint: models.UniqueConstraint, row: models.Model) -> Any:
    """The row's values under the constraint; None when it does not apply (its condition, a NULL),
    ``_UNKNOWN`` when an expression is more than ``F()`` or ``Lower(F())``."""
    if constraint.condition is not None:
        holds = _holds(constraint.condition, row)
        if holds is None:
            return _UNKNOWN
        if not holds:
            return None
    values: list[Any] = [_value(row, name) for name in constraint.fields]
    for expression in constraint.expressions:
        lower = isinstance(expression, Lower)
        target = expression.get_source_expressions()[0] if lower else expression
        if not isinstance(target, F):
            return _UNKNOWN
        value = _value(row, target.name)
        values.append(value.lower() if lower and isinstance(value, str) else value)
    if any(value is None for value in values):
        return None  # NULLs are distinct, in SQL and in Django's check
    return tuple(values)


def _unique_violation(constraint: models.UniqueConstraint, row: models.Model) -> ValidationError:
    if constraint.fields and not constraint.condition and (
            constraint.violation_error_message == constraint.default_violation_error_message):
        return row.unique_error_message(type(row), constraint.fields)  # what Django says of such a constraint
    return _violation(constraint)


def _validate_in_database(constraint: models.BaseConstraint, row: models.Model, skip: set[str],
                          errors: dict[str, list[ValidationError]]) -> None:
    try:
        constraint.validate(type(row), row, exclude=skip)
    except ValidationError as error:
        _add_unique_error(constraint, error, errors)


def _add_unique_error(constraint: models.BaseConstraint, error: ValidationError,
                      errors: dict[str, list[ValidationError]]) -> None:
    """Where ``Model.validate_constraints()`` puts it: a one-field unique error under that field."""
    fields = getattr(constraint, "fields", ())
    if getattr(error, "code", None) == "unique" and len(fields) == 1:
        errors.setdefault(fields[0], []).append(error)
    else:
        error.update_error_dict(errors)


def _names(condition: Q) -> set[str]:
    """The fields a condition reads: its look-ups' and ``F()``'s."""
    found: set[str] = set()
    for child in condition.children:
        if isinstance(child, Q):
            found |= _names(child)
        else:
            lookup, value = child
            found.add(lookup.partition("__")[0])
            if isinstance(value, F):
                found.add(value.name)
    return found


def _unique_names(constraint: models.UniqueConstraint) -> set[str]:
    found = set(constraint.fields) | (_names(constraint.condition) if constraint.condition is not None else set())
    for expression in constraint.expressions:
        found |= _f_names(expression)
    return found


def _f_names(expression: Any) -> set[str]:
    if isinstance(expression, F):
        return {expression.name}
    return {name for source in expression.get_source_expressions() for name in _f_names(source)}
