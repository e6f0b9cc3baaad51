"""gmtools' rules engine: the dice, mechanics and exact odds of four tabletop games.

A functional core with no dependency beyond the standard library (a test enforces it).
Rolling functions take a random source; resolving functions take the faces, so every roll
can be replayed from what it drew. Results are frozen dataclasses with the faces, the
counts, the outcome and a short structured explanation (``notes``) that the UI translates.

Modules: ``dice`` (random sources, faces, notes), ``dist`` (exact distributions and
contests), ``extended`` (extended actions as Markov chains), ``luck`` (where a roll fell in
its own distribution), ``fairness`` (would fair dice do what a campaign's did?), and one
module per game: ``exalted``, ``scifi``, ``v5``, ``fate``. ``python -m rules`` is the
command line.
"""

from rules.dice import RulesError

SYSTEMS = ("exalted", "scifi", "v5", "fate")

__all__ = ["RulesError", "SYSTEMS"]
