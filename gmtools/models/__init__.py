"""Campaigns, their characters, and the characters' sheets; the roll log, time at the table, extended
actions, the live streams' changes and the GM's shortcuts.

A Campaign belongs to one GM and plays one game; the game is fixed once the campaign has
characters, because their sheets are that game's. What is the game's own lives in its package
(``gmtools.games``) and is asked of it here; these models name no game.

A Character's resources (Willpower, Hunger, fate points, ...) and a Campaign's state (Fate's deck,
the scifi adventure) are in tables of their game's own app, one row per character (campaign), linked
one-to-one (``gmtools.games.base.models``): real columns, so that the database checks their bounds,
and no column of one game on every row. ``Character.resources`` and ``Campaign.state`` are that
row; each is made with its character (campaign).

Traits (attributes, abilities, approaches, disciplines, ...) are rows. How a standard trait is
named in both languages, and the rating bounds of each game, are explained in ``gmtools.sheets``.
Checks that need another row (the Exalted trait cap set by Essence, Vampire damage against the
boxes that Stamina and Composure + Resolve give) live in ``clean()``, which every form and the
campaign importer run.

One module per topic, each importing only those below it (the contract "The models' modules run
one way" in pyproject.toml): ``changes`` (what changed at the table, for the live streams) and
``shortcuts`` (saved rolls, one-click changes kept to undo), ``rolls`` (the roll log) and
``extended`` (extended actions), ``time`` (stories, episodes, scenes, turns), ``characters``
(characters and their traits), ``campaigns`` (campaigns, the games they may play). A model links to
one above it by name (a roll's ``"Scene"``). Every table keeps the app ``gmtools`` and its name; the
project, the games and the migrations import the models from here, as before the split (issue 21).
"""

# In the order the tables were declared in one module before the split: Django registers them so.
from gmtools.models.campaigns import Campaign, CampaignQuerySet, PerGame, game_choices, new_player_token
from gmtools.models.characters import Character, CharacterManager, CharacterQuerySet, Trait
from gmtools.models.rolls import FAILED_OUTCOMES, KEPT_FROM_PLAYERS, Roll, RollQuerySet
from gmtools.models.time import Episode, Scene, SceneParticipant, SceneQuerySet, Story, TurnDeclaration
from gmtools.models.extended import ExtendedAction, ExtendedKind
from gmtools.models.changes import Change, ChangeKind
from gmtools.models.shortcuts import ResourceChange, SavedRoll
from gmtools.models.discord import DiscordHealth, DiscordMessage, DiscordPost
# Read from here by the tests, as when they were names of the one module.
from gmtools.nulfree import NulFree
from gmtools.sheets import CharacterKind

__all__ = [
    "FAILED_OUTCOMES", "KEPT_FROM_PLAYERS", "Campaign", "CampaignQuerySet", "Change", "ChangeKind",
    "Character", "CharacterKind", "DiscordHealth", "DiscordMessage", "DiscordPost", "CharacterManager", "CharacterQuerySet", "Episode", "ExtendedAction",
    "ExtendedKind", "NulFree", "PerGame", "ResourceChange", "Roll", "RollQuerySet", "SavedRoll", "Scene",
    "SceneParticipant", "SceneQuerySet", "Story", "Trait", "TurnDeclaration", "game_choices",
    "new_player_token",
]
