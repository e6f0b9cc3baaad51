"""A fifth game, made from the tests alone (issue 21): a plain pool of d6s, each 5 or 6 a success, and a
grit that pushes a roll (its misses rolled again).

A game app like the four: its engine (``engine.py``, pure Python as each ``rules`` module is), its game
(``game.py``: ``class D6Pool(BaseGame)``), its table (``models.py``, with its migration), its words and
card partials (``templates/games/d6pool/``), installed by one line of settings (``settings.py``: its
tests run with them, ``make test``'s second run). No file outside this folder names it
(``test_installed.py``).
"""
