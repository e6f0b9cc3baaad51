"""Settings for gmtools.

The embedded default is SQLite so that a fresh machine needs nothing else; set ``DATABASE_URL``
(``postgres://user@host:5432/name``) to run on PostgreSQL with several processes.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent



def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def _list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# ``make table`` serves the local network (phones at the table): whatever the network reaches runs
# with DEBUG off (no debug pages, no URL lists), and the player link carries the LAN address.
LAN = _flag("GMTOOLS_LAN")
# Off unless asked for: ``make run`` (the GM's own laptop, loopback only) asks with DEBUG=1.
DEBUG = _flag("DEBUG") and not LAN
# The development key is public (it is in this file): a server started with DEBUG off refuses it
# (gmtools/startup.py); ``make table`` keeps a key of its own, ``make serve`` needs SECRET_KEY.
DEVELOPMENT_SECRET_KEY = "dev-only-insecure-key-change-me"
SECRET_KEY = os.environ.get("SECRET_KEY") or DEVELOPMENT_SECRET_KEY
ALLOWED_HOSTS = _list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = _list("CSRF_TRUSTED_ORIGINS")
# The address phones use for the player link and its QR code, e.g. http://192.168.1.20:8000.
PUBLIC_URL = os.environ.get("GMTOOLS_PUBLIC_URL", "")
if PUBLIC_URL:
    ALLOWED_HOSTS.append(PUBLIC_URL.split("//", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0])

# Behind a reverse proxy that speaks HTTPS (a club's server: README, "Production"), HTTPS=1 tells
# browsers to come back over HTTPS only (HSTS, secure cookies) and trusts the proxy's
# X-Forwarded-Proto to say a request came over it. The local network (``make table``) is plain HTTP.
HTTPS = _flag("HTTPS")
SECURE_SSL_REDIRECT = HTTPS
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS else None
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = 365 * 24 * 3600 if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
# Django's Content Security Policy: everything from this site, nothing inline (no <script> or
# style="" in our markup: static/ holds it all), no frames, no plugins. Bootstrap draws its form
# controls' arrows and ticks as data: SVG images.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
# The page sends its CSRF token from the markup (base.html's hx-headers), never from the cookie.
CSRF_COOKIE_HTTPONLY = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "crispy_forms",
    "crispy_bootstrap5",
    "axes",
    "gmtools",
    # The games the table plays, each an app of its own (gmtools.games.base.apps.GameConfig), in the
    # order the home page offers them: a fifth game is its folder and one line here (README, "Adding a game").
    "gmtools.games.exalted",
    "gmtools.games.v5",
    "gmtools.games.fate",
    "gmtools.games.scifi",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # Serves static/ in every mode (DEBUG on or off) under the ASGI server; see the README.
    "gmtools.staticfiles.StaticFilesMiddleware",  # WhiteNoise, async-capable
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The campaign's time zone for its requests: every time shown reads in it (gmtools.zones).
    "gmtools.zones.CampaignTimeZone",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it answers a locked-out login with registration/locked_out.html.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "gmtools.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "gmtools.links.on_player_link",
            ],
        },
    },
]

WSGI_APPLICATION = "gmtools.wsgi.application"
ASGI_APPLICATION = "gmtools.asgi.application"

# One URL says where the database is (dj-database-url reads it, as every host's panel writes it);
# without one, SQLite beside the code. What each engine needs on top is set here, not in the URL.
DATABASES = {
    "default": dj_database_url.parse(os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # psycopg's pool: each request thread and each live stream's read takes a connection and
    # gives it back, instead of opening a new one every time (so no persistent connections).
    DATABASES["default"]["OPTIONS"] = {"pool": {"min_size": 2, "max_size": 20, "timeout": 10}}
    DATABASES["default"]["CONN_MAX_AGE"] = 0
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        # IMMEDIATE transactions take the write lock up front, so two writers queue instead of
        # one failing with "database is locked" halfway through; WAL lets the live streams read
        # while a roll is being written.
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL;",
    }

# The caches: "default" (the odds of extended actions, the count of wrong player links) and "live"
# (each change as drawn for the live streams, gmtools.live.reads._drawn_once). In Redis when REDIS_URL is
# set, so that every worker of ``make serve`` shares them; else "default" is in each process's memory
# and "live" holds nothing (one process has no one to share a drawing with, and the drawings would
# crowd the counts out of a small in-memory cache). Their keys hold row ids, so they are prefixed
# with the database's name: two databases sharing one Redis (a test server beside a club's) never
# read each other's entries. While Redis does not answer (at start or later), each process falls
# back to what it uses without REDIS_URL ("fallback"), with a warning, instead of answering 500
# (gmtools.shared_cache); short socket timeouts, so that a Redis gone silent costs a request 1-2 s
# once, not Redis's default 5 s each time.
if os.environ.get("REDIS_URL"):
    _REDIS = {"BACKEND": "gmtools.shared_cache.SharedCache", "LOCATION": os.environ["REDIS_URL"],
              "KEY_PREFIX": str(DATABASES["default"]["NAME"]),
              "OPTIONS": {"pool_class": "gmtools.redis_pool.SharedConnectionPool",  # see that module
                          "socket_connect_timeout": 1, "socket_timeout": 2}}
    CACHES = {"default": {**_REDIS, "OPTIONS": {**_REDIS["OPTIONS"], "fallback": "memory"}},
              "live": {**_REDIS, "OPTIONS": {**_REDIS["OPTIONS"], "fallback": "none"}}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
              "live": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}

# Server errors (django.request: each 500 with its traceback) and gmtools' own messages (Redis gone,
# the change listener reconnecting) go to stderr in every mode: with DEBUG off Django's default
# sends them only to the admins' mail, which nothing configures, so 500s left no trace anywhere.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "loggers": {
        "django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
        "gmtools": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

# Guessing passwords: django-axes counts failed logins in the database (shared by every worker) and
# locks a username out from the address that failed, for a while; the right password during the
# lockout opens nothing. By username *and* address, so a stranger cannot lock the GM out; and an
# address that fails ADDRESS_FAILURE_LIMIT times, whatever the usernames, is locked out too
# (gmtools.accounts, which also bounds what a flood of password checks costs).
AUTHENTICATION_BACKENDS = ["gmtools.accounts.LoginBackend"]
AXES_HANDLER = "gmtools.accounts.LockoutHandler"
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# A login refused during a lockout is not recorded: a flood that goes on costs no database write
# (a row per new username), and the lockout still ends 15 minutes after the last failure it counted.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("es", _("Spanish"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# Straight from static/ and the apps, so a fresh checkout serves without collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# Where gmtools.discord sends a campaign's webhook posts: the stored URL is Discord's (validated), its
# id and token go to this base. The tests point it at a local server that answers as Discord does.
DISCORD_API_BASE = os.environ.get("DISCORD_API_BASE", "https://discord.com/api/v10")
