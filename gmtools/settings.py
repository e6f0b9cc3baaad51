"""Settings for gmtools.

The embedded default is SQLite so that a fresh machine needs nothing else; set
DATABASE_URL-style variables (GMTOOLS_DB_ENGINE=postgresql, GMTOOLS_DB_NAME, ...) to run on
PostgreSQL with several processes.
"""

import os
from pathlib import Path

from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

# ``make table`` serves the local network (phones at the table): whatever the network reaches runs
# with DEBUG off (no debug pages, no URL lists), and the player link carries the LAN address.
LAN = os.environ.get("GMTOOLS_LAN") == "1"
DEBUG = not LAN and os.environ.get("GMTOOLS_DEBUG", "1") == "1"
SECRET_KEY = os.environ.get("GMTOOLS_SECRET_KEY", "dev-only-insecure-key-change-me")
ALLOWED_HOSTS = os.environ.get("GMTOOLS_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
# The address phones use for the player link and its QR code, e.g. http://192.168.1.20:8000.
PUBLIC_URL = os.environ.get("GMTOOLS_PUBLIC_URL", "")
if PUBLIC_URL:
    ALLOWED_HOSTS.append(PUBLIC_URL.split("//", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0])

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
    "gmtools",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Serves static/ in every mode (DEBUG on or off) under the ASGI server; see the README.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
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
            ],
        },
    },
]

WSGI_APPLICATION = "gmtools.wsgi.application"
ASGI_APPLICATION = "gmtools.asgi.application"

if os.environ.get("GMTOOLS_DB_ENGINE") == "postgresql":
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": os.environ.get("GMTOOLS_DB_NAME", "test"),
            "USER": os.environ.get("GMTOOLS_DB_USER", "postgres"),
            "HOST": os.environ.get("GMTOOLS_DB_HOST", "127.0.0.1"),
            "PORT": os.environ.get("GMTOOLS_DB_PORT", "5432"),
            # psycopg's pool: each request thread and each live stream's read takes a connection
            # and gives it back, instead of opening a new one every time.
            "OPTIONS": {"pool": {"min_size": 2, "max_size": 20, "timeout": 10}},
        }
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("GMTOOLS_SQLITE_PATH", BASE_DIR / "db.sqlite3"),
            # IMMEDIATE transactions take the write lock up front, so two writers queue
            # instead of one failing with "database is locked" halfway through.
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

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
