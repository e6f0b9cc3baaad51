"""What the core asks of a game: the typed interface each game app of ``gmtools.games`` fills in.

Like a Django database backend, a game is one package behind this interface, and the core (models,
services, views, templates) asks the game it is given instead of branching on it. No module of the
core names a game: the games are the apps of ``INSTALLED_APPS`` whose config is a ``GameConfig``
(``apps.py``), each with its own tables (``models.py``: ``gmtools.games.base.models``).

- ``game``: ``BaseGame``, one game (features as class attributes, behaviour as methods), which holds
- ``composer``: ``BaseComposer``, its part of the roll composer, and the values it exchanges;
- ``play``: ``BasePlay``, how it plays at the table (spends, follow-ups, one-click changes, luck);
- ``table``: ``Table``, the one way a game calls back into the table, and the helpers its callbacks
  are written with; ``sheets``: the values a game describes its sheet and words with; ``odds``: the
  odds panel's values; ``models``: the abstract bases of a game's own tables; ``apps``: ``GameConfig``.

This package imports Django, ``rules`` and the bottom of the core (``gmtools.formatting``,
``gmtools.nulfree``), never the rest of gmtools (an import contract, ``pyproject.toml``).
"""

from gmtools.formatting import percent as percent  # the games print numbers with these
from gmtools.formatting import signed as signed
from gmtools.games.base.composer import (
    NUMERIC_DIFFICULTIES as NUMERIC_DIFFICULTIES,
    BaseComposer as BaseComposer,
    Composition as Composition,
    Draft as Draft,
    ModelMultipleChoiceField as ModelMultipleChoiceField,
    SheetPool as SheetPool,
    Spend as Spend,
    TurnReads as TurnReads,
    form_field as form_field,
)
from gmtools.games.base.game import BaseGame as BaseGame
from gmtools.games.base.odds import (
    Buy as Buy,
    Chance as Chance,
    OddsPanel as OddsPanel,
    bars as bars,
    pool_panel as pool_panel,
)
from gmtools.games.base.play import (
    D10 as D10,
    ROLL as ROLL,
    AdjustmentWords as AdjustmentWords,
    BasePlay as BasePlay,
    CharacterCheck as CharacterCheck,
    Die as Die,
    FollowUp as FollowUp,
    FollowUpForm as FollowUpForm,
    Ledger as Ledger,
    SceneChange as SceneChange,
    Spent as Spent,
    SpendKind as SpendKind,
    character_spend as character_spend,
    spend_label as spend_label,
)
from gmtools.games.base.sheets import (
    POOL_NAMES as POOL_NAMES,
    Bounds as Bounds,
    CharacterKind as CharacterKind,
    Columns as Columns,
    DemoCampaign as DemoCampaign,
    DemoCharacter as DemoCharacter,
    Line as Line,
    NpcTemplate as NpcTemplate,
    Npcs as Npcs,
    Params as Params,
    Row as Row,
    SheetRows as SheetRows,
    SheetRules as SheetRules,
    StandardTrait as StandardTrait,
    StateColumns as StateColumns,
    TraitCategory as TraitCategory,
    line_text as line_text,
    refusal_line as refusal_line,
    sheet_part as sheet_part,
    with_text_value as with_text_value,
)
from gmtools.games.base.table import (
    Refused as Refused,
    Table as Table,
    contest as contest,
    logged_request as logged_request,
    rebuild as rebuild,
    request_args as request_args,
    request_doc as request_doc,
    step as step,
    toggle as toggle,
)
