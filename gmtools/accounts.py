"""Logins under a flood of wrong ones: a limit per address, and what the password checks may cost.

django-axes counts the failed logins in the database (shared by every worker) and refuses a locked
out login before any password is checked. Its limit is per username *and* address (a stranger
cannot lock the GM out from elsewhere); alone, it let one address try 4 passwords on each of 12
usernames (48 guesses) without any lockout. ``LockoutHandler`` adds a higher limit per address,
whatever the usernames.

Each password check hashes (PBKDF2: 0.4 s of CPU here), a failed one for a username that does not
exist too (Django hashes anyway, so that the time taken does not tell which names exist): 20 logins
at once took both cores and slowed every other request about 20 times. ``LoginBackend`` runs
``PASSWORD_CHECKS`` of them at once per process; the others wait for their turn, and django-axes
looks at each again when it comes, so the rest of a flood locked out meanwhile is refused without
hashing.
"""

from __future__ import annotations

import threading
from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.backends import AxesBackend, AxesStandaloneBackend
from axes.conf import settings
from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connection
from django.db.models import Sum
from django.http import HttpRequest

# Failed logins from one address, any usernames, before it is locked out for AXES_COOLOFF_TIME:
# higher than the per-username limit (AXES_FAILURE_LIMIT, 5), as several people may share an
# address (a club's Wi-Fi; clients behind a proxy not named to ``gmtools.serve --proxy``).
ADDRESS_FAILURE_LIMIT = 20

PASSWORD_CHECKS = 1  # at once per process: the other core stays free for the table
_checks = threading.BoundedSemaphore(PASSWORD_CHECKS)


class LockoutHandler(AxesDatabaseHandler):
    """django-axes's database handler, with the limit per address beside its own (settings.AXES_HANDLER)."""

    def get_failures(self, request: HttpRequest, credentials: dict | None = None) -> int:
        """The failures that count, in units of AXES_FAILURE_LIMIT, which django-axes compares them
        with: the username's from this address, or the address's scaled to that limit
        (``failures * 5 // 20`` reaches 5 exactly when failures reach 20)."""
        by_username = super().get_failures(request, credentials)
        by_address = AccessAttempt.objects.filter(
            ip_address=request.axes_ip_address, attempt_time__gte=get_cool_off_threshold(request),
        ).aggregate(failures=Sum("failures_since_start"))["failures"] or 0
        return max(by_username, by_address * settings.AXES_FAILURE_LIMIT // ADDRESS_FAILURE_LIMIT)


class LoginBackend(AxesBackend):
    """django-axes's backend and Django's model backend in one (settings.AUTHENTICATION_BACKENDS),
    the lockout looked at and the password checked in one turn (``PASSWORD_CHECKS``)."""

    def authenticate(self, request: HttpRequest | None, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> AbstractBaseUser | None:
        # A login waiting for its turn must hold no database connection: twenty of them would hold
        # PostgreSQL's whole pool (settings.DATABASES) and every other request would wait for one.
        if not connection.in_atomic_block:
            connection.close()
        with _checks:
            AxesStandaloneBackend.authenticate(self, request, username, password, **kwargs)  # raises if locked out
            return ModelBackend.authenticate(self, request, username, password, **kwargs)
