"""Each roll of a campaign posted to its Discord channel through a webhook (issue 25).

``outbox`` is what a write touches (the wake-up of the worker, nothing else: it is imported by
``gmtools.live.announce``, which writes the outbox row in the roll's transaction); ``messages`` says
an entry and a recap in Discord's shapes, from the words the card and the recap already use;
``posting`` talks to Discord (httpx); ``worker`` drains the outbox in order per campaign, with
backoff and Discord's rate limits, and keeps the link's health; ``views`` the GM's settings, the
health line and the recap's button. Nothing here is imported by a request that rolls but ``outbox``.
"""
