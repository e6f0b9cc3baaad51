"""Vampire: The Masquerade 5e at the table: a Django app (``apps.py``); what the table asks of it is ``game.SYSTEM``."""
